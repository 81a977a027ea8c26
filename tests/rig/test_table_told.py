"""Nothing the table must know is skipped, hidden or cut (issue 27): what a tap, a
press, a wrong knob or a long page leads to is on screen before the next prompt."""

from __future__ import annotations

import random

import pytest

from hardware.events import CardRemoved, KnobPress, KnobSpin, KnobTurn
from rig.core.autopilot import gestures_for
from rig.core.modes import Moment
from rig.desktop.emulated import EMULATED_READER, EmulatedRig, emulated_tag, new_emulated_rig
from rig.screens.render import render
from rig.screens.screen import (
    MARKERS,
    Part,
    Screen,
    fit,
    page_count,
    shown_rows,
)
from tests.rig.screens import KEY_SCREENS
from tests.rig.test_screen_audit import check_menu_marked
from valueclass import replace

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



# -- 3. a menu shows that it has more options than fit ---------------------------------


@pytest.mark.parametrize("seed", range(40))
def test_a_menu_with_options_off_screen_marks_the_side_they_are_on(seed):
    rng = random.Random(seed)
    words = ("Red", "car", "at", "T35:", "7", "to", "T42,", "bumps", "Blue", "swap", "with",
             "Smokey", "home", "stretch")
    menu = tuple(f"#{n} " + " ".join(rng.choice(words) for _ in range(rng.randint(1, 9)))
                 for n in range(rng.randint(1, 9)))
    lines = tuple(Part(" ".join(rng.choice(words) for _ in range(rng.randint(2, 12))),
                       "instruction") for _ in range(rng.randint(0, 3)))
    for cursor in range(len(menu)):
        check_menu_marked(Screen(title="MENU", lines=lines, menu=menu, cursor=cursor,
                                 footer=rng.choice(["", "turn:pick press:ok"])))


def test_every_option_of_a_key_screen_menu_is_marked_when_hidden():
    for name, screen in KEY_SCREENS.items():
        for cursor in range(len(screen.menu)):
            check_menu_marked(replace(screen, cursor=cursor)), name


def test_the_markers_are_drawn_as_triangles_not_question_marks():
    from hardware.display.font import SMALL

    for mark in MARKERS:
        assert SMALL.columns(mark) != SMALL.columns("?")
    screen = Screen(title="T", menu=tuple(f"Option {n}" for n in range(12)), cursor=6)
    plain = render(replace(screen, menu=tuple(f"Option {n}" for n in range(7)), cursor=3))
    assert render(screen).tobytes() != plain.tobytes()


# -- 4. "CPU chose:" only while the computer's choice is selected ----------------------


@pytest.mark.parametrize(("game", "players", "variant"), GAMES)
def test_the_computers_choice_is_not_claimed_for_another_option(game, players, variant):
    from rig.core.computer import seat_for

    seats = [seat_for(game, "random", seed=n) for n in range(players)]
    rig = new_emulated_rig(game, players, variant=variant, seed=5, seats=seats)
    rng = random.Random(5)
    for _ in range(500):
        state = rig.session.state
        if (not state.is_chance_node() and len(state.legal_actions()) > 1
                and rig.controller.alert is None):
            break
        _step(rig, rng)
    else:
        pytest.fail("no real choice came up")
    controller = rig.controller
    chosen = controller.choices()[controller.decisions.cursor]
    assert "chose: press to play it" in rig.screen.plain()
    rig.turn("hi", 1)
    off = rig.screen
    assert "chose: press to play it" not in off.plain()
    assert not any("CPU chose:" in row for row in shown_rows(off)), shown_rows(off)
    assert "Not the computer's choice" in off.plain(), off.plain()
    assert off.menu[controller.decisions.hinted].startswith("* "), "its own choice stays marked"
    rig.turn("hi", -1)
    assert "chose: press to play it" in rig.screen.plain()
    rig.turn("hi", 1)
    other = controller.choices()[controller.decisions.cursor]
    rig.press()
    assert rig.session.last_action == other != chosen


