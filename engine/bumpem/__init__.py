"""Bump 'Em (Hoyle Puzzle & Board Games 2008): a pure rules engine.

A racing game in the Sorry! family: draw a ticket (a chance node), then choose one of
the legal moves it allows (a decision node). Rulings B1-B8 of RULINGS.md decide what the
rulebook leaves open; `OPTIONS` lists the ones a table may change.
"""

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
from engine.bumpem.game import (
    DATA_ROLES,
    NAME,
    OPTIONS,
    PLAYER_COUNTS,
    SIM_COUNTERS,
    VARIANTS,
    BumpemGame,
    build,
)
from engine.bumpem.state import BumpemState, Prompt
from engine.bumpem.tickets import TICKET_IDS, TicketSet, load_tickets

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
