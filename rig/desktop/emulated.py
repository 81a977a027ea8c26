"""An emulated rig: the real controller and loop with a manual clock and no devices.

Scripts, the demo, tests and benchmarks all drive this; it produces exactly the events
the real knobs and reader would, so they exercise the same code paths as the daemon.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.api import Game
from hardware.clock import FakeClock
from hardware.events import CardPresented, CardRemoved, KnobLongPress, KnobPress, KnobSpin, KnobTurn
from hardware.rfid.mock import emulated_tag as emulated_tag
from rig.core.autopilot import EMULATED_READER as AUTOPILOT_READER
from rig.core.controller import Controller, ControllerOptions, Seat
from rig.core.loop import RigLoop, Tick
from rig.core.session import Session
from rig.gamebuild import build_game
from rig.screens.screen import Screen
from rig.screens.views import view_for
from valueclass import Record, field

EMULATED_READER = AUTOPILOT_READER
"""The emulated reader's name (the autopilot taps its cards with it: rig.core.autopilot)."""


def emulated_cards(game: Game) -> dict[str, str]:
    """The emulated reader's tag for each card of ``game``'s deck: every card is known
    (tapped by id), nothing to enrol."""

    return {emulated_tag(card): card for card in view_for(game).card_ids()}


class EmulatedRig(Record):
    session: Session
    clock: FakeClock = field(default_factory=FakeClock)
    """Time that moves only when told: scripts `wait`, tests never sleep."""
    seats: list[Seat] | None = None
    seed: int | None = None
    draw: Callable[[Screen], Any] | None = None
    virtual_deck: bool = False
    """The emulated rig has a card reader (cards are tapped); True deals by knob press."""
    screens: list[Screen] = field(default_factory=list)
    pause: Callable[[float], Any] | None = None
    """Called with the seconds before the clock moves on: a paced demo waits them out in
    real time; by default time just jumps (scripts and tests never wait)."""
    quick_hands: bool = False
    """False: the table's person sees each screen before acting on it (the clock moves on
    past the controller's `settled_at` before an input, as a person's pace does); True:
    inputs come at the clock's instant, a double press included (the guard's tests)."""
    render: Callable[[Screen], Any] | None = None
    show: Callable[[Any], Any] | None = None
    """Given both (instead of ``draw``): the daemon's drawing, a frame rendered while the
    input's fsync runs and shown once it is on disk (see :mod:`rig.core.loop`)."""

    def __post_init__(self) -> None:
        options = ControllerOptions(virtual_deck=self.virtual_deck,
                                    cards=emulated_cards(self.session.game))
        rng = random.Random(self.seed) if self.seed is not None else None
        overlap = self.render is not None and self.show is not None
        self.controller = Controller(self.session, clock=self.clock, options=options,
                                     seats=self.seats, chance_rng=rng, defer_sync=overlap)
        if overlap:
            self.loop = RigLoop(self.controller, clock=self.clock, render=self._render,
                                show=self.show)
        else:
            self.loop = RigLoop(self.controller, draw=self._draw, clock=self.clock)
        self.loop.before_input = self._seen
        self.loop.refresh()
        self._resting: str | None = None

    def _render(self, screen: Screen) -> Any:
        assert self.render is not None
        self.screens.append(screen)
        return self.render(screen)

    def _draw(self, screen: Screen) -> None:
        self.screens.append(screen)
        if self.draw is not None:
            self.draw(screen)

    def _seen(self, event: object) -> None:
        """A person acts once the screen an input just made could be seen (see
        `quick_hands`): the clock moves on past the controller's guard."""
        settled, clock = self.controller.face.settled_at, self.controller.clock
        if not self.quick_hands and settled is not None and isinstance(clock, FakeClock) \
                and clock() < settled:
            clock.set(settled)

    @property
    def screen(self) -> Screen:
        return self.controller.screen()

    # gestures -----------------------------------------------------------
    def turn(self, knob: str, steps: int) -> None:
        self.loop.step(KnobTurn(knob, steps))

    def spin(self, knob: str, value: int | None = None, strength: float = 0.6) -> None:
        self.controller.chance.forced_spin = value
        self.loop.step(KnobSpin(knob, strength))
        self.settle()

    def press(self, knob: str = "hi") -> None:
        self.loop.step(KnobPress(knob))

    def hold(self, knob: str = "hi") -> None:
        self.loop.step(KnobLongPress(knob))

    def tap(self, card_id: str | None = None, tag: str | None = None) -> None:
        """Present a card (by deck id, or a raw tag) and take it off again."""
        tag = tag or emulated_tag(card_id or "")
        self.loop.step(CardPresented(tag, EMULATED_READER))
        self.loop.step(CardRemoved(tag, EMULATED_READER))

    def wait(self, seconds: float) -> None:
        """Let time pass, delivering every deadline that falls due on the way."""
        end = self.clock() + seconds
        while True:
            due = self.controller.next_deadline()
            if due is None or due > end:
                break
            self._advance_to(due)
            self.loop.step(Tick())
        self._advance_to(end)
        self.loop.step(Tick())

    def settle(self) -> None:
        """Run time forward until nothing is animating (the spin shows its result, long
        enough to be seen and acknowledged) and any choice the computer owes is on
        screen."""
        self.loop.run_due()
        while self.controller.animation is not None:
            due = self.controller.next_deadline()
            assert due is not None
            self._advance_to(due)
            self.loop.step(Tick())
        ready = self.controller.face.ready_at  # a result that appeared by itself: seen
        if ready is not None:
            self._advance_to(ready)
            self.loop.step(Tick())
        self.loop.run_due()
        while self.controller.decisions.choice_pending:  # a search thinks a slice per tick
            self.loop.run_due()

    def _advance_to(self, when: float) -> None:
        """Move the clock to the deadline `when` (after the pause, if there is one)."""
        now = self.clock()
        if when > now and self.pause is not None:
            self.pause(when - now)
        self.clock.set(max(now, when))


def new_emulated_rig(game_name: str, players: int, *, variant: str | None = None,
                     seed: int | None = None, journal: Path | None = None,
                     seats: list[Seat] | None = None, options: dict[str, Any] | None = None,
                     draw: Callable[[Screen], Any] | None = None) -> EmulatedRig:
    game = build_game(game_name, players=players, variant=variant, options=options)
    session = Session.start(game, journal, {"created": "emulated"})
    return EmulatedRig(session=session, seats=seats, seed=seed, draw=draw)
