"""bench.journal_sync: both ways are timed line for line and leave nothing behind (it
asserts no speed: that is the bench's to report)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from bench.journal_sync import idle_against_busy, main, measure


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


def spinners_of(parent: int) -> list[int]:
    """Living children of `parent` that run the spinner."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        ppid = next(line.split()[1] for line in status.splitlines()
                    if line.startswith("PPid:"))
        if int(ppid) == parent and b"while True: pass" in cmdline:
            found.append(int(entry.name))
    return found


def test_idle_against_busy_reports_two_rounds_and_stops_its_spinner(tmp_path: Path) -> None:
    before = os.sched_getaffinity(0)
    try:
        report = idle_against_busy(tmp_path, 5)
    finally:
        os.sched_setaffinity(0, before)
    rounds = report["rounds"]
    assert isinstance(rounds, list) and len(rounds) == 2
    for round_ in rounds:
        assert round_["cpu_idle_ms"]["n"] == round_["cpu_busy_ms"]["n"] == 5
    assert list(tmp_path.iterdir()) == []
    assert spinners_of(os.getpid()) == []
