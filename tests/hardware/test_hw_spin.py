"""Spin outcomes: uniform, from the OS source, independent of the gesture."""

from __future__ import annotations

import random
import secrets
from collections import Counter

import pytest

from hardware.spin import (
    MAX_ANIMATION_MS,
    MIN_ANIMATION_MS,
    SpinSource,
    animation_ms,
    spin_outcome,
)

BAND = [1, 2, 3, 4, 5, 6, 7, 8]
# chi-square critical value, 7 degrees of freedom, p = 0.001
CHI2_CRIT_7DF = 24.32


def chi_square(counts: Counter[int], n: int, segments: list[int]) -> float:
    expected = n / len(segments)
    return sum((counts[s] - expected) ** 2 / expected for s in segments)


def test_default_source_is_the_os_cryptographic_rng() -> None:
    assert isinstance(spin_outcome.__defaults__[0], secrets.SystemRandom)  # type: ignore[index]


def test_uniform_over_segments() -> None:
    n = 40_000
    counts = Counter(spin_outcome(BAND) for _ in range(n))
    assert set(counts) == set(BAND)
    assert chi_square(counts, n, BAND) < CHI2_CRIT_7DF


def test_repeated_values_on_a_band_weigh_more() -> None:
    band = [1, 1, 1, 2]
    rng = random.Random(5)
    counts = Counter(spin_outcome(band, rng) for _ in range(8000))
    assert 0.70 < counts[1] / 8000 < 0.80


def test_outcome_distribution_independent_of_strength() -> None:
    # The rig asks for an outcome and an animation length separately; the outcome
    # drawn after a weak flick and after a strong one come from the same distribution.
    n = 20_000
    weak: Counter[int] = Counter()
    strong: Counter[int] = Counter()
    for i in range(n):
        strength = 0.05 if i % 2 else 1.0
        animation_ms(strength)
        (weak if i % 2 else strong)[spin_outcome(BAND)] += 1
    # two-sample chi-square homogeneity test
    stat = 0.0
    for s in BAND:
        total = weak[s] + strong[s]
        for sample in (weak, strong):
            expected = total * sum(sample.values()) / n
            stat += (sample[s] - expected) ** 2 / expected
    assert stat < CHI2_CRIT_7DF


def test_animation_length_from_strength() -> None:
    assert animation_ms(0.0) == MIN_ANIMATION_MS
    assert animation_ms(1.0) == MAX_ANIMATION_MS
    assert animation_ms(-3) == MIN_ANIMATION_MS
    assert animation_ms(7) == MAX_ANIMATION_MS
    assert animation_ms(0.2) < animation_ms(0.5) < animation_ms(0.9)


def test_empty_band_rejected() -> None:
    with pytest.raises(ValueError):
        spin_outcome([])


def test_forced_values_then_random() -> None:
    src = SpinSource(random.Random(1))
    src.force(3, 8)
    assert src.spin(BAND) == 3
    assert src.spin(BAND) == 8
    assert src.forced_pending == 0
    assert src.spin(BAND) in BAND


def test_forced_value_must_be_on_the_band() -> None:
    src = SpinSource()
    src.force(9)
    with pytest.raises(ValueError):
        src.spin(BAND)
