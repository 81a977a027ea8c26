"""10-Four on the live board: trucks and police where the rig thinks they are, and the Mike
cards in the tray (drawn by rig.web.live)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cbrig.game import Piece, live_tools
from engine.tenfour import TenFourGame, TenFourState
from engine.tenfour.names import piece_at

if TYPE_CHECKING:
    from cbrig.game import JSON


def _tenfour_pieces(game: TenFourGame, state: TenFourState) -> list[Piece]:
    pieces = []
    for index, colour in enumerate(game.trucks):
        where = state.truck_where(index)
        pieces.append(Piece(colour, "truck", colour, where, colour[:1].upper(),
                            piece_at(game, colour, where)))
    for police, where in state.police.items():
        kind, colour, mark = (("bear", "brown", "B") if police == "bear"
                              else ("smokey", "black", "S" + police[-1]))
        pieces.append(Piece(police, kind, colour, where, mark, piece_at(game, police, where),
                            shape="square"))
    return pieces


def _tenfour_cards(game: TenFourGame, state: TenFourState,
                   valid: list[str]) -> list[dict[str, JSON]]:
    return [{"id": card.id, "title": card.id, "band": card.band, "text": card.text,
             "copies": card.copies, "can": card.id in valid, "out": left == 0}
            for card, left in zip(game.deck.cards, state.pile, strict=True)]


TOOLS = live_tools(TenFourGame, TenFourState, _tenfour_pieces, _tenfour_cards)
"""The browser's live board (rig.gametype.folder_parts)."""
