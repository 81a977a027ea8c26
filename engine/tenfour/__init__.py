"""10-Four, Good Buddy (Parker Brothers, 1976): the pure rules engine.

Follows docs/ENGINE_CONTRACT.md; the rulings it implements are RULINGS.md T1-T13.
engine/tenfour/RULES.md lists the phases, prompts, actions, options, events and every
decision the rulebook leaves open.
"""

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
from engine.tenfour.game import (
    DATA_ROLES,
    NAME,
    OPTIONS,
    PLAYER_COUNTS,
    SIM_COUNTERS,
    VARIANTS,
    TenFourGame,
    build,
)
from engine.tenfour.places import BEAR, HOME, PARK, SIDE, SMOKEYS
from engine.tenfour.state import Prompt, TenFourState

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
