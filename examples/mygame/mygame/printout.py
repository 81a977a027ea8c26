"""Ladders' printed sheets: the board, the runners and a quick reference (no cards)."""

from __future__ import annotations

from cbrig.game import PieceList, PrintedPiece, PrintTools, Sections, corrections
from mygame.game import LaddersGame


def reference(game: LaddersGame) -> Sections:
    return [
        ("Your turn", [
            f"Spin the HI knob, then ride the spin or step {game.step}.",
            "A ladder's foot takes you up to its top; a chute's top down to its foot.",
            f"The first runner on square {game.goal} wins.",
        ]),
        corrections("any runner's square", "spin", spins=True),
    ]


def pieces(game: LaddersGame) -> PieceList:
    return [PrintedPiece(f"{seat.capitalize()} runner", seat, seat.capitalize())
            for seat in game.seats]


TOOLS = PrintTools(LaddersGame, players=5, reference=reference, pieces=pieces)
"""``cbrig print``'s sheets (found by folder_parts)."""
