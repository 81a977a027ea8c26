"""The card reader for the terminal commands (`rfid listen`, `cards enroll`): built from
the config's ``[reader]`` (type, port, baud), and checked before anyone is asked to tap,
so a missing or wrong port is said at once instead of a silent wait."""

from __future__ import annotations

import argparse
import os
import queue
import sys
import time
from typing import Any

from hardware.devices import make_protocol
from hardware.events import ReaderStatus
from hardware.rfid.kinds import READERS, reader_kind
from hardware.rfid.reader import CardReader
from rig.config import ReaderConfig, RigConfig
from rig.safetext import safe_print
from valueclass import replace

CONNECT_SECONDS = 5.0
"""How long the first open (and a PN532's handshake) may take before it counts as lost."""


def add_reader_arguments(parser: argparse.ArgumentParser) -> None:
    """--reader, --port and --baud override the config's [reader] for this run."""
    parser.add_argument("--reader", choices=READERS.names(), default=None,
                        help="reader type (default: the config's reader.type)")
    parser.add_argument("--port", default=None,
                        help="serial port (default: the config's reader.port, /dev/serial0)")
    parser.add_argument("--baud", type=int, default=None,
                        help="serial speed (default: the config's reader.baud)")


def reader_settings(reader: ReaderConfig, args: argparse.Namespace) -> ReaderConfig:
    """The config's reader with the command line's overrides; a type given without a
    baud takes that type's own speed."""
    kind = args.reader or reader.type
    baud = args.baud or (reader_kind(kind).baud if args.reader and args.reader != reader.type
                         else reader.baud)
    return replace(reader, type=kind, port=args.port or reader.port, baud=baud)


def open_reader(reader: ReaderConfig, emit: Any, name: str = "check") -> Any:
    """A started-not CardReader for these settings (the caller starts and stops it)."""

    return CardReader(name, emit, make_protocol(reader.type), url=reader.port,
                      baudrate=reader.baud, removal_after=reader.removal_ms / 1000,
                      misses_to_remove=reader.removal_misses)


def wait_for_connection(events: queue.Queue[object], timeout: float = CONNECT_SECONDS,
                        clock: Any = time.monotonic) -> ReaderStatus:
    """The reader's first status: connected, or why not (also when nothing is heard
    within `timeout`). Other events seen meanwhile are put back, in order."""
    deadline = clock() + timeout
    held: list[object] = []
    try:
        while True:
            left = deadline - clock()
            if left <= 0:
                return ReaderStatus("check", False, f"no answer within {timeout:g} s")
            try:
                event = events.get(timeout=left)
            except queue.Empty:
                continue
            if isinstance(event, ReaderStatus):
                return event
            held.append(event)
    finally:
        for event in held:
            events.put(event)


UART_OFF = ("the UART may be off: enable_uart=1 in /boot/firmware/config.txt (on a Pi 5 "
            "also dtparam=uart0=on, and the port /dev/ttyAMA0), as sudo systemd/install.sh "
            "--boot sets it, then reboot; ")


def port_advice(reader: ReaderConfig) -> str:
    """What to check when the port will not open: a port that does not exist at all is
    most often a UART that was never switched on."""

    missing = UART_OFF if "://" not in reader.port and not os.path.exists(reader.port) \
        else ""
    return (f"{missing}check the wiring and [reader] in the config (type {reader.type}, port "
            f"{reader.port}, {reader.baud} baud), that the serial console is off, and that "
            "the service is stopped (sudo systemctl stop cbrig): it holds the port")


def lacks_reader(config: RigConfig, args: argparse.Namespace, command: str) -> bool:
    """True (after saying so) when neither the config nor --reader names a reader."""
    if args.reader is None and config.reader.type == "none":
        safe_print(f"cbrig {command}: {config.source} has no reader ([reader] type = "
                   "\"none\"); name one with --reader", file=sys.stderr)
        return True
    return False


def connected(events: queue.Queue[object], settings: ReaderConfig,
              command: str) -> ReaderStatus | None:
    """The reader's first status if it connected; None after saying why it did not."""
    status = wait_for_connection(events)
    if status.connected:
        return status
    safe_print(f"cbrig {command}: {status.message}", file=sys.stderr)
    safe_print(f"cbrig {command}: {port_advice(settings)}", file=sys.stderr)
    return None
