"""The `strong` 10-Four level: legal, deterministic, sensible police moves, and it wins."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from engine.api import Action, State
from engine.players import chooser_for
from engine.selfplay import Rng, play, random_choice
from engine.tenfour import ChooseTruck, MoveSmokey, PlaceSmokey, TenFourState
from engine.tenfour.ai import evaluate_actions, hard_choice, strong_choice
from rig.gamebuild import build_game
from tests.tenfour.helpers import make, police_out, put, started, turn


def _checked(state: State, legal: Sequence[Action], rng: Rng) -> Action:
    action = strong_choice(state, legal, rng)
    assert action in legal
    assert action in state.legal_actions()
    return action


@pytest.mark.parametrize("players", [2, 3, 4])
def test_always_returns_a_legal_action(players: int) -> None:
    game = build_game("tenfour", players=players)
    for seed in range(6):
        result = play(game, random.Random(seed), [_checked] * players, keep_events=False)
        assert result.finished


@pytest.mark.parametrize("options", [
    {"trap_catches_on_entry": True, "sidelined_immune": False},
    {"police_move_when_stuck": False, "bear_limit": 6, "smokey_move": 7},
])
def test_legal_under_other_options(options: dict[str, object]) -> None:
    for players, variant in ((2, "two-player"), (4, "standard")):
        game = make(players=players, variant=variant, options=options)
        for seed in range(3):
            result = play(game, random.Random(seed), [_checked] * players, keep_events=False)
            assert result.finished


def test_the_level_is_registered() -> None:
    assert chooser_for("tenfour", "strong") is strong_choice


@pytest.mark.parametrize("players", [2, 4])
def test_deterministic_for_a_seed(players: int) -> None:
    game = build_game("tenfour", players=players)
    choosers = [strong_choice, random_choice] * (players // 2)
    first = play(game, random.Random(7), choosers)
    again = play(game, random.Random(7), choosers)
    assert [e.text for e in first.events] == [e.text for e in again.events]
    assert first.state == again.state


def _police_turn(red: str, green: str, blue: str) -> TenFourState:
    """Three players, Red to make a police move: Smokey 1 on R20 can go 10 to G10
    (catching trucks on G9-G11) or into trap TG; Smokey 2 in trap TY; the Bear on AY."""
    state = started(make(players=3), 0)
    police_out(state, smokey1="R20", smokey2="TY", bear="AY")
    put(state, "red", red)
    put(state, "green", green)
    put(state, "blue", blue)
    turn(state, "B19LO", 1)  # Red moves 1, then BREAK ONE NINE
    assert state.prompt().kind == "police"
    return state


def _two_player_police_turn(green: str, blue: str) -> TenFourState:
    """Two players, Red (red + green trucks) moves its red truck 1 from R2 and then
    moves a Smokey: Smokey 1 on R20 can go 10 to G10 (catching G9-G11) or into TG."""
    state = started(make(players=2, variant="two-player"), 0)
    state.apply(PlaceSmokey("TB"))
    state.apply(PlaceSmokey("TY"))
    put(state, "smokey1", "R20")
    put(state, "red", "R2")
    put(state, "green", green)
    put(state, "blue", blue)
    put(state, "yellow", "B3")
    turn(state, "B19LO", 1)
    state.apply(ChooseTruck("red"))
    assert state.prompt().kind == "police"
    return state


def _smokey_moves(state: TenFourState) -> list[MoveSmokey]:
    return [a for a in state.legal_actions() if isinstance(a, MoveSmokey)]


def test_prefers_a_police_move_that_catches_an_opponent() -> None:
    state = _two_player_police_turn(green="R5", blue="G11")
    legal = state.legal_actions()
    catching = [a for a in _smokey_moves(state) if a.catches == ("blue",)]
    assert catching and any(not a.catches for a in _smokey_moves(state))
    for seed in range(5):
        assert strong_choice(state, legal, random.Random(seed)) in catching


def test_ranks_catching_smokey_moves_above_idle_ones_with_three_players() -> None:
    state = _police_turn(red="R2", green="G11", blue="B5")
    moves = _smokey_moves(state)
    scores = dict(zip(moves, evaluate_actions(state, moves), strict=True))
    catching = [scores[a] for a in moves if a.catches == ("green",)]
    idle = [scores[a] for a in moves if not a.catches]
    assert catching and idle
    assert min(catching) > max(idle)


def test_avoids_a_police_move_that_catches_its_own_truck() -> None:
    state = _two_player_police_turn(green="G9", blue="B5")  # green is on G9
    legal = state.legal_actions()
    assert any(a.catches == ("green",) for a in _smokey_moves(state))
    for seed in range(5):
        chosen = strong_choice(state, legal, random.Random(seed))
        assert not (isinstance(chosen, MoveSmokey) and "green" in chosen.catches)
    state = _police_turn(red="G10", green="B3", blue="Y14")  # Red ends on G11
    legal = state.legal_actions()
    assert any(a.catches == ("red",) for a in _smokey_moves(state))
    for seed in range(5):
        chosen = strong_choice(state, legal, random.Random(seed))
        assert not (isinstance(chosen, MoveSmokey) and "red" in chosen.catches)


def _truck_choice_with_a_catch() -> TenFourState:
    """Two players, Red to choose a truck for a 6: red ends caught, green does not."""
    game = make(players=2, variant="two-player")
    state = started(game, 0)
    state.apply(PlaceSmokey("TG"))
    state.apply(PlaceSmokey("TY"))
    put(state, "red", "G2")  # 6 more ends on G8, in trap TG with a Smokey in it
    put(state, "green", "R3")  # 6 more ends on R9: nothing there
    turn(state, "LO", 6)
    return state


def test_two_player_truck_choice_avoids_a_catch() -> None:
    state = _truck_choice_with_a_catch()
    legal = state.legal_actions()
    choices = [a for a in legal if isinstance(a, ChooseTruck)]
    assert {a.to: a.caught for a in choices} == {"G8": True, "R9": False}
    for seed in range(5):
        chosen = strong_choice(state, legal, random.Random(seed))
        assert isinstance(chosen, ChooseTruck) and chosen.to == "R9"


def test_two_player_places_its_smokey_in_front_of_the_opponent() -> None:
    state = started(make(players=2, variant="two-player"), 0)
    legal = state.legal_actions()
    traps = [a.trap for a in legal if isinstance(a, PlaceSmokey)]
    scores = dict(zip(traps, evaluate_actions(state, legal), strict=True))
    # Blue's trucks start on B1: trap TB (B7-B9) lies in their landing zone; Red's
    # own trucks start on R1, so TR (R7-R9) is the worst place.
    assert max(scores, key=scores.__getitem__) == "TB"
    assert min(scores, key=scores.__getitem__) == "TR"


def test_strong_beats_random_in_two_player_games() -> None:
    game = build_game("tenfour", players=2)
    games = 300
    wins = 0
    for g in range(games):
        seat = g % 2  # alternate seats
        choosers = [random_choice, random_choice]
        choosers[seat] = strong_choice
        result = play(game, random.Random(f"ai-test:{g}"), choosers, keep_events=False)
        wins += seat in result.state.winners()
    assert wins / games > 0.53


def _hard(state: State, legal: Sequence[Action], rng: Rng) -> Action:
    return hard_choice(state, legal, rng, budget=60)


def test_hard_catches_the_opponent_and_spares_its_own_truck() -> None:
    state = _two_player_police_turn(green="R5", blue="G11")
    legal = state.legal_actions()
    catching = [a for a in _smokey_moves(state) if a.catches == ("blue",)]
    for seed in range(3):
        assert _hard(state, legal, random.Random(seed)) in catching
    state = _two_player_police_turn(green="G9", blue="B5")
    legal = state.legal_actions()
    for seed in range(3):
        chosen = _hard(state, legal, random.Random(seed))
        assert not (isinstance(chosen, MoveSmokey) and "green" in chosen.catches)


def test_hard_moves_the_truck_that_is_not_caught() -> None:
    state = _truck_choice_with_a_catch()
    legal = state.legal_actions()
    for seed in range(3):
        chosen = _hard(state, legal, random.Random(seed))
        assert isinstance(chosen, ChooseTruck) and chosen.to == "R9"


def test_hard_is_registered_and_refuses_other_games() -> None:
    assert chooser_for("tenfour", "hard") is hard_choice
    from tests.bumpem.helpers import make_game

    with pytest.raises(TypeError):
        hard_choice(make_game(2).new_initial_state(), [], random.Random(0))


def test_hard_plays_medium_with_three_or_four_players() -> None:
    state = _police_turn(red="R2", green="G11", blue="B5")
    legal = state.legal_actions()
    for seed in range(3):
        assert hard_choice(state, legal, random.Random(seed)) == \
            strong_choice(state, legal, random.Random(seed))
