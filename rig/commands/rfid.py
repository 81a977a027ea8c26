"""`cbrig rfid listen`: one line per card presented or removed and per rejected frame.

The wiring check: run it, tap a card, and see its number (the number printed on most
125 kHz cards) or the reason a frame was refused.
"""

from __future__ import annotations

import argparse
import queue
import time

from hardware.events import CardPresented, CardRemoved, FrameRejected, ReaderStatus


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", required=True)
    listen = sub.add_parser("listen", help="print card events until Ctrl-C")
    listen.add_argument("--reader", choices=["rdm6300", "pn532"], default="rdm6300")
    listen.add_argument("--port", default="/dev/serial0")
    listen.add_argument("--count", type=int, default=None,
                        help="stop after N card events (presented, removed, rejected)")
    listen.add_argument("--seconds", type=float, default=None, help="stop after S seconds")


def describe(event: object) -> str | None:
    if isinstance(event, CardPresented):
        return f"presented {event.tag}"
    if isinstance(event, CardRemoved):
        return f"removed   {event.tag}"
    if isinstance(event, FrameRejected):
        return f"rejected  {event.reason}"
    if isinstance(event, ReaderStatus):
        return f"{'connected' if event.connected else 'lost     '} {event.message}"
    return None


def run(args: argparse.Namespace) -> int:
    from hardware.devices import make_protocol
    from hardware.rfid.reader import CardReader

    events: queue.Queue[object] = queue.Queue()
    reader = CardReader("rfid", events.put, make_protocol(args.reader), url=args.port)
    deadline = None if args.seconds is None else time.monotonic() + args.seconds
    seen = 0
    print(f"listening on {args.port} ({args.reader}); Ctrl-C to stop", flush=True)
    reader.start()
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
            if not isinstance(event, ReaderStatus) and line:
                seen += 1
    except KeyboardInterrupt:
        pass
    finally:
        reader.stop()
    return 0 if seen or args.count is None else 1

