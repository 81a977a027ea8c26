"""Nothing the table must know is skipped, hidden or cut (issue 27): what a tap, a
press, a wrong knob or a long page leads to is on screen before the next prompt."""

from __future__ import annotations

import random

import pytest

from hardware.events import CardRemoved
from rig.autopilot import gestures_for
from rig.emulated import EMULATED_READER, EmulatedRig, emulated_tag, new_emulated_rig
from rig.modes import Moment
from rig.screen import Part, page_count, shown_rows

GAMES = [("tenfour", 2, "two-player"), ("tenfour", 3, None), ("tenfour", 4, None),
         ("bumpem", 2, None), ("bumpem", 3, None), ("bumpem", 4, None)]


def _step(rig: EmulatedRig, rng: random.Random) -> None:
    for gesture in gestures_for(rig.controller, rng):
        rig.loop.step(gesture)
        rig.settle()


def _to_moment(rig: EmulatedRig, rng: random.Random, limit: int = 400) -> None:
    for _ in range(limit):
        if rig.controller.alert is not None:
            return
        _step(rig, rng)
    pytest.fail("no result screen came up")


# -- 1. a tap shows what it led to, as a press does ------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_ticket_tap_that_forces_a_move_or_loses_the_ticket_shows_it_until_a_press(players):
    rig = new_emulated_rig("bumpem", players, seed=players)
    rng = random.Random(players)
    seen = 0
    for _ in range(3000):
        state = rig.session.state
        if state.is_terminal() or seen >= 6:
            break
        if state.is_chance_node() and rig.controller.alert is None:
            ticket = rng.choice([a.ticket for a, _ in state.chance_outcomes()])
            rig.tap(ticket)
            rig.settle()
            after = rig.session.state
            if after.is_chance_node() or after.is_terminal():  # forced, or lost
                seen += 1
                screen = rig.screen.plain()
                assert rig.controller.alert is not None, f"the tap showed nothing:\n{screen}"
                assert "draws" in screen and "press: ok" in screen, screen
                assert "Only move" in screen or "cannot use" in screen or rig.screen.alert
            continue
        _step(rig, rng)
    assert seen, "no forced move nor lost ticket came from a tap"


@pytest.mark.parametrize(("game", "players", "variant"), GAMES)
def test_lifting_a_card_off_the_reader_does_not_dismiss_a_result(game, players, variant):
    rig = new_emulated_rig(game, players, variant=variant, seed=7)
    _to_moment(rig, random.Random(7))
    moment = rig.controller.alert
    rig.loop.step(CardRemoved(emulated_tag("any"), EMULATED_READER))
    assert rig.controller.alert == moment
    rig.press()
    assert rig.controller.alert is None


# -- 2. every page of a result or alert is shown ----------------------------------------


def _two_pages(rig: EmulatedRig) -> Moment:
    """A result long enough for two pages, put on screen as the controller would."""
    long = tuple(Part(f"Line {n}: a result the table must read in full, every word", "alert")
                 for n in range(4))
    moment = Moment(title="ALERT", parts=long, alert=True)
    rig.controller.alert = moment
    assert page_count(rig.screen) >= 2
    return moment


@pytest.mark.parametrize(("game", "players", "variant"), GAMES)
def test_a_press_on_page_one_of_an_alert_shows_page_two(game, players, variant):
    rig = new_emulated_rig(game, players, variant=variant, seed=3)
    _to_moment(rig, random.Random(3))
    moment = _two_pages(rig)
    pages = page_count(rig.screen)
    assert "press: more" in "".join(shown_rows(rig.screen)), shown_rows(rig.screen)
    for page in range(1, pages):
        rig.press()
        assert rig.controller.alert == moment, f"page {page + 1} of {pages} was skipped"
        assert rig.screen.page == page
    assert "press: ok" in shown_rows(rig.screen)[-1]
    rig.press()
    assert rig.controller.alert is None


def test_the_knob_still_pages_back_and_a_press_then_goes_on_from_there():
    rig = new_emulated_rig("bumpem", 3, seed=3)
    _to_moment(rig, random.Random(3))
    _two_pages(rig)
    rig.turn("hi", 1)
    rig.turn("hi", -1)
    assert rig.screen.page == 0
    rig.press()
    assert rig.screen.page == 1


def test_a_real_two_page_alert_from_a_whole_game_is_read_to_the_end():
    """A seeded Bump 'Em game whose checkered flag needs two pages (issue 27)."""
    rig = new_emulated_rig("bumpem", 4, seed=541639)
    rng = random.Random(541639)
    for _ in range(20_000):
        if rig.controller.alert is not None and page_count(rig.screen) > 1:
            break
        if rig.session.state.is_terminal() and rig.controller.alert is None:
            pytest.fail("no two-page alert came up")
        _step(rig, rng)
    pages = page_count(rig.screen)
    shown = set()
    while rig.controller.alert is not None:
        shown.add(rig.screen.page)
        rig.press()
    assert shown == set(range(pages))

