"""Plays a game through the rig's hardware events, as a table of people would.

Each step looks at what the rig is waiting for and makes the gestures a person would:
acknowledge an alert, tap the drawn card, flick the right knob, turn to a choice and
press. Used by `cbrig demo`, the daemon's autoplay and the full-game tests.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from engine.api import Action, State
from engine.selfplay import Rng, sample_chance
from hardware.events import CardPresented, CardRemoved, KnobPress, KnobSpin, KnobTurn
from rig.core.controller import Controller
from rig.core.loop import RigLoop
from rig.core.session import Session
from rig.screens.screen import page_count

Pick = Callable[[State, list[Action]], Action]

EMULATED_READER = "emulated"
"""The reader name the autopilot's card taps (and the emulated rig's) come from."""


class PlayedRig(Protocol):
    """What the autopilot plays on (rig.desktop.emulated.EmulatedRig is one): the session,
    its controller and loop, and a way to let time run until nothing animates."""

    @property
    def session(self) -> Session: ...

    @property
    def controller(self) -> Controller: ...

    @property
    def loop(self) -> RigLoop: ...

    def settle(self) -> None: ...


def gestures_for(controller: Controller, rng: Rng, pick: Pick | None = None) -> list[Any]:
    """The hardware events a person makes next; card draws and choices use `rng`."""
    state = controller.session.state
    if controller.alert is not None:
        return [KnobPress("hi")]  # acknowledge the result or alert on screen
    if state.is_chance_node():
        need = controller.view.chance_input(state)
        if need.kind == "spin":
            return [KnobSpin(need.knob, 0.6)]
        if need.kind == "card" and not controller.options.virtual_deck:
            card = controller.view.card_for_action(sample_chance(state.chance_outcomes(), rng))
            tag = next(t for t, c in controller.options.cards.items() if c == card)
            return [CardPresented(tag, EMULATED_READER), CardRemoved(tag, EMULATED_READER)]
        return [KnobPress("hi")]
    seat = controller.seats[state.current_player()]
    if seat.chooser is not None and seat.level != "hint":
        if controller.decisions.choice_pending and seat.think is not None:
            return []  # the computer is still thinking in slices: wait for its choice
        return [KnobPress("hi")]  # carry out the computer's announced choice
    legal = list(state.legal_actions())
    choice = pick(state, legal) if pick else legal[int(rng.random() * len(legal))]
    delta = controller.choices().index(choice) - controller.decisions.cursor
    return ([KnobTurn("hi", delta)] if delta else []) + [KnobPress("hi")]


def read_on(controller: Controller) -> list[Any]:
    """The presses that show the rest of the result or alert on screen, page by page, up
    to its last page (a press there would dismiss it): how a watched game ends on its
    whole last screen."""
    if controller.alert is None:
        return []
    return [KnobPress("hi")] * (page_count(controller.screen()) - 1 - controller.face.page)


def describe(gesture: Any) -> str:
    """A gesture in hardware-script syntax."""
    if isinstance(gesture, KnobTurn):
        return f"turn {gesture.knob} {gesture.steps:+d}"
    if isinstance(gesture, KnobSpin):
        return f"spin {gesture.knob}"
    if isinstance(gesture, KnobPress):
        return f"press {gesture.knob}"
    if isinstance(gesture, CardPresented):
        return f"tag {gesture.tag}"
    return ""


def play_out(rig: PlayedRig, rng: Rng, pick: Pick | None = None,
             max_gestures: int = 50_000,
             on_gesture: Callable[[str], None] | None = None) -> int:
    """Gesture until the game ends; return how many gestures it took."""
    count = 0
    while not rig.session.state.is_terminal():
        gestures = gestures_for(rig.controller, rng, pick)
        if not gestures:
            rig.settle()  # the computer thinks
        for gesture in gestures:
            if count >= max_gestures:
                raise RuntimeError(f"the game did not end within {max_gestures} gestures")
            rig.loop.step(gesture)
            rig.settle()
            count += 1
            text = describe(gesture)
            if on_gesture is not None and text:
                on_gesture(text)
    return count
