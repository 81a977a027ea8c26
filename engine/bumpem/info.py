"""Bump 'Em: the facts about the game that need none of its rules.

What a player count, a config check or a menu needs (variants and who plays them, data
files, rule options and their defaults, what `cbrig simulate` counts) without loading
the rules: `rig.registry` reads this module, and `game.py` builds from it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.api import JSON

NAME = "bumpem"
VARIANT_PLAYERS: dict[str, tuple[int, ...]] = {"standard": (2, 3, 4)}
"""Each variant and the player counts it is for, the default (first fitting) first."""
VARIANTS: tuple[str, ...] = tuple(VARIANT_PLAYERS)
PLAYER_COUNTS: tuple[int, ...] = tuple(sorted(
    {count for counts in VARIANT_PLAYERS.values() for count in counts}))
DATA_ROLES: dict[str, str] = {"board": "bumpem_board.toml", "tickets": "bumpem_tickets.toml"}

OPTIONS: dict[str, JSON] = {
    "turbo": True,
    "extra_ticket_without_move": True,
    "backward_from_home_stretch": True,
    "bump_ticket_lands": True,
}
"""Every rule option with its default (the RULINGS.md ruling or our reading)."""
OPTION_HELP: dict[str, str] = {
    "turbo": "B7: turbo spaces are in play",
    "extra_ticket_without_move": "B3: a 3 gives another ticket even when no car can move "
                                 "with it",
    "backward_from_home_stretch": "B3: backward moves may take a car out of its home stretch "
                                  "onto the track",
    "bump_ticket_lands": "a car placed by a Bump 'em! ticket lands on that space, so an oil "
                         "slick of another colour there slides it on (B6; open in the "
                         "rulebook)",
}
"""What each rule option does (`--help`, the config check's words)."""

SIM_COUNTERS: dict[str, str] = {
    "ticket": "tickets",
    "entry": "entries",
    "bump": "bumps",
    "bump_ticket": "bump_tickets",
    "swap": "swaps",
    "split": "splits",
    "backward_move": "backward_moves",
    "oil_slide": "oil_slides",
    "turbo_zoom": "turbo_zooms",
    "extra_ticket": "extra_tickets",
    "lost_ticket": "lost_tickets",
    "home_stretch_entry": "home_stretch_entries",
    "finish": "finishes",
}
