"""Each shipped game's `Literal` kinds name exactly what its engine produces.

mypy checks every comparison against a game's `PromptKind`/`EventKind` (strict
equality), so a kind the engine makes but the Literal lacks would leave a screen's
comparison wrongly flagged, and a counter keyed on a kind no event has would count
nothing. Seeded random games with corrections mixed in must stay inside the Literals.
"""

from __future__ import annotations

import random
from types import ModuleType
from typing import get_args

import pytest

from engine.api import State
from engine.bumpem import info as bumpem_info
from engine.bumpem import kinds as bumpem_kinds
from engine.tenfour import info as tenfour_info
from engine.tenfour import kinds as tenfour_kinds
from rig.gamebuild import build_game

CASES = [
    ("tenfour", "standard", 4, tenfour_kinds, tenfour_info.SIM_COUNTERS),
    ("tenfour", "two-player", 2, tenfour_kinds, tenfour_info.SIM_COUNTERS),
    ("bumpem", "standard", 4, bumpem_kinds, bumpem_info.SIM_COUNTERS),
]


def _play(state: State, rng: random.Random) -> tuple[set[str], set[str]]:
    prompts: set[str] = set()
    events: set[str] = set()
    for _ in range(3000):
        prompts.add(state.prompt().kind)
        if state.is_terminal():
            break
        if state.is_chance_node():
            action = rng.choice(state.chance_outcomes())[0]
        else:
            action = rng.choice(list(state.legal_actions()))
        events.update(e.kind for e in state.apply(action))
    return prompts, events


@pytest.mark.parametrize(("game", "variant", "players", "kinds", "counters"), CASES)
def test_random_games_stay_inside_the_literal_kinds(game: str, variant: str, players: int,
                                                    kinds: ModuleType,
                                                    counters: dict[str, str]) -> None:
    built = build_game(game, players=players, variant=variant)
    prompt_kinds = set(get_args(kinds.PromptKind))
    event_kinds = set(get_args(kinds.EventKind))
    seen_prompts: set[str] = set()
    seen_events: set[str] = set()
    for seed in range(12):
        prompts, events = _play(built.new_initial_state(), random.Random(seed))
        seen_prompts |= prompts
        seen_events |= events
    assert seen_prompts <= prompt_kinds
    assert seen_events <= event_kinds
    assert "over" in seen_prompts and "winner" in seen_events  # the games were played out
    assert set(counters) <= event_kinds
