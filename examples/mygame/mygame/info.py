"""The facts the rig reads without loading the rules (stdlib only)."""

from __future__ import annotations

VARIANT_PLAYERS: dict[str, tuple[int, ...]] = {"standard": (2, 3, 4, 5)}
DATA_ROLES: dict[str, str] = {"board": "ladders.toml"}
"""The board file: squares, ladders and chutes (shipped in DATA_PACKAGE)."""
DATA_PACKAGE = "mygame.data"
OPTIONS: dict[str, object] = {"step": 2}
OPTION_HELP: dict[str, str] = {"step": "how far a runner steps instead of riding the spin"}
SIM_COUNTERS: dict[str, str] = {"ladder": "ladders_climbed", "chute": "chutes_taken"}
COLOURS: tuple[str, ...] = ("red", "blue", "yellow", "green", "white")
SPINS: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
