"""One scenario per ruling T1-T13 (RULINGS.md), from hand-built positions."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from engine.api import TERMINAL
from engine.errors import IllegalAction, Reason
from engine.tenfour import Draw, MoveBear, MoveSmokey, Release, Spin
from tests.tenfour.helpers import kinds, make, police_out, put, started, turn, where

# -- T1 board and winning -------------------------------------------------------------


def test_t1_reaching_or_passing_the_start_space_wins_at_once() -> None:
    game = make(players=3)
    state = started(game)
    police_out(state)
    put(state, "red", "Y18")  # three spaces before Red's start R1
    events = turn(state, "HI", 9)  # 6 past the start: no exact count needed
    assert "winner" in kinds(events)
    assert state.winners() == [0]
    assert state.current_player() == TERMINAL
    assert where(state, "red") == "home"
    assert state.prompt().kind == "over"


def test_t1_exact_landing_on_start_also_wins_and_short_does_not() -> None:
    game = make(players=3)
    state = started(game)
    police_out(state)
    put(state, "red", "Y16")
    turn(state, "HI", 3)  # Y19: one short (and on the Hammer Up curve)
    assert where(state, "red") == "Y19"
    assert not state.winners()
    turn(state, "LO", 1)
    turn(state, "LO", 1)
    state.apply(Spin(2))  # red's Hammer Up turn: Y19 -> R1 exactly
    assert state.winners() == [0]


def test_t1_the_loop_is_clockwise_in_route_order() -> None:
    game = make(players=4)
    assert [r.colour for r in game.board.routes] == ["red", "green", "blue", "yellow"]
    loop = game.board.loop
    assert loop[0] == "R1" and loop[20] == "G1" and loop[40] == "B1" and loop[79] == "Y20"
    # Red and Blue entrances are opposite (the two-player game relies on it).
    assert game.board.start["blue"] - game.board.start["red"] == game.board.size // 2


# -- T2 spinners ----------------------------------------------------------------------


def test_t2_spin_is_uniform_over_printed_segments() -> None:
    bands = "[band.hi]\nsegments = [2, 3, 3, 12]\n[band.lo]\nsegments = [1, 2]\n"
    game = make(players=3, bands=bands)
    state = game.new_initial_state()
    outcomes = dict(state.chance_outcomes())
    assert outcomes == {Spin(2): Fraction(1, 4), Spin(3): Fraction(1, 2), Spin(12): Fraction(1, 4)}


def test_t2_default_bands_hi_2_to_12_and_lo_1_to_6() -> None:
    game = make(players=3)
    state = started(game)
    assert all(isinstance(a, Draw) for a, _ in state.chance_outcomes())  # a card comes first
    state.apply(Draw("HI"))
    hi = state.chance_outcomes()
    assert [a.value for a, _ in hi] == sorted(range(2, 13), key=lambda v: Spin(v).key())
    assert all(p == Fraction(1, 11) for _, p in hi)
    with pytest.raises(IllegalAction) as refused:
        state.apply(Spin(1))
    assert refused.value.reason is Reason.IMPOSSIBLE_OUTCOME


# -- T3 a turn ----------------------------------------------------------------------------


def test_t3_turn_is_draw_spin_then_automatic_move_of_spin_plus_extra() -> None:
    game = make(players=3)
    state = started(game)
    assert state.prompt().kind == "draw" and state.prompt().player == 0
    state.apply(Draw("HI2"))
    prompt = state.prompt()
    assert (prompt.kind, prompt.band, prompt.extra, prompt.hammer) == ("spin", "hi", 2, False)
    events = state.apply(Spin(5))
    assert where(state, "red") == "R8"  # R1 + 5 + 2
    assert "truck_move" in kinds(events)
    assert state.prompt().kind == "draw" and state.prompt().player == 1  # no decision node


def test_t3_break_one_nine_moves_the_truck_first_then_the_police() -> None:
    game = make(players=3)
    state = started(game)
    events = turn(state, "B19LO", 3)
    assert kinds(events).index("break_one_nine") < kinds(events).index("truck_move")
    assert where(state, "red") == "R4"
    assert state.prompt().kind == "release" and state.current_player() == 0


def test_t3_break_one_nine_police_move_even_when_the_truck_could_not_move() -> None:
    game = make(players=3)
    state = started(game)
    police_out(state, bear="AR")
    events = turn(state, "B19HI", 9)  # the Bear on Red catches the red truck
    assert "bear_catch" in kinds(events)
    assert where(state, "red") == "R1"
    assert state.prompt().kind == "police"


def test_t3_option_can_skip_the_police_move_when_stuck() -> None:
    game = make(players=3, options={"police_move_when_stuck": False})
    state = started(game)
    police_out(state, bear="AR")
    turn(state, "B19HI", 9)
    assert state.prompt().kind == "draw" and state.prompt().player == 1


def test_t3_deck_is_reshuffled_when_the_next_draw_finds_it_used_up() -> None:
    deck = ('[[card]]\nid = "A"\nband = "lo"\ntext = "a"\n'
            '[[card]]\nid = "B"\nband = "hi"\nbreak_one_nine = true\ntext = "b"\n')
    game = make(players=3, deck=deck)
    state = started(game)
    police_out(state)
    turn(state, "A", 1)
    assert state.pile == [0, 1]
    turn(state, "B", 2)
    assert state.pile == [0, 0] and state.prompt().kind == "police"
    events = state.apply(state.legal_actions()[0])  # ends the turn; the next draw needs cards
    assert "reshuffle" in kinds(events)
    assert state.pile == [1, 1] and state.prompt().kind == "draw"


# -- T4 start order ------------------------------------------------------------------------


def test_t4_highest_start_spin_goes_first_ties_respin_among_themselves() -> None:
    game = make(players=3)
    state = game.new_initial_state()
    assert state.prompt().kind == "start_spin" and state.prompt().player == 0
    state.apply(Spin(7))
    state.apply(Spin(9))
    events = state.apply(Spin(9))
    assert "start_tie" in kinds(events)
    assert state.prompt().kind == "start_spin" and state.prompt().player == 1
    state.apply(Spin(5))  # green
    assert state.prompt().player == 2
    events = state.apply(Spin(8))  # blue wins the re-spin
    assert "start_order" in kinds(events)
    assert state.prompt().kind == "draw" and state.prompt().player == 2
    turn(state, "LO", 1)
    assert state.prompt().player == 0  # then to the left, in seating order
    turn(state, "LO", 1)
    assert state.prompt().player == 1


# -- T5 Smokey on the highway -------------------------------------------------------------


@pytest.mark.parametrize(("spin", "end"), [(2, "R3"), (3, "R4"), (4, "R5")])
def test_t5_truck_ending_behind_on_or_in_front_of_smokey_is_caught(spin: int, end: str) -> None:
    game = make(players=3)
    state = started(game)
    police_out(state, smokey1="R4")
    events = turn(state, "HI", spin)
    assert where(state, "red") == f"side:{end}"
    assert "smokey_catch" in kinds(events)
    assert state.lose == [True, False, False]


def test_t5_passing_a_smokey_does_not_catch() -> None:
    game = make(players=3)
    state = started(game)
    police_out(state, smokey1="R4")
    events = turn(state, "HI", 5)  # R1 -> R6, past the Smokey on R4
    assert where(state, "red") == "R6"
    assert "smokey_catch" not in kinds(events)


def test_t5_smokey_landing_catches_behind_on_and_in_front_including_the_mover() -> None:
    game = make(players=4)
    state = started(game)
    police_out(state, smokey1="R1")
    put(state, "red", "R9")
    put(state, "green", "R11")
    put(state, "blue", "R12")
    put(state, "yellow", "R13")
    turn(state, "B19LO", 1)  # red (the mover) to R10
    move = next(a for a in state.legal_actions()
                if isinstance(a, MoveSmokey) and a.smokey == "smokey1" and a.to == "R11")
    assert move.steps == 10 and move.via == "" and move.catches == ("red", "green", "blue")
    events = state.apply(MoveSmokey("smokey1", "R11"))
    assert kinds(events).count("smokey_catch") == 3
    assert [where(state, c) for c in ("red", "green", "blue", "yellow")] == [
        "side:R10", "side:R11", "side:R12", "R13"]
    # green's and blue's turns, next in line, are skipped at once: yellow is to play
    assert kinds(events).count("lost_turn") == 2
    assert state.lose == [True, False, False, False]
    assert state.prompt().player == 3


def test_t5_smokey_passing_a_truck_does_not_catch() -> None:
    game = make(players=3)
    state = started(game)
    police_out(state, smokey1="R1")
    put(state, "green", "R5")
    turn(state, "B19LO", 1)
    events = state.apply(MoveSmokey("smokey1", "R11"))
    assert "smokey_catch" not in kinds(events)
    assert where(state, "green") == "R5"


# -- T6 Bear Traps -------------------------------------------------------------------------


def test_t6_truck_ending_on_a_trap_space_with_a_smokey_in_the_trap_is_caught() -> None:
    game = make(players=3)
    state = started(game)
    police_out(state, smokey1="TR")  # trap beside R7, R8, R9
    events = turn(state, "HI", 7)
    assert "trap_catch" in kinds(events)
    assert where(state, "red") == "side:R8"


def test_t6_a_smokey_in_a_trap_catches_nobody_by_adjacency() -> None:
    game = make(players=3)
    state = started(game)
    police_out(state, smokey1="TR")
    events = turn(state, "HI", 9)  # R10: the trap's exit space, not one of its three
    assert where(state, "red") == "R10"
    assert not {"trap_catch", "smokey_catch"} & set(kinds(events))


def test_t6_truck_already_in_a_trap_is_not_caught_when_a_smokey_enters() -> None:
    game = make(players=3)
    state = started(game)
    police_out(state, smokey1="R1")
    put(state, "green", "R8")
    turn(state, "B19LO", 6)  # red R1 -> R7, a trap space, while the trap is empty
    into = next(a for a in state.legal_actions()
                if isinstance(a, MoveSmokey) and a.to == "TR")
    assert into.into_trap and into.catches == ()
    events = state.apply(MoveSmokey("smokey1", "TR"))
    assert "smokey_trap_move" in kinds(events)
    assert "trap_catch" not in kinds(events)
    assert where(state, "green") == "R8" and where(state, "red") == "R7"


def test_t6_option_trucks_already_in_the_trap_are_caught_on_entry() -> None:
    game = make(players=3, options={"trap_catches_on_entry": True})
    state = started(game)
    police_out(state, smokey1="R1")
    put(state, "green", "R8")
    turn(state, "B19LO", 1)
    events = state.apply(MoveSmokey("smokey1", "TR"))
    assert "trap_catch" in kinds(events)
    assert where(state, "green") == "side:R8"


# -- T7 caught: side of the road, lose the next turn ---------------------------------------


def test_t7_caught_truck_loses_next_turn_is_immune_then_goes_on_from_its_space() -> None:
    game = make(players=3)
    state = started(game)
    police_out(state, smokey1="R4", smokey2="Y15")
    turn(state, "HI", 3)  # red caught on R4
    assert where(state, "red") == "side:R4"
    turn(state, "B19LO", 1)  # green
    move = next(a for a in state.legal_actions()
                if isinstance(a, MoveSmokey) and a.smokey == "smokey2" and a.to == "R5")
    assert move.catches == ()  # red is on the side of the road: cannot be caught again
    events = state.apply(move)
    assert "smokey_catch" not in kinds(events)
    events = turn(state, "LO", 1)  # blue; then red's turn is lost
    assert "lost_turn" in kinds(events)
    assert state.prompt().player == 1 and state.lose == [False, False, False]
    assert where(state, "red") == "side:R4"  # still beside the road during the lost turn
    turn(state, "LO", 1)  # green
    events = turn(state, "LO", 1)  # blue; red's next turn is taken
    assert "back_on_road" in kinds(events)
    assert where(state, "red") == "R4"
    turn(state, "LO", 6)
    assert where(state, "red") == "R10"


def test_t7_option_sidelined_trucks_can_be_caught_again() -> None:
    game = make(players=3, options={"sidelined_immune": False})
    state = started(game)
    police_out(state, smokey1="R4", smokey2="Y15")
    turn(state, "HI", 3)
    turn(state, "B19LO", 1)
    events = state.apply(MoveSmokey("smokey2", "R5"))
    assert "smokey_catch" in kinds(events)


# -- T8 Bear In The Air -----------------------------------------------------------------------


def test_t8_bear_on_red_does_not_catch_a_truck_on_yellow_that_spins_9() -> None:
    game = make(players=4)
    state = started(game, first=3)  # yellow starts on Y1, on the Yellow route
    police_out(state, bear="AR")
    events = turn(state, "HI", 9)
    assert "bear_catch" not in kinds(events)
    assert where(state, "yellow") == "Y10"


def test_t8_truck_starting_on_the_watched_route_with_8_or_more_does_not_move() -> None:
    game = make(players=3)
    state = started(game)
    police_out(state, bear="AR")
    events = turn(state, "HI2", 6)  # 6 + 2 extra = 8
    assert "bear_catch" in kinds(events)
    assert where(state, "red") == "R1"
    assert state.lose == [False, False, False]  # no later turn lost
    turn(state, "LO", 1)
    turn(state, "LO", 1)
    events = turn(state, "HI", 7)  # 7 is allowed
    assert "lost_turn" not in kinds(events) and where(state, "red") == "R8"


def test_t8_only_the_route_where_the_turn_starts_counts() -> None:
    game = make(players=3)
    state = started(game)
    police_out(state, bear="AG")
    put(state, "red", "R15")
    turn(state, "HI", 9)  # starts on Red, ends on Green: the Bear on Green does not care
    assert where(state, "red") == "G4"


def test_t8_bear_limit_is_an_option() -> None:
    game = make(players=3, options={"bear_limit": 10})
    state = started(game)
    police_out(state, bear="AR")
    turn(state, "HI", 9)
    assert where(state, "red") == "R10"


# -- T9 Hammer Up -------------------------------------------------------------------------------


def test_t9_turn_ending_on_a_curve_means_next_turn_no_card_and_lo_band() -> None:
    game = make(players=3)
    state = started(game)
    police_out(state)
    put(state, "red", "R10")
    turn(state, "HI", 8)  # R18: the curve HR (R18-R20)
    turn(state, "LO", 1)
    events = turn(state, "LO", 1)
    pile_before = list(state.pile)
    assert "hammer_up" in kinds(events)
    prompt = state.prompt()
    assert (prompt.kind, prompt.player, prompt.band, prompt.hammer) == ("spin", 0, "lo", True)
    assert [a.value for a, _ in state.chance_outcomes()] == [1, 2, 3, 4, 5, 6]
    with pytest.raises(IllegalAction):
        state.apply(Spin(7))
    state.apply(Spin(1))  # R19: still on the curve
    assert state.pile == pile_before  # no card was drawn
    turn(state, "LO", 1)
    events = turn(state, "LO", 1)
    assert "hammer_up" in kinds(events)
    state.apply(Spin(3))  # R19 -> G2
    turn(state, "LO", 1)
    turn(state, "LO", 1)
    assert state.prompt().kind == "draw" and state.prompt().player == 0


def test_t9_a_truck_caught_on_a_curve_plays_hammer_up_on_the_turn_it_next_takes() -> None:
    game = make(players=3)
    state = started(game)
    police_out(state, smokey1="R20")
    put(state, "red", "R10")
    turn(state, "HI", 9)  # R19, next to the Smokey: caught
    assert where(state, "red") == "side:R19"
    turn(state, "LO", 1)
    events = turn(state, "LO", 1)  # red loses this turn
    assert "lost_turn" in kinds(events) and "hammer_up" not in kinds(events)
    turn(state, "LO", 1)
    events = turn(state, "LO", 1)
    assert "hammer_up" in kinds(events)
    assert state.prompt().hammer


# -- T10 Yellowstone Park ----------------------------------------------------------------------


def test_t10_each_break_one_nine_releases_one_piece_until_all_are_out() -> None:
    game = make(players=3)
    state = started(game)
    assert set(state.police.values()) == {"park"}
    turn(state, "B19LO", 1)
    legal = state.legal_actions()
    assert all(isinstance(a, Release) for a in legal)
    assert {a.to for a in legal if a.piece == "smokey1"} == {"TR", "TG", "TB", "TY"}
    assert {a.to for a in legal if a.piece == "bear"} == {"AR", "AG", "AB", "AY"}
    assert not any(a.piece == "smokey2" for a in legal)  # the Smokeys are alike
    events = state.apply(Release("bear", "AY"))
    assert "park_exit" in kinds(events)
    turn(state, "B19LO", 1)
    state.apply(Release("smokey1", "TG"))
    turn(state, "B19LO", 1)
    assert {a.piece for a in state.legal_actions()} == {"smokey2"}
    state.apply(Release("smokey2", "TG"))  # both Smokeys may share a trap
    assert state.police == {"smokey1": "TG", "smokey2": "TG", "bear": "AY"}
    turn(state, "B19LO", 1)
    assert state.prompt().kind == "police"
    assert not any(isinstance(a, Release) for a in state.legal_actions())


def test_t10_nothing_moves_on_the_board_while_a_piece_is_in_the_park() -> None:
    game = make(players=3)
    state = started(game)
    put(state, "smokey1", "R5")
    put(state, "smokey2", "TR")
    turn(state, "B19LO", 1)
    assert state.prompt().kind == "release"
    assert [a.to for a in state.legal_actions()] == ["AB", "AG", "AR", "AY"]
    with pytest.raises(IllegalAction) as refused:
        state.apply(MoveSmokey("smokey1", "R15"))
    assert refused.value.reason is Reason.NOT_LEGAL_NOW


# -- T11 police moves ------------------------------------------------------------------------------


def _police_turn(state_players: int = 3, **where_: str):  # type: ignore[no-untyped-def]
    game = make(players=state_players)
    state = started(game)
    police_out(state, **where_)
    put(state, "red", "Y5")  # out of the way
    turn(state, "B19LO", 1)
    return state


def _moves(state, smokey: str) -> dict[str, MoveSmokey]:  # type: ignore[no-untyped-def]
    return {a.to: a for a in state.legal_actions()
            if isinstance(a, MoveSmokey) and a.smokey == smokey}


def test_t11_smokey_moves_exactly_10_or_up_to_10_into_a_trap() -> None:
    state = _police_turn(smokey1="R1")
    moves = _moves(state, "smokey1")
    assert set(moves) == {"R11", "TR"}
    assert moves["R11"].steps == 10 and not moves["R11"].into_trap
    assert moves["TR"].steps == 7 and moves["TR"].into_trap  # R2..R7 then one step in
    events = state.apply(MoveSmokey("smokey1", "R11"))
    assert "smokey_exact_move" in kinds(events)


def test_t11_short_cut_counts_as_one_space_and_only_smokeys_use_it() -> None:
    state = _police_turn(smokey1="R14")
    moves = _moves(state, "smokey1")
    # Along the curve: R15..R20, G1..G4. By SC1 (entry R16, exit G2): R15, R16, SC1, G2..G8.
    assert moves["G4"].via == "" and moves["G8"].via == "SC1"
    assert moves["TG"].via == "SC1" and moves["TG"].steps == 10  # G2..G7 by the short cut
    events = state.apply(MoveSmokey("smokey1", "G8"))
    assert {"smokey_exact_move", "shortcut_move"} <= set(kinds(events))


def test_t11_truck_drives_round_the_corner_not_the_short_cut() -> None:
    game = make(players=3)
    state = started(game)
    police_out(state)
    put(state, "red", "R14")
    turn(state, "HI", 8)
    assert where(state, "red") == "G2"


def test_t11_smokey_ending_on_a_short_cut_space_catches_nobody() -> None:
    state = _police_turn(smokey1="R7")
    put(state, "green", "R16")
    put(state, "blue", "G2")
    moves = _moves(state, "smokey1")
    assert moves["SC1"].steps == 10 and moves["SC1"].catches == ()
    events = state.apply(MoveSmokey("smokey1", "SC1"))
    assert "smokey_catch" not in kinds(events)
    assert state.police["smokey1"] == "SC1"
    # from the short cut it goes on by its exit: G2 is the first step
    assert {r.to: r.steps for r in state.g.smokey_routes["SC1"]} == {"G11": 10, "TG": 7}


def test_t11_smokey_leaves_a_trap_by_one_step_onto_its_exit() -> None:
    state = _police_turn(smokey1="TR")
    moves = _moves(state, "smokey1")
    assert moves["R19"].steps == 10  # R10 (1) .. R19 (10)
    assert "TR" not in moves


def test_t11_bear_moves_to_any_other_bear_space() -> None:
    state = _police_turn(bear="AR")
    bears = [a for a in state.legal_actions() if isinstance(a, MoveBear)]
    assert [a.to for a in bears] == ["AB", "AG", "AY"]
    events = state.apply(MoveBear("AG"))
    assert "bear_move" in kinds(events) and state.police["bear"] == "AG"


def test_t11_board_may_declare_other_trap_entry_and_exit() -> None:
    from rig.datafiles import read_data

    text, _ = read_data("default:tenfour_board.toml", "engine.tenfour.data")
    text = text.replace('id = "TR"\nspaces = ["R7", "R8", "R9"]',
                        'id = "TR"\nspaces = ["R7", "R8", "R9"]\nentry = ["R9"]\nexit = "R12"')
    game = make(players=3, board=text)
    trap = game.board.trap("TR")
    assert trap.entry == ("R9",) and trap.exit == "R12"
    from_r1 = {r.to: r.steps for r in game.smokey_routes["R1"]}
    assert from_r1["TR"] == 9
    from_trap = {r.to: r.steps for r in game.smokey_routes["TR"]}
    assert "G1" in from_trap  # R12 (1) .. R20 (9), G1 (10)


def test_t11_smokey_move_distance_is_an_option() -> None:
    game = make(players=3, options={"smokey_move": 5})
    assert {r.to for r in game.smokey_routes["R1"]} == {"R6"}


# -- T13 Mike cards -------------------------------------------------------------------------------


def test_t13_draw_probabilities_are_count_over_remaining() -> None:
    game = make(players=3)
    state = started(game)
    outcomes = dict(state.chance_outcomes())
    assert outcomes[Draw("HI")] == Fraction(10, 50)
    turn(state, "HI", 2)
    outcomes = dict(state.chance_outcomes())
    assert outcomes[Draw("HI")] == Fraction(9, 49)
    assert outcomes[Draw("LO")] == Fraction(10, 49)
    assert sum(outcomes.values()) == 1


def test_t13_a_card_already_drawn_since_the_reshuffle_is_refused_and_nothing_changes() -> None:
    deck = ('[[card]]\nid = "A"\nband = "lo"\ntext = "a"\n'
            '[[card]]\nid = "B"\nband = "hi"\nbreak_one_nine = true\ntext = "b"\n')
    game = make(players=3, deck=deck)
    state = started(game)
    turn(state, "A", 1)
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction) as refused:
        state.apply(Draw("A"))
    assert refused.value.reason is Reason.IMPOSSIBLE_OUTCOME
    assert "already" in refused.value.detail
    with pytest.raises(IllegalAction) as refused:
        state.apply(Draw("NOT-ENROLLED"))
    assert refused.value.reason is Reason.IMPOSSIBLE_OUTCOME
    assert json.dumps(state.to_json(), sort_keys=True) == before


def test_t13_card_draw_event_names_band_extra_and_flag() -> None:
    game = make(players=3)
    state = started(game)
    events = state.apply(Draw("HI2"))
    draw = next(e for e in events if e.kind == "card_draw")
    assert draw.data["band"] == "hi" and draw.data["extra"] == 2
    assert draw.data["break_one_nine"] is False
