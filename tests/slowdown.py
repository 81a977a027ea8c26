"""How much slower than a native machine this suite runs: timeouts scale with it.

`.ci/emulated_suite.py` sets CBRIG_TEST_SLOWDOWN inside its qemu-user container, where
every ARM instruction is translated (a CPU-bound run takes about ten times as long).
A timeout sized for a native machine would fail there without anything being wrong;
one multiplied by the slowdown still catches a hang. Natively it is 1.
"""

from __future__ import annotations

import os

ENVIRONMENT = "CBRIG_TEST_SLOWDOWN"


def slowdown() -> float:
    """The factor from the environment (1 when unset); a bad value is an error, not 1."""
    raw = os.environ.get(ENVIRONMENT, "1")
    try:
        factor = float(raw)
    except ValueError:
        raise ValueError(f"{ENVIRONMENT}={raw!r} is not a number") from None
    if not factor >= 1:
        raise ValueError(f"{ENVIRONMENT}={raw!r}: a slowdown is at least 1")
    return factor


def scaled(seconds: float) -> float:
    """`seconds`, a timeout sized for a native machine, on this one."""
    return seconds * slowdown()


HANG = 300.0
"""The seconds a test waits for a process, a thread or a device before it calls the wait
a hang, on a native machine (pass it through `scaled`): what a daemon start, a stop or
a short command needs quietly (well under a second to a few seconds) times far more
than ten, so a machine ten times slower, or one at load 20 that deprioritises the suite
(issue 46 saw a start miss 30 s there), still passes; a real hang still ends."""


def hang(seconds: float = HANG) -> float:
    """A wait that only ends a hang: `seconds` (HANG unless a longer one is named), scaled.
    Every timeout in tests goes through this or `scaled` (tests/test_no_bare_timeouts.py)."""
    return scaled(max(seconds, HANG))
