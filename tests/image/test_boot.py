"""The Raspberry Pi image, built and booted as a Pi 3 B in QEMU (marker `pi_image`).

Part of the README's test command, so CI's x86 job runs it (as root); the emulated ARM
jobs deselect it (.ci/emulated_suite.py). `.ci/run` starts the image's Debian part in
the background before the suite, so the build here finds it in the cache (or waits on
the cache's lock). Alone, as root:

    sudo .venv/bin/python -m pytest -s -p no:cacheprovider tests/image/test_boot.py

The image is built once per session (`rig.maker.image.build`, the code behind `cbrig
image build`; its Debian part comes from the locked cache in $CBRIG_CI_CACHE or
/var/cache/cbrig-ci, like the other root file systems), then:

- its layout is checked from outside (no mount): the partitions, the read-only root and
  boot partition in fstab and cmdline.txt, no console on the reader's UART, the owner
  files and the manifest;
- a copy, padded to a power of two as QEMU's SD card needs, is booted from power twice
  with the card's own kernel, initramfs and device tree (tests/image/qemu.py).
  Boot 1: the owner's config.toml and wifi.txt put on the FAT partition (mcopy) are
  taken, the data partition and its file system grow to the card before they are
  mounted (and stay mounted), systemd reaches cbrig.service READY resuming a game left
  on the data partition (debugfs), RDM6300 frames on the reader's UART (the mini UART,
  ttyS1 = /dev/serial0) are taken as that game's draw and journaled; QEMU is killed (a
  power cut) and the journal read back off the card holds the draw. Between the boots
  the FAT partition gets a broken config.toml and an update wheel whose start fails
  (mtools). Boot 2: the update is installed, its start fails and it is rolled back
  (said in the log), the broken config is reported with its line and the rig starts
  anyway, resuming the game after the draw.

Set CBRIG_TEST_PI_IMAGE to an image built by `cbrig image build --no-xz` to boot that
instead of building (a rerun). Deadlines only end hangs (QEMU's
TCG on a loaded machine is slow; tests/slowdown.py).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from rig.maker.image import disk
from rig.maker.image.build import build
from tests.image import card as cardfs
from tests.image.qemu import Pi
from tests.system_tools import require_commands
from tests.update.test_update_flow import FAILING_START, _build_wheel

pytestmark = pytest.mark.pi_image

TOOLS = {"qemu-system-aarch64": "qemu-system-arm", "debugfs": "e2fsprogs", "e2fsck": "e2fsprogs",
         "mcopy": "mtools", "sfdisk": "fdisk"}
BOOT_SECONDS = 900  # not a hang deadline: Pi.wait_for scales it (a hang deadline there)
"""A boot to READY: a few minutes under TCG on a loaded 2-core machine; a hang ends here."""
SEED = 5
CARD_NUMBER = 3887558
TAG = f"{CARD_NUMBER:010d}"

TEST_CONFIG = """\
# The QEMU test's config (the owner's file on the FAT partition): no knobs, OLED or sound
# in QEMU's raspi3b, so mock pins and screens written as pictures; the reader is real.
[game]
name = "tenfour"
players = 2
levels = ["human", "human"]
hints = false

[pins]
backend = "mock"

[reader]
type = "rdm6300"
port = "/dev/serial0"
cards = "/boot/firmware/cbrig/cards.toml"

[display]
driver = "png"

