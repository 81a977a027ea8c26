"""Drive an emulated rig with the autopilot until something worth testing comes up."""

from __future__ import annotations

import random

import pytest

from rig.core.autopilot import gestures_for
from rig.desktop.emulated import EmulatedRig


def advance_to_choice(rig: EmulatedRig, rng: random.Random, limit: int = 300) -> None:
    """Gesture on until a decision with more than one legal move, no alert showing."""
    for _ in range(limit):
        state = rig.session.state
        if not state.is_chance_node() and len(state.legal_actions()) > 1 \
                and rig.controller.alert is None:
            return
        for gesture in gestures_for(rig.controller, rng):
            rig.loop.step(gesture)
            rig.settle()
    pytest.fail("no real choice came up")
