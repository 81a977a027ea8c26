"""Plays a game through the emulated hardware, as a table of people would.

Each step looks at what the rig is waiting for and makes the gesture a person would:
acknowledge an alert, tap the drawn card, flick the right knob, turn to a choice and
press. Used by `cbrig demo` and by the full-game tests.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.api import Action, State
from engine.selfplay import sample_chance
from rig.emulated import EmulatedRig

Pick = Callable[[State, list[Action]], Action]


def step(rig: EmulatedRig, rng: random.Random, pick: Pick | None = None) -> str:
    """Make one gesture; return what was done, in script syntax."""
    controller = rig.controller
    state = rig.session.state
    if controller.alert is not None:
        rig.press("hi")
        return "press hi"
    if state.is_chance_node():
        need = controller.view.chance_input(state)
        if need.kind == "spin":
            rig.spin(need.knob)
            return f"spin {need.knob}"
        if need.kind == "card":
            action = sample_chance(state.chance_outcomes(), rng)
            card = controller.view.card_for_action(action)
            rig.tap(card_id=card)
            return f"tap {card}"
        rig.press("hi")
        return "press hi"
    legal = list(state.legal_actions())
    choice = pick(state, legal) if pick else legal[rng.randrange(len(legal))]
    delta = legal.index(choice) - controller.cursor
    if delta:
        rig.turn("hi", delta)
    rig.press("hi")
    return (f"turn hi {delta:+d}\n" if delta else "") + "press hi"


def play_out(rig: EmulatedRig, rng: random.Random, pick: Pick | None = None,
             max_gestures: int = 20_000,
             on_gesture: Callable[[str], None] | None = None) -> int:
    """Gesture until the game ends; return how many gestures it took."""
    count = 0
    while not rig.session.state.is_terminal():
        if count >= max_gestures:
            raise RuntimeError(f"the game did not end within {max_gestures} gestures")
        done = step(rig, rng, pick)
        count += 1
        if on_gesture is not None:
            on_gesture(done)
    return count
