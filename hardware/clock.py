"""Injected time: clocks and timers that tests can drive without sleeping.

``Clock`` is any ``() -> float`` in seconds (``time.monotonic`` in production).
``Scheduler`` runs a callback later; ``ThreadScheduler`` uses ``threading.Timer`` on a
real rig, ``ManualScheduler`` runs callbacks only when a test (or a headless emulator
script) advances its ``FakeClock``.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from collections.abc import Callable
from typing import Protocol

Clock = Callable[[], float]


class Cancellable(Protocol):
    def cancel(self) -> None: ...


class Scheduler(Protocol):
    """Runs ``fn`` once, ``delay`` seconds from now, unless cancelled."""

    def call_later(self, delay: float, fn: Callable[[], None]) -> Cancellable: ...


class ThreadScheduler:
    """Real timers (daemon ``threading.Timer``); callbacks run on the timer thread."""

    def call_later(self, delay: float, fn: Callable[[], None]) -> Cancellable:
        timer = threading.Timer(max(0.0, delay), fn)
        timer.daemon = True
        timer.start()
        return timer


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


class _Handle:
    __slots__ = ("cancelled",)

    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualScheduler:
    """Timers over a ``FakeClock``: ``advance(dt)`` moves time and fires due callbacks
    in time order (each at its own due time), so tests never sleep."""

    def __init__(self, clock: FakeClock | None = None) -> None:
        self.clock = clock if clock is not None else FakeClock()
        self._queue: list[tuple[float, int, _Handle, Callable[[], None]]] = []
        self._seq = itertools.count()

    def call_later(self, delay: float, fn: Callable[[], None]) -> Cancellable:
        handle = _Handle()
        due = self.clock() + max(0.0, delay)
        heapq.heappush(self._queue, (due, next(self._seq), handle, fn))
        return handle

    @property
    def pending(self) -> int:
        return sum(1 for _, _, h, _ in self._queue if not h.cancelled)

    def advance(self, seconds: float) -> None:
        end = self.clock() + seconds
        while self._queue and self._queue[0][0] <= end:
            due, _, handle, fn = heapq.heappop(self._queue)
            if handle.cancelled:
                continue
            if due > self.clock():
                self.clock.set(due)
            fn()
        self.clock.set(max(end, self.clock()))


def monotonic() -> float:
    return time.monotonic()


__all__ = [
    "Cancellable",
    "Clock",
    "FakeClock",
    "ManualScheduler",
    "Scheduler",
    "ThreadScheduler",
    "monotonic",
]
