"""`Rules.move_choices` + `Rules.resolve` are `Rules.legal_moves`, one move at a time.

Bump 'Em's random playouts (`BumpemState.play_randomly`) pick a move among the bare
choices and resolve only that one; each choice must be the legal move at the same place
in `legal_actions()` order, resolved to the same positions and effects.
"""

from __future__ import annotations

import random

from engine.selfplay import _generic_random_playout
from tests.bumpem.helpers import make_game


def test_move_choices_are_the_legal_moves_resolved_alike() -> None:
    game = make_game(4)
    rules = game.rules
    rng = random.Random(5)
    compared = 0
    for _ in range(300):
        state = game.new_initial_state()
        _generic_random_playout(state, rng, int(rng.random() * 150))
        pos = tuple(state.pos)
        for ticket in ("1", "2", "3", "6", "7", "8", "9", "11", "12", "bump"):
            outcomes = rules.legal_moves(pos, state.turn, ticket)
            choices = rules.move_choices(pos, state.turn, ticket)
            assert len(choices) == len(outcomes)
            for choice, outcome in zip(choices, outcomes, strict=True):
                new, effects = rules.resolve(pos, choice)
                assert (tuple(new), tuple(effects)) == (outcome.positions, outcome.effects)
                compared += 1
    assert compared > 1000
