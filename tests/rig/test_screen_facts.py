"""The screen carries the facts the voice says (issue 34 item 4, RULINGS G4): the mover
on every instruction, the Bear's route on its warning, which police pieces move; the
instruction always on page 1 (news may page); a refusal gone with the screen it answered.

Seeded whole games are played by the autopilot and every screen they drew is checked
as the OLED shows it (the wordings `fit` chose, the rows of page 1)."""

from __future__ import annotations

import random
from functools import cache

import pytest

from hardware.events import KnobSpin
from rig.core.autopilot import gestures_for
from rig.desktop.emulated import new_emulated_rig
from rig.screens.screen import Screen, fit, wrap

GAMES = [("tenfour", 4, 6), ("tenfour", 3, 1), ("tenfour", 2, 3)]
"""(game, players, seed): `cbrig demo --players 4 --seed 6` put "flick the LO knob" on
page 2 behind two "loses this turn" lines."""


@cache
def _screens(game: str, players: int, seed: int) -> tuple[Screen, ...]:
    rig = new_emulated_rig(game, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(600):
        if rig.controller.over:
            break
        for gesture in gestures_for(rig.controller, rng):
            rig.loop.step(gesture)
        rig.settle()
    return tuple(rig.screens)


def _shown(screen: Screen) -> list[tuple[str, str]]:
    """(role, wording) of each part as the screen shows it."""
    return list(zip((p.role for p in screen.parts()), fit(screen).wordings, strict=False))


def _mover(screen: Screen) -> str:
    """The seat the title names ("10-4  BLUE" -> "Blue"), or "" for other screens."""
    head, _, name = screen.title.partition("  ")
    return name.capitalize() if head == "10-4" and name else ""


@pytest.mark.parametrize(("game", "players", "seed"), GAMES)
def test_every_instruction_names_the_mover(game, players, seed):
    prompts = 0
    for screen in _screens(game, players, seed):
        mover = _mover(screen)
        said = [w for role, w in _shown(screen) if role == "instruction"]
        if not mover or not said or screen.footer:
            continue
        prompts += 1
        assert any(mover in w for w in said), f"no {mover} on {said}"
    assert prompts > 20


def test_the_bear_warning_names_its_route_and_police_moves_name_the_pieces():
    warned = police = 0
    for screen in (screen for game in GAMES for screen in _screens(*game)):
        for part, wording in zip(screen.parts(), fit(screen).wordings, strict=False):
            if part.role == "warning" and wording.startswith("Bear"):
                warned += 1
                assert any(c in wording for c in ("Red", "Green", "Blue", "Yellow")), wording
            if part.role == "instruction" and ("BREAK ONE NINE! Move" in part.text
                                               or "Take a police car" in part.text):
                police += 1
                assert "Smokey" in wording or "Bear" in wording or "police" in wording, \
                    wording
                if "Move" in part.text:
                    assert "Smokey" in wording, wording
    assert warned and police


@pytest.mark.parametrize(("game", "players", "seed"), GAMES)
def test_the_instruction_is_always_on_page_one(game, players, seed):
    paged = 0
    for screen in _screens(game, players, seed):
        fitted = fit(screen)
        if len(fitted.pages) < 2:
            continue
        paged += 1
        first = [row.text for row in fitted.pages[0]]
        for role, wording in _shown(screen):
            if role == "instruction":
                rows = list(wrap(wording))
                assert any(first[i:i + len(rows)] == rows for i in range(len(first))), \
                    f"{wording!r} is not on page 1: {first}"
    if (game, players, seed) == GAMES[0]:
        assert paged, "the demo's paged screen is among them"


def test_a_refusal_goes_with_the_screen_it_answered():
    """A flick on the draw prompt is refused; the card tapped a second later makes a new
    screen, and the refusal is not left above it (it pushed the card text down)."""
    rig = new_emulated_rig("tenfour", 3, seed=4)
    rng = random.Random(4)
    while rig.session.state.prompt().kind != "draw" or rig.controller.alert is not None:
        for gesture in gestures_for(rig.controller, rng):
            rig.loop.step(gesture)
        rig.settle()
    rig.loop.step(KnobSpin("hi", 0.6))
    refusal = rig.controller.face.refusal
    assert refusal is not None and refusal.text in rig.screen.plain()
    rig.clock.advance(1.0)  # within the refusal's time
    for gesture in gestures_for(rig.controller, rng):  # the card, tapped
        rig.loop.step(gesture)
    assert rig.session.state.prompt().kind == "spin"
    assert rig.controller.face.refusal is None
    assert refusal.text not in rig.screen.plain()
    assert fit(rig.screen).pages[0][0].text.startswith('"'), "the card text leads"
    rig.loop.step(KnobSpin("lo" if rig.session.state.prompt().band == "hi" else "hi", 0.6))
    assert "Spin the" in rig.screen.plain(), "a refusal on this screen still shows"


@pytest.mark.parametrize("game_name", ["tenfour", "bumpem"])
def test_enrolment_says_tap_it_on_page_one_for_every_card(game_name):
    from hardware.events import CardPresented
    from rig.core.enroll import Enrolment, EnrolScreen, deck_cards
    from rig.gamebuild import build_game

    enrol = EnrolScreen(Enrolment(cards=deck_cards(build_game(game_name, players=3)),
                                  tags={}), lambda tags: None)
    cards = 0
    while not enrol.finished:
        first = [row.text for row in fit(enrol.screen()).pages[0]]
        assert "Tap it on the reader" in first, first
        if cards:
            assert first[0].endswith(f"= tag T{cards - 1}"), "and what the last tap did"
        enrol.handle(CardPresented(f"T{cards}", "reader"))
        cards += 1
    assert cards > 10


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("game_name", ["tenfour", "bumpem"])
def test_the_setup_menu_cuts_no_word(game_name, players):
    """The colours row said "Colours: red gre blu"."""
    from rig.core.setup_menu import SetupChoice, SetupMenu, colour_sets
    from valueclass import replace

    menu = SetupMenu(SetupChoice(game=game_name, players=players,
                                 levels=("human",) * players))
    for colours in colour_sets(game_name, players):
        menu.choice = replace(menu.choice, seats=colours)
        row = next(item for item in menu.items() if item.startswith("Colours:"))
        assert row.split()[1:] == list(colours), row
        menu.cursor = menu.items().index(row)
        shown = " ".join(" ".join(fit(menu.screen()).pages[0][i].text[2:].split())
                         for i in range(len(fit(menu.screen()).pages[0])))
        assert row in shown, f"{row!r} is not shown whole: {shown!r}"
