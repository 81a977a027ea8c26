"""Ladders runs the battery on itself: the rules, then the game driven through the rig
(screens, voice, board drawing, live board, printed sheets)."""

from __future__ import annotations

import pytest
from mygame.board import load_board
from mygame.entry import ENTRY

from cbrig.game import JSON, Action, DataError, Game, State, check_game


def invariants(game: Game, state: State, before: dict[str, JSON] | None,
               action: Action | None) -> None:
    data = state.to_json()
    assert isinstance(data, dict)
    positions = data["positions"]
    assert isinstance(positions, list)
    for square in positions:
        assert isinstance(square, int) and 0 <= square <= 30
        assert square not in (3, 8, 17, 14, 23, 28), "nobody rests where a jump starts"


def test_ladders_passes_the_battery() -> None:
    report = check_game(ENTRY, invariants=invariants)
    assert report.games > 0 and report.rig_games > 0


def test_a_wrong_board_file_names_its_line_and_field() -> None:
    with pytest.raises(DataError) as caught:
        load_board('squares = 30\nper_row = 6\n[[ladder]]\nfoot = 12\ntop = 4\n', "b.toml")
    [problem] = caught.value.problems
    assert (problem.source, problem.line, problem.field) == ("b.toml", 3, "ladder[0]")
