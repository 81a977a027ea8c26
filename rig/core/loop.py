"""The one event loop: event -> controller (engine, journal) -> screen -> display.

Hardware callbacks run on their own threads and only `post`. This loop is the only
consumer: it blocks on the queue until an event arrives or the next deadline falls due
(the controller's, or the knobs': no polling), and renders only when the screen value
changed.

The knobs' raw pin inputs come here too when their gesture clock was built with the
loop's ``post`` as its inbox (:class:`~hardware.gestureclock.KnobInput`): the loop hands
each to that clock, runs its deadlines (held turns, long presses) with its own, and the
gestures they complete are posted back as ordinary events. One clock for the whole rig.

Given ``render`` and ``show`` (instead of one ``draw``), the loop renders the new frame
while the accepted input's fsync is still running (a controller built with
``defer_sync``) and shows it only after :meth:`await_durable` returns: the table sees
the input no earlier than before, only sooner after the disk is done. If saving failed,
the controller has taken the input back and the loop draws what it shows instead.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from typing import Any, Protocol

from hardware.gestureclock import GestureClock, KnobInput
from rig.screens.screen import Screen
from valueclass import Frozen, Record


class Tick(Frozen):
    """Time passed; the loop sends it when a deadline falls due. It carries no time: the
    controller reads the one clock it shares with the loop. (Defined here, not in
    :mod:`rig.core.controller`, so the loop can run the setup menu before the game modules
    are imported: see :mod:`rig.core.daemon`'s start-up.)"""

    __slots__ = ()

class Driven(Protocol):
    """What the loop drives: the game controller, or the app around it."""

    def handle(self, event: object) -> None: ...

    def screen(self) -> Screen: ...

    def next_deadline(self) -> float | None: ...


class Stop:
    """Posted to end the loop (SIGTERM, SIGINT, end of a script)."""


class LoopStats(Record):
    events: int = 0
    renders: int = 0
    screens_unchanged: int = 0


class RigLoop:
    def __init__(
        self,
        controller: Driven,
        draw: Callable[[Screen], Any] | None = None,
        clock: Callable[[], float] = time.monotonic,
        heartbeat: Callable[[], None] | None = None,
        heartbeat_interval: float | None = None,
        render: Callable[[Screen], Any] | None = None,
        show: Callable[[Any], Any] | None = None,
    ) -> None:
        if (draw is None) == (render is None or show is None):
            raise ValueError("give draw, or render and show")
        self.controller = controller
        self.draw = draw
        self.render = render
        self.show = show
        self.clock = clock
        self.heartbeat = heartbeat
        self.heartbeat_interval = heartbeat_interval
        self.events: queue.Queue[object] = queue.Queue()
        self.stats = LoopStats()
        self._last_screen: Screen | None = None
        self._last_beat = clock()
        self._knob_clocks: set[GestureClock] = set()
        """The gesture clocks whose raw inputs came here: their deadlines are ours."""
        self.on_frame: Callable[[Screen], Any] | None = None
        """Told each new screen once it is shown (the voice says it: rig.voice.narrator); it must
        only hand work over, never wait."""
        self.before_input: Callable[[object], Any] | None = None
        """Told each input (not a tick) before the controller handles it: an emulated
        table's person lets the clock move on to when they could have seen the screen."""

    def post(self, event: object) -> None:
        """Thread-safe: the only thing hardware callbacks may do."""
        self.events.put(event)

    def refresh(self) -> Screen:
        """Draw the controller's screen if it differs from the last one drawn, never
        before the input it shows is on disk."""
        screen = self.controller.screen()
        frame = self._prepare(screen)
        if not self._durable():  # not saved: the input was taken back, show that
            screen = self.controller.screen()
            frame = self._prepare(screen)
        if screen != self._last_screen:
            if self.show is not None:
                self.show(frame)
            else:
                assert self.draw is not None
                self.draw(screen)
            self._last_screen = screen
            self.stats.renders += 1
            if self.on_frame is not None:
                self.on_frame(screen)
        else:
            self.stats.screens_unchanged += 1
        return screen

    def _prepare(self, screen: Screen) -> Any:
        """The frame for a changed screen, when the loop renders (None otherwise)."""
        if self.render is None or screen == self._last_screen:
            return None
        return self.render(screen)

    def _durable(self) -> bool:
        await_durable = getattr(self.controller, "await_durable", None)
        return True if await_durable is None else bool(await_durable())

    def step(self, event: object) -> None:
        """Handle one event and redraw; the unit of work tests and scripts drive. A raw
        knob input goes to its gesture clock instead (no game event, nothing to draw)."""
        if isinstance(event, KnobInput):
            self._knob_clocks.add(event.clock)
            event.deliver()
            return
        self.stats.events += 1
        if self.before_input is not None and not isinstance(event, Tick):
            self.before_input(event)
        self.controller.handle(event)
        self.refresh()

    def _knobs_due(self, now: float) -> bool:
        """Run the knobs' deadlines up to ``now``; whether any had fallen due."""
        ran = False
        for knobs in self._knob_clocks:
            due = knobs.next_deadline()
            if due is not None and due <= now:
                knobs.run_due(now)
                ran = True
        return ran

    def _own_deadline_due(self, now: float) -> bool:
        """Whether the controller's deadline or the heartbeat has come."""
        due = self.controller.next_deadline()
        if due is not None and due <= now:
            return True
        interval = self.heartbeat_interval
        return interval is not None and self._last_beat + interval <= now

    def run_due(self) -> None:
        """Handle whatever had fallen due when called (for drivers that do not block in
        run). Only that: a pending search asks for "now" again after every slice, and
        the driver must look at its inputs between slices."""
        due = self.controller.next_deadline()
        now = self.clock()  # after the deadline: a pending choice's "now" is due
        self._knobs_due(now)
        while due is not None and due <= now:
            self.step(Tick())
            after = self.controller.next_deadline()
            if after == due:
                break
            due = after

    def _timeout(self) -> float | None:
        deadlines = []
        due = self.controller.next_deadline()
        if due is not None:
            deadlines.append(due)
        for knobs in self._knob_clocks:
            due = knobs.next_deadline()
            if due is not None:
                deadlines.append(due)
        if self.heartbeat_interval is not None:
            deadlines.append(self._last_beat + self.heartbeat_interval)
        if not deadlines:
            return None
        return max(0.0, min(deadlines) - self.clock())

    def run(self) -> None:
        """Serve events until a Stop arrives."""
        self.refresh()
        while True:
            try:
                event = self.events.get(timeout=self._timeout())
            except queue.Empty:
                now = self.clock()
                if self._knobs_due(now) and not self._own_deadline_due(now):
                    continue  # only a knob's deadline: its gestures are in the queue
                event = Tick()
            if isinstance(event, Stop):
                return
            self.step(event)
            self._beat()

    def _beat(self) -> None:
        if self.heartbeat is None or self.heartbeat_interval is None:
            return
        now = self.clock()
        if now - self._last_beat >= self.heartbeat_interval:
            self.heartbeat()
            self._last_beat = now
