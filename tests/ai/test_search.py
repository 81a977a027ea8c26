"""The `hard` search in slices (engine.search.Search): the same answer however the work is
cut, so a caller with an event loop can spread a decision over its idle time."""

from __future__ import annotations

import json
import random

import pytest

from engine.api import State
from engine.bumpem.ai import HARD_HOOKS as BUMPEM_HOOKS
from engine.bumpem.state import BumpemState
from engine.players import chooser_for
from engine.search import Search, SearchHooks, played_on, search_choice
from engine.selfplay import play, sample_chance
from engine.tenfour.ai import HARD_HOOKS as TENFOUR_HOOKS
from rig.gamebuild import build_game

BUDGET = 40


def _decisions(game_name: str, count: int) -> list[State]:
    """Real decisions (several distinct moves) spread over one seeded medium game."""
    game = build_game(game_name, players=2)
    medium = chooser_for(game_name, "medium")
    found: list[State] = []

    def keep(state: State, action: object, events: object) -> None:
        if not state.is_terminal() and not state.is_chance_node() and len(
                state.legal_actions()) > 2:
            found.append(state.clone())

    play(game, random.Random(f"slices:{game_name}"), [medium, medium], keep_events=False,
         on_step=keep)
    return found[::max(1, len(found) // count)][:count]


@pytest.mark.parametrize(("game_name", "hooks"), [("tenfour", TENFOUR_HOOKS),
                                                  ("bumpem", BUMPEM_HOOKS)])
def test_slices_of_any_size_give_the_whole_searchs_answer(game_name: str,
                                                          hooks: SearchHooks) -> None:
    sliced_somewhere = False
    for i, state in enumerate(_decisions(game_name, 4)):
        legal = state.legal_actions()
        whole = search_choice(state, legal, random.Random(i), BUDGET, hooks)
        for size in (1, 7):
            search = Search(state, legal, random.Random(i), BUDGET, hooks)
            slices = 1
            while (action := search.advance(size)) is None:
                slices += 1
            assert action == whole
            assert search.advance(size) == whole  # finished: stays answered
            sliced_somewhere |= slices > 1
    assert sliced_somewhere, "no decision needed more than one slice"


def test_the_slices_use_the_callers_rng_exactly_as_the_whole_search() -> None:
    state = _decisions("tenfour", 1)[0]
    legal = state.legal_actions()
    whole_rng, sliced_rng = random.Random(3), random.Random(3)
    search_choice(state, legal, whole_rng, BUDGET, TENFOUR_HOOKS)
    search = Search(state, legal, sliced_rng, BUDGET, TENFOUR_HOOKS)
    while search.advance(3) is None:
        pass
    assert sliced_rng.random() == whole_rng.random()


def test_a_search_refuses_another_games_state_at_once() -> None:
    state = _decisions("bumpem", 1)[0]
    with pytest.raises(TypeError, match="TenFourState"):
        Search(state, state.legal_actions(), random.Random(0), BUDGET, TENFOUR_HOOKS)


def test_playing_on_stops_at_the_movers_turn_start_that_many_rounds_later() -> None:
    start = build_game("bumpem", players=3).new_initial_state()
    before = json.dumps(start.to_json())
    turn_starts = 0

    def counted(s: State, root: State, me: int) -> bool:
        nonlocal turn_starts
        began = BUMPEM_HOOKS.is_leaf(s, root, me)
        turn_starts += began
        return began

    later = played_on(start, 0, random.Random(3), 2, BUMPEM_HOOKS.policy, counted)
    assert json.dumps(start.to_json()) == before  # the searched position is untouched
    assert turn_starts == 2
    assert BUMPEM_HOOKS.is_leaf(later, start, 0) and not later.is_terminal()
    assert json.dumps(later.to_json()) != before


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_longer_bump_em_horizon_scores_another_position_and_hard_looks_one_round_ahead(
        players: int) -> None:
    from engine.bumpem.ai import hard_leaf

    start = _bumpem_turn_start(players, turns=30)
    me = start.current_player()
    scores = {n: hard_leaf(start, me, random.Random(9), rounds=n) for n in (1, 2)}
    assert scores[1] != scores[2]
    assert BUMPEM_HOOKS.leaf(start, me, random.Random(9)) == scores[1]


def _bumpem_turn_start(players: int, turns: int) -> State:
    """The start of a turn (a ticket to draw) `turns` turns into a seeded medium game,
    cars out on the track."""
    game = build_game("bumpem", players=players)
    medium = chooser_for("bumpem", "medium")
    rng = random.Random(f"turns:{players}")
    state = game.new_initial_state()
    assert isinstance(state, BumpemState)
    for _ in range(turns):
        state.apply(sample_chance(state.chance_outcomes(), rng))
        while not state.is_terminal() and not BUMPEM_HOOKS.is_leaf(state, state, state.turn):
            state.apply(sample_chance(state.chance_outcomes(), rng) if state.is_chance_node()
                        else medium(state, state.legal_actions(), rng))
    return state
