"""Measuring audio in the tests with the standard library: level, duration and how the
energy spreads over frequency (a small FFT, no numpy)."""

from __future__ import annotations

import cmath
import math
from array import array
from collections.abc import Sequence

from hardware.speaker import Clip


def samples(clip: Clip) -> array[int]:
    out = array("h")
    out.frombytes(clip.pcm)
    return out


def rms(clip: Clip) -> float:
    """Root mean square level, as a fraction of full scale."""
    values = samples(clip)
    if not values:
        return 0.0
    return math.sqrt(sum(v * v for v in values) / len(values)) / 32768


def peak(clip: Clip) -> float:
    values = samples(clip)
    return max((abs(v) for v in values), default=0) / 32768


def _fft(x: list[complex]) -> list[complex]:
    n = len(x)
    if n == 1:
        return x
    even, odd = _fft(x[0::2]), _fft(x[1::2])
    out = [0j] * n
    for k in range(n // 2):
        t = cmath.exp(-2j * math.pi * k / n) * odd[k]
        out[k], out[k + n // 2] = even[k] + t, even[k] - t
    return out


def band_energy(clip: Clip, bands: Sequence[tuple[float, float]], frame: int = 512,
                seconds: float = 2.0) -> list[float]:
    """The energy in each (low, high) Hz band, summed over Hann-windowed frames of the
    first ``seconds`` of the clip."""
    values = samples(clip)[: int(clip.rate * seconds)]
    window = [0.5 - 0.5 * math.cos(2 * math.pi * i / (frame - 1)) for i in range(frame)]
    totals = [0.0] * len(bands)
    for start in range(0, len(values) - frame + 1, frame):
        spectrum = _fft([complex(values[start + i] * window[i]) for i in range(frame)])
        for k in range(1, frame // 2):
            hz = k * clip.rate / frame
            power = abs(spectrum[k]) ** 2
            for b, (low, high) in enumerate(bands):
                if low <= hz < high:
                    totals[b] += power
    return totals
