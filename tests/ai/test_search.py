"""The `hard` search in slices (engine.search.Search): the same answer however the work is
cut, so a caller with an event loop can spread a decision over its idle time."""

from __future__ import annotations

import random

import pytest

from engine.api import State
from engine.bumpem.ai import HARD_HOOKS as BUMPEM_HOOKS
from engine.players import chooser_for
from engine.search import Search, SearchHooks, search_choice
from engine.selfplay import play
from engine.tenfour.ai import HARD_HOOKS as TENFOUR_HOOKS
from rig.games import build_game

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
