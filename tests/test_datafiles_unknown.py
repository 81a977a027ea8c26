"""Every data loader reports an unknown field or table the same way: file, line, field,
and the name it was probably meant to be (one Checker.tables / unknown_keys for all)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.bumpem import load_board as load_bumpem_board
from engine.bumpem import load_tickets
from engine.errors import DataError
from engine.tenfour import load_bands, load_deck
from engine.tenfour import load_board as load_tenfour_board
from rig.datafiles import read_data


def shipped(name: str) -> str:
    text, _ = read_data(f"default:{name}", f"engine.{name.split('_')[0]}.data")
    return text


CASES: list[tuple[str, Callable[[str, str], Any], str, str, int, str, str]] = [
    # file, loader, old line, new line, which occurrence, field, words
    ("bumpem_board.toml", load_bumpem_board, "start = 35", "starts = 35", 0,
     "colour[2].starts", "did you mean 'start'?"),
    ("bumpem_board.toml", load_bumpem_board, "space = 25", "spcae = 25", 0,
     "oil_slick[1].spcae", "did you mean 'space'?"),
    ("bumpem_board.toml", load_bumpem_board, "cars_per_player = 4", "car_per_player = 4", 0,
     "car_per_player", "did you mean 'cars_per_player'?"),
    ("bumpem_tickets.toml", load_tickets, "count = 1", "cuont = 1", 2,
     "ticket[2].cuont", "did you mean 'count'?"),
    ("bumpem_tickets.toml", load_tickets, "count = 1", "zzz = 1", 2,
     "ticket[2].zzz", "expected count, id or text"),
    ("tenfour_board.toml", load_tenfour_board, "[[trap]]", "[[traps]]", 3,
     "traps", "unknown table; did you mean 'trap'?"),
    ("tenfour_board.toml", load_tenfour_board, 'beside = "R12"', 'besides = "R12"', 0,
     "bear[0].besides", "did you mean 'beside'?"),
    ("tenfour_board.toml", load_tenfour_board, 'exit = "G2"', 'exits = "G2"', 0,
     "shortcut[0].exits", "did you mean 'exit'?"),
    ("tenfour_bands.toml", load_bands, "[band.lo]", "[bands.lo]", 0,
     "bands", "unknown table; did you mean 'band'?"),
    ("tenfour_deck.toml", load_deck, "break_one_nine = true", "break_one_niner = true", 0,
     "card[7].break_one_niner", "did you mean 'break_one_nine'?"),
]


def edited(text: str, old: str, new: str, nth: int) -> tuple[str, int]:
    """`text` with the nth line that starts with `old` replaced by `new`, and its line."""
    lines = text.splitlines()
    hits = [i for i, line in enumerate(lines) if line.strip().startswith(old)]
    index = hits[nth]
    lines[index] = lines[index].replace(old, new, 1)
    return "\n".join(lines) + "\n", index + 1


@pytest.mark.parametrize(("name", "loader", "old", "new", "nth", "field", "words"), CASES,
                         ids=[f"{c[0]}:{c[5]}" for c in CASES])
def test_unknown_key_is_located_with_a_suggestion(
    name: str, loader: Callable[[str, str], Any], old: str, new: str, nth: int,
    field: str, words: str,
) -> None:
    text, line = edited(shipped(name), old, new, nth)
    with pytest.raises(DataError) as failed:
        loader(text, "owner.toml")
    hits = [p for p in failed.value.problems if p.field == field]
    assert hits, failed.value.problems
    assert hits[0].source == "owner.toml" and hits[0].line == line
    assert words in hits[0].message, hits[0].message


def test_an_entry_that_is_not_a_table_is_named_by_its_index() -> None:
    text = 'draw = "independent"\nticket = [1]\n'
    with pytest.raises(DataError) as failed:
        load_tickets(text, "tickets.toml")
    (problem,) = [p for p in failed.value.problems if p.field == "ticket[0]"]
    assert problem.line == 2 and "expected a table, got 1" in problem.message


def test_shipped_files_have_no_unknown_keys() -> None:
    """The checks are not stricter than the files the rig ships."""
    bands = load_bands(shipped("tenfour_bands.toml"), "bands")
    load_deck(shipped("tenfour_deck.toml"), "deck", bands=bands)
    load_tenfour_board(shipped("tenfour_board.toml"), "board")
    load_bumpem_board(shipped("bumpem_board.toml"), "board")
    load_tickets(shipped("bumpem_tickets.toml"), "tickets")
