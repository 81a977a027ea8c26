"""The correction menu through the real controller (RULINGS G5): whose turn, a lost
turn, a Hammer Up and taking back the last menu choice or card tap, each journaled and
replayed exactly."""

from __future__ import annotations

import random

from rig.core.journalread import read_journal
from rig.core.replay import replay
from rig.core.session import Session
from rig.desktop.emulated import new_emulated_rig
from tests.rig.drive import advance_to_choice


def _open_row(rig, starts: str) -> None:
    """Long press, then turn to the row that starts with `starts` and press."""
    rig.hold("hi")
    items = list(rig.screen.menu)
    row = next(i for i, item in enumerate(items) if item.startswith(starts))
    rig.turn("hi", row - rig.screen.cursor)
    rig.press("hi")


def _choose(rig, starts: str) -> None:
    items = list(rig.screen.menu)
    row = next(i for i, item in enumerate(items) if item.startswith(starts))
    rig.turn("hi", row - rig.screen.cursor)
    rig.press("hi")


def _replays_exactly(rig, journal) -> None:
    contents = read_journal(journal)
    _, state = replay(contents.header, contents.entries)
    assert state == rig.session.state
    again = Session.resume(journal)
    try:
        assert again.state == rig.session.state
    finally:
        again.close()


def _to_first_draw(rig) -> None:
    for value in (12, 2, 2):
        rig.spin("hi", value)
    assert rig.session.state.prompt().kind == "draw"


def test_whose_turn_and_a_lost_turn_are_corrected_from_the_menu(tmp_path):
    journal = tmp_path / "j.jsonl"
    rig = new_emulated_rig("tenfour", 3, seed=31, journal=journal)
    _to_first_draw(rig)
    _open_row(rig, "Whose turn: Red")
    _choose(rig, "It is Blue's turn")
    assert rig.controller.correction is None
    assert rig.session.state.prompt().player == 2
    _open_row(rig, "Lost turns: none")
    _choose(rig, "Red: loses next turn")
    assert rig.session.state.lose == [True, False, False]
    kinds = [entry["kind"] for entry in read_journal(journal).entries[-2:]]
    assert kinds == ["correct_turn", "correct_lost_turn"]
    _replays_exactly(rig, journal)


def test_a_hammer_up_is_corrected_from_the_menu(tmp_path):
    journal = tmp_path / "j.jsonl"
    rig = new_emulated_rig("tenfour", 3, seed=32, journal=journal)
    _to_first_draw(rig)
    _open_row(rig, "Hammer Up for the Red truck")
    assert rig.session.state.prompt().hammer
    assert "HAMMER UP" in rig.screen.plain()
    _open_row(rig, "No Hammer Up")
    assert rig.session.state.prompt().kind == "draw"
    _replays_exactly(rig, journal)


def test_a_card_tap_is_taken_back_and_can_be_tapped_again(tmp_path):
    journal = tmp_path / "j.jsonl"
    rig = new_emulated_rig("tenfour", 3, seed=33, journal=journal)
    _to_first_draw(rig)
    before = rig.session.state.to_json()
    rig.tap("M01")
    assert rig.session.state.prompt().kind == "spin"
    _open_row(rig, "Take back: Draw Mike card M01")
    assert rig.session.state.to_json() == before
    assert "Taken back: Draw Mike card M01" in rig.screen.plain()
    assert read_journal(journal).entries[-1] == {"kind": "take_back"}
    _replays_exactly(rig, journal)
    rig.tap("M01")
    assert rig.session.state.prompt().kind == "spin", "the same card may be tapped again"


def test_a_menu_choice_is_taken_back_but_never_a_spin(tmp_path):
    journal = tmp_path / "j.jsonl"
    rig = new_emulated_rig("bumpem", 2, seed=34, journal=journal)
    advance_to_choice(rig, random.Random(34))
    before = rig.session.state.to_json()
    rig.press("hi")  # the move under the cursor
    rig.controller.alert = None
    rig.hold("hi")
    assert any(item.startswith("Take back: ") for item in rig.screen.menu)
    rig.hold("hi")
    _open_row(rig, "Take back: ")
    assert rig.session.state.to_json() == before
    _replays_exactly(rig, journal)
    rig.hold("hi")
    assert not any(item.startswith("Take back: ") for item in rig.screen.menu), (
        "after a take-back the ticket draw before it (a virtual draw) stays")
    rig.hold("hi")
    spun = new_emulated_rig("tenfour", 3, seed=35)
    _to_first_draw(spun)
    spun.tap("M01")
    spun.spin("hi", 7)
    spun.hold("hi")
    assert not any(item.startswith("Take back: ") for item in spun.screen.menu)


def test_the_piece_menu_names_each_piece_with_its_place():
    rig = new_emulated_rig("bumpem", 2, seed=36)
    rig.hold("hi")
    items = list(rig.screen.menu)
    assert items[0] == "Red car in pit"
    assert "Whose turn: Red" in items
    assert not [item for item in items if "car 1" in item or "red:" in item]
