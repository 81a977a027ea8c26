"""Corrections of whose turn it is, a lost turn and a Hammer Up (RULINGS G5)."""

from __future__ import annotations

import json

import pytest

from engine.errors import IllegalAction
from engine.tenfour import CorrectHammer, CorrectLostTurn, CorrectTurn, Draw
from tests.tenfour.helpers import make, put, started, turn, where


def test_whose_turn_is_corrected_before_the_card_and_refused_after_it() -> None:
    state = started(make(players=3))
    assert state.prompt().player == 0
    events = state.apply(CorrectTurn(2))
    assert state.prompt().kind == "draw" and state.prompt().player == 2
    assert events[0].text == "Correction: it is Blue's turn"
    state.apply(Draw("HI"))
    before = state.to_json()
    with pytest.raises(IllegalAction):
        state.apply(CorrectTurn(0))
    assert state.to_json() == before, "a refused correction changes nothing"
    with pytest.raises(IllegalAction):
        started(make(players=3)).apply(CorrectTurn(5))


def test_a_lost_turn_set_by_correction_skips_that_players_next_turn() -> None:
    state = started(make(players=3))
    state.apply(CorrectLostTurn(1, True))
    turn(state, "HI", 4)  # Red moves; Green loses the turn; Blue is next
    assert state.prompt().player == 2
    state.apply(CorrectLostTurn(0, True))
    state.apply(CorrectLostTurn(0, False))
    turn(state, "HI", 4)
    assert state.prompt().player == 0, "a lost turn taken back costs nothing"


def test_a_hammer_up_is_set_and_taken_away_for_the_turns_truck() -> None:
    state = started(make(players=3))
    state.apply(CorrectHammer("red", True))
    prompt = state.prompt()
    assert (prompt.kind, prompt.hammer, prompt.band) == ("spin", True, "lo")
    with pytest.raises(IllegalAction):
        state.apply(CorrectHammer("green", False))
    state.apply(CorrectHammer("red", False))
    assert state.prompt().kind == "draw"
    put(state, "red", "R18")  # on a curve: the next turn is Hammer Up by position
    assert where(state, "red") == "R18"


def test_turn_corrections_round_trip_through_json() -> None:
    game = make(players=4)
    for action in (CorrectTurn(3), CorrectLostTurn(1, True), CorrectHammer("red", True)):
        again = game.action_from_json(json.loads(json.dumps(action.to_json())))
        assert again == action
