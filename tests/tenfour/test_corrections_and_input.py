"""Corrections (RULINGS G1), refused input (every Reason), JSON round trips, prompts."""

from __future__ import annotations

import json
import random

import pytest

from engine.errors import IllegalAction, Reason
from engine.selfplay import sample_chance
from engine.tenfour import (
    OPTIONS,
    SIM_COUNTERS,
    ChooseTruck,
    Correct,
    DeclareTruck,
    Draw,
    MoveBear,
    MoveSmokey,
    PlaceSmokey,
    Release,
    Spin,
    build,
)
from rig.gamebuild import build_game
from tests.tenfour.helpers import kinds, make, police_out, put, started, turn, where

MENU_ITEM_LIMIT = 76
"""The longest choice the rig shows whole when selected: four rows of 19 (the menu wraps it)."""


def frozen(state) -> str:  # type: ignore[no-untyped-def]
    return json.dumps(state.to_json(), sort_keys=True)


# -- corrections ----------------------------------------------------------------------------


def test_correction_options_name_every_piece_and_place() -> None:
    state = started(make(players=3))
    options = state.correction_options()
    assert set(options) == {"red", "green", "blue", "smokey1", "smokey2", "bear"}
    assert {"R5", "side:R5", "home"} <= set(options["red"])
    assert {"R5", "TR", "SC1", "park"} <= set(options["smokey1"])
    assert options["bear"] == ["AR", "AG", "AB", "AY", "park"]
    assert not any(isinstance(a, Correct) for a in state.legal_actions())


def test_correction_accepted_at_a_chance_node_whatever_the_seat() -> None:
    state = started(make(players=3))
    assert state.is_chance_node()
    events = state.apply(Correct("green", "G9"), player=2)
    assert kinds(events) == ["correction"]
    assert where(state, "green") == "G9"
    assert state.prompt().kind == "draw" and state.prompt().player == 0  # the turn is unchanged


def test_correcting_a_truck_to_the_side_of_the_road_costs_its_next_turn() -> None:
    state = started(make(players=3))
    put(state, "green", "side:G3")
    assert where(state, "green") == "side:G3" and state.lose == [False, True, False]
    events = turn(state, "LO", 1)  # red; then green's turn is lost
    assert "lost_turn" in kinds(events) and state.prompt().player == 2
    turn(state, "LO", 1)  # blue
    events = turn(state, "LO", 1)  # red; green's next turn begins: back on the road
    assert "back_on_road" in kinds(events) and where(state, "green") == "G3"
    turn(state, "LO", 2)  # green goes on from G3
    assert where(state, "green") == "G5"


def test_correcting_a_truck_home_ends_the_game() -> None:
    state = started(make(players=3))
    events = put(state, "blue", "home")
    assert "winner" in kinds(events) and state.winners() == [2] and state.is_terminal()
    with pytest.raises(IllegalAction) as refused:
        state.apply(Correct("red", "R2"))
    assert refused.value.reason is Reason.GAME_OVER


def test_correcting_police_back_to_the_park_brings_back_the_release() -> None:
    state = started(make(players=3))
    police_out(state)
    put(state, "bear", "park")
    turn(state, "B19LO", 1)
    assert state.prompt().kind == "release"
    assert {a.piece for a in state.legal_actions()} == {"bear"}


def test_bad_corrections_are_refused_and_change_nothing() -> None:
    state = started(make(players=3))
    before = frozen(state)
    for piece, location in [("red", "TR"), ("smokey1", "home"), ("bear", "R5"),
                            ("purple", "R1"), ("yellow", "R1")]:
        with pytest.raises(IllegalAction) as refused:
            state.apply(Correct(piece, location))
        assert refused.value.reason is Reason.NOT_LEGAL_NOW
    assert frozen(state) == before


def test_two_player_correction_at_a_choice_node_settles_a_forced_move() -> None:
    game = make(players=2, variant="two-player")
    state = started(game)
    state.apply(PlaceSmokey("TB"))
    state.apply(PlaceSmokey("TY"))
    state.apply(Draw("LO"))
    state.apply(Spin(2))
    assert state.prompt().kind == "choose_truck"
    events = put(state, "red", "home")  # only green can move now: it moves at once
    assert "truck_move" in kinds(events) and where(state, "green") == "R3"
    assert "park" not in state.correction_options()["smokey1"]


def test_correction_round_trips_as_journal_json() -> None:
    game = make(players=3)
    action = Correct("red", "side:R4")
    assert game.action_from_json(json.loads(json.dumps(action.to_json()))) == action


# -- refused input: every Reason, state unchanged ------------------------------------------------


