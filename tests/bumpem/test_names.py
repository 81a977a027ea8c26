"""Cars named by where they stand, places as the board prints them (RULINGS G4)."""

from __future__ import annotations

from engine.bumpem.names import car_at, position_label, position_name, position_rank
from tests.bumpem.helpers import draw, make_game, position


def test_a_car_is_named_by_where_it_stands() -> None:
    assert car_at("red", "T35") == "Red car at T35"
    assert car_at("red", "pit:red") == "Red car in pit"
    assert car_at("red", "home:red:3") == "Red car in home stretch 3"
    assert car_at("blue", "finish:blue") == "Blue car in finish"
    assert position_name("home:red:3") == "home stretch 3"
    assert [position_label(p) for p in ("T7", "pit:red", "home:red:2", "finish:red")] == [
        "T7", "Pit", "2", "Finish"]  # a home step prints under HOME STRETCH (issue 27)


def test_positions_sort_in_board_order_from_a_start() -> None:
    ids = ["finish:red", "T3", "home:red:1", "T7", "pit:red", "T60"]
    assert sorted(ids, key=lambda p: position_rank(p, 60, start=4)) == [
        "pit:red", "T7", "T60", "T3", "home:red:1", "finish:red"]


def test_every_move_names_the_car_and_where_it_ends() -> None:
    state = position(make_game(4), {"red": ["T6", "pit:red"], "blue": ["T20"]},
                     phase="move", ticket="12")
    texts = sorted(state.describe(a) for a in state.legal_actions())
    assert "Red car at T6: 12 to T18" in texts
    assert "Red car in pit enters at T5" in texts
    events = draw(position(make_game(4), {"red": ["T6"], "blue": ["T20"]}), "2")
    assert [e.text for e in events if e.kind == "forced_move"] == [
        "Only move: Red car at T6: 2 to T8"]


def test_whose_turn_is_corrected_before_a_ticket_only() -> None:
    import pytest

    from engine.bumpem import CorrectTurn
    from engine.errors import IllegalAction

    state = position(make_game(3), {"red": ["T6"]})
    state.apply(CorrectTurn(2))
    assert state.prompt().player == 2 and state.prompt().kind == "ticket"
    moving = position(make_game(3), {"red": ["T6", "T30"]}, phase="move", ticket="5")
    with pytest.raises(IllegalAction):
        moving.apply(CorrectTurn(1))
