"""`BumpemState.play_randomly` plays the very games of the generic random playout.

Flat Monte Carlo (bench/ai_match.py) plays thousands of random games per decision and
only asks who won, so Bump 'Em plays them without actions, previews or events
(`Rules.move_choices`, `Rules.resolve`). The reference's games must stay the same draw
for draw: from many seeded positions (chance and decision nodes, all option sets, both
ticket draw modes), both ways must take the same steps, end in the same state and leave
the rng in the same place.
"""

from __future__ import annotations

import random

import pytest

from bench.engine_trace import FLIPPED
from engine.bumpem import BumpemGame, BumpemState
from engine.selfplay import _generic_random_playout, random_playout
from tests.bumpem.helpers import TICKETS, make_game

DECK = TICKETS[0].replace('draw = "independent"', 'draw = "deck"').replace(
    "count = 1", "count = 2", 3)


def _games() -> list[tuple[str, BumpemGame]]:
    games = []
    for players in (2, 3, 4):
        games.append((f"{players}p", make_game(players)))
        games.append((f"{players}p-flipped", make_game(players, options=FLIPPED["bumpem"])))
    games.append(("2p-deck", make_game(2, tickets=DECK)))
    games.append(("4p-deck-flipped", make_game(4, options=FLIPPED["bumpem"], tickets=DECK)))
    return games


def _somewhere(game: BumpemGame, rng: random.Random) -> BumpemState:
    """A state some random steps into a game (a chance or a decision node)."""
    state = game.new_initial_state()
    _generic_random_playout(state, rng, int(rng.random() * 150))
    return state


@pytest.mark.parametrize(("label", "game"), _games(), ids=[label for label, _ in _games()])
def test_random_playouts_are_the_generic_ones(label: str, game: BumpemGame) -> None:
    nodes = set()
    for seed in range(40):
        start = _somewhere(game, random.Random(f"{label}:{seed}"))
        nodes.add(start.phase)
        limit = 100_000 if seed % 4 else 1 + seed % 30  # some stop part-way
        generic, fast = start.clone(), start.clone()
        generic_rng, fast_rng = random.Random(seed), random.Random(seed)
        steps = _generic_random_playout(generic, generic_rng, limit)
        assert random_playout(fast, fast_rng, limit) == steps
        assert fast.to_json() == generic.to_json()
        assert fast.winners() == generic.winners()
        assert fast.legal_actions() == generic.legal_actions()
        assert fast_rng.random() == generic_rng.random()
    assert nodes >= {"ticket", "move"}


def test_move_choices_are_the_legal_moves_resolved_alike() -> None:
    game = make_game(4)
    rules = game.rules
    rng = random.Random(5)
    compared = 0
    for _ in range(300):
        state = _somewhere(game, rng)
        pos = tuple(state.pos)
        for ticket in ("1", "3", "6", "7", "8", "9", "11", "12", "bump"):
            outcomes = rules.legal_moves(pos, state.turn, ticket)
            choices = rules.move_choices(pos, state.turn, ticket)
            assert len(choices) == len(outcomes)
            for choice, outcome in zip(choices, outcomes, strict=True):
                new, effects = rules.resolve(pos, choice)
                assert (tuple(new), tuple(effects)) == (outcome.positions, outcome.effects)
                compared += 1
    assert compared > 1000
