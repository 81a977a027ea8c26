"""Race to 20's printed sheets: the runners and a quick reference (no cards)."""

from __future__ import annotations

from cbrig.game import PieceList, PrintedPiece, PrintTools, Sections, corrections
from tests.racegame.game import RaceGame


def reference(game: RaceGame) -> Sections:
    return [
        ("Your turn", [
            "Spin the HI knob, then ride the spin or go steady by 3.",
            f"The first runner to reach {game.goal} wins.",
        ]),
        corrections("any runner's space or whose turn it is", "spin", spins=True),
    ]


def pieces(game: RaceGame) -> PieceList:
    return [PrintedPiece(f"{seat.capitalize()} runner", seat, seat.capitalize())
            for seat in game.seats]


TOOLS = PrintTools(RaceGame, players=4, reference=reference, pieces=pieces)
"""``cbrig print``'s sheets: no cards (found by folder_parts)."""
