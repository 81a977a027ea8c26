"""Computer players: a level name -> a chooser over legal actions.

Pure and deterministic for a given rng: the rig and the simulator pass the randomness in.
"""

from __future__ import annotations

import importlib

from engine.selfplay import Chooser, random_choice

LEVELS = ("random", "strong")


def chooser_for(game_name: str, level: str) -> Chooser:
    """The chooser for `level` in `game_name`; ValueError names the known levels."""
    if level == "random":
        return random_choice
    if level == "strong":
        module = importlib.import_module(f"engine.{game_name}.ai")
        chooser: Chooser = module.strong_choice
        return chooser
    raise ValueError(f"unknown computer level {level!r}; choose one of {', '.join(LEVELS)}")
