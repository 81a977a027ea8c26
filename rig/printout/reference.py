"""The quick reference text of each game, as the rig rules it (RULINGS.md).

Numbers that are options or data (the Bear's limit, a Smokey's move, turbo on or off,
the board's lengths) come from the game being printed, so the page matches the rig.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

Sections = list[tuple[str, Sequence[str]]]


def reference_text(game_name: str, game: Any) -> tuple[str, Sections]:
    """The page's title and sections, from the game's registry entry."""
    from rig.printout.sheets import print_tools
    from rig.registry import entry

    return f"{entry(game_name).title}: quick reference", print_tools(game_name).reference(game)


def corrections(what: str, card: str, spins: bool) -> tuple[str, Sequence[str]]:
    """How to open the correction menu and take back (RULINGS G5), in a family's words."""
    return ("Corrections and take-back", [
        "When the table and the rig disagree, hold either knob down until the correction "
        "menu opens (a long press); turn to a row and press. Another long press closes it.",
        f"The menu sets {what}.",
        f"Its last row, Take back, undoes the last move chosen, correction or {card} tapped "
        f"({'never a spin, nor' if spins else 'never'} a {card} the rig drew itself). The "
        "rig keeps every correction "
        "and take-back with the game.",
    ])
