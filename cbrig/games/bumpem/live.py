"""Bump 'Em on the live board: every car where the rig thinks it is, and the tickets in the
tray (drawn by rig.web.live)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cbrig.game import Piece, live_tools
from engine.bumpem import TICKET_IDS
from engine.bumpem.game import BumpemGame
from engine.bumpem.names import car_at
from engine.bumpem.state import BumpemState
from engine.bumpem.tickets import ticket_label

if TYPE_CHECKING:
    from cbrig.game import JSON


def _bumpem_pieces(game: BumpemGame, state: BumpemState) -> list[Piece]:
    rules = game.rules
    pieces = []
    for car, position in enumerate(state.pos):
        seat = car // rules.cars
        colour, ident = rules.seats[seat], rules.piece_id(car)
        number = ident.rsplit(":", 1)[-1]
        where = rules.position_id(seat, position)
        # the marker keeps its number (cars sharing a pit stay apart on the drawing); the
        # words are the screen's (G4: colour and place, never a bare number)
        pieces.append(Piece(ident, "car", colour, where, number, car_at(colour, where)))
    return pieces


def _bumpem_tickets(game: BumpemGame, state: BumpemState,
                    valid: list[str]) -> list[dict[str, JSON]]:
    tickets = game.tickets
    left = state.deck if state.deck is not None else tickets.counts  # None: drawn uniformly
    return [{"id": ticket, "title": ticket_label(ticket), "band": "", "text": text,
             "copies": count, "can": ticket in valid, "out": remaining == 0}
            for ticket, count, text, remaining in zip(TICKET_IDS, tickets.counts,
                                                      tickets.texts, left, strict=True)]


TOOLS = live_tools(BumpemGame, BumpemState, _bumpem_pieces, _bumpem_tickets)
"""The browser's live board (rig.gametype.folder_parts)."""
