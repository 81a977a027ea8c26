"""The shipped board and deck play like the real game (RULINGS: 15-25 turns per player)."""

from __future__ import annotations

import random

import pytest

from engine.selfplay import play
from rig.gamebuild import build_game


@pytest.mark.parametrize("players", [3, 4])
def test_default_game_lasts_roughly_15_to_25_turns_per_player(players: int) -> None:
    game = build_game("tenfour", players=players)
    turns = []
    police_moves = 0
    for seed in range(40):
        result = play(game, random.Random(seed))
        assert result.finished
        turns.append(sum(1 for e in result.events if e.kind == "turn"))
        police_moves += sum(1 for e in result.events
                            if e.kind in ("smokey_exact_move", "smokey_trap_move", "bear_move"))
    per_player = sum(turns) / len(turns) / players
    assert 15 <= per_player <= 25, per_player
    assert police_moves > 40 * 2  # the police matter: several moves per game on average
