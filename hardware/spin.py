"""Spinner outcomes: uniform over the band's segments from the OS cryptographic source.

The gesture never decides the result: a flick's ``strength`` only sets how long the
animation runs (:func:`animation_ms`). :class:`SpinSource` adds a forced-value hook so
the emulator and scripted demos can queue the outcomes they want.
"""

from __future__ import annotations

import secrets
import threading
from collections import deque
from collections.abc import Iterable, Sequence
from typing import Protocol

MIN_ANIMATION_MS = 600
MAX_ANIMATION_MS = 3000


class _Chooser(Protocol):
    def choice(self, seq: Sequence[int], /) -> int: ...


_SYSTEM_RNG = secrets.SystemRandom()


def spin_outcome(segments: Sequence[int], rng: _Chooser = _SYSTEM_RNG) -> int:
    """One segment of the band, each with equal probability (``os.urandom`` by default)."""
    if len(segments) == 0:
        raise ValueError("a spinner band needs at least one segment")
    return rng.choice(segments)


def animation_ms(strength: float) -> int:
    """Animation length for a flick of ``strength`` (clamped to 0..1)."""
    s = max(0.0, min(1.0, float(strength)))
    return round(MIN_ANIMATION_MS + s * (MAX_ANIMATION_MS - MIN_ANIMATION_MS))


class SpinSource:
    """Spin outcomes with a forced-value hook: ``force(3, 5)`` queues values that the
    next spins return (each must be on the band) before the random source resumes."""

    def __init__(self, rng: _Chooser = _SYSTEM_RNG) -> None:
        self._rng = rng
        self._forced: deque[int] = deque()
        self._lock = threading.Lock()

    def force(self, *values: int) -> None:
        with self._lock:
            self._forced.extend(values)

    def force_all(self, values: Iterable[int]) -> None:
        self.force(*values)

    @property
    def forced_pending(self) -> int:
        return len(self._forced)

    def spin(self, segments: Sequence[int]) -> int:
        with self._lock:
            if self._forced:
                value = self._forced.popleft()
                if value not in segments:
                    raise ValueError(f"forced spin {value} is not on the band {list(segments)}")
                return value
        return spin_outcome(segments, self._rng)


__all__ = ["MAX_ANIMATION_MS", "MIN_ANIMATION_MS", "SpinSource", "animation_ms", "spin_outcome"]
