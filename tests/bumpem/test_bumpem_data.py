"""Board and ticket files: every mistake is reported with its file, line and field."""

from __future__ import annotations

import pytest

from engine.bumpem import build, load_board, load_tickets
from engine.errors import DataError, Problem
from tests.bumpem.helpers import BOARD, TICKETS


def edited(text: str, old: str, new: str, nth: int = 0) -> tuple[str, int]:
    """`text` with the nth occurrence of line `old` replaced by `new`, and that line number."""
    lines = text.splitlines()
    hits = [i for i, line in enumerate(lines) if line == old]
    index = hits[nth]
    lines[index] = new
    return "\n".join(lines) + "\n", index + 1


def problems(loader: object, text: str) -> list[Problem]:
    with pytest.raises(DataError) as caught:
        loader(text, "owner.toml")  # type: ignore[operator]
    return caught.value.problems


def only(found: list[Problem]) -> Problem:
    assert len(found) == 1, found
    return found[0]


def test_shipped_defaults_load_and_say_they_are_assumptions() -> None:
    board = load_board(*BOARD)
    tickets = load_tickets(*TICKETS)
    assert board.colours == ("red", "blue", "yellow", "green")
    assert tickets.counts == (1,) * 13 and tickets.draw == "independent"
    assert "ASSUMPTION" in BOARD[0] and "ASSUMPTION" in TICKETS[0]


@pytest.mark.parametrize(
    ("old", "new", "nth", "field", "words"),
    [
        ("start = 20", "start = 99", 0, "colour[1].start", "unknown position"),
        ("start = 20", "start = 5", 0, "colour[1].start", "duplicate position"),
        ("home_entrance = 18", "home_entrance = 22", 0, "colour[1].home_entrance",
         "not before"),
        ("home_entrance = 18", "home_entrance = 20", 0, "colour[1].home_entrance",
         "not before"),
        ("space = 25", "space = 20", 0, "oil_slick[1].space", "start space"),
        ("space = 25", "space = 10", 0, "oil_slick[1].space", "duplicate position"),
        ("space = 25", "space = 60", 0, "oil_slick[1].space", "past their home entrance"),
        ('colour = "blue"', 'colour = "purple"', 0, "oil_slick[1].colour", "unknown colour"),
        ("turbo = [13, 28, 43, 58]", "turbo = [13, 35, 43, 58]", 0, "turbo", "start space"),
        ("turbo = [13, 28, 43, 58]", "turbo = [13, 13, 43, 58]", 0, "turbo", "duplicate"),
        ("turbo = [13, 28, 43, 58]", "turbo = [13, 25, 43, 58]", 0, "turbo", "oil slick"),
        ("turbo = [13, 28, 43, 58]", "turbo = [13, 61]", 0, "turbo", "unknown position"),
        ("cars_per_player = 4", "cars_per_player = 0", 0, "cars_per_player", "at least 1"),
        ("cars_per_player = 4", 'cars_per_player = "four"', 0, "cars_per_player",
         "expected an integer"),
        ('name = "yellow"', 'name = "red"', 0, "colour[2].name", "duplicate colour"),
        ('name = "yellow"', 'name = "pink"', 0, "colour[2].name", "unknown colour"),
        ("start = 35", "starts = 35", 0, "colour[2].starts", "unknown field"),
    ],
)
def test_board_mistake_names_line_and_field(old: str, new: str, nth: int, field: str,
                                            words: str) -> None:
    text, line = edited(BOARD[0], old, new, nth)
    found = problems(load_board, text)
    hit = [p for p in found if p.field == field]
    assert hit, found
    assert hit[0].line == line and hit[0].source == "owner.toml"
    assert words in hit[0].message
    assert str(hit[0]).startswith(f"owner.toml:{line}: {field}: ")


def test_board_missing_field_and_every_problem_at_once() -> None:
    text, _ = edited(BOARD[0], "home_stretch_length = 5", "")
    text, start_line = edited(text, "start = 20", "start = 0")
    found = problems(load_board, text)
    fields = {p.field for p in found}
    assert {"home_stretch_length", "colour[1].start"} <= fields
    start = next(p for p in found if p.field == "colour[1].start")
    assert start.line == start_line


