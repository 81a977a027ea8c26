"""The knobs' one clock: raw timestamped inputs in, gestures out, one consumer.

Pin callbacks (gpiozero's backend thread) only stamp what they saw and :meth:`post` it:
a :class:`RawEdge` (both encoder pin levels after one changed) or a :class:`RawButton`,
wrapped in a :class:`KnobInput`. One consumer takes the inputs in order, decodes and
classifies them (:class:`~hardware.gesture.KnobGestures`, via :meth:`GestureClock.take`)
and runs the knobs' deadlines (held turns after the flick window, a long press:
:meth:`~GestureClock.next_deadline`, :meth:`~GestureClock.run_due`): no per-event
timers, no locks in the classifier, no wake-ups at rest.

The consumer is the rig's event loop when the clock is given an ``inbox`` (the loop's
``post``: inputs then queue with every other event and the loop waits for the knobs'
next deadline with its own, one clock for the whole rig), or else the clock's own
thread, which blocks in one ``get`` whose timeout is that deadline (``cbrig selftest``,
a lone :class:`~hardware.knob.Knob`).

:class:`ManualGestureClock` is the same clock without the thread, over a
:class:`~hardware.clock.FakeClock`: inputs are handled as they are posted and
:meth:`~ManualGestureClock.advance` moves time, so tests never sleep.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Protocol

from hardware.clock import Clock, FakeClock
from valueclass import Frozen, set_field


class RawEdge(Frozen):
    """Both encoder pin levels (True = high) just after one of them changed, at ``at``.
    (This and the other inputs: :class:`valueclass.Frozen` values, each with its own
    ``__init__``, one made for every edge.)"""

    __slots__ = ("a", "at", "b")
    at: float
    a: bool
    b: bool

    def __init__(self, at: float, a: bool, b: bool) -> None:
        set_field(self, "at", at)
        set_field(self, "a", a)
        set_field(self, "b", b)


class RawButton(Frozen):
    """The knob's push switch went down (``pressed``) or up, at ``at``."""

    __slots__ = ("at", "pressed")
    at: float
    pressed: bool

    def __init__(self, at: float, pressed: bool) -> None:
        set_field(self, "at", at)
        set_field(self, "pressed", pressed)


RawInput = RawEdge | RawButton


class Timed(Protocol):
    """Something with deadlines: the clock calls :meth:`due` once the next has passed."""

    def next_deadline(self) -> float | None: ...

    def due(self, now: float) -> None: ...


class RawConsumer(Timed, Protocol):
    """One knob's classifier as the clock drives it."""

    def take(self, raw: RawInput) -> None: ...

    def close(self) -> None: ...


class KnobInput(Frozen):
    """A raw input on its way to the clock that classifies it; ``raw`` None: the knob
    was closed. Posted into the rig loop's queue when the loop is the consumer."""

    __slots__ = ("clock", "consumer", "raw")
    clock: GestureClock
    consumer: RawConsumer
    raw: RawInput | None

    def __init__(self, clock: GestureClock, consumer: RawConsumer,
                 raw: RawInput | None) -> None:
        set_field(self, "clock", clock)
        set_field(self, "consumer", consumer)
        set_field(self, "raw", raw)

    def deliver(self) -> None:
        """Hand it to its clock (what the consumer does on receiving it)."""
        self.clock.take(self)


class _Stop:
    """Posted by :meth:`GestureClock.close`: the thread ends."""


_STOP = _Stop()
_log = logging.getLogger(__name__)


class GestureClock:
    """One consumer for every knob: raw inputs are handled in the order they were posted,
    deadlines (of every knob) in time order, each input after the deadlines before it.
    Neither raises: a knob whose classifier fails is logged (and its input dropped), so
    the other knob and the rig loop go on."""

    def __init__(self, clock: Clock = time.monotonic,
                 inbox: Callable[[KnobInput], None] | None = None) -> None:
        self.clock = clock
        self._inputs: queue.SimpleQueue[KnobInput | _Stop] = queue.SimpleQueue()
        self._send: Callable[[KnobInput], None] = inbox if inbox is not None else self._inputs.put
        self.on_loop = inbox is not None
        """True: the rig loop consumes the inputs and runs the deadlines (no thread)."""
        self._timed: set[Timed] = set()
        self._thread: threading.Thread | None = None

    # -- what pin callbacks do ----------------------------------------------------------
    def post(self, consumer: RawConsumer, raw: RawInput) -> None:
        """Thread-safe and quick: the only thing a pin callback does."""
        self._send(KnobInput(self, consumer, raw))

    def detach(self, consumer: RawConsumer) -> None:
        """That knob is closed: after the inputs already posted, it sends nothing more."""
        self._send(KnobInput(self, consumer, None))

    # -- the consumer -------------------------------------------------------------------
    def take(self, item: KnobInput) -> None:
        """Classify one input, after every deadline that fell due before it."""
        if item.raw is None:
            item.consumer.close()
            self._timed.discard(item.consumer)
            return
        self.run_due(item.raw.at)
        self._timed.add(item.consumer)
        try:
            item.consumer.take(item.raw)
        except Exception:
            _log.exception("knob input dropped")

    def next_deadline(self) -> float | None:
        """The earliest deadline of any knob; None when nothing is held (the consumer
        then waits for the next input only: no wake-ups at rest)."""
        earliest = self._earliest()
        return None if earliest is None else earliest[1]

    def run_due(self, now: float) -> None:
        """Every deadline up to ``now``, earliest first, each at its own time."""
        while (earliest := self._earliest()) is not None and earliest[1] <= now:
            timed, deadline = earliest
            try:
                timed.due(deadline)
            except Exception:
                _log.exception("knob deadline dropped")
                self._timed.discard(timed)  # driven again from its next input

    def start(self) -> None:
        """Start the clock's own thread, unless the rig loop is the consumer."""
        if self._thread is None and not self.on_loop:
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
            item: KnobInput | _Stop | None
            try:
                item = self._inputs.get(timeout=self._timeout())
            except queue.Empty:
                item = None  # the wait ran out: a deadline is due
            if isinstance(item, _Stop):
                return
            if item is None:
                self.run_due(self.clock())
            else:
                self.take(item)

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


class ManualGestureClock(GestureClock):
    """The clock without its thread, over a :class:`FakeClock`: a posted input is handled
    at once on the poster's thread, :meth:`advance` sends what falls due. For tests and
    mock pins driven from one thread, never for a real pin backend."""

    def __init__(self, clock: FakeClock | None = None) -> None:
        self.fake = clock if clock is not None else FakeClock()
        super().__init__(self.fake)

    def post(self, consumer: RawConsumer, raw: RawInput) -> None:
        self.take(KnobInput(self, consumer, raw))

    def detach(self, consumer: RawConsumer) -> None:
        self.take(KnobInput(self, consumer, None))

    def start(self) -> None:
        """Nothing to start: :meth:`advance` is the clock."""

    def watch(self, timed: Timed) -> None:
        """Drive the deadlines of ``timed`` too (a bare classifier in a test)."""
        self._timed.add(timed)

    def advance(self, seconds: float) -> None:
        """Move time on by ``seconds``, sending each deadline passed at its own time."""
        self.run_due(self.fake.advance(seconds))


__all__ = [
    "GestureClock",
    "KnobInput",
    "ManualGestureClock",
    "RawButton",
    "RawConsumer",
    "RawEdge",
    "RawInput",
    "Timed",
]
