"""Injected time: clocks that tests can drive without sleeping.

``Clock`` is any ``() -> float`` in seconds (``time.monotonic`` in production);
``FakeClock`` is one a test sets. There are no timers here: the rig's loop and the
knobs' :class:`~hardware.gestureclock.GestureClock` each wait for their own next deadline.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

Clock = Callable[[], float]


class FakeClock:
    """A settable clock: ``clock()`` returns ``now``; thread-safe ``advance``."""

    def __init__(self, start: float = 1000.0) -> None:
        self._now = start
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> float:
        with self._lock:
            self._now += seconds
            return self._now

    def set(self, now: float) -> None:
        with self._lock:
            self._now = now


def monotonic() -> float:
    return time.monotonic()


__all__ = ["Clock", "FakeClock", "monotonic"]