def test_board_syntax_error_is_located() -> None:
    text, line = edited(BOARD[0], "start = 20", "start = = 20")
    problem = only(problems(load_board, text))
    assert problem.field == "syntax" and problem.line == line


@pytest.mark.parametrize(
    ("old", "new", "nth", "field", "words"),
    [
        ('id = "7"', 'id = "13"', 0, "ticket[6].id", "unknown ticket kind"),
        ('id = "7"', 'id = "6"', 0, "ticket[6].id", "duplicate ticket kind"),
        ("count = 1", "count = -2", 4, "ticket[4].count", "0 or more"),
        ("count = 1", 'count = "one"', 4, "ticket[4].count", "expected an integer"),
        ('draw = "independent"', 'draw = "shuffle"', 0, "draw", "expected one of"),
        ("count = 1", "copies = 1", 2, "ticket[2].copies", "unknown field"),
    ],
)
def test_ticket_mistake_names_line_and_field(old: str, new: str, nth: int, field: str,
                                             words: str) -> None:
    text, line = edited(TICKETS[0], old, new, nth)
    found = problems(load_tickets, text)
    hit = [p for p in found if p.field == field]
    assert hit, found
    assert hit[0].line == line and words in hit[0].message


def test_tickets_missing_kind_and_all_zero() -> None:
    text = TICKETS[0].replace('[[ticket]]\nid = "bump"', '[[ticket]]\nid = "5b"')
    found = problems(load_tickets, text)
    assert any(p.field == "ticket" and "missing ticket kinds bump" in p.message for p in found)
    zero = TICKETS[0].replace("count = 1", "count = 0")
    problem = only(problems(load_tickets, zero))
    assert problem.field == "ticket" and "nothing to draw" in problem.message


def test_deck_mode_loads() -> None:
    tickets = load_tickets(TICKETS[0].replace('draw = "independent"', 'draw = "deck"'), "x")
    assert tickets.is_deck


def test_build_reports_problems_of_both_files() -> None:
    board, _ = edited(BOARD[0], "start = 20", "start = 99")
    tickets, _ = edited(TICKETS[0], 'id = "7"', 'id = "77"')
    with pytest.raises(DataError) as caught:
        build(players=2, variant="standard",
              data={"board": (board, "b.toml"), "tickets": (tickets, "t.toml")})
    sources = {p.source for p in caught.value.problems}
    assert sources == {"b.toml", "t.toml"}


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"players": 5}, "2 to 4 players"),
        ({"players": 1}, "2 to 4 players"),
        ({"variant": "fast"}, "unknown Bump 'Em variant"),
        ({"options": {"nitro": True}}, "unknown Bump 'Em option"),
        ({"options": {"turbo": "yes"}}, "must be bool"),
        ({"seats": ["red", "red"]}, "repeat"),
        ({"seats": ["red", "purple"]}, "not a colour"),
        ({"seats": ["red"]}, "need 2 seats"),
    ],
)
def test_bad_settings_are_value_errors(kwargs: dict[str, object], words: str) -> None:
    settings: dict[str, object] = {"players": 2, "variant": "standard",
                                   "data": {"board": BOARD, "tickets": TICKETS}}
    settings.update(kwargs)
    with pytest.raises(ValueError, match=words):
        build(**settings)  # type: ignore[arg-type]


def test_two_colour_board_allows_only_two_players() -> None:
    text = BOARD[0].split("[[colour]]\nname = \"yellow\"")[0]
    text += '[[oil_slick]]\nspace = 10\ncolour = "red"\n'
    board = load_board(text, "two.toml")
    assert board.colours == ("red", "blue")
    with pytest.raises(ValueError, match="only 2 colours"):
        build(players=3, variant="standard",
              data={"board": (text, "two.toml"), "tickets": TICKETS})