def test_not_your_turn_at_decision_and_chance_nodes() -> None:
    state = started(make(players=3))
    before = frozen(state)
    with pytest.raises(IllegalAction) as refused:
        state.apply(Draw("HI"), player=0)
    assert refused.value.reason is Reason.NOT_YOUR_TURN
    police_out(state)
    turn(state, "B19LO", 1)
    before = frozen(state)
    with pytest.raises(IllegalAction) as refused:
        state.apply(state.legal_actions()[0], player=1)
    assert refused.value.reason is Reason.NOT_YOUR_TURN
    assert frozen(state) == before


def test_not_legal_now() -> None:
    state = started(make(players=3))
    police_out(state, smokey1="R1")
    turn(state, "B19LO", 1)
    before = frozen(state)
    for action in [Release("bear", "AR"), MoveSmokey("smokey1", "R12"), ChooseTruck("red"),
                   Spin(3)]:
        with pytest.raises(IllegalAction) as refused:
            state.apply(action)
        assert refused.value.reason is Reason.NOT_LEGAL_NOW, action
    assert frozen(state) == before


def test_impossible_outcomes() -> None:
    state = started(make(players=3))
    before = frozen(state)
    for action in [Spin(5), Draw("NOPE"), MoveSmokey("smokey1", "R11")]:
        with pytest.raises(IllegalAction) as refused:
            state.apply(action)
        assert refused.value.reason is Reason.IMPOSSIBLE_OUTCOME
    state.apply(Draw("LO"))
    with pytest.raises(IllegalAction) as refused:
        state.apply(Spin(12))  # not on the Lo-Band
    assert refused.value.reason is Reason.IMPOSSIBLE_OUTCOME
    assert frozen(state) != before


def test_game_over_refuses_everything() -> None:
    state = started(make(players=3))
    police_out(state)
    put(state, "red", "Y12")
    turn(state, "HI", 12)
    assert state.is_terminal() and state.prompt().kind == "over"
    before = frozen(state)
    with pytest.raises(IllegalAction) as refused:
        state.apply(Draw("HI"))
    assert refused.value.reason is Reason.GAME_OVER
    assert frozen(state) == before


@pytest.mark.parametrize("data", [
    {"kind": "spin"},
    {"kind": "spin", "value": 3, "extra": 1},
    {"kind": "smokey_move", "smokey": "smokey1", "to": "R3", "steps": 10},  # a preview field
    {"kind": "teleport"},
    ["spin", 3],
])
def test_malformed_json_actions(data) -> None:  # type: ignore[no-untyped-def]
    game = make(players=3)
    with pytest.raises(IllegalAction) as refused:
        game.action_from_json(data)
    assert refused.value.reason is Reason.MALFORMED


@pytest.mark.parametrize(("players", "variant", "options", "seats"), [
    (2, "standard", None, None),
    (3, "two-player", None, None),
    (5, "standard", None, None),
    (3, "speedy", None, None),
    (3, "standard", {"bear_limit": "8"}, None),
    (3, "standard", {"no_such_rule": True}, None),
    (3, "standard", {"trap_catches_on_entry": 1}, None),
    (3, "standard", None, ["red", "red", "blue"]),
    (3, "standard", None, ["red", "green", "purple"]),
    (2, "two-player", None, ["red", "green"]),
])
def test_bad_settings_are_value_errors(players, variant, options, seats) -> None:  # type: ignore[no-untyped-def]
    from rig.datafiles import read_data

    data = {role: read_data(f"default:tenfour_{role}.toml", "engine.tenfour.data")
            for role in ("board", "bands", "deck")}
    with pytest.raises(ValueError):
        build(players=players, variant=variant, data=data, options=options, seats=seats)


def test_seats_choose_colours_in_seating_order() -> None:
    game = build_game("tenfour", players=3, seats=["yellow", "red", "blue"])
    state = game.new_initial_state()
    assert game.seat_name(0) == "Yellow" and where(state, "yellow") == "Y1"


# -- JSON, prompts, describe, the options and counters -----------------------------------------


@pytest.mark.parametrize(("players", "variant"), [(3, "standard"), (4, "standard"),
                                                  (2, "two-player")])
def test_random_games_round_trip_prompt_and_describe(players: int, variant: str) -> None:
    game = build_game("tenfour", players=players, variant=variant)
    seen: set[str] = set()
    for seed in range(8):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while True:
            again = game.state_from_json(json.loads(json.dumps(state.to_json())))
            assert again == state and frozen(again) == frozen(state)
            seen.add(state.prompt().kind)
            if state.is_terminal():
                break
            if state.is_chance_node():
                action = sample_chance(state.chance_outcomes(), rng)
            else:
                legal = state.legal_actions()
                for option in legal:
                    assert len(state.describe(option)) <= MENU_ITEM_LIMIT, state.describe(option)
                action = legal[rng.randrange(len(legal))]
            state.apply(action)
    expected = {"start_spin", "draw", "spin", "over"}
    expected |= ({"place_smokey", "choose_truck", "declare_truck", "police"}
                 if variant == "two-player" else {"release", "police"})
    assert expected <= seen


