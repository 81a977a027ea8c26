"""A fixed pure-Python workload: the yardstick CPU figures are divided by.

The same interpreter work every time (small objects, attribute and dict access, method
calls, list and string building, integer arithmetic: what the rig's engine, controller
and renderer spend their time on), timed on the thread's CPU clock, several rounds, the
median kept. A CPU figure divided by it is a ratio that compares across machines and
across runs on one machine whose speed drifts with load (frequency, caches, a noisy
neighbour): the figures and the yardstick slow down together.

The Pi Zero 2 W estimate multiplies each ratio by :data:`PI_ZERO_2W_CALIBRATION_MS`, the
yardstick's time on that board. **It has not been measured on a Pi**: no Pi was at hand.
The value is the reference machine's idle figure times 10, the rule of thumb the
earlier docs used (a 1 GHz in-order Cortex-A53 core against a ~3 GHz out-of-order
server core: about 3x the clock and 2-4x the work per clock for CPython's interpreter
loop; an assumption, not a measurement). ``PI_ZERO_2W_MEASURED`` says so in every
report; run ``cbrig bench --only calibration`` on a Pi Zero 2 W, put its
``calibration_ms`` here and set it True.
"""

from __future__ import annotations

import time
from typing import Any

from bench.stats import median, rnd
from valueclass import Record

REFERENCE_CALIBRATION_MS = 4.5
"""The yardstick on the reference machine (docs/PERFORMANCE.md), idle."""
PI_ZERO_2W_CALIBRATION_MS = REFERENCE_CALIBRATION_MS * 10
"""The yardstick on a Pi Zero 2 W: assumed (10 x the reference), not measured (see above)."""
PI_ZERO_2W_MEASURED = False
"""Whether PI_ZERO_2W_CALIBRATION_MS was measured on a Pi Zero 2 W."""
ROUNDS = 7
METHOD = " ".join((__doc__ or "").split())


class _Piece(Record):
    name: str
    value: int
    where: tuple[int, int]

    def moved(self, steps: int) -> _Piece:
        return _Piece(self.name, self.value + steps, (self.where[1], self.where[0] + steps))


def workload(size: int = 4_000) -> int:
    """Deterministic work, a few milliseconds; returns a checksum so nothing is skipped."""
    pieces = [_Piece(f"p{i}", i, (i, i * 2)) for i in range(64)]
    table: dict[str, int] = {}
    total = 0
    for step in range(size):
        piece = pieces[step % 64].moved(step % 7)
        pieces[step % 64] = piece
        table[piece.name] = table.get(piece.name, 0) + piece.value
        words = [piece.name, str(piece.value), "to", str(piece.where[0])]
        total += len(" ".join(words)) + sum(piece.where) % 13
        if step % 50 == 0:
            total += sorted(table.values())[len(table) // 2]
    return total


def measure_ms(rounds: int = ROUNDS) -> tuple[float, list[float]]:
    """The median CPU milliseconds of the workload, and every round."""
    workload(200)  # warm up
    times = []
    for _ in range(rounds):
        start = time.thread_time()
        workload()
        times.append((time.thread_time() - start) * 1000)
    return median(times), times


def summary(rounds: list[float], runs: list[float]) -> dict[str, Any]:
    """The report's calibration: the median of several runs (each the median of its
    rounds), taken at moments spread over the bench, so one slow or fast moment of a
    shared machine does not set every ratio and the Pi estimate."""
    ms = median(runs)
    return {
        "calibration_ms": rnd(ms),
        "calibration_runs_ms": [rnd(t) for t in runs],
        "calibration_rounds_ms": [rnd(t) for t in rounds],
        "calibration_speed_vs_reference": rnd(REFERENCE_CALIBRATION_MS / ms),
    }


def measure(quick: bool) -> dict[str, Any]:
    """One run on its own (`python -m bench.calibration`)."""
    ms, rounds = measure_ms(5 if quick else ROUNDS)
    return summary(rounds, [ms])
