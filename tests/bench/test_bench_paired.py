"""The paired before/after tool: both trees are measured turn about, the same way."""

from __future__ import annotations

import math
from pathlib import Path

from bench.paired import Trees, paired_engine, paired_start

ROOT = Path(__file__).resolve().parents[2]


def test_paired_start_measures_both_trees_by_the_same_stamp() -> None:
    report = paired_start(str(ROOT), runs=1)  # this tree against itself
    assert set(report) == {"figure", "before", "after"}
    for name in ("before", "after"):
        figures = report[name]
        assert len(figures["runs_s"]) == 1
        assert math.isfinite(figures["median_s"]) and figures["min_s"] > 0


def test_paired_engine_runs_each_tree_in_every_configuration(tmp_path: Path) -> None:
    report = paired_engine(str(ROOT), rounds=1, budget=0.01)
    for entry in report["configs"].values():
        assert len(entry["before"]["runs"]) == len(entry["after"]["runs"]) == 1
        assert entry["before"]["median"] > 0 and entry["after_over_before"] > 0


def test_rounds_alternate_which_tree_goes_first(tmp_path: Path) -> None:
    trees = Trees(str(tmp_path))
    try:
        assert [name for _, name in trees.order(3)] == [
            "before", "after", "after", "before", "before", "after"]
        assert trees.env("before")["PYTHONPATH"].endswith(str(tmp_path.resolve()))
    finally:
        trees.cleanup()
