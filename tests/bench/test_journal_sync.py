"""bench.journal_sync: both ways are timed line for line and leave nothing behind (it
asserts no speed: that is the bench's to report)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.journal_sync import main, measure


def test_both_ways_are_timed_for_every_line_and_the_files_removed(tmp_path: Path) -> None:
    report = measure(tmp_path, 20)
    assert report["writes"] == 20
    for way in ("append_fsync_ms", "in_place_fdatasync_ms"):
        figures = report[way]
        assert isinstance(figures, dict)
        assert figures["n"] == 20
        assert 0 < figures["p50"] <= figures["p99"] <= figures["max"]
    assert list(tmp_path.iterdir()) == []


def test_the_command_prints_one_json_object(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--dir", str(tmp_path), "--writes", "5"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["append_fsync_ms"]["n"] == report["in_place_fdatasync_ms"]["n"] == 5
