"""Progress lines on stderr while the bench runs (a full run takes minutes).

Off unless the command turns them on, which it does on a terminal and not with
``--json``, so a section measured on its own (tests, `python -m bench.latency`), a
script reading the report or a log stays quiet. :func:`say` marks a milestone;
:func:`tick`, called from inner loops (every game, every input), prints only when
nothing was printed for :data:`QUIET_SECONDS`, so no stretch of the run is silent for
longer, at the cost of one clock read a call.
"""

from __future__ import annotations

import sys
import time

_started: float | None = None
_last = 0.0
QUIET_SECONDS = 2.0
"""The longest a running bench stays silent between lines (give or take one step of
the loop that ticks)."""


def start() -> None:
    """Print from now on, with the seconds since this call."""
    global _started
    _started = time.perf_counter()


def stop() -> None:
    global _started
    _started = None


def on() -> bool:
    return _started is not None


def say(text: str) -> None:
    """One line, `bench [  12.3 s] text`, if the runner asked for them."""
    global _last
    if _started is None:
        return
    _last = time.perf_counter()
    print(f"bench [{_last - _started:6.1f} s] {text}", file=sys.stderr, flush=True)


def tick(text: str, *args: object) -> None:
    """`text % args` (formatted only when printed) if nothing was printed for
    QUIET_SECONDS."""
    if _started is None or time.perf_counter() - _last < QUIET_SECONDS:
        return
    say(text % args if args else text)
