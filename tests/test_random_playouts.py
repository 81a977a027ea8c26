"""`play_randomly` plays the very games of the generic random playout.

Flat Monte Carlo (bench/ai_match.py) plays thousands of random games per decision and
only asks who won, so the engines play them without what a playout throws away: Bump
'Em without actions, previews or events (`Rules.move_choices`, `Rules.resolve`),
10-Four without building chance outcome lists or checking what it drew itself. The
reference's games must stay the same draw for draw: from many seeded positions (chance
and decision nodes, every shipped configuration with all options both ways, Bump 'Em's
two ticket draw modes), both ways must take the same steps, end in the same state and
leave the rng in the same place.
"""

from __future__ import annotations

import random

import pytest

from bench.engine_trace import FLIPPED, configurations
from engine.api import Game, State
from engine.selfplay import _generic_random_playout, random_playout
from rig.gamebuild import build_game
from tests.bumpem.helpers import TICKETS, make_game

DECK = TICKETS[0].replace('draw = "independent"', 'draw = "deck"').replace(
    "count = 1", "count = 2", 3)


def _games() -> list[tuple[str, Game]]:
    games: list[tuple[str, Game]] = []
    for name, variant, players in configurations():
        for flipped in (False, True):
            games.append((f"{name}-{variant}-{players}p" + ("-flipped" if flipped else ""),
                          build_game(name, players=players, variant=variant,
                                     options=FLIPPED[name] if flipped else None)))
    games.append(("bumpem-2p-deck", make_game(2, tickets=DECK)))
    games.append(("bumpem-4p-deck-flipped", make_game(4, options=FLIPPED["bumpem"],
                                                      tickets=DECK)))
    return games


def _somewhere(game: Game, rng: random.Random) -> State:
    """A state some random steps into a game (a chance or a decision node)."""
    state = game.new_initial_state()
    _generic_random_playout(state, rng, int(rng.random() * 150))
    return state


@pytest.mark.parametrize(("label", "game"), _games(), ids=[label for label, _ in _games()])
def test_random_playouts_are_the_generic_ones(label: str, game: Game) -> None:
    assert hasattr(game.new_initial_state(), "play_randomly")
    chance = 0
    for seed in range(40):
        start = _somewhere(game, random.Random(f"{label}:{seed}"))
        chance += start.is_chance_node()
        limit = 100_000 if seed % 4 else 1 + seed % 30  # some stop part-way
        generic, fast = start.clone(), start.clone()
        generic_rng, fast_rng = random.Random(seed), random.Random(seed)
        steps = _generic_random_playout(generic, generic_rng, limit)
        assert random_playout(fast, fast_rng, limit) == steps
        assert fast.to_json() == generic.to_json()
        assert fast.winners() == generic.winners()
        assert fast.legal_actions() == generic.legal_actions()
        assert fast_rng.random() == generic_rng.random()
    assert 0 < chance < 40  # started from chance and from decision nodes
