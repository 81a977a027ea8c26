"""`cbrig replay` shows what was corrected and taken back (RULINGS G5: "a replay shows
what was corrected"), every input with --steps, and says plainly when there is no file."""

from __future__ import annotations

from pathlib import Path

import pytest

from rig.cli import main
from rig.core.journalread import read_journal
from rig.desktop.emulated import new_emulated_rig
from tests.rig.test_corrections import _choose, _open_row, _to_first_draw


def _corrected_game(journal: Path) -> None:
    """A 10-Four game with a card tap taken back and whose turn corrected."""
    rig = new_emulated_rig("tenfour", 3, seed=33, journal=journal)
    _to_first_draw(rig)
    rig.tap("M01")
    _open_row(rig, "Take back: Draw Mike card M01")
    _open_row(rig, "Whose turn: Red")
    _choose(rig, "It is Blue's turn")
    kinds = [entry["kind"] for entry in read_journal(journal).entries]
    assert kinds == ["spin", "spin", "spin", "draw", "take_back", "correct_turn"]


def test_replay_lists_the_corrections_and_take_backs(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "game.jsonl"
    _corrected_game(journal)
    assert main(["replay", str(journal)]) == 0
    out = capsys.readouterr().out
    assert "6 inputs replayed" in out
    assert "1 correction, 1 take-back" in out
    assert "line 6: take back line 5: Draw Mike card M01" in out
    assert "line 7: correction: It is Blue's turn" in out
    assert "line 2:" not in out  # the spins are listed with --steps only


def test_replay_steps_lists_every_input(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "game.jsonl"
    _corrected_game(journal)
    assert main(["replay", str(journal), "--steps"]) == 0
    lines = [line.strip() for line in capsys.readouterr().out.splitlines()]
    steps = [line for line in lines if line.startswith("line ")]
    assert steps == ["line 2: Spin 12", "line 3: Spin 2", "line 4: Spin 2",
                     "line 5: Draw Mike card M01",
                     "line 6: take back line 5: Draw Mike card M01",
                     "line 7: correction: It is Blue's turn"]


def test_replay_of_a_missing_file_says_it_does_not_exist(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nonexistent.jsonl"
    assert main(["replay", str(missing)]) == 1
    err = capsys.readouterr().err
    assert f"cbrig replay: {missing}: no such file" in err
    assert "directory" not in err