# -- 6. a knob that does nothing says why, every time ----------------------------------

WRONG = [KnobSpin("hi", 0.6), KnobSpin("lo", 0.6), KnobTurn("hi", 1), KnobTurn("lo", 1),
         KnobPress("hi"), KnobPress("lo")]


def _what_shows(rig: EmulatedRig) -> tuple[object, ...]:
    c = rig.controller
    return (rig.session.steps, c.decisions.cursor, c.face.page, c.mode, c.decisions.hinted)


@pytest.mark.parametrize(("game", "players", "variant"), GAMES)
def test_every_knob_gesture_that_does_nothing_is_answered_on_screen(game, players, variant):
    rig = new_emulated_rig(game, players, variant=variant, seed=players)
    rng = random.Random(players)
    answered: set[str] = set()
    for _ in range(400):
        if rig.session.state.is_terminal():
            break
        if rig.controller.alert is None:
            for gesture in WRONG:
                rig.controller.face.refusal = None
                before = _what_shows(rig)
                rig.loop.step(gesture)
                if _what_shows(rig) == before:
                    refusal = rig.controller.face.refusal
                    assert refusal is not None, (
                        f"{gesture} did nothing, silently, at:\n{rig.screen.text()}")
                    assert refusal.text in rig.screen.plain()
                    answered.add(type(gesture).__name__)
                if rig.controller.alert is not None or rig.controller.animation is not None:
                    rig.settle()
                    break
        _step(rig, rng)
    assert answered >= {"KnobSpin", "KnobTurn"}, answered


def test_the_wrong_spin_knob_is_named():
    rig = new_emulated_rig("tenfour", 3, seed=3)
    rig.spin("lo")
    assert "Spin the HI knob, not LO" in rig.screen.plain()


@pytest.mark.parametrize("game", ["tenfour", "bumpem"])
def test_a_spin_or_a_card_in_the_correction_menu_is_answered(game):
    rig = new_emulated_rig(game, 3, seed=1)
    rig.hold()
    assert rig.controller.correction is not None
    rig.spin("hi")
    assert "No spin in corrections" in rig.screen.plain()
    rig.controller.face.refusal = None
    card = rig.controller.view.card_ids()[0]
    rig.tap(card)
    assert "close this menu first" in rig.screen.plain()
    assert rig.session.steps == 0


# -- 5. every piece named so the table finds it -----------------------------------------


def test_the_two_player_which_truck_list_says_where_each_truck_stands():
    from engine.tenfour.names import piece_at

    for seed in range(1, 40):
        rig = new_emulated_rig("tenfour", 2, variant="two-player", seed=seed)
        rng = random.Random(seed)
        for _ in range(3000):
            state = rig.session.state
            if state.is_terminal():
                break
            if state.prompt().kind == "declare_truck" and rig.controller.alert is None:
                game = rig.session.game
                menu = rig.screen.menu
                for item, action in zip(menu, rig.controller.choices(), strict=True):
                    where = state.truck_where(game.truck_index[action.truck])
                    assert item.startswith(piece_at(game, action.truck, where)), item
                return
            _step(rig, rng)
    pytest.fail("no two-player game asked which truck moves")


@pytest.mark.parametrize("game", ["tenfour", "bumpem"])
def test_the_enrol_screen_shows_each_cards_whole_text(game):
    """Page by page with the LO knob (M08 and M09 no longer look the same)."""
    from rig.core.enroll import Enrolment, EnrolScreen, deck_cards
    from rig.gamebuild import build_game
    from tests.rig.test_screen_audit import MENU_ROW, check_fits

    cards = deck_cards(build_game(game, players=3))
    seen: dict[str, str] = {}
    for index, (card_id, text) in enumerate(cards):
        enrol = EnrolScreen(Enrolment(cards, {}, index=index), save=lambda tags: None)
        shown = ""
        pages = page_count(enrol.screen())
        for _ in range(pages):
            screen = enrol.screen()
            check_fits(screen)
            body, _ = fit(screen).page(screen.page)
            shown += " " + " ".join(r.text for r in body if not r.text.startswith(MENU_ROW))
            if pages > 1:
                enrol.handle(KnobTurn("lo", 1))
        assert enrol.screen().page == 0 and enrol.cursor == 0, "LO pages, round to page 1"
        if text != card_id:
            assert "".join(text.split()) in "".join(shown.split()), (card_id, shown)
            assert seen.setdefault(shown, text) == text, f"{card_id} looks like another card"
        enrol.handle(KnobTurn("hi", 1))
        assert enrol.cursor == 1, "HI still works the menu"


