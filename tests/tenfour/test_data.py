"""Board, band and deck files: the shipped defaults load; each mistake is located."""

from __future__ import annotations

import hashlib

import pytest

from engine.errors import DataError, Problem
from engine.tenfour import load_bands, load_board, load_deck
from rig.datafiles import read_data
from tests.tenfour.helpers import make

BOARD, _ = read_data("default:tenfour_board.toml", "engine.tenfour.data")
BANDS, _ = read_data("default:tenfour_bands.toml", "engine.tenfour.data")
DECK, _ = read_data("default:tenfour_deck.toml", "engine.tenfour.data")


def line_of(text: str, snippet: str, occurrence: int = 0) -> int:
    """1-based line of the `occurrence`-th line containing `snippet`."""
    hits = [n for n, line in enumerate(text.splitlines(), start=1) if snippet in line]
    return hits[occurrence]


def problems(loader, text: str) -> list[Problem]:  # type: ignore[no-untyped-def]
    with pytest.raises(DataError) as failed:
        loader(text, "mine.toml")
    assert all(p.source == "mine.toml" for p in failed.value.problems)
    return failed.value.problems


def only(found: list[Problem], field: str) -> Problem:
    matching = [p for p in found if p.field == field]
    assert len(matching) == 1, found
    return matching[0]


# -- shipped defaults ---------------------------------------------------------------------


def test_default_board_follows_the_rulings_guidance() -> None:
    board = load_board(BOARD, "default")
    assert board.size == 80
    assert [(r.colour, len(r.spaces)) for r in board.routes] == [
        ("red", 20), ("green", 20), ("blue", 20), ("yellow", 20)]
    assert len(board.traps) == 4 and len(board.curves) == 4 and len(board.shortcuts) == 2
    assert sorted(b.route for b in board.bears) == ["blue", "green", "red", "yellow"]
    assert not any(board.on_curve[i] for i in board.start.values())  # starts not on curves
    assert set(board.xy) >= set(board.loop) | {"TR", "SC1", "AR"}
    assert "ASSUMPTION" in BOARD and "ASSUMPTION" in BANDS and "ASSUMPTION" in DECK


def test_default_bands_and_deck() -> None:
    bands = load_bands(BANDS, "default")
    assert bands.segments == {"hi": tuple(range(2, 13)), "lo": tuple(range(1, 7))}
    deck = load_deck(DECK, "default", bands=bands)
    share = sum(c.copies for c in deck.cards if c.break_one_nine) / deck.size
    assert 0.15 <= share <= 0.25  # about one draw in five
    assert {c.band for c in deck.cards} == {"hi", "lo"}


def test_identity_hashes_each_file_text() -> None:
    game = make(players=3)
    identity = game.identity()
    assert identity["game"] == "tenfour" and identity["players"] == 3
    assert identity["data"]["board"]["sha256"] == hashlib.sha256(BOARD.encode()).hexdigest()
    assert identity["options"]["bear_limit"] == 8


# -- board mistakes -----------------------------------------------------------------------


def test_duplicate_space_id_names_the_route_line() -> None:
    text = BOARD.replace('"G5"', '"R5"', 1)
    found = only(problems(load_board, text), "route[1].spaces")
    assert "duplicate" in found.message and "R5" in found.message
    assert found.line == line_of(text, '"G4", "R5"')


def test_trap_spaces_must_be_three_consecutive() -> None:
    text = BOARD.replace('spaces = ["R7", "R8", "R9"]', 'spaces = ["R7", "R8", "R10"]')
    found = only(problems(load_board, text), "trap[0].spaces")
    assert "consecutive" in found.message
    assert found.line == line_of(text, '"R7", "R8", "R10"')


def test_unknown_space_in_a_trap_and_a_short_cut() -> None:
    text = BOARD.replace('entry = "R16"', 'entry = "R99"').replace(
        'spaces = ["G7", "G8", "G9"]', 'spaces = ["G7", "G8", "X9"]')
    found = problems(load_board, text)
    entry = only(found, "shortcut[0].entry")
    assert "R99" in entry.message and entry.line == line_of(text, 'entry = "R99"')
    trap = only(found, "trap[1].spaces")
    assert "X9" in trap.message and trap.line == line_of(text, '"X9"')


def test_route_without_a_bear_space() -> None:
    text = BOARD.replace('[[bear]]\nid = "AR"\nroute = "red"\nbeside = "R12"\n', "")
    found = only(problems(load_board, text), "route[0].colour")
    assert "no Bear space" in found.message
    assert found.line == line_of(text, 'colour = "red"')


def test_curve_must_be_three_consecutive_spaces() -> None:
    text = BOARD.replace('spaces = ["B18", "B19", "B20"]', 'spaces = ["B18", "B20", "Y1"]')
    found = only(problems(load_board, text), "curve[2].spaces")
    assert found.line == line_of(text, '"B18", "B20", "Y1"')


