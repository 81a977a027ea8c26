"""Race for Five's facts: Race to 20's, with a fifth colour and seat."""

from __future__ import annotations

from tests.racegame.info import OPTION_HELP, OPTIONS, SIM_COUNTERS

VARIANT_PLAYERS: dict[str, tuple[int, ...]] = {"standard": (2, 3, 4, 5)}
DATA_ROLES: dict[str, str] = {"board": "race_track.toml"}
DATA_PACKAGE = "tests.racegame.data"
COLOURS: tuple[str, ...] = ("red", "blue", "yellow", "green", "purple")
__all__ = ["COLOURS", "DATA_PACKAGE", "DATA_ROLES", "OPTIONS", "OPTION_HELP", "SIM_COUNTERS",
           "VARIANT_PLAYERS"]
