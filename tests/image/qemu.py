"""A Raspberry Pi 3 B in QEMU (`qemu-system-aarch64 -M raspi3b`), booted from a card image.

The kernel, initramfs and device tree are the card's own (copied off its FAT partition);
the command line is the card's cmdline.txt with the console on the first serial port
(the PL011, ttyAMA0: on a real Pi that is Bluetooth's, so the card itself never names
it) and journald's messages forwarded to it. The second serial port is the mini UART,
ttyS1: the header UART the RFID reader is wired to; the test is the reader there,
through a Unix socket. Pulling the plug is SIGKILL: nothing is flushed or shut down.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

from hardware.rfid.rdm6300 import encode_frame
from tests.image import card as cardfs
from tests.slowdown import hang, scaled

KERNEL, INITRD, DTB = "vmlinuz", "initrd.img", "bcm2837-rpi-3-b.dtb"
ACCEL = ("-accel", "tcg,thread=single")
"""One host thread runs the Pi's four cores in turn (QEMU's default for raspi3b is one
thread per core, MTTCG): in CI the boot shares two cores with the rest of the suite and
the arm64 job, and four busy threads would take most of both while the boot gains
little from them (systemd and the rig start one after the other)."""
READER_FRAME_INTERVAL = 0.1
"""How often an RDM6300 repeats its frame while a card rests on it (about 10 a second)."""


class Pi:
    def __init__(self, qemu: str, card: Path, workdir: Path) -> None:
        self.qemu = qemu
        self.card = card
        self.workdir = workdir
        self.kernel = cardfs.fat_get(card, KERNEL, workdir / KERNEL)
        self.initrd = cardfs.fat_get(card, INITRD, workdir / INITRD)
        self.dtb = cardfs.fat_get(card, DTB, workdir / DTB)
        self.cmdline = cardfs.fat_read(card, "cmdline.txt").decode().strip()
        self.process: subprocess.Popen[bytes] | None = None
        self.console = ""
        self.boots = 0
        self._changed = threading.Condition()
        self._reader: socket.socket | None = None
        self.log: Path | None = None

    def append(self) -> str:
        return (f"{self.cmdline} console=ttyAMA0,115200 loglevel=6 systemd.show_status=1 "
                "systemd.journald.forward_to_console=1")

    def power_on(self) -> None:
        assert self.process is None, "already on"
        self.boots += 1
        self.console = ""
        self.log = self.workdir / f"console-{self.boots}.log"
        reader = self.workdir / f"reader-{self.boots}.sock"
        command = [self.qemu, "-M", "raspi3b", "-m", "1G", *ACCEL, "-kernel", str(self.kernel),
                   "-dtb", str(self.dtb), "-initrd", str(self.initrd),
                   "-append", self.append(),
                   "-drive", f"file={self.card},if=sd,format=raw",
                   "-serial", "stdio", "-serial", f"unix:{reader},server=on,wait=off",
                   "-nographic", "-monitor", "none", "-no-reboot"]
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        threading.Thread(target=self._pump, args=(self.process, self.log), daemon=True).start()
        deadline = time.monotonic() + scaled(60)
        while self._reader is None:
            try:
                sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                sock.connect(str(reader))
                self._reader = sock
            except (FileNotFoundError, ConnectionRefusedError):
                sock.close()
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"QEMU did not open the reader's serial port "
                                         f"{reader}:\n{self.console[-3000:]}") from None
                with self._changed:  # QEMU creates the socket before its first output
                    self._changed.wait(0.2)  # not a hang deadline: a poll

    def _pump(self, process: subprocess.Popen[bytes], log: Path) -> None:
        assert process.stdout is not None
        with open(log, "ab") as out:
            while chunk := process.stdout.read1(4096):
                out.write(chunk)
                out.flush()
                text = chunk.decode(errors="replace").replace("\r", "")
                with self._changed:
                    self.console += text
                    self._changed.notify_all()
        with self._changed:
            self._changed.notify_all()

    def wait_for(self, pattern: str, seconds: float, what: str, since: int = 0) -> re.Match[str]:
        """The first match of `pattern` on the console (after offset `since`); fails
        after `seconds` (scaled: a deadline against hangs only), or when QEMU stops."""
        regex = re.compile(pattern, re.M)
        deadline = time.monotonic() + scaled(seconds)
        with self._changed:
            while True:
                found = regex.search(self.console, since)
                if found:
                    return found
                left = deadline - time.monotonic()
                stopped = self.process is None or self.process.poll() is not None
                if left <= 0 or stopped:
                    raise AssertionError(
                        f"{what}: not on the console ({'QEMU stopped' if stopped else 'timed out'}"
                        f" after boot {self.boots}; /{pattern}/); its end:\n"
                        f"{self.console[-4000:]}\n(all of it: {self.log})")
                self._changed.wait(min(left, 5))

    def hold_card(self, number: int, until: str, seconds: float, what: str) -> re.Match[str]:
        """Tap a card on the reader (its frame repeated while it rests there), again and
        again, until the console shows `until`."""
        assert self._reader is not None
        frame = encode_frame(number)
        regex = re.compile(until, re.M)
        start = len(self.console)
        deadline = time.monotonic() + scaled(seconds)
        began = time.monotonic()
        while True:
            # a tap: a second on the reader, then lifted for 0.8 s (longer than the rig's
            # removal_ms, 400), so the next tap is a new CardPresented (a first one may only
            # dismiss a screen)
            if (time.monotonic() - began) % 1.8 < 1.0:
                # never blocks: a guest that does not read its UART (QEMU's FIFO full)
                # must end at the deadline, not hang the test; the frame is lost, as a
                # real reader's unread frames are
                with contextlib.suppress(BlockingIOError):
                    self._reader.send(frame, socket.MSG_DONTWAIT)
            with self._changed:
                found = regex.search(self.console, start)
                if found:
                    return found
                if time.monotonic() > deadline or self.process is None \
                        or self.process.poll() is not None:
                    raise AssertionError(f"{what}: the card was held, /{until}/ never came:\n"
                                         f"{self.console[-4000:]}\n(all of it: {self.log})")
                self._changed.wait(READER_FRAME_INTERVAL)  # not a hang deadline: frame pace

    def power_cut(self) -> None:
        """Pull the plug: SIGKILL, nothing flushed."""
        if self.process is None:
            return
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=hang())
        if self._reader is not None:
            self._reader.close()
            self._reader = None
        self.process = None
