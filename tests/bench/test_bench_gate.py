"""The bench's gate: which targets decide the exit code, and that a miss makes it 1."""

from __future__ import annotations

import argparse
from typing import Any

import pytest

from bench import cli, runner


def checked(mode: str, missed: set[str]) -> dict[str, Any]:
    targets = {key: {"met": key not in missed, "value": 1.0} for key in runner.TARGETS}
    return {"mode": mode, "targets": targets}


def test_a_full_run_gates_on_every_target() -> None:
    gate = runner.gate(checked("full", {"rss_mb"}))
    assert gate["gated"] == list(runner.TARGETS)
    assert gate == {"gated": list(runner.TARGETS), "missed": ["rss_mb"], "exit_code": 1}
    assert runner.gate(checked("full", set()))["exit_code"] == 0


def test_a_quick_run_gates_only_on_counted_targets() -> None:
    timed_miss = runner.gate(checked("quick", {"input_to_frame_ms.p99", "rss_mb"}))
    assert timed_miss["gated"] == list(runner.LOAD_ROBUST) and timed_miss["exit_code"] == 0
    counted_miss = runner.gate(checked("quick", {"bus_input_share_of_full_frame_p50"}))
    assert counted_miss["missed"] == ["bus_input_share_of_full_frame_p50"]
    assert counted_miss["exit_code"] == 1


def test_sections_left_out_gate_nothing() -> None:
    assert runner.gate({"mode": "full"}) == {"gated": [], "missed": [], "exit_code": 0}


def test_the_command_exits_with_the_gate(monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    def fake_run(**_: Any) -> dict[str, Any]:
        return {"gate": {"exit_code": 1, "gated": [], "missed": ["x"]}}

    monkeypatch.setattr(runner, "run", fake_run)
    args = argparse.Namespace(quick=True, only=None, journal_dir=None, json=True)
    assert cli.run(args) == 1
    assert '"exit_code": 1' in capsys.readouterr().out


def test_calibration_ratios_divide_by_the_yardstick() -> None:
    report = {"calibration_ms": 4.0, "input_to_frame_cpu_ms": {"p50": 1.0, "p99": 2.0},
              "start_to_ready_cpu_seconds": 0.1}
    ratios = runner.calibration_ratios(report)
    assert ratios == {"input_to_frame_cpu_ms_p50": 0.25, "input_to_frame_cpu_ms_p99": 0.5,
                      "start_to_ready_cpu_ms": 25.0}
