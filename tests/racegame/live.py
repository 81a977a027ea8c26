"""Race to 20 on the live board: each runner on its space (no cards to tap)."""

from __future__ import annotations

from cbrig.game import JSON, Piece, live_tools
from tests.racegame.game import RaceGame, RaceState


def _pieces(game: RaceGame, state: RaceState) -> list[Piece]:
    return [Piece(seat, "runner", seat, str(where), seat[:1].upper(),
                  f"{game.seat_name(index)} runner on {where}", shape="square")
            for index, (seat, where) in enumerate(zip(game.seats, state.positions,
                                                      strict=True))]


def _cards(game: RaceGame, state: RaceState, valid: list[str]) -> list[dict[str, JSON]]:
    return []


TOOLS = live_tools(RaceGame, RaceState, _pieces, _cards)
"""The browser's live board (found by folder_parts)."""
