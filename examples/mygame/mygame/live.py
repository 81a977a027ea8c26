"""Ladders on the browser's live board: each runner on its square (no cards to tap)."""

from __future__ import annotations

from cbrig.game import JSON, Piece, live_tools
from mygame.game import LaddersGame, LaddersState


def _pieces(game: LaddersGame, state: LaddersState) -> list[Piece]:
    return [Piece(seat, "runner", seat, str(where), seat[:1].upper(),
                  f"{game.seat_name(index)} runner on {where}", shape="square")
            for index, (seat, where) in enumerate(zip(game.seats, state.positions,
                                                      strict=True))]


def _cards(game: LaddersGame, state: LaddersState, valid: list[str]) -> list[dict[str, JSON]]:
    return []


TOOLS = live_tools(LaddersGame, LaddersState, _pieces, _cards)
"""The browser's live board (found by folder_parts)."""
