"""The setup menu: game, players, colours, who sits where, hints."""

from __future__ import annotations

from hardware.events import KnobPress, KnobTurn
from rig.core.setup_menu import SetupChoice, SetupMenu, colour_sets
from rig.gamebuild import build_game


def _press_row(menu: SetupMenu, label: str) -> None:
    row = next(i for i, item in enumerate(menu.items()) if item.startswith(label))
    menu.handle(KnobTurn("hi", row - menu.cursor))
    menu.handle(KnobPress("hi"))


def test_choosing_bumpem_three_players_other_colours_and_a_computer_seat():
    menu = SetupMenu(SetupChoice(players=4, levels=("human",) * 4))  # round 4 -> 2 -> 3
    _press_row(menu, "Game:")
    assert menu.choice.game == "bumpem"
    _press_row(menu, "Players:")
    _press_row(menu, "Players:")
    assert menu.choice.players == 3
    _press_row(menu, "Colours:")
    assert menu.choice.seats == colour_sets("bumpem", 3)[1]
    first = menu.choice.seats[0].capitalize()
    _press_row(menu, f"{first}:")
    _press_row(menu, f"{first}:")
    assert menu.choice.levels[0] == "medium"
    assert menu.started is None
    _press_row(menu, "START")
    assert menu.started == menu.choice
    game = build_game("bumpem", players=3, seats=menu.choice.seats)
    assert [game.seat_name(i).lower() for i in range(3)] == list(menu.choice.seats)


def test_two_player_10_four_has_the_fixed_teams():
    assert colour_sets("tenfour", 2) == [("red", "blue")]
    assert len(colour_sets("tenfour", 3)) == 4


def test_turning_wraps_around_the_menu():
    menu = SetupMenu()
    rows = len(menu.items())
    menu.handle(KnobTurn("hi", -1))
    assert menu.cursor == rows - 1
    assert menu.screen().menu[menu.cursor] == "START"


def test_a_seat_steps_through_the_levels_and_an_old_name_shows_as_its_level():
    from rig.core.setup_menu import SetupChoice

    menu = SetupMenu(SetupChoice(game="bumpem", players=2, levels=("strong", "human")))
    assert "Red: medium" in menu.items()
    seen = []
    for _ in range(4):
        _press_row(menu, "Red:")
        seen.append(menu.choice.levels[0])
    assert seen == ["hard", "human", "easy", "medium"]


def test_a_start_error_is_shown_whole_page_by_page_and_logged(caplog):
    import logging

    from rig.core.app import App
    from rig.screens.screen import fit, page_count
    from tests.rig.test_screen_audit import MENU_ROW, check_fits, squash

    where = "/var/lib/cbrig/a/rather/long/state/directory/for/this/rig/current.jsonl"

    def start(choice):
        raise PermissionError(13, "Permission denied", where)

    app = App(start_game=start, finish_game=lambda c: None)
    app.handle(KnobTurn("hi", -1))  # to START
    with caplog.at_level(logging.ERROR, logger="rig.core.app"):
        app.handle(KnobPress("hi"))
    assert any(where in record.getMessage() for record in caplog.records), "not logged"
    screen = app.screen()
    check_fits(screen)
    assert screen.title == "NEW GAME", "the reason shows on the setup menu"
    pages = page_count(screen)
    assert pages > 1, "a long reason is paged, not cut"
    shown = ""
    for _ in range(pages):
        body, _ = fit(app.screen()).page(app.screen().page)
        shown += " ".join(row.text for row in body if not row.text.startswith(MENU_ROW))
        app.handle(KnobTurn("lo", 1))
    assert squash(f"Cannot start: [Errno 13] Permission denied: '{where}'") in squash(shown)
    assert app.screen().page == 0, "the LO knob pages round to the first page"
    app.handle(KnobTurn("hi", 1))
    assert app.screen().cursor == 0, "the HI knob still works the menu"