[voice]
enabled = false
"""
BROKEN_CONFIG = TEST_CONFIG.replace('backend = "mock"', 'backend = "mock"\nhints_for = 3')
"""An unknown field (in [pins]): reported with file and line, never fatal."""
BROKEN_LINE = BROKEN_CONFIG.splitlines().index("hints_for = 3") + 1
WIFI = "# the owner's Wi-Fi\nssid = CbrigTestNet\npassphrase = correct horse\ncountry = GB\n"


@dataclass(frozen=True)
class Built:
    image: Path
    manifest: str
    seconds: float


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    if os.geteuid() != 0:
        pytest.fail("the image build needs root (chroot, file owners, binfmt_misc): run "
                    "the suite as root", pytrace=False)
    require_commands(disk.tools() | TOOLS)
    given = os.environ.get("CBRIG_TEST_PI_IMAGE")
    if given:
        manifest = cardfs.ext_read(Path(given), 2, "/usr/share/cbrig/manifest.txt").decode()
        return Built(Path(given), manifest, 0.0)
    out = tmp_path_factory.mktemp("image") / "cbrig.img"
    started = time.monotonic()
    result = build(out, xz=False, say=lambda line: print(f"image: {line}", flush=True),
                   work_parent=out.parent)
    seconds = time.monotonic() - started
    print(f"image built in {seconds:.0f} s: {result.timings}")
    return Built(out, result.manifest, seconds)


def test_the_card_is_laid_out_for_an_appliance(built: Built, tmp_path: Path) -> None:
    parts = cardfs.partitions(built.image)
    assert [p.type for p in parts] == ["c", "83", "83"]
    assert built.image.stat().st_size <= 1536 * 1024 * 1024, "at most 1.5 GB before growth"
    cmdline = cardfs.fat_read(built.image, "cmdline.txt").decode()
    assert re.search(r"(^| )ro( |$)", cmdline) and "root=PARTUUID=cb12c0de-02" in cmdline
    assert "ttyS1" not in cmdline and "serial" not in cmdline, "no console on the reader's UART"
    config_txt = cardfs.fat_read(built.image, "config.txt").decode()
    assert "enable_uart=1" in config_txt and "dtparam=i2c_arm=on" in config_txt
    for name in ("vmlinuz", "initrd.img", "bcm2837-rpi-3-b.dtb", "bcm2711-rpi-4-b.dtb",
                 "bootcode.bin", "start4.elf", "cbrig/config.toml", "cbrig/wifi.txt",
                 "cbrig/README.txt"):
        assert cardfs.fat_read(built.image, name), name
    fstab = cardfs.ext_read(built.image, 2, "/etc/fstab").decode()
    root_line = next(line for line in fstab.splitlines() if " / " in f" {line} ")
    assert "ro," in root_line
    boot_line = next(line for line in fstab.splitlines() if "/boot/firmware" in line)
    assert " ro," in boot_line
    assert "cbrig-data" in cardfs.debugfs(built.image, 3, "stats")
    passwd = cardfs.ext_read(built.image, 2, "/etc/shadow").decode()
    assert re.search(r"^root:[!*]", passwd, re.M), "root has no password"
    for masked in ("getty@.service", "serial-getty@.service"):
        assert "/dev/null" in cardfs.debugfs(built.image, 2,
                                             f"stat /etc/systemd/system/{masked}")
    manifest = cardfs.ext_read(built.image, 2, "/usr/share/cbrig/manifest.txt").decode()
    assert manifest == built.manifest
    for package in ("raspi-firmware", "linux-image-arm64", "systemd", "python3"):
        assert re.search(rf"^{package} \S+ (arm64|all)$", manifest, re.M), package
    assert re.search(r"^cbrig-\S+\.whl [0-9a-f]{64}$", manifest, re.M)
    shipped = cardfs.fat_read(built.image, "cbrig/config.toml").decode()
    check = subprocess.run([sys.executable, "-c", "from rig.cli import main; "
                            "raise SystemExit(main())", "config", "check",
                            str(cardfs_write(tmp_path / "config.toml", shipped))],
                           capture_output=True, text=True, check=False)
    assert check.returncode == 0, check.stdout + check.stderr


def cardfs_write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


# ------------------------------------------------------------------ the game left
@dataclass(frozen=True)
class GameLeft:
    journal: bytes
    """A game's header and its inputs up to a draw: what a power cut there leaves."""
    inputs: int
    card: str
    """The card the draw after those inputs took (in the whole game played here)."""


def game_before_a_draw(tmp_path: Path) -> GameLeft:
    """A game played out on this machine by the rig itself (mock hardware, autoplay),
    cut before its first draw of a Mike card: the Pi is to take that draw from a card."""
    state = tmp_path / "host-state"
    config = tmp_path / "host.toml"
    config.write_text(TEST_CONFIG.replace('type = "rdm6300"', 'type = "none"')
                      + f'\n[state]\ndirectory = "{state}"\n')
    subprocess.run([sys.executable, "-c", "from rig.cli import main; raise SystemExit(main())",
                    "run", "--config", str(config), "--autoplay", str(SEED)],
                   check=True, capture_output=True)
    (finished,) = (state / "games").glob("*.jsonl")
    lines = finished.read_bytes().splitlines(keepends=True)
    for index, line in enumerate(lines[1:], 1):
        action = json.loads(line)["action"]
        if action["kind"] == "draw":
            return GameLeft(b"".join(lines[:index]), index - 1, action["card"])
    raise AssertionError(f"no draw in {finished}")


# ------------------------------------------------------------------ booted
@pytest.fixture
def pi(built: Built, tmp_path: Path) -> Iterator[Pi]:
    paths = require_commands(TOOLS)
    card = tmp_path / "card.img"
    size = cardfs.pad_to_power_of_two(built.image, card)
    print(f"card {card}: {size // 2**20} MiB")
    machine = Pi(paths["qemu-system-aarch64"], card, tmp_path)
    try:
        yield machine
    finally:
        machine.power_cut()