def test_short_cut_must_save_a_step() -> None:
    text = BOARD.replace('exit = "G2"', 'exit = "R17"')
    found = only(problems(load_board, text), "shortcut[0].exit")
    assert "save" in found.message


def test_unknown_colour_and_duplicate_table_id_all_reported_together() -> None:
    text = BOARD.replace('colour = "yellow"', 'colour = "purple"').replace(
        'id = "TG"', 'id = "TR"')
    found = problems(load_board, text)
    fields = {p.field for p in found}
    assert {"route[3].colour", "trap[1].id"} <= fields
    colour = only(found, "route[3].colour")
    assert colour.line == line_of(text, 'colour = "purple"')
    assert only(found, "trap[1].id").line == line_of(text, 'id = "TR"', 1)


def test_bear_beside_another_route() -> None:
    text = BOARD.replace('route = "red"\nbeside = "R12"', 'route = "red"\nbeside = "G12"')
    found = only(problems(load_board, text), "bear[0].beside")
    assert "green" in found.message


def test_syntax_error_is_located() -> None:
    text = BOARD.replace('id = "SC1"', 'id = "SC1')
    (found,) = problems(load_board, text)
    assert found.field == "syntax" and found.line == line_of(text, 'id = "SC1')


def test_trap_entry_and_exit_overrides_are_checked() -> None:
    text = BOARD.replace('# exit = "R10"', 'exit = "R0"')
    found = only(problems(load_board, text), "trap[0].exit")
    assert found.line == line_of(text, 'exit = "R0"')


# -- band and deck mistakes --------------------------------------------------------------------


def test_band_mistakes() -> None:
    text = BANDS.replace("segments = [1, 2, 3, 4, 5, 6]", "segments = []").replace(
        "segments = [2, 3,", "segments = [0, 3,")
    found = problems(load_bands, text)
    assert only(found, "band.lo.segments").line == line_of(text, "segments = []")
    assert only(found, "band.hi.segments").line == line_of(text, "segments = [0, 3,")


def test_missing_lo_band() -> None:
    text = BANDS[: BANDS.index("[band.lo]")]
    found = problems(load_bands, text)
    assert any("band.lo" in p.message for p in found)


def test_deck_negative_extra_and_duplicate_id_are_located() -> None:
    text = DECK.replace('id = "M02"', 'id = "M01"').replace(
        'id = "M03"\nband = "hi"\nextra = 0', 'id = "M03"\nband = "hi"\nextra = -1')
    found = problems(load_deck, text)
    duplicate = only(found, "card[1].id")
    assert "duplicate" in duplicate.message and duplicate.line == line_of(text, 'id = "M01"', 1)
    extra = only(found, "card[2].extra")
    assert extra.line == line_of(text, "extra = -1")


def test_deck_needs_a_card_for_every_band_that_exists() -> None:
    bands = load_bands(BANDS + '\n[band.mid]\nsegments = [3, 4]\n', "bands.toml")
    with pytest.raises(DataError) as failed:
        load_deck(DECK, "deck.toml", bands=bands)
    assert any("'mid'" in p.message for p in failed.value.problems)
    only_hi = '[[card]]\nid = "A"\nband = "hi"\nbreak_one_nine = true\ntext = "a"\n'
    assert any("'lo'" in p.message for p in problems(load_deck, only_hi))


def test_deck_unknown_band_and_bad_flag() -> None:
    text = DECK.replace('band = "lo"', 'band = "low"', 1).replace(
        "break_one_nine = false", 'break_one_nine = "no"', 1)
    found = problems(load_deck, text)
    band = next(p for p in found if p.field.endswith(".band"))
    assert band.line == line_of(text, 'band = "low"')
    flag = next(p for p in found if p.field.endswith(".break_one_nine"))
    assert flag.line == line_of(text, 'break_one_nine = "no"')


def test_deck_without_break_one_nine_is_refused() -> None:
    text = DECK.replace("break_one_nine = true", "break_one_nine = false")
    assert any("BREAK ONE NINE" in p.message for p in problems(load_deck, text))


def test_build_reports_data_errors() -> None:
    with pytest.raises(DataError):
        make(players=3, board=BOARD.replace('"G5"', '"R5"'))


def test_layout_positions_can_be_set_by_hand_and_are_checked() -> None:
    board = load_board(BOARD + "\n[layout.at]\nSC1 = [0.9, 0.1]\n", "mine.toml")
    assert board.xy["SC1"] == (0.9, 0.1)
    text = BOARD + "\n[layout.at]\nZZ = [0.9, 0.1]\nR1 = [1, \"top\"]\n"
    found = problems(load_board, text)
    assert only(found, "layout.at.ZZ").line == line_of(text, "ZZ = ")
    assert only(found, "layout.at.R1").line == line_of(text, 'R1 = [1, "top"]')
