"""Every game, variant and player count the registered games' facts declare, built once
each (a game whose info has only VARIANT_PLAYERS is enumerated like the shipped ones)."""

from __future__ import annotations

from functools import cache

from engine.api import Game
from rig import registry
from rig.gamebuild import build_game


def _declared() -> list[tuple[str, str, int]]:
    cases = []
    for entry in registry.entries():
        for variant in entry.variants:
            for players in entry.player_counts:
                cases.append((entry.name, variant, players))
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