def test_state_from_bad_json_is_a_value_error() -> None:
    game = make(players=3)
    good = game.new_initial_state().to_json()
    for bad in [{}, {**good, "phase": "nap"}, {**good, "trucks": {"red": {}}},
                {**good, "card": "NOPE"}]:
        with pytest.raises(ValueError):
            game.state_from_json(bad)


def test_clone_is_independent() -> None:
    state = started(make(players=3))
    copy = state.clone()
    turn(copy, "HI", 5)
    assert where(state, "red") == "R1" and where(copy, "red") == "R6"
    assert copy != state


def test_options_and_counters_are_documented() -> None:
    assert OPTIONS == {"bear_limit": 8, "smokey_move": 10, "trap_catches_on_entry": False,
                       "sidelined_immune": True, "police_move_when_stuck": True}
    assert set(SIM_COUNTERS) == {
        "smokey_catch", "trap_catch", "bear_catch", "lost_turn", "hammer_up", "break_one_nine",
        "park_exit", "smokey_exact_move", "smokey_trap_move", "shortcut_move", "bear_move",
        "reshuffle", "card_draw", "spin"}


def test_putting_a_sidelined_truck_back_on_the_road_cancels_its_lost_turn() -> None:
    state = started(make(players=3))
    put(state, "green", "side:G3")
    assert state.lose == [False, True, False]
    put(state, "green", "G3")
    assert state.lose == [False, False, False] and where(state, "green") == "G3"


def test_two_player_declared_truck_corrected_home_after_the_draw() -> None:
    game = make(players=2, variant="two-player")
    state = started(game)
    put(state, "green", "R18")
    state.apply(PlaceSmokey("TB"))
    state.apply(PlaceSmokey("TY"))
    state.apply(DeclareTruck("red"))
    state.apply(Draw("HI"))
    put(state, "red", "home")  # the table says red is already home: the card stays drawn
    assert state.prompt().kind == "spin" and state.prompt().card == "HI"
    state.apply(Spin(5))
    assert where(state, "green") == "G3"


def test_state_from_json_refuses_impossible_positions() -> None:
    game = make(players=3)
    good = game.new_initial_state().to_json()
    for bad in [{**good, "turn": 7}, {**good, "police": {**good["police"], "bear": "R1"}},
                {**good, "pile": {**good["pile"], "HI": 11}}, {**good, "lose_next_turn": [True]}]:
        with pytest.raises(ValueError):
            game.state_from_json(bad)


def test_describe_reads_like_an_instruction() -> None:
    state = started(make(players=3))
    assert state.describe(Spin(7)) == "Spin 7"
    assert state.describe(Draw("HI")) == "Draw Mike card HI"
    via = MoveSmokey("smokey1", "G8", 10, "SC1")
    assert state.describe(via) == "Smokey 1 in Yellowstone Park: 10 to G8 by short cut"
    assert state.describe(MoveSmokey("smokey2", "TR", 7, "", True)) == (
        "Smokey 2 in Yellowstone Park: 7 into the Bear Trap on Red")
    assert state.describe(Release("bear", "AR")) == "Bear to the Red route"
    assert state.describe(Release("smokey1", "TB")) == "Smokey 1 into the Bear Trap on Blue"
    assert state.describe(MoveBear("AG", "green")) == "Bear to the Green route"
    assert state.describe(ChooseTruck("green", 5, "R6", True)) == (
        "Green truck at G1: 5 to R6, caught!")
    assert state.describe(Correct("red", "side:R4")) == "Set Red truck to side of road R4"
    assert state.describe(Correct("smokey1", "SC1")) == (
        "Set Smokey 1 onto the short cut R16-G2")


def test_a_journal_of_inputs_with_a_correction_replays_to_the_same_state() -> None:
    game = build_game("tenfour", players=4)
    rng = random.Random(11)
    state = game.new_initial_state()
    journal: list[dict] = []  # type: ignore[type-arg]
    for step in range(120):
        if state.is_terminal():
            break
        if step == 40:
            action = Correct("smokey1", "R5")
        elif state.is_chance_node():
            action = sample_chance(state.chance_outcomes(), rng)
        else:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
        state.apply(action)
        journal.append(json.loads(json.dumps(action.to_json())))
    replayed = game.new_initial_state()
    for data in journal:
        replayed.apply(game.action_from_json(data))
    assert replayed == state and frozen(replayed) == frozen(state)
