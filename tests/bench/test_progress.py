"""The bench's progress lines: on a terminal only, never with --json, and no silence
longer than a couple of seconds while a section's inner loop ticks."""

from __future__ import annotations

import argparse
import sys
from typing import Any

import pytest

from bench import cli, progress, runner


def test_a_tick_prints_only_after_a_quiet_stretch(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    now = [100.0]
    monkeypatch.setattr(progress.time, "perf_counter", lambda: now[0])
    progress.start()
    try:
        progress.say("section")
        for step in range(40):  # a loop ticking every 0.25 s for 10 s
            now[0] += 0.25
            progress.tick("  game %d", step)
    finally:
        progress.stop()
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].endswith("section")
    assert len(lines) == 1 + 5  # one line every 2 s (QUIET_SECONDS) over 10 s
    assert lines[1].endswith("  game 7") and lines[-1].endswith("  game 39")
    progress.tick("after the run %d", 1)  # off again: nothing
    assert capsys.readouterr().err == ""


def fake_run(**_: Any) -> dict[str, Any]:
    progress.say("a section")
    progress.tick("a game %d", 1)
    return {"mode": "quick", "machine": {"cpu_model": "x", "python": "3", "pinned_cpu": 0},
            "gate": {"exit_code": 0, "gated": [], "missed": []}}


@pytest.mark.parametrize(("terminal", "json", "shown"), [
    (True, False, True), (True, True, False), (False, False, False)])
def test_progress_shows_on_a_terminal_without_json_only(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        terminal: bool, json: bool, shown: bool) -> None:
    monkeypatch.setattr(runner, "run", fake_run)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: terminal)
    args = argparse.Namespace(quick=True, only=None, journal_dir=None, json=json)
    assert cli.run(args) == 0
    err = capsys.readouterr().err
    assert ("a section" in err) == shown
    assert not progress.on()


def test_every_section_says_when_it_starts_and_ends(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    def section(quick: bool) -> dict[str, Any]:
        progress.say("  inside")
        return {}

    monkeypatch.setattr(runner, "SECTIONS", (("engine", section, "m"), ("bus", section, "m")))
    monkeypatch.setattr(runner.calibration, "measure_ms", lambda rounds: (5.0, [5.0]))
    progress.start()
    try:
        runner.run(quick=True, only=["engine", "bus"])
    finally:
        progress.stop()
    lines = [line.split("] ", 1)[1] for line in capsys.readouterr().err.splitlines()]
    assert lines[0].startswith("quick run, 2 section(s)")
    assert lines[1:4] == ["[1/2] engine (yardstick 5.0 ms)", "  inside", lines[3]]
    assert lines[3].startswith("[1/2] engine done in")
    assert lines[4] == "[2/2] bus (yardstick 5.0 ms)" and lines[-1].startswith("done in")
