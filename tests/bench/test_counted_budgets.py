"""The counted budgets (issue 46): work per unit that no load can move, held to
bench/budgets.toml. A change that does 10 % more work per engine step, per input or to
READY fails here on any machine at any load; nothing else does (the counts repeat
exactly, so a run on a busy machine counts what a quiet one does)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from bench import counted
from tests.slowdown import HANG, scaled

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def counts() -> dict[str, dict[str, Any]]:
    return counted.measure()  # a fresh interpreter, hash seed fixed


def test_every_counted_figure_is_within_its_budget(counts: dict[str, dict[str, Any]]) -> None:
    verdict = counted.judge(counts, counted.load_budgets())
    over = {key: check for key, check in verdict["figures"].items() if not check["met"]}
    assert not over, ("over budget (if the work is meant, record the budgets with `python "
                      f"-m bench.counted --record` and say why in the commit): {over}")
    assert verdict["exit_code"] == 0
    # every kind of figure is there: per step, per input, bytes on the bus, allocations,
    # to READY
    assert {"engine/tenfour/two-player/2p.instructions_per_step",
            "engine/bumpem/standard/4p.calls_per_step", "input/tenfour/4p.bus_bytes_per_input",
            "input/bumpem/3p.instructions_per_input", "ready.calls_to_ready",
            "engine/tenfour/standard/3p.alloc_peak_bytes_per_step",
            "input/tenfour/4p.alloc_peak_bytes_per_input",
            "input/bumpem/3p.retained_bytes_per_input",
            "ready.modules_at_ready"} <= set(verdict["figures"])


def test_ten_percent_more_work_fails_and_the_counts_as_they_are_pass(
        counts: dict[str, dict[str, Any]]) -> None:
    budgets = counted.load_budgets()
    for section, block in counts.items():
        for key, value in block.items():
            if key in counted.UNITS:
                continue
            more = {**counts, section: {**block, key: value * 1.10}}
            verdict = counted.judge(more, budgets)
            assert verdict["missed"] == [f"{section}.{key}"], (section, key)
    assert all(b["headroom"] < 0.10 for b in budgets.values())


COUNT_ONE = ("import json; from bench.counted import count_engine; "
             "print(json.dumps(count_engine('tenfour', 'two-player', 2, 2)))")


def test_the_counts_repeat_exactly() -> None:
    """What makes the gate load-proof: the same work in a fresh interpreter counts the
    same, whatever the hash seed (the gate counts in a fresh one: in a process that has
    already played, warm caches make a second count smaller)."""
    runs = [subprocess.run([sys.executable, "-c", COUNT_ONE], capture_output=True, text=True,
                           check=True, cwd=ROOT, timeout=scaled(HANG),
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout
            for seed in ("0", "1", "0")]
    assert runs[0] == runs[1] == runs[2]
    first = json.loads(runs[0])
    assert first["steps"] > 0 and first["instructions_per_step"] > first["calls_per_step"] > 0
    assert first["alloc_peak_bytes_per_step"] > 0  # allocations repeat exactly too


class Steps:
    """A game of `steps` steps whose every step holds `hold` bytes while it runs."""

    def __init__(self, steps: int, hold: int) -> None:
        self.left, self.hold = steps, hold

    def is_terminal(self) -> bool:
        return self.left == 0

    def is_chance_node(self) -> bool:
        return False

    def legal_actions(self) -> list[int]:
        return [0]

    def apply(self, action: int) -> list[object]:
        held = bytearray(self.hold)
        self.left -= 1
        return [len(held)]


class StepsGame:
    def __init__(self, hold: int) -> None:
        self.hold = hold

    def new_initial_state(self) -> Steps:
        return Steps(10, self.hold)


def test_the_bytes_a_step_holds_are_counted() -> None:
    """What the allocation figures see: a step that holds 10 kB more while it runs
    counts 10 kB more a step (tracemalloc, no timing)."""
    small = counted._engine_allocations(StepsGame(0), games=2)
    large = counted._engine_allocations(StepsGame(10_000), games=2)
    assert 10_000 <= (large - small) / 20 <= 10_000 * 1.05


def busy(n: int) -> int:
    total = 0
    for i in range(n):
        total += i
    return total


def test_a_busy_loop_without_calls_is_counted() -> None:
    """The instruction count sees work a call count cannot: a loop with no call in it
    (issue 46's slowed copy was one, in the engine's apply)."""
    with counted.Counter() as short:
        busy(10)
    with counted.Counter() as long:
        busy(110)
    assert long.calls == short.calls
    assert long.instructions - short.instructions >= 100 * 3


def test_a_budget_missing_or_left_over_is_a_miss() -> None:
    budgets = {"ready.modules_at_ready": {"budget": 100.0, "headroom": 0.05},
               "ready.gone": {"budget": 1.0, "headroom": 0.05}}
    verdict = counted.judge({"ready": {"modules_at_ready": 100, "calls_to_ready": 5}}, budgets)
    assert verdict["missed"] == ["ready.calls_to_ready", "ready.gone"]
    assert verdict["figures"]["ready.modules_at_ready"]["met"]


def test_budgets_are_per_python_version_and_say_how_to_record(tmp_path: Path) -> None:
    path = tmp_path / "budgets.toml"
    path.write_text('headroom = 0.05\n[python."2.7".ready]\nmodules_at_ready = 1\n',
                    encoding="utf-8")
    with pytest.raises(LookupError, match=r"python -m bench\.counted --record"):
        counted.load_budgets(path)
    counted.record({"ready": {"modules_at_ready": 7, "calls_to_ready": 9}}, path)
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert data["python"]["2.7"]["ready"] == {"modules_at_ready": 1}  # kept
    assert counted.load_budgets(path) == {
        "ready.modules_at_ready": {"budget": 7.0, "headroom": 0.05},
        "ready.calls_to_ready": {"budget": 9.0, "headroom": 0.05}}
