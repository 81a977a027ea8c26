"""Progress lines on stderr while the bench runs (a full run takes minutes).

Off unless the runner turns them on, so a section measured on its own (tests,
`python -m bench.latency`) stays quiet; stderr keeps `--json` output on stdout clean.
"""

from __future__ import annotations

import sys
import time

_started: float | None = None


def start() -> None:
    """Print from now on, with the seconds since this call."""
    global _started
    _started = time.perf_counter()


def stop() -> None:
    global _started
    _started = None


def say(text: str) -> None:
    """One line, `bench [  12.3 s] text`, if the runner asked for them."""
    if _started is None:
        return
    print(f"bench [{time.perf_counter() - _started:6.1f} s] {text}", file=sys.stderr,
          flush=True)
