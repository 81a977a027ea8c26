"""`cbrig rfid listen`: one line per card presented or removed and per rejected frame.

The wiring check: run it, tap a card, and see its number (the number printed on most
125 kHz cards) or the reason a frame was refused. The reader type, port and baud come
from the config (``--config``), each overridable; a port that will not open is said at
once and the command exits 1.
"""

from __future__ import annotations

import argparse
import queue
import sys
import time

from hardware.events import CardPresented, CardRemoved, FrameRejected, ReaderStatus
from rig.commands._config import EXIT_CONFIG, add_config_argument, command_config
from rig.owner.readercheck import (
    add_reader_arguments,
    connected,
    lacks_reader,
    open_reader,
    reader_settings,
)
from rig.safetext import safe_print


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    listen = sub.add_parser("listen", help="print card events until Ctrl-C",
                            description="Print each card presented or removed, and each "
                                        "refused frame, until Ctrl-C.")
    add_config_argument(listen)
    add_reader_arguments(listen)
    listen.add_argument("--count", type=int, default=None, metavar="N",
                        help="stop after N card events (presented, removed, rejected)")
    listen.add_argument("--seconds", type=float, default=None, metavar="S",
                        help="stop after S seconds")


def describe(event: object) -> str | None:
    if isinstance(event, CardPresented):
        return f"presented {event.tag}"
    if isinstance(event, CardRemoved):
        return f"removed   {event.tag}"
    if isinstance(event, FrameRejected):
        times = f" (x{event.count})" if event.count > 1 else ""
        return f"rejected  {event.reason}{times}"
    if isinstance(event, ReaderStatus):
        return f"reader    {event.message}"
    return None


def run(args: argparse.Namespace) -> int:
    config = command_config(args.config, "rfid")
    if lacks_reader(config, args, "rfid"):
        return EXIT_CONFIG
    settings = reader_settings(config.reader, args)
    events: queue.Queue[object] = queue.Queue()
    reader = open_reader(settings, events.put, name="rfid")
    reader.start()
    try:
        status = connected(events, settings, "rfid")
        if status is None:
            return 1  # said why, and never claimed to be listening
        safe_print(f"listening on {settings.port} ({settings.type}, {settings.baud} baud); "
                   "Ctrl-C to stop")
        print(describe(status), flush=True)
        return _listen(events, args)
    finally:
        reader.stop()


def _listen(events: queue.Queue[object], args: argparse.Namespace) -> int:
    """Print events until the count, the time, or Ctrl-C; 1 if the reader was lost."""
    deadline = None if args.seconds is None else time.monotonic() + args.seconds
    seen = 0
    lost = False
    try:
        while args.count is None or seen < args.count:
            timeout = None if deadline is None else deadline - time.monotonic()
            if timeout is not None and timeout <= 0:
                break
            try:
                event = events.get(timeout=timeout)
            except queue.Empty:
                break
            line = describe(event)
            if line:
                print(line, flush=True)
            if isinstance(event, ReaderStatus):
                lost = lost or not event.connected
            elif line:
                seen += 1
    except KeyboardInterrupt:
        pass
    if lost:
        print("cbrig rfid: the reader was lost during the run", file=sys.stderr)
        return 1
    return 0 if seen or args.count is None else 1
