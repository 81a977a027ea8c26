"""Injected time: clocks that tests can drive without sleeping.

``Clock`` is any ``() -> float`` in seconds (``time.monotonic`` in production);
``FakeClock`` is one a test sets. There are no timers here: the rig's loop and the
knobs' :class:`~hardware.gestureclock.GestureClock` each wait for their own next deadline.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

Clock = Callable[[], float]


class FakeClock:
    """Time that moves only when told, the one fake clock of the tests and the emulated
    rig (scripts ``wait``, tests never sleep): ``clock()`` returns ``now``; ``advance``,
    ``set`` and assigning ``now`` are thread-safe."""

    def __init__(self, start: float = 1000.0) -> None:
        self._now = start
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return self._now

    @property
    def now(self) -> float:
        return self()

    @now.setter
    def now(self, value: float) -> None:
        self.set(value)

    def advance(self, seconds: float) -> float:
        with self._lock:
            self._now += seconds
            return self._now

    def set(self, now: float) -> None:
        with self._lock:
            self._now = now


__all__ = ["Clock", "FakeClock"]