SLOW_MACHINE = {
    "/etc/systemd/system.conf.d/zz-qemu-slow.conf":
        "[Manager]\nDefaultTimeoutStartSec=30min\n",
    "/etc/systemd/system/cbrig.service.d/zz-qemu-slow.conf":
        "[Service]\nTimeoutStartSec=30min\nWatchdogSec=30min\n",
    "/etc/systemd/system/cbrig-update.service.d/zz-qemu-slow.conf":
        "[Service]\nTimeoutStartSec=45min\n",
    "/etc/systemd/system/cbrig.service.d/zz-qemu-mini-uart.conf":
        "[Service]\nExecStartPost=-/bin/sh -c 'echo > /dev/serial0'\n",
}
"""The test's only changes to the card's system, both for QEMU, not for a Pi.

Deadlines: systemd's start deadlines (90 s, and cbrig.service's 90 s start and 30 s
watchdog, cbrig-update.service's 15 min to install an update) are sized for a Pi; QEMU's
TCG on a loaded 2-core machine runs the same boot 10 to 50 times slower. Hangs still end
(the test's own deadlines).

The mini UART: QEMU's model of it (hw/char/bcm2835_aux.c, 7.2) does not implement the
divisor latch ("DLAB ... is NYI"), so when Linux's 8250 driver sets the baud rate its
divisor's high byte lands in the interrupt-enable register: at 9600 baud 0x14, which
turns the receive interrupt off (and the low byte, 0x58, goes out as an 'X'). The
driver writes the register again only when it starts sending, so a port just opened and
configured (the rig's reader) never hears a byte in QEMU. One byte sent on the port
after the rig opened it (ExecStartPost, after READY) puts the enable back. On a Pi the
mini UART has the latch and needs nothing; the image is unchanged."""
MINI_UART_QUIRK = "/etc/systemd/system/cbrig.service.d/zz-qemu-mini-uart.conf"
FAILING_UPDATE = "0.9.0"
LOST_MOUNT = re.compile(r"Unmount(ing|ed) .*(/data|/var/lib/cbrig|/var/log)|"
                        r"Stopp(ing|ed) .*growfs", re.M)
"""What systemd says when it drops the data partition's mounts under the running rig
(what growing the mounted partition did before)."""


def prepare_card(card: Path, left: GameLeft, tmp_path: Path) -> None:
    """The card as the owner and the test leave it before the first power-on."""
    uid, gid = cbrig_ids(card)
    for path, text in SLOW_MACHINE.items():
        cardfs.debugfs(card, 2, f"mkdir {path.rsplit('/', 1)[0]}", write=True)
        cardfs.ext_write(card, 2, path, text.encode(), tmp_path, 0, 0, 0o644)
    cardfs.ext_write(card, 3, "/cbrig/current.jsonl", left.journal, tmp_path, uid, gid, 0o600)
    cardfs.fat_put(card, "cbrig/config.toml", TEST_CONFIG.encode(), tmp_path)
    cardfs.fat_put(card, "cbrig/wifi.txt", WIFI.encode(), tmp_path)
    cardfs.fat_put(card, "cbrig/cards.toml",
                   f'[tags]\n"{TAG}" = "{left.card}"\n'.encode(), tmp_path)


def data_fs_sectors(filesystem: Path) -> int:
    stats = cardfs.debugfs(filesystem, 0, "stats")
    blocks = int(re.search(r"^Block count:\s+(\d+)", stats, re.M).group(1))  # type: ignore[union-attr]
    block_size = int(re.search(r"^Block size:\s+(\d+)", stats, re.M).group(1))  # type: ignore[union-attr]
    return blocks * block_size // 512


