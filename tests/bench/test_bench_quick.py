"""`python -m bench --quick --json` runs and reports every figure with a sane type.

Not a timed test: nothing here asserts a speed (CI machines vary); docs/PERFORMANCE.md
holds the budget and `cbrig bench` checks it.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE_KEYS = {"tenfour/standard/3p", "tenfour/standard/4p", "tenfour/two-player/2p",
               "bumpem/standard/2p", "bumpem/standard/3p", "bumpem/standard/4p"}
SCREEN_KINDS = {"setup_menu", "draw_prompt", "spin_animation", "move_menu", "police_menu",
                "alert", "winner"}
PERCENTILES = {"n", "p50", "p90", "p99", "max", "mean"}


def _no_nan(token: str) -> Any:
    raise ValueError(f"the report has {token}: not valid JSON")


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    result = subprocess.run([sys.executable, "-m", "bench", "--quick", "--json"], cwd=ROOT,
                            capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout, parse_constant=_no_nan)
    assert isinstance(data, dict)
    return data


def positive(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) \
        and math.isfinite(value) and value > 0


def non_negative(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) \
        and math.isfinite(value) and value >= 0


def check_percentiles(block: Any) -> None:
    assert isinstance(block, dict) and set(block) == PERCENTILES
    assert isinstance(block["n"], int) and block["n"] > 0
    assert all(non_negative(block[k]) for k in PERCENTILES - {"n"})
    assert block["p50"] <= block["p99"] <= block["max"]


def test_machine_and_method(report: dict[str, Any]) -> None:
    assert report["mode"] == "quick"
    machine = report["machine"]
    assert isinstance(machine["cpu_model"], str) and machine["cpu_model"]
    assert isinstance(machine["cores"], int) and machine["cores"] >= 1
    assert machine["python"].startswith("3.")
    method = report["method"]
    for section in ("engine", "input_to_frame", "frame_render", "daemon", "single_core"):
        assert isinstance(method[section], str) and len(method[section]) > 20


def test_engine(report: dict[str, Any]) -> None:
    for key in ("engine_steps_per_second", "engine_games_per_second"):
        assert set(report[key]) == ENGINE_KEYS
        assert all(positive(v) for v in report[key].values())
    for detail in report["engine_detail"].values():
        assert detail["unfinished_games"] == 0
        assert detail["games"] >= 2 and detail["steps"] > detail["games"]


def test_input_to_frame(report: dict[str, Any]) -> None:
    for key in ("input_to_frame_ms", "input_to_frame_without_fsync_ms",
                "input_to_frame_cpu_ms", "input_to_frame_hints_ms",
                "input_to_frame_hints_cpu_ms", "journal_append_ms",
                "fsync_ms", "spin_animation_tick_to_frame_ms"):
        check_percentiles(report[key])
    assert {"press", "spin", "turn", "card_presented"} <= set(
        report["input_to_frame_by_event_ms"])
    for block in report["input_to_frame_by_event_ms"].values():
        check_percentiles(block)
    for name in ("handle", "journal", "fsync", "screen", "render", "display"):
        assert set(report["input_to_frame_parts_ms"][name]) == PERCENTILES
    for key in ("journal_share_of_input_to_frame", "fsync_share_of_input_to_frame"):
        assert 0 < report[key] <= 1
    assert report["journaled_inputs"] > 0
    assert isinstance(report["journal_filesystem"], str)
    assert report["display_frames_sent"] > 0


def test_frame_render(report: dict[str, Any]) -> None:
    assert set(report["frame_render_ms"]) == SCREEN_KINDS
    assert all(positive(v) for v in report["frame_render_ms"].values())


def test_daemon(report: dict[str, Any]) -> None:
    for key in ("start_to_ready_seconds", "start_to_ready_resume_seconds", "import_seconds",
                "start_to_ready_cpu_seconds", "start_to_ready_resume_cpu_seconds",
                "import_cpu_seconds",
                "interpreter_startup_seconds", "rss_mb", "rss_peak_mb", "autoplay_peak_rss_mb"):
        assert positive(report[key]), key
    assert non_negative(report["idle_cpu_percent"])
    assert non_negative(report["idle_wakeups_per_second"])
    assert report["idle_window_seconds"] >= 1.5
    assert len(report["start_to_ready_runs"]) >= 3
    assert report["daemon_exit_code_on_sigterm"] == 0
    assert report["autoplay_exit_code"] == 0 and report["autoplay_inputs"] > 0
    assert isinstance(report["import_heaviest_ms"], dict) and report["import_heaviest_ms"]


def test_targets_and_estimate(report: dict[str, Any]) -> None:
    targets = report["targets"]
    assert set(targets) == {"engine_steps_per_second.tenfour", "input_to_frame_ms.p99",
                            "input_to_frame_cpu_ms.p99", "input_to_frame_hints_ms.p99",
                            "input_to_frame_hints_cpu_ms.p99",
                            "start_to_ready_seconds", "idle_cpu_percent", "rss_mb"}
    for check in targets.values():
        assert isinstance(check["met"], bool) and non_negative(check["value"])
    estimate = report["pi_zero_2w_estimate"]
    assert estimate["factor"] == 10
    assert positive(estimate["input_to_frame_cpu_ms_p99"])
