"""Small statistics helpers shared by the benchmarks (no numpy on the rig)."""

from __future__ import annotations

import math
from collections.abc import Sequence


def percentile(values: Sequence[float], pct: float) -> float:
    """The `pct` percentile (0-100) by linear interpolation between closest ranks."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    if len(ordered) == 1:
        return float(ordered[0])
    rank = (len(ordered) - 1) * pct / 100
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return float(ordered[low] + (ordered[high] - ordered[low]) * (rank - low))


def paired_difference(mine: Sequence[float], theirs: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of the game-by-game differences (the same seeds in both)."""
    n = len(mine)
    diffs = [a - b for a, b in zip(mine, theirs, strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    return mean, math.sqrt(var / n)


def median(values: Sequence[float]) -> float:
    return percentile(values, 50)


def summary_ms(seconds: Sequence[float]) -> dict[str, float | int]:
    """p50 / p90 / p99 / max / mean in milliseconds, and the sample count."""
    ms = [s * 1000 for s in seconds]
    return {
        "n": len(ms),
        "p50": rnd(percentile(ms, 50)),
        "p90": rnd(percentile(ms, 90)),
        "p99": rnd(percentile(ms, 99)),
        "max": rnd(max(ms)) if ms else float("nan"),
        "mean": rnd(sum(ms) / len(ms)) if ms else float("nan"),
    }


def rnd(value: float, digits: int = 4) -> float:
    """Round for the report, keeping small figures readable."""
    if value != value or value in (float("inf"), float("-inf")):  # NaN / inf
        return value
    if value == 0:
        return 0.0
    magnitude = math.floor(math.log10(abs(value)))
    return round(value, max(0, digits - 1 - magnitude))
