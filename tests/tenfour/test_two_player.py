"""T12: the two-player game (two trucks each, Smokeys only, declare before a Hammer Up)."""

from __future__ import annotations

import pytest

from engine.errors import IllegalAction, Reason
from engine.tenfour import ChooseTruck, DeclareTruck, Draw, MoveBear, MoveSmokey, PlaceSmokey, Spin
from tests.tenfour.helpers import kinds, make, put, started, turn, where


def _placed(first: int = 0):  # type: ignore[no-untyped-def]
    game = make(players=2, variant="two-player")
    state = started(game, first=first)
    state.apply(PlaceSmokey("TG"))
    state.apply(PlaceSmokey("TY"))
    return state


def test_t12_trucks_pair_up_on_the_red_and_blue_entrances() -> None:
    game = make(players=2, variant="two-player")
    assert game.seats == ("red", "blue")
    assert game.trucks == ("red", "green", "blue", "yellow")
    state = game.new_initial_state()
    assert [where(state, c) for c in game.trucks] == ["R1", "R1", "B1", "B1"]
    assert set(state.police) == {"smokey1", "smokey2"}  # no Bear In The Air


def test_t12_each_player_places_a_smokey_in_a_trap_before_play() -> None:
    game = make(players=2, variant="two-player")
    state = started(game, first=1)
    prompt = state.prompt()
    assert (prompt.kind, prompt.player) == ("place_smokey", 1)
    assert [a.trap for a in state.legal_actions()] == ["TB", "TG", "TR", "TY"]
    state.apply(PlaceSmokey("TR"))
    assert state.prompt().player == 0
    events = state.apply(PlaceSmokey("TR"), player=0)  # both may share a trap
    assert kinds(events).count("smokey_placed") == 1
    assert state.police == {"smokey1": "TR", "smokey2": "TR"}
    assert state.prompt().kind == "draw" and state.prompt().player == 1


def test_t12_turn_is_draw_spin_then_choose_either_truck() -> None:
    state = _placed()
    turn(state, "LO", 3)
    prompt = state.prompt()
    assert (prompt.kind, prompt.trucks, prompt.spin) == ("choose_truck", ("red", "green"), 3)
    previews = {a.truck: a for a in state.legal_actions()}
    assert previews["green"].to == "R4" and previews["green"].steps == 3
    with pytest.raises(IllegalAction) as refused:
        state.apply(ChooseTruck("blue"))  # the opponent's truck
    assert refused.value.reason is Reason.NOT_LEGAL_NOW
    state.apply(ChooseTruck("green"))
    assert where(state, "green") == "R4" and where(state, "red") == "R1"
    assert state.prompt().kind == "draw" and state.prompt().player == 1


def test_t12_police_move_is_smokeys_only_and_no_park() -> None:
    state = _placed()
    turn(state, "B19LO", 2)
    state.apply(ChooseTruck("red"))
    assert state.prompt().kind == "police"
    legal = state.legal_actions()
    assert legal and all(isinstance(a, MoveSmokey) for a in legal)
    assert not any(isinstance(a, MoveBear) for a in legal)


def test_t12_truck_on_hammer_up_means_declare_before_drawing() -> None:
    game = make(players=2, variant="two-player")
    state = started(game)
    put(state, "green", "R18")  # on the curve before play starts
    state.apply(PlaceSmokey("TB"))
    state.apply(PlaceSmokey("TY"))
    prompt = state.prompt()
    assert (prompt.kind, prompt.player) == ("declare_truck", 0)
    declared = {a.truck: a.hammer for a in state.legal_actions()}
    assert declared == {"red": False, "green": True}
    snapshot = state.clone()
    # choosing the Hammer Up truck: no card, the Lo-Band
    events = state.apply(DeclareTruck("green"))
    assert "hammer_up" in kinds(events)
    assert (state.prompt().kind, state.prompt().band, state.prompt().hammer) == ("spin", "lo", True)
    state.apply(Spin(4))
    assert where(state, "green") == "G2" and where(state, "red") == "R1"
    # choosing the other truck: draw, spin, and it moves without a further choice
    snapshot.apply(DeclareTruck("red"))
    assert snapshot.prompt().kind == "draw"
    snapshot.apply(Draw("HI"))
    snapshot.apply(Spin(5))
    assert where(snapshot, "red") == "R6" and where(snapshot, "green") == "R18"
    assert snapshot.prompt().player == 1


def test_t12_home_truck_stays_home_and_the_other_moves_both_home_wins() -> None:
    state = _placed()
    put(state, "red", "home")
    assert not state.winners()
    put(state, "green", "Y15")
    turn(state, "LO", 3)  # only green can move: no choice
    assert where(state, "green") == "Y18" and where(state, "red") == "home"
    assert state.prompt().player == 1
    turn(state, "LO", 1)
    state.apply(ChooseTruck("blue"))
    state.apply(Spin(3))  # green is on the Hammer Up curve: no card, Lo-Band
    assert where(state, "green") == "home"
    assert state.winners() == [0]


def test_t12_a_caught_truck_costs_its_owner_the_next_turn() -> None:
    state = _placed()
    put(state, "smokey1", "R5")
    turn(state, "LO", 3)
    events = state.apply(ChooseTruck("red"))  # R4, behind the Smokey
    assert "smokey_catch" in kinds(events)
    turn(state, "LO", 1)
    events = state.apply(ChooseTruck("blue"))
    assert "lost_turn" in kinds(events)
    assert state.prompt().player == 1
