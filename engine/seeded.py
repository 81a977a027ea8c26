"""A small seeded generator for the engine's own sampling (the `hard` search).

The engine takes its randomness from the caller; where the search needs many
independent but repeatable streams (common random numbers: one per sample, the same
for every candidate move), it seeds new generators of the caller's own kind from seeds
the caller's generator drew. When that kind cannot be seeded with an int, the engine,
which imports no `random`, falls back on this SplitMix64 (Steele, Lea and Flood 2014):
a few integer operations per draw, the same numbers on every machine and Python.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class SplitMix64:
    """`random()` in [0, 1) from a 64-bit seed; satisfies `engine.selfplay.Rng`."""

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK

    def random(self) -> float:
        self._state = (self._state + _GOLDEN) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        z ^= z >> 31
        return (z >> 11) * (1.0 / (1 << 53))
