"""Every game, variant and player count the game packages declare, built once each."""

from __future__ import annotations

import importlib
from functools import cache

from engine.api import Game
from rig.gamebuild import GAME_MODULES, build_game


def _declared() -> list[tuple[str, str, int]]:
    cases = []
    for name, module_path in GAME_MODULES.items():
        module = importlib.import_module(module_path)
        for variant in module.VARIANTS:
            for players in module.PLAYER_COUNTS:
                cases.append((name, variant, players))
    return cases


@cache
def buildable() -> list[tuple[str, str, int]]:
    """Declared combinations that build (e.g. 10-Four's two-player variant is 2 players only)."""
    out = []
    for name, variant, players in _declared():
        try:
            build_game(name, players=players, variant=variant)
        except ValueError:
            continue
        out.append((name, variant, players))
    return out


def case_id(case: tuple[str, str, int]) -> str:
    name, variant, players = case
    return f"{name}-{variant}-{players}p"


@cache
def make(case: tuple[str, str, int]) -> Game:
    name, variant, players = case
    return build_game(name, players=players, variant=variant)
