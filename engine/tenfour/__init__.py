"""10-Four, Good Buddy (Parker Brothers, 1976): the pure rules engine.

Follows docs/ENGINE_CONTRACT.md; the rulings it implements are RULINGS.md T1-T13.
engine/tenfour/RULES.md lists the phases, prompts, actions, options, events and every
decision the rulebook leaves open.

The names below load on first use (PEP 562): importing ``engine.tenfour.info`` for the
game's facts (variants, player counts, data roles, options) loads none of the rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lazy import load_export

if TYPE_CHECKING:
    from engine.tenfour.actions import (
        ACTION_CLASSES,
        ChooseTruck,
        Correct,
        CorrectHammer,
        CorrectLostTurn,
        CorrectTurn,
        DeclareTruck,
        Draw,
        MoveBear,
        MoveSmokey,
        PlaceSmokey,
        Release,
        Spin,
    )
    from engine.tenfour.board import COLOURS, Board, load_board, square_layout
    from engine.tenfour.cards import Bands, Card, Deck, load_bands, load_deck
    from engine.tenfour.game import TenFourGame, build
    from engine.tenfour.info import (
        DATA_ROLES,
        NAME,
        OPTIONS,
        PLAYER_COUNTS,
        SIM_COUNTERS,
        VARIANTS,
    )
    from engine.tenfour.places import BEAR, HOME, PARK, SIDE, SMOKEYS
    from engine.tenfour.state import TenFourState
    from engine.tenfour.words import Prompt

_HOMES: dict[str, str] = {
    "ACTION_CLASSES": "engine.tenfour.actions",
    "BEAR": "engine.tenfour.places",
    "COLOURS": "engine.tenfour.board",
    "DATA_ROLES": "engine.tenfour.info",
    "HOME": "engine.tenfour.places",
    "NAME": "engine.tenfour.info",
    "OPTIONS": "engine.tenfour.info",
    "PARK": "engine.tenfour.places",
    "PLAYER_COUNTS": "engine.tenfour.info",
    "SIDE": "engine.tenfour.places",
    "SIM_COUNTERS": "engine.tenfour.info",
    "SMOKEYS": "engine.tenfour.places",
    "VARIANTS": "engine.tenfour.info",
    "Bands": "engine.tenfour.cards",
    "Board": "engine.tenfour.board",
    "Card": "engine.tenfour.cards",
    "ChooseTruck": "engine.tenfour.actions",
    "Correct": "engine.tenfour.actions",
    "CorrectHammer": "engine.tenfour.actions",
    "CorrectLostTurn": "engine.tenfour.actions",
    "CorrectTurn": "engine.tenfour.actions",
    "Deck": "engine.tenfour.cards",
    "DeclareTruck": "engine.tenfour.actions",
    "Draw": "engine.tenfour.actions",
    "MoveBear": "engine.tenfour.actions",
    "MoveSmokey": "engine.tenfour.actions",
    "PlaceSmokey": "engine.tenfour.actions",
    "Prompt": "engine.tenfour.words",
    "Release": "engine.tenfour.actions",
    "Spin": "engine.tenfour.actions",
    "TenFourGame": "engine.tenfour.game",
    "TenFourState": "engine.tenfour.state",
    "build": "engine.tenfour.game",
    "load_bands": "engine.tenfour.cards",
    "load_board": "engine.tenfour.board",
    "load_deck": "engine.tenfour.cards",
    "square_layout": "engine.tenfour.board",
}
"""Each public name and the module it lives in."""


def __getattr__(name: str) -> object:
    return load_export(__name__, _HOMES, globals(), name)


__all__ = [
    "ACTION_CLASSES",
    "BEAR",
    "COLOURS",
    "DATA_ROLES",
    "HOME",
    "NAME",
    "OPTIONS",
    "PARK",
    "PLAYER_COUNTS",
    "SIDE",
    "SIM_COUNTERS",
    "SMOKEYS",
    "VARIANTS",
    "Bands",
    "Board",
    "Card",
    "ChooseTruck",
    "Correct",
    "CorrectHammer",
    "CorrectLostTurn",
    "CorrectTurn",
    "Deck",
    "DeclareTruck",
    "Draw",
    "MoveBear",
    "MoveSmokey",
    "PlaceSmokey",
    "Prompt",
    "Release",
    "Spin",
    "TenFourGame",
    "TenFourState",
    "build",
    "load_bands",
    "load_board",
    "load_deck",
    "square_layout",
]
