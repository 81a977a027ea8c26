"""bench.thinking runs the real loop on a thread to a hard hint: it must see the hint
drawn at every timed decision, time its slices, and find the loop asleep afterwards (no
wakeups once the search is done: the loop never polls). The idle check counts what the
loop did after the hint's frame and whether a deadline was left; no window's rate, so a
loaded machine cannot move it (issue 46)."""

from __future__ import annotations

import math

import pytest

import bench.thinking as thinking


def test_the_thinking_bench_sees_every_hint_and_an_idle_loop_after_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(thinking, "IDLE_SECONDS", 0.2)  # the reported CPU's window only
    report = thinking.measure(decisions=2)
    assert report["hint_to_show_ms"]["n"] == 2 * len(thinking.GAMES)
    assert set(report["hint_to_show_by_game"]) == {
        f"{name}/{variant}/{players}p" for name, variant, players in thinking.GAMES}
    for game in report["hint_to_show_by_game"].values():
        assert game["first_hint_to_show_ms"] > 0
        assert game["later_hints_to_show_ms"]["n"] == 1
    assert report["slice_ms"]["n"] >= report["hint_to_show_ms"]["n"]  # a search a slice or more
    assert all(math.isfinite(report["slice_cpu_ms"][k]) for k in ("p50", "max"))
    assert report["idle_deadlines_after_hint"] == 0  # nothing left to wake the loop
    assert report["idle_loop_wakeups"] == 0  # and nothing woke it
