"""Every computer level, in every game configuration the rig offers: legal, replayable.

`hard` runs with a small sample budget here (its strength and speed are measured in
bench/ai_match.py, figures in docs/AI_*.md); the budget changes how much it searches,
not which rules it follows.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from bench.engine_speed import CONFIGS
from engine.api import Action, State
from engine.players import ALIASES, LEVELS, canonical_level, chooser_for
from engine.selfplay import Chooser, Rng, play, random_choice
from rig.gamebuild import build_game

SMALL_BUDGET = 12


def _level(game: str, level: str) -> Chooser:
    return chooser_for(game, level, SMALL_BUDGET) if level == "hard" else chooser_for(game, level)


def _checked(inner: Chooser, seen: list[int]) -> Chooser:
    def choose(state: State, legal: Sequence[Action], rng: Rng) -> Action:
        action = inner(state, legal, rng)
        assert action in state.legal_actions()
        seen.append(len(legal))
        return action

    return choose


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("game_name", "variant", "players"), CONFIGS)
def test_every_level_plays_legally_to_the_end(game_name: str, variant: str, players: int,
                                              level: str) -> None:
    game = build_game(game_name, players=players, variant=variant)
    seen: list[int] = []
    choosers = [_checked(_level(game_name, level), seen)] * players
    result = play(game, random.Random(f"levels:{level}"), choosers, keep_events=False)
    assert result.finished and result.state.winners()
    assert any(n > 1 for n in seen), "the level never had a real choice to make"


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("game_name", "players"), [("tenfour", 2), ("tenfour", 4),
                                                    ("bumpem", 2), ("bumpem", 3)])
def test_a_seed_replays_a_game_exactly(game_name: str, players: int, level: str) -> None:
    game = build_game(game_name, players=players)

    def replay(seed: str) -> tuple[list[str], dict[str, object]]:
        chosen: list[str] = []
        chooser = _level(game_name, level)

        def keep(state: State, legal: Sequence[Action], rng: Rng) -> Action:
            action = chooser(state, legal, rng)
            chosen.append(action.key())
            return action

        result = play(game, random.Random(seed), [keep] * players, keep_events=False)
        return chosen, result.state.to_json()

    first = replay("replay:1")
    assert replay("replay:1") == first
    assert replay("replay:2") != first


def test_the_old_level_names_are_aliases() -> None:
    assert ALIASES == {"random": "easy", "strong": "medium"}
    for game in ("tenfour", "bumpem"):
        assert chooser_for(game, "random") is chooser_for(game, "easy") is random_choice
        strong = chooser_for(game, "strong")
        assert strong is chooser_for(game, "medium")
        assert strong.__name__ == "strong_choice"
        assert chooser_for(game, "hard").__name__ == "hard_choice"
    assert canonical_level("strong") == "medium"


def test_an_unknown_level_names_the_known_ones() -> None:
    with pytest.raises(ValueError, match="easy, medium, hard"):
        chooser_for("tenfour", "expert")
