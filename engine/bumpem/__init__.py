"""Bump 'Em (Hoyle Puzzle & Board Games 2008): a pure rules engine.

A racing game in the Sorry! family: draw a ticket (a chance node), then choose one of
the legal moves it allows (a decision node). Rulings B1-B8 of RULINGS.md decide what the
rulebook leaves open; `OPTIONS` lists the ones a table may change.

The names below load on first use (PEP 562): importing ``engine.bumpem.info`` for the
game's facts (variants, player counts, data roles, options) loads none of the rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lazy import load_export

if TYPE_CHECKING:
    from engine.bumpem.actions import (
        ACTION_CLASSES,
        Backward,
        BumpTicket,
        Correct,
        CorrectTurn,
        DrawTicket,
        Enter,
        Forward,
        Split,
        Swap,
    )
    from engine.bumpem.board import Board, Spot, layout, load_board
    from engine.bumpem.game import BumpemGame, build
    from engine.bumpem.info import DATA_ROLES, NAME, OPTIONS, PLAYER_COUNTS, SIM_COUNTERS, VARIANTS
    from engine.bumpem.state import BumpemState, Prompt
    from engine.bumpem.tickets import TICKET_IDS, TicketSet, load_tickets

_HOMES: dict[str, str] = {
    "ACTION_CLASSES": "engine.bumpem.actions",
    "DATA_ROLES": "engine.bumpem.info",
    "NAME": "engine.bumpem.info",
    "OPTIONS": "engine.bumpem.info",
    "PLAYER_COUNTS": "engine.bumpem.info",
    "SIM_COUNTERS": "engine.bumpem.info",
    "TICKET_IDS": "engine.bumpem.tickets",
    "VARIANTS": "engine.bumpem.info",
    "Backward": "engine.bumpem.actions",
    "Board": "engine.bumpem.board",
    "BumpTicket": "engine.bumpem.actions",
    "BumpemGame": "engine.bumpem.game",
    "BumpemState": "engine.bumpem.state",
    "Correct": "engine.bumpem.actions",
    "CorrectTurn": "engine.bumpem.actions",
    "DrawTicket": "engine.bumpem.actions",
    "Enter": "engine.bumpem.actions",
    "Forward": "engine.bumpem.actions",
    "Prompt": "engine.bumpem.state",
    "Split": "engine.bumpem.actions",
    "Spot": "engine.bumpem.board",
    "Swap": "engine.bumpem.actions",
    "TicketSet": "engine.bumpem.tickets",
    "build": "engine.bumpem.game",
    "layout": "engine.bumpem.board",
    "load_board": "engine.bumpem.board",
    "load_tickets": "engine.bumpem.tickets",
}
"""Each public name and the module it lives in."""


def __getattr__(name: str) -> object:
    return load_export(__name__, _HOMES, globals(), name)


__all__ = [
    "ACTION_CLASSES",
    "DATA_ROLES",
    "NAME",
    "OPTIONS",
    "PLAYER_COUNTS",
    "SIM_COUNTERS",
    "TICKET_IDS",
    "VARIANTS",
    "Backward",
    "Board",
    "BumpTicket",
    "BumpemGame",
    "BumpemState",
    "Correct",
    "CorrectTurn",
    "DrawTicket",
    "Enter",
    "Forward",
    "Prompt",
    "Split",
    "Spot",
    "Swap",
    "TicketSet",
    "build",
    "layout",
    "load_board",
    "load_tickets",
]
