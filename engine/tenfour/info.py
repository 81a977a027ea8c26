"""10-Four, Good Buddy: the facts about the game that need none of its rules.

What a player count, a config check or a menu needs (variants and who plays them, data
files, rule options and their defaults, what `cbrig simulate` counts) without loading
the rules: `rig.registry` reads this module, and `game.py` builds from it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.api import JSON

NAME = "tenfour"
VARIANT_PLAYERS: dict[str, tuple[int, ...]] = {"standard": (3, 4), "two-player": (2,)}
"""Each variant and the player counts it is for, the default (first fitting) first."""
VARIANTS: tuple[str, ...] = tuple(VARIANT_PLAYERS)
PLAYER_COUNTS: tuple[int, ...] = tuple(sorted(
    {count for counts in VARIANT_PLAYERS.values() for count in counts}))
DATA_ROLES: dict[str, str] = {
    "board": "tenfour_board.toml",
    "bands": "tenfour_bands.toml",
    "deck": "tenfour_deck.toml",
}

OPTIONS: dict[str, JSON] = {
    "bear_limit": 8,
    "smokey_move": 10,
    "trap_catches_on_entry": False,
    "sidelined_immune": True,
    "police_move_when_stuck": True,
}
OPTION_HELP: dict[str, str] = {
    "bear_limit": "T8: a truck starting on the Bear's route is caught when spin + extra "
                  "reaches this",
    "smokey_move": "T11: how far a Smokey moves (exactly, or at most when it ends in a "
                   "Bear Trap)",
    "trap_catches_on_entry": "T6: a truck already on a trap space is caught when a Smokey "
                             "enters",
    "sidelined_immune": "T7: a truck on the side of the road cannot be caught again",
    "police_move_when_stuck": "T3/T8: BREAK ONE NINE needs its police move even if the truck "
                              "did not move",
}
"""What each rule option does (`--help`, the config check's words)."""

SIM_COUNTERS: dict[str, str] = {
    "smokey_catch": "smokey_catches",
    "trap_catch": "trap_catches",
    "bear_catch": "bear_catches",
    "lost_turn": "lost_turns",
    "hammer_up": "hammer_up_turns",
    "break_one_nine": "break_one_nine",
    "park_exit": "park_exits",
    "smokey_exact_move": "smokey_exact_moves",
    "smokey_trap_move": "smokey_trap_moves",
    "shortcut_move": "shortcut_moves",
    "bear_move": "bear_moves",
    "reshuffle": "reshuffles",
    "card_draw": "card_draws",
    "spin": "spins",
}
