"""The paired before/after tool: both trees are started turn about and measured."""

from __future__ import annotations

import math
from pathlib import Path

from bench.paired import paired_start

ROOT = Path(__file__).resolve().parents[2]


def test_paired_start_measures_both_trees() -> None:
    report = paired_start(str(ROOT), runs=1)  # this tree against itself
    assert set(report) == {"before", "after"}
    for figures in report.values():
        assert len(figures["runs_s"]) == 1
        assert math.isfinite(figures["median_s"]) and 0 < figures["min_s"] < 30
