"""Move words name every car a person must find (issue 27): the car an oil slide bumps,
and the second car of a split 8, each by colour and place."""

from __future__ import annotations

from engine.bumpem import Forward, Split
from tests.bumpem.helpers import draw, make_game, position


def test_the_one_car_an_oil_slide_bumps_is_named_by_colour_and_place() -> None:
    state = position(make_game(2), {"red": ["T21", "T6"], "blue": ["T29"]})
    draw(state, "4")
    move = next(a for a in state.legal_actions() if a == Forward(1, 4))
    assert move.slide and move.bumps == ("blue:1",)
    assert state.describe(move) == ("Red car at T21: 4 to T25, slides to T31, "
                                    "bumps Blue car at T29")


def test_both_cars_of_a_split_eight_have_their_colour() -> None:
    state = position(make_game(2), {"red": ["T6", "T15"]})
    draw(state, "8")
    words = state.describe(Split(1, 3, 2, 5))
    assert words == "Red car at T6: 3 to T9, Red car at T15: 5 to T20"