def test_a_pi_boots_takes_a_card_survives_a_power_cut_and_rolls_back(
        pi: Pi, built: Built, tmp_path: Path) -> None:
    card = pi.card
    left = game_before_a_draw(tmp_path)
    small = cardfs.partition(card, 3)
    prepare_card(card, left, tmp_path)
    failing = _build_wheel(tmp_path / "update", FAILING_UPDATE, FAILING_START)
    timings: dict[str, float] = {}

    # power on: first boot
    started = time.monotonic()
    pi.power_on()
    grew = pi.wait_for(r"grow-data: partition 3 of \S+ now ends at the card's end "
                       r"\((\d+) sectors\)", BOOT_SECONDS, "the data partition grown")
    assert int(grew.group(1)) * 512 > 4 * small.size, "grown to the card"
    pi.wait_for(r"grow-data: the file system on \S+ now fills it", BOOT_SECONDS,
                "the data file system grown before it is mounted")
    pi.wait_for(r"wifi\.txt: Wi-Fi network 'CbrigTestNet', country GB", BOOT_SECONDS,
                "wifi.txt taken")
    resumed = pi.wait_for(r"resumed /var/lib/cbrig/current\.jsonl at input (\d+)",
                          BOOT_SECONDS, "the game left on the card resumed")
    assert int(resumed.group(1)) == left.inputs
    pi.wait_for(r"hardware started: pins \(mock\)", BOOT_SECONDS, "the card's config taken")
    pi.wait_for(r"reader deck: connected on /dev/serial0", BOOT_SECONDS, "the reader's UART")
    pi.wait_for(r"rig up: ", BOOT_SECONDS, "READY")
    ready = pi.wait_for(r"Started cbrig\.service|Started .*cb-rig board game rig",
                        BOOT_SECONDS, "systemd: cbrig.service started (READY=1)")
    timings["boot 1 to READY"] = time.monotonic() - started
    print(f"boot 1: READY after {timings['boot 1 to READY']:.0f} s:\n"
          + pi.console[max(0, ready.start() - 3000):ready.end()])

    # a card tapped on the reader: the draw the game waits for
    draw = left.inputs + 1
    tapped = pi.hold_card(CARD_NUMBER, rf"input {draw} saved: Draw\(card='{left.card}'\)",
                          300, "the card tap taken")
    print(f"card tap taken: {tapped.group(0)}")
    lost = LOST_MOUNT.search(pi.console)
    assert lost is None, f"the data partition's mounts dropped: {lost.group(0)}"
    pi.power_cut()

    replayed = cardfs.after_power_cut(card, 3, tmp_path)
    journal = cardfs.ext_read(replayed, 0, "/cbrig/current.jsonl").rstrip(b"\0")
    last = json.loads(journal.splitlines()[-1])
    assert last == {"seq": draw, "action": {"kind": "draw", "card": left.card}}
    grown = cardfs.partition(card, 3)
    assert grown.start + grown.size > card.stat().st_size - 2**20, "partition 3 to the end"
    assert data_fs_sectors(replayed) * 512 >= grown.size - 4 * 2**20, "the file system fills it"
    replayed.unlink()

    # between the boots, on the FAT partition (mtools): the owner's config broken, and an
    # update whose start fails
    cardfs.fat_put(card, "cbrig/config.toml", BROKEN_CONFIG.encode(), tmp_path)
    cardfs.fat_put(card, f"cbrig/updates/{failing.name}", failing.read_bytes(), tmp_path)

    # power on again: the update is taken, fails its start and is rolled back; the
    # broken config is reported; the rig starts and resumes the game after the draw
    started = time.monotonic()
    pi.power_on()
    pi.wait_for(r"grow-data: \S+ already reaches the end of \S+", BOOT_SECONDS,
                "the data partition left as grown")
    pi.wait_for(rf"Updated to {FAILING_UPDATE} \(was ", BOOT_SECONDS,
                "the update on the boot partition installed")
    rolled = pi.wait_for(rf"Update {FAILING_UPDATE} failed: back on (\S+)\.", BOOT_SECONDS,
                         "the failed update rolled back")
    pi.wait_for(rf"config\.toml:{BROKEN_LINE}: pins\.hints_for: unknown field", BOOT_SECONDS,
                "the broken config reported with its line")
    again = pi.wait_for(r"resumed /var/lib/cbrig/current\.jsonl at input (\d+)",
                        BOOT_SECONDS, "the game resumed after the power cut", rolled.end())
    assert int(again.group(1)) == draw
    up = pi.wait_for(r"rig up: ", BOOT_SECONDS, "READY after the rollback", again.end())
    timings["boot 2 to READY"] = time.monotonic() - started
    lost = LOST_MOUNT.search(pi.console)
    assert lost is None, f"the data partition's mounts dropped: {lost.group(0)}"
    print(f"boot 2: READY on {rolled.group(1)} after {timings['boot 2 to READY']:.0f} s:\n"
          + pi.console[max(0, rolled.start() - 2000):up.end() + 500])
    pi.power_cut()
    print(f"image built in {built.seconds:.0f} s; {timings}")


def cbrig_ids(card: Path) -> tuple[int, int]:
    passwd = cardfs.ext_read(card, 2, "/etc/passwd").decode()
    fields = next(line for line in passwd.splitlines() if line.startswith("cbrig:")).split(":")
    return int(fields[2]), int(fields[3])
