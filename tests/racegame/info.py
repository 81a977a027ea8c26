"""Race to 20's facts: what the registry reads without loading the rules."""

from __future__ import annotations

VARIANT_PLAYERS: dict[str, tuple[int, ...]] = {"standard": (2, 3, 4)}
DATA_ROLES: dict[str, str] = {"board": "race_track.toml"}
"""The track drawing (`cbrig board`, print, the live board), shipped in DATA_PACKAGE."""
DATA_PACKAGE = "tests.racegame.data"
OPTIONS: dict[str, object] = {"goal": 20}
OPTION_HELP: dict[str, str] = {"goal": "the space a runner must reach to win"}
SIM_COUNTERS: dict[str, str] = {"spin": "spins", "steady": "steady_moves"}
COLOURS: tuple[str, ...] = ("red", "blue", "yellow", "green")
SPIN_VALUES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
STEADY = 3
