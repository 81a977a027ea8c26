"""What every game's quick reference page is made of (each game writes its sections in
its folder's printout module, rig/games/<name>/printout.py).

Numbers that are options or data (the Bear's limit, a Smokey's move, turbo on or off,
the board's lengths) come from the game being printed, so the page matches the rig.
"""

from __future__ import annotations

from collections.abc import Sequence

Sections = list[tuple[str, Sequence[str]]]


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