@pytest.mark.parametrize(("game", "players", "variant"), GAMES)
def test_a_take_back_offer_says_the_move_as_its_menu_row_did(game, players, variant):
    """The move in the journal has no previews (where it ends, whom it bumps): the
    take-back row said "3 to T59, ends to" and stopped (issue 27)."""
    rig = new_emulated_rig(game, players, variant=variant, seed=11)
    rng = random.Random(11)
    checked = 0
    for _ in range(3000):
        state = rig.session.state
        if state.is_terminal() or checked >= 30:
            break
        if not state.is_chance_node() and rig.controller.alert is None:
            choices = rig.controller.choices()
            menu = rig.screen.menu
            _step(rig, rng)
            last = rig.session.last_action
            if last is not None and last in choices:
                row = menu[choices.index(last)]
                offer = rig.controller.corrections.take_back_offer()
                assert offer is not None and row.lstrip("* ") == offer, (row, offer)
                checked += 1
            continue
        _step(rig, rng)
    assert checked


def test_the_demo_ends_on_the_last_page_of_its_last_screen(capsys):
    """`cbrig demo --game bumpem --seed 541639` ended on page 1/2 of CHECKERED FLAG."""
    from rig.cli import main

    assert main(["demo", "--game", "bumpem", "--seed", "541639", "--fast"]) == 0
    out = capsys.readouterr().out
    last = out[out.rindex("CHECKERED FLAG"):]
    assert "2/2 press: ok" in last and "Red wins!" in last, last


@pytest.mark.parametrize(("game", "players", "variant"), GAMES)
def test_a_tap_or_a_flick_on_page_one_reads_on_and_does_nothing_else(game, players, variant):
    """The next player tapping at once must not skip page 2 (the bumped car)."""
    rig = new_emulated_rig(game, players, variant=variant, seed=3)
    _to_moment(rig, random.Random(3))
    moment = _two_pages(rig)
    steps = rig.session.steps
    card = rig.controller.view.card_ids()[0]
    rig.tap(card)
    assert rig.controller.alert == moment and rig.screen.page == 1
    rig.controller.face.page = 0
    rig.loop.step(KnobSpin("hi", 0.6))
    assert rig.controller.alert == moment and rig.screen.page == 1
    assert rig.session.steps == steps


@pytest.mark.parametrize(("game", "players", "variant"), GAMES)
def test_cbrig_replay_lists_each_move_in_the_words_its_menu_row_had(tmp_path, game, players,
                                                                    variant):
    import re

    from rig.core.journalread import read_journal
    from rig.core.replay import journal_steps

    journal = tmp_path / "game.jsonl"
    rig = new_emulated_rig(game, players, variant=variant, seed=11, journal=journal)
    rng = random.Random(11)
    rows: list[str] = []
    for _ in range(300):
        if rig.session.state.is_terminal():
            break
        if not rig.session.state.is_chance_node() and rig.controller.alert is None:
            choices, menu = rig.controller.choices(), rig.screen.menu
            _step(rig, rng)
            rows.append(menu[choices.index(rig.session.last_action)].lstrip("* "))
            continue
        _step(rig, rng)
    rig.session.close()
    contents = read_journal(journal)
    texts = [s.text for s in journal_steps(rig.session.game, contents.entries)]
    for row in rows:
        assert row in texts, f"{row!r} is not how the replay says it"
    assert not [t for t in texts if re.search(r"\bto$|\bto,|: 0 to ", t)]
