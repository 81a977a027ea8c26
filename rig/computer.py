"""Computer seats on the rig: the level's choice is announced for a person to carry out."""

from __future__ import annotations

import random

from engine.api import Action, State
from engine.players import chooser_for
from rig.controller import Seat


def seat_for(game_name: str, level: str, seed: int | None = None, hint: bool = False) -> Seat:
    """A seat for `level` ("human", "random", "strong"); a human may get strong hints."""
    if level == "human" and not hint:
        return Seat()
    chooser = chooser_for(game_name, "strong" if level == "human" else level)
    rng = random.Random(seed)

    def choose(state: State, legal: list[Action]) -> Action:
        return chooser(state, legal, rng)

    return Seat(level="hint" if level == "human" else level, chooser=choose)
