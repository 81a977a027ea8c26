"""The knobs' one clock: raw timestamped inputs in, gestures out, one thread, one timer.

Pin callbacks (gpiozero's backend thread) only stamp what they saw and :meth:`post` it:
a :class:`RawEdge` (both encoder pin levels after one changed) or a :class:`RawButton`.
:class:`GestureClock` is the single consumer: one thread takes the inputs in order,
decodes and classifies them (:class:`~hardware.gesture.KnobGestures`) and otherwise
sleeps in a blocking ``get`` whose timeout is the earliest deadline of any knob (held
turns after the flick window, a long press), or none at all when nothing is pending:
no per-event timers, no locks in the classifier, no wake-ups at rest.

:class:`ManualGestureClock` is the same clock without the thread, over a
:class:`~hardware.clock.FakeClock`: inputs are handled as they are posted and
:meth:`~ManualGestureClock.advance` moves time, so tests never sleep.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from dataclasses import dataclass
from typing import Protocol

from hardware.clock import Clock, FakeClock


@dataclass(frozen=True, slots=True)
class RawEdge:
    """Both encoder pin levels (True = high) just after one of them changed, at ``at``."""

    at: float
    a: bool
    b: bool


@dataclass(frozen=True, slots=True)
class RawButton:
    """The knob's push switch went down (``pressed``) or up, at ``at``."""

    at: float
    pressed: bool


RawInput = RawEdge | RawButton


class Timed(Protocol):
    """Something with deadlines: the clock calls :meth:`due` once the next has passed."""

    def next_deadline(self) -> float | None: ...

    def due(self, now: float) -> None: ...


class RawConsumer(Timed, Protocol):
    """One knob's classifier as the clock drives it."""

    def take(self, raw: RawInput) -> None: ...

    def close(self) -> None: ...


_Item = tuple[RawConsumer, RawInput | None]  # None: that knob is closed


class _Stop:
    """Posted by :meth:`GestureClock.close`: the thread ends."""


_STOP = _Stop()


class GestureClock:
    """One thread for every knob: raw inputs are handled in the order they were posted,
    deadlines (of every knob) in time order, each input after the deadlines before it."""

    def __init__(self, clock: Clock = time.monotonic) -> None:
        self.clock = clock
        self._inputs: queue.SimpleQueue[_Item | _Stop] = queue.SimpleQueue()
        self._timed: set[Timed] = set()
        self._thread: threading.Thread | None = None

    # -- what pin callbacks do ----------------------------------------------------------
    def post(self, consumer: RawConsumer, raw: RawInput) -> None:
        """Thread-safe and quick: the only thing a pin callback does."""
        self._inputs.put((consumer, raw))

    def detach(self, consumer: RawConsumer) -> None:
        """That knob is closed: after the inputs already posted, it sends nothing more."""
        self._inputs.put((consumer, None))

    # -- the consumer -------------------------------------------------------------------
    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="gestures", daemon=True)
            self._thread.start()

    def close(self) -> None:
        """Stop the thread (after the inputs already posted); nothing is sent after."""
        thread, self._thread = self._thread, None
        if thread is not None:
            self._inputs.put(_STOP)
            thread.join(timeout=5.0)
        for timed in list(self._timed):
            close = getattr(timed, "close", None)
            if close is not None:
                close()
        self._timed.clear()

    def _run(self) -> None:
        while True:
            item: _Item | _Stop | None
            try:
                item = self._inputs.get(timeout=self._timeout())
            except queue.Empty:
                item = None  # the wait ran out: a deadline is due
            if isinstance(item, _Stop):
                return
            try:
                if item is None:
                    self._run_due(self.clock())
                else:
                    self._take(item)
            except Exception:  # a failing emit must not leave both knobs dead
                logging.getLogger(__name__).exception("knob input dropped")

    def next_deadline(self) -> float | None:
        """The earliest deadline of any knob; None when nothing is held (the thread then
        blocks until the next input: no wake-ups at rest)."""
        earliest = self._earliest()
        return None if earliest is None else earliest[1]

    def _timeout(self) -> float | None:
        due = self.next_deadline()
        return None if due is None else max(0.0, due - self.clock())

    def _earliest(self) -> tuple[Timed, float] | None:
        found: tuple[Timed, float] | None = None
        for timed in self._timed:
            deadline = timed.next_deadline()
            if deadline is not None and (found is None or deadline < found[1]):
                found = (timed, deadline)
        return found

    def _run_due(self, now: float) -> None:
        """Every deadline up to ``now``, earliest first, each at its own time."""
        while (earliest := self._earliest()) is not None and earliest[1] <= now:
            timed, deadline = earliest
            timed.due(deadline)

    def _take(self, item: _Item) -> None:
        consumer, raw = item
        if raw is None:
            consumer.close()
            self._timed.discard(consumer)
            return
        self._run_due(raw.at)
        self._timed.add(consumer)
        consumer.take(raw)


class ManualGestureClock(GestureClock):
    """The clock without its thread, over a :class:`FakeClock`: a posted input is handled
    at once on the poster's thread, :meth:`advance` sends what falls due. For tests and
    mock pins driven from one thread, never for a real pin backend."""

    def __init__(self, clock: FakeClock | None = None) -> None:
        self.fake = clock if clock is not None else FakeClock()
        super().__init__(self.fake)

    def post(self, consumer: RawConsumer, raw: RawInput) -> None:
        self._take((consumer, raw))

    def detach(self, consumer: RawConsumer) -> None:
        self._take((consumer, None))

    def start(self) -> None:
        """Nothing to start: :meth:`advance` is the clock."""

    def watch(self, timed: Timed) -> None:
        """Drive the deadlines of ``timed`` too (a bare classifier in a test)."""
        self._timed.add(timed)

    def advance(self, seconds: float) -> None:
        """Move time on by ``seconds``, sending each deadline passed at its own time."""
        self._run_due(self.fake.advance(seconds))


__all__ = [
    "GestureClock",
    "ManualGestureClock",
    "RawButton",
    "RawConsumer",
    "RawEdge",
    "RawInput",
    "Timed",
]
