"""One named scenario per ruling B1-B8, from hand-built positions with scripted tickets."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.api import CHANCE, TERMINAL
from engine.bumpem import (
    Backward,
    BumpTicket,
    DrawTicket,
    Enter,
    Forward,
    Split,
    Swap,
    layout,
)
from tests.bumpem.helpers import cars, draw, kinds, make_game, position

# ----- B1 board ----------------------------------------------------------------------


def test_b1_default_board_shape_and_layout() -> None:
    game = make_game(4)
    board = game.board
    assert game.seats == ("red", "blue", "yellow", "green")
    assert board.track_length == 60 and board.home_length == 5 and board.cars_per_player == 4
    for colour in board.colours:
        gap = (board.start[colour] - board.entrance[colour]) % board.track_length
        assert 0 < gap < 15, "the home entrance comes shortly before the start"
    spots = layout(board)
    ids = [s.position_id for s in spots]
    assert len(ids) == len(set(ids)) == 60 + 4 * (5 + 2)
    assert {"T1", "T60", "home:red:5", "finish:green", "pit:blue"} <= set(ids)
    by_id = {s.position_id: s for s in spots}
    assert by_id["T5"].kind == "start" and by_id["T5"].colour == "red"
    assert by_id["T25"].kind == "oil" and by_id["T25"].colour == "blue"
    assert by_id["T13"].kind == "turbo"
    assert all(0.0 <= s.x <= 1.0 and 0.0 <= s.y <= 1.0 for s in spots)


def test_b1_car_turns_into_its_own_home_stretch_only() -> None:
    game = make_game(2)
    state = position(game, {"red": ["T1"]})
    events = draw(state, "4")
    assert "forced_move" in kinds(events) and "home_stretch_entry" in kinds(events)
    assert cars(state, "red")[0] == "home:red:2"
    # A blue car passes red's entrance and goes on along the track.
    state = position(game, {"blue": ["T1"]}, turn=1)
    draw(state, "4")
    assert cars(state, "blue")[0] == "T5"


# ----- B2 tickets --------------------------------------------------------------------


def test_b2_default_draw_is_uniform_over_13_kinds() -> None:
    state = make_game(2).new_initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 13
    assert {p for _, p in outcomes} == {Fraction(1, 13)}
    assert {a.ticket for a, _ in outcomes if isinstance(a, DrawTicket)} == {
        *(str(n) for n in range(1, 13)), "bump"}


DECK = """
draw = "deck"
[[ticket]]
id = "1"
count = 2
""" + "".join(f'[[ticket]]\nid = "{t}"\ncount = {0 if t == "bump" else 1}\n'
              for t in [*(str(n) for n in range(2, 13)), "bump"])


def test_b2_deck_draws_without_replacement_and_reshuffles() -> None:
    game = make_game(2, tickets=DECK)
    state = game.new_initial_state()
    odds = {a.ticket: p for a, p in state.chance_outcomes() if isinstance(a, DrawTicket)}
    assert odds["1"] == Fraction(2, 13) and "bump" not in odds
    draw(state, "1")
    while not state.is_chance_node():
        state.apply(state.legal_actions()[0])
    odds = {a.ticket: p for a, p in state.chance_outcomes() if isinstance(a, DrawTicket)}
    assert odds["1"] == Fraction(1, 12)
    reshuffled = False
    for _ in range(12):
        assert state.is_chance_node()
        outcome = state.chance_outcomes()[0][0]
        events = state.apply(outcome)
        reshuffled = reshuffled or "reshuffle" in kinds(events)
        while not state.is_chance_node() and not state.is_terminal():
            state.apply(state.legal_actions()[0])
    assert reshuffled
    assert sum(p for _, p in state.chance_outcomes()) == 1
    assert len(state.chance_outcomes()) == 12


# ----- B3 ticket meanings ------------------------------------------------------------


def test_b3_three_gives_another_ticket_even_without_a_move() -> None:
    state = position(make_game(3), {})
    events = draw(state, "3")
    assert kinds(events) == ["turn", "ticket", "lost_ticket", "extra_ticket"]
    assert state.current_player() == CHANCE and state.turn == 0
    assert state.prompt().kind == "ticket" and state.prompt().extra
    events = draw(state, "5")
    assert "turn" not in kinds(events), "the extra ticket is the same turn"
    assert kinds(events)[-1] == "lost_ticket" and state.turn == 1


def test_b3_three_extra_ticket_can_be_turned_off() -> None:
    state = position(make_game(2, options={"extra_ticket_without_move": False}), {})
    events = draw(state, "3")
    assert "extra_ticket" not in kinds(events) and state.turn == 1


def test_b3_three_moves_then_draws_again() -> None:
    state = position(make_game(2), {"red": ["T30"]})
    events = draw(state, "3")
    assert cars(state, "red")[0] == "T33" and kinds(events)[-1] == "extra_ticket"
    assert state.is_chance_node() and state.turn == 0


def test_b3_split_eight_any_two_positive_parts() -> None:
    state = position(make_game(2), {"red": ["T6", "T15"]})
    draw(state, "8")
    splits = [a for a in state.legal_actions() if isinstance(a, Split)]
    assert sorted((a.steps, a.other_steps) for a in splits) == [(p, 8 - p) for p in range(1, 8)]
    assert all(a.car == 1 and a.other == 2 for a in splits), "same result: one order offered"
    events = state.apply(Split(1, 3, 2, 5))
    assert "split" in kinds(events)
    assert cars(state, "red")[:2] == ["T9", "T20"]


def test_b3_split_order_matters_when_a_slide_bumps_the_other_car() -> None:
    # Red car 1 at T21 +4 lands on blue's slick T25 and slides to T31, bumping T26..T31.
    state = position(make_game(2), {"red": ["T21", "T27"]})
    draw(state, "8")
    legal = state.legal_actions()
    assert Split(1, 4, 2, 4) not in legal, "car 2 was bumped by the slide: it cannot move"
    assert Split(2, 4, 1, 4) in legal
    chosen = next(a for a in legal if a == Split(2, 4, 1, 4))
    assert chosen.slide and "red:2" in chosen.bumps
    state.apply(chosen)
    assert cars(state, "red")[:2] == ["T31", "pit:red"]


def test_b3_swap_seven_only_between_main_track_cars() -> None:
    state = position(make_game(2), {"red": ["T6", "home:red:2"], "blue": ["T30", "home:blue:1"]})
    draw(state, "7")
    swaps = [a for a in state.legal_actions() if isinstance(a, Swap)]
    assert swaps == [Swap(1, "blue:1")]
    events = state.apply(Swap(1, "blue:1"))
    assert "swap" in kinds(events) and "bump" not in kinds(events)
    assert cars(state, "red")[0] == "T30" and cars(state, "blue")[0] == "T6"


def test_b3_backward_out_of_the_home_stretch_is_forced() -> None:
    state = position(make_game(2), {"red": ["home:red:2"]})
    events = draw(state, "6")  # 6 ahead overshoots the finish; 9 back is the only move
    assert kinds(events)[2:5] == ["forced_move", "move", "backward_move"]
    assert cars(state, "red")[0] == "T56"
    assert state.turn == 1


def test_b3_backward_from_home_can_be_turned_off() -> None:
    state = position(make_game(2, options={"backward_from_home_stretch": False}),
                     {"red": ["home:red:2"]})
    assert kinds(draw(state, "6"))[-1] == "lost_ticket"


def test_b3_ticket_table_offers() -> None:
    state = position(make_game(2), {"red": ["T30"], "blue": ["T40"]}, phase="move", ticket="11")
    assert state.legal_actions() == [Backward(1, 1), Forward(1, 11)]
    state = position(make_game(2), {"red": ["T30"], "blue": ["T40"]}, phase="move", ticket="9")
    assert state.legal_actions() == [Backward(1, 6), Forward(1, 9)]
    state = position(make_game(2), {"red": ["T30"]}, phase="move", ticket="12")
    assert state.legal_actions() == [Forward(1, 12), Enter(2)]


# ----- B4 landing --------------------------------------------------------------------


def test_b4_no_landing_on_own_car_and_landing_bumps_others() -> None:
    state = position(make_game(2), {"red": ["T6", "T8"], "blue": ["T12"]}, phase="move",
                     ticket="2")
    assert state.legal_actions() == [Forward(2, 2)]
    state = position(make_game(2), {"red": ["T6"], "blue": ["T8"]})
    events = draw(state, "2")
    assert "bump" in kinds(events)
    assert cars(state, "red")[0] == "T8" and cars(state, "blue")[0] == "pit:blue"


def test_b4_entering_bumps_an_opponent_on_the_start_but_not_own_car() -> None:
    state = position(make_game(2), {"blue": ["T5"]})
    events = draw(state, "1")
    assert kinds(events)[2:] == ["forced_move", "move", "entry", "bump"]
    assert cars(state, "red")[0] == "T5" and cars(state, "blue")[0] == "pit:blue"
    state = position(make_game(2), {"red": ["T5"]}, phase="move", ticket="12")
    assert state.legal_actions() == [Forward(1, 12)]


def test_b4_home_stretch_cars_cannot_be_bumped_or_swapped() -> None:
    state = position(make_game(2), {"red": ["T6"], "blue": ["home:blue:1", "T30"]},
                     phase="move", ticket="bump")
    assert state.legal_actions() == [BumpTicket(2, "blue:2")]
    state = position(make_game(2), {"red": ["T6"], "blue": ["home:blue:1"]}, phase="move",
                     ticket="7")
    assert state.legal_actions() == [Forward(1, 7)]


def test_b4_finishing_needs_the_exact_count() -> None:
    state = position(make_game(2), {"red": ["home:red:4"]})
    events = draw(state, "2")
    assert "finish" in kinds(events) and cars(state, "red")[0] == "finish:red"
    state = position(make_game(2), {"red": ["home:red:4"]})
    assert kinds(draw(state, "4"))[-1] == "lost_ticket"


def test_b4_bump_ticket_sends_the_target_to_its_pit() -> None:
    state = position(make_game(3), {"blue": ["T30"], "yellow": ["T44"]})
    draw(state, "bump")
    assert state.legal_actions() == [BumpTicket(1, "blue:1"), BumpTicket(1, "yellow:1")]
    events = state.apply(BumpTicket(1, "yellow:1"))
    assert kinds(events)[:3] == ["move", "bump_ticket", "bump"]
    assert cars(state, "red")[0] == "T44" and cars(state, "yellow")[0] == "pit:yellow"


# ----- B5 forced play ----------------------------------------------------------------


def test_b5_lost_ticket_passes_the_turn_without_a_decision() -> None:
    state = position(make_game(2), {})  # every red car in the pit: a 5 cannot be used
    events = draw(state, "5")
    assert kinds(events) == ["turn", "ticket", "lost_ticket"]
    assert state.current_player() == CHANCE and state.turn == 1


def test_b5_single_legal_move_is_made_automatically() -> None:
    state = position(make_game(2), {"red": ["T6"]})
    events = draw(state, "5")
    assert "forced_move" in kinds(events)
    assert cars(state, "red")[0] == "T11" and state.is_chance_node() and state.turn == 1


def test_b5_a_real_choice_waits_for_the_player() -> None:
    state = position(make_game(2), {"red": ["T6", "T30"]})
    events = draw(state, "5")
    assert "forced_move" not in kinds(events)
    assert state.current_player() == 0
    prompt = state.prompt()
    assert (prompt.kind, prompt.ticket, prompt.choices) == ("move", "5", 2)


# ----- B6 oil slick ------------------------------------------------------------------


def test_b6_oil_slide_bumps_every_car_on_the_six_spaces_own_too() -> None:
    state = position(make_game(4), {"red": ["T21", "T27"], "blue": ["T29"],
                                    "yellow": ["T31"], "green": ["T25"]})
    draw(state, "4")
    move = next(a for a in state.legal_actions() if a == Forward(1, 4))
    assert move.slide and move.to == "T31"
    assert move.bumps == ("green:1", "red:2", "blue:1", "yellow:1")
    assert state.describe(move) == ("Red car at T21: 4 to T25, slides to T31, bumps Green T25, "
                                    "Red T27, Blue T29, Yellow T31")
    events = state.apply(move)
    assert kinds(events).count("bump") == 4 and kinds(events).count("oil_slide") == 1
    assert cars(state, "red")[:2] == ["T31", "pit:red"]
    assert cars(state, "green")[0] == "pit:green"


def test_b6_own_colour_slick_does_nothing() -> None:
    state = position(make_game(2), {"blue": ["T21", "T27"]}, turn=1)
    draw(state, "4")
    move = next(a for a in state.legal_actions() if a == Forward(1, 4))
    assert not move.slide and move.to == "T25" and move.bumps == ()


def test_b6_slide_through_a_turbo_space_bumps_the_car_there() -> None:
    state = position(make_game(2), {"red": ["T36"], "blue": ["T43"]})
    events = draw(state, "4")
    assert "oil_slide" in kinds(events) and "turbo_zoom" not in kinds(events)
    assert cars(state, "red")[0] == "T46" and cars(state, "blue")[0] == "pit:blue"


# ----- B7 turbo ----------------------------------------------------------------------


def test_b7_landing_on_a_turbo_car_zooms_it_instead_of_bumping() -> None:
    state = position(make_game(3), {"red": ["T9"], "yellow": ["T13"]})
    events = draw(state, "4")
    assert "turbo_zoom" in kinds(events) and "bump" not in kinds(events)
    assert cars(state, "red")[0] == "T13" and cars(state, "yellow")[0] == "T28"


def test_b7_turbo_chain_zooms_each_car_in_turn() -> None:
    state = position(make_game(4), {"red": ["T9", "T50"], "yellow": ["T13"], "green": ["T28"],
                                    "blue": ["T43"]})
    draw(state, "4")
    move = next(a for a in state.legal_actions() if a == Forward(1, 4))
    assert move.zooms == ("yellow:1", "green:1", "blue:1")
    assert state.describe(move) == "Red car at T9: 4 to T13, zooms Yellow car at T13"
    events = state.apply(move)
    assert kinds(events).count("turbo_zoom") == 3
    assert cars(state, "yellow")[0] == "T28"
    assert cars(state, "green")[0] == "T43"
    assert cars(state, "blue")[0] == "T58"


def test_b7_zoom_goes_to_finish_when_the_home_entrance_comes_first() -> None:
    state = position(make_game(2), {"red": ["T9"], "blue": ["T13"]})
    events = draw(state, "4")
    assert kinds(events)[-2:] == ["turbo_zoom", "finish"]
    assert cars(state, "blue")[0] == "finish:blue"


def test_b7_may_land_on_own_car_on_a_turbo_space() -> None:
    state = position(make_game(2), {"red": ["T9", "T13"]})
    draw(state, "4")
    assert Forward(1, 4) in state.legal_actions()
    state.apply(Forward(1, 4))
    assert cars(state, "red")[:2] == ["T13", "T28"]


def test_b7_turbo_off_makes_turbo_spaces_plain() -> None:
    game = make_game(3, options={"turbo": False})
    state = position(game, {"red": ["T9"], "yellow": ["T13"]})
    events = draw(state, "4")
    assert "bump" in kinds(events) and "turbo_zoom" not in kinds(events)
    state = position(game, {"red": ["T9", "T13"]}, phase="move", ticket="4")
    assert state.legal_actions() == [Forward(2, 4)]


def test_b7_turbo_car_can_be_swapped_and_bumped_by_ticket() -> None:
    state = position(make_game(3), {"red": ["T6"], "yellow": ["T13"]}, phase="move",
                     ticket="7")
    assert Swap(1, "yellow:1") in state.legal_actions()
    state = position(make_game(3), {"yellow": ["T13"]})
    events = draw(state, "bump")
    assert "turbo_zoom" not in kinds(events)
    assert cars(state, "red")[0] == "T13" and cars(state, "yellow")[0] == "pit:yellow"


TURBO_EVERYWHERE = """
track_length = 16
home_stretch_length = 2
cars_per_player = 3
turbo = [2, 3, 4, 5, 7, 8, 9, 10, 12, 13, 14, 15]
[[colour]]
name = "red"
start = 1
home_entrance = 16
[[colour]]
name = "blue"
start = 6
home_entrance = 5
[[colour]]
name = "yellow"
start = 11
home_entrance = 10
"""


def test_b7_chains_terminate_on_a_board_full_of_turbo_spaces() -> None:
    import random

    from engine.selfplay import play

    game = make_game(3, board=TURBO_EVERYWHERE)
    longest = 0

    def on_step(state: object, action: object, events: list) -> None:
        nonlocal longest
        longest = max(longest, sum(1 for e in events if e.kind == "turbo_zoom"))

    for seed in range(30):
        assert play(game, random.Random(seed), on_step=on_step).finished
    assert longest >= 2, "some move set off a chain of zooms"


# ----- B8 winning --------------------------------------------------------------------


def test_b8_first_player_with_every_car_finished_wins() -> None:
    state = position(make_game(2), {"red": ["finish:red"] * 3 + ["home:red:5"]})
    events = draw(state, "1")
    assert kinds(events)[-2:] == ["finish", "winner"]
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.winners() == [0]
    assert state.prompt().kind == "over" and state.prompt().winners == (0,)
    assert state.legal_actions() == [] and state.chance_outcomes() == []


def test_b8_a_zoom_can_finish_another_players_last_car() -> None:
    state = position(make_game(2), {"red": ["T9"], "blue": ["finish:blue"] * 3 + ["T13"]})
    events = draw(state, "4")
    assert kinds(events)[-1] == "winner"
    assert state.winners() == [1]


# ----- player counts -----------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_turns_rotate_through_every_seat(players: int) -> None:
    game = make_game(players)
    state = game.new_initial_state()
    order = []
    for _ in range(players + 1):
        order.append(state.turn)
        draw(state, "5")  # nobody has a car out: every 5 is lost
    assert order == [*range(players), 0]
    assert game.identity()["seats"] == ["red", "blue", "yellow", "green"][:players]


def test_seats_may_be_chosen() -> None:
    game = make_game(2, seats=["green", "blue"])
    assert game.seat_name(0) == "Green"
    state = position(game, {"green": ["T30"]})
    draw(state, "2")
    assert cars(state, "green")[0] == "T32"


# ----- options and invariants ----------------------------------------------------------


@pytest.mark.parametrize(("lands", "red_ends"), [(True, "T31"), (False, "T25")])
def test_bump_ticket_onto_an_oil_slick(lands: bool, red_ends: str) -> None:
    game = make_game(3, options={"bump_ticket_lands": lands})
    state = position(game, {"blue": ["T25"], "yellow": ["T28"]})
    draw(state, "bump")
    state.apply(BumpTicket(1, "blue:1"))
    assert cars(state, "red")[0] == red_ends
    assert cars(state, "yellow")[0] == ("pit:yellow" if lands else "T28")


def test_previews_tell_the_truth_in_random_games() -> None:
    import random

    game = make_game(4)
    rng = random.Random(21)
    for _ in range(8):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            action = rng.choice(list(state.legal_actions()))
            seat = state.turn
            colour = game.seats[seat]
            state.apply(action)
            where = cars(state, colour)[action.car - 1]  # type: ignore[attr-defined]
            assert where == action.to, (action, where)  # type: ignore[attr-defined]
            for piece in action.bumps:  # type: ignore[attr-defined]
                owner, _, number = piece.partition(":")
                assert cars(state, owner)[int(number) - 1] == f"pit:{owner}"
            track = [p for c in game.seats for p in cars(state, c) if p.startswith("T")]
            assert len(track) == len(set(track)), "one car per track space"


def test_identity_names_data_and_options() -> None:
    game = make_game(3)
    identity = game.identity()
    assert identity["game"] == "bumpem" and identity["players"] == 3
    assert set(identity["data"]) == {"board", "tickets"}
    assert identity["data"]["board"]["source"] == "default:bumpem_board.toml"
    assert identity["options"]["turbo"] is True
