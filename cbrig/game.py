"""The game API: everything a game imports from cbrig, in one typed module.

A game (shipped in ``rig/games/<name>/`` or installed as its own package with a
``cbrig.games`` entry point) imports from here and nowhere else in cbrig::

    from cbrig.game import Action, ActionCodec, Event, GameEntry, register, ...

docs/ENGINE_CONTRACT.md says what each name is for; this module is the contract's one
door, so the rig's own modules can move (rig/ grouped into packages) without a game
noticing. ``API_VERSION`` says what a game was written against: the first number
changes when a name is taken away or changes meaning, the second when one is added.

The registration's names (``GameEntry``, ``register``, the tools' records) are loaded
with this module; the rest (the engine's base types, views, speech, drawing, printing,
the live board) on first use, so a game's ``__init__`` that registers it stays as lean
as the registry needs (reading the registry loads no rules, view, PIL or PDF code).

The battery a game runs on itself is ``cbrig.conformance.check_game`` (also here as
``check_game``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lazy import load_export
from rig.gametype import (
    API_VERSION,
    BenchCases,
    BoardTools,
    BuildFunction,
    FolderParts,
    GameEntry,
    LatencyCase,
    LiveTools,
    PrintTools,
    folder_parts,
)
from rig.registry import register, registered
from valueclass import Frozen, Record, field, replace

if TYPE_CHECKING:
    from cbrig.conformance import ConformanceError, Invariants, check_game
    from engine.api import (
        CHANCE,
        JSON,
        TERMINAL,
        Action,
        ActionCodec,
        Event,
        Game,
        LazyEvent,
        Probability,
        Prompt,
        State,
        check_legal,
        game_identity,
        json_int,
        json_list,
        json_object,
        json_str,
        uniform,
    )
    from engine.datafile import Checker, parse_toml
    from engine.errors import DataError, IllegalAction, Problem, Reason
    from rig.maker.boardart.geometry import (
        BLACK,
        FILL,
        GAP,
        GREY,
        INK,
        RGB,
        WHITE,
        BoardGeometry,
        Label,
        LegendEntry,
        Line,
        Point,
        Space,
        along,
        clearance,
        finish,
        fit_label,
        grid_slots,
        legend_size,
        outward,
        piece_mm,
        upright,
    )
    from rig.maker.boardart.pdf import PdfCanvas, wrap
    from rig.maker.printout.reference import Sections, corrections
    from rig.maker.printout.sheets import (
        CARD_H,
        CARD_W,
        TAG_SPOT_Y,
        CardFace,
        CardSheet,
        IconCanvas,
        PieceList,
        PrintedPiece,
        put_text,
        rfid_spot,
    )
    from rig.screens.screen import Part
    from rig.screens.views import (
        ALERT,
        DETAIL,
        NEWS,
        RESULT,
        ChanceInput,
        CorrectionPlace,
        EventNotices,
        Fix,
        GameView,
        Notice,
        StateChecked,
        own,
    )
    from rig.voice.speech import Vocabulary, number_words, said_as
    from rig.web.live import Piece, live_tools

# API_VERSION: (major, minor) of this module (rig.gametype's); a game states the one it
# needs as ``GameEntry(..., requires_api="1.1")`` and is refused at start when the rig
# cannot give it.

_HOMES = {
    **dict.fromkeys((
        "CHANCE", "JSON", "TERMINAL", "Action", "ActionCodec", "Event", "Game", "LazyEvent",
        "Probability", "Prompt", "State", "check_legal", "game_identity", "json_int",
        "json_list", "json_object", "json_str", "uniform"), "engine.api"),
    **dict.fromkeys(("Checker", "parse_toml"), "engine.datafile"),
    **dict.fromkeys(("DataError", "IllegalAction", "Problem", "Reason"), "engine.errors"),
    **dict.fromkeys(("ConformanceError", "Invariants", "check_game"), "cbrig.conformance"),
    **dict.fromkeys((
        "BLACK", "FILL", "GAP", "GREY", "INK", "RGB", "WHITE", "BoardGeometry", "Label",
        "LegendEntry", "Line", "Point", "Space", "along", "clearance", "finish", "fit_label",
        "grid_slots", "legend_size", "outward", "piece_mm", "upright"),
        "rig.maker.boardart.geometry"),
    **dict.fromkeys(("PdfCanvas", "wrap"), "rig.maker.boardart.pdf"),
    **dict.fromkeys(("Sections", "corrections"), "rig.maker.printout.reference"),
    **dict.fromkeys(("CARD_H", "CARD_W", "TAG_SPOT_Y", "CardFace", "CardSheet", "IconCanvas",
                     "PieceList", "PrintedPiece", "put_text", "rfid_spot"),
                    "rig.maker.printout.sheets"),
    "Part": "rig.screens.screen",
    **dict.fromkeys(("Vocabulary", "number_words", "said_as"), "rig.voice.speech"),
    **dict.fromkeys(("ALERT", "DETAIL", "NEWS", "RESULT", "ChanceInput", "CorrectionPlace",
                     "EventNotices", "Fix", "GameView", "Notice", "StateChecked", "own"),
                    "rig.screens.views"),
    **dict.fromkeys(("Piece", "live_tools"), "rig.web.live"),
}
"""The names loaded on first use, each with the module it lives in today."""


def __getattr__(name: str) -> object:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return load_export(__name__, _HOMES, globals(), name)


__all__ = [
    "ALERT", "API_VERSION", "BLACK", "CARD_H", "CARD_W", "CHANCE", "DETAIL", "FILL", "GAP",
    "GREY", "INK", "JSON", "NEWS", "RESULT", "RGB", "TAG_SPOT_Y", "TERMINAL", "WHITE", "Action",
    "ActionCodec", "BenchCases", "BoardGeometry", "BoardTools", "BuildFunction", "CardFace",
    "CardSheet", "ChanceInput", "Checker", "ConformanceError", "CorrectionPlace", "DataError",
    "Event", "EventNotices", "Fix", "FolderParts", "Frozen", "Game", "GameEntry", "GameView",
    "IconCanvas", "IllegalAction", "Invariants", "Label", "LatencyCase", "LazyEvent",
    "LegendEntry", "Line", "LiveTools", "Notice", "Part", "PdfCanvas", "Piece", "PieceList",
    "Point", "PrintTools", "PrintedPiece", "Probability", "Problem", "Prompt", "Reason",
    "Record", "Sections", "Space", "State", "StateChecked", "Vocabulary", "along", "check_game",
    "check_legal", "clearance", "corrections", "field", "finish", "fit_label", "folder_parts",
    "game_identity", "grid_slots", "json_int", "json_list", "json_object", "json_str",
    "legend_size", "live_tools", "number_words", "outward", "own", "parse_toml", "piece_mm",
    "put_text", "register", "registered", "replace", "rfid_spot", "said_as", "uniform",
    "upright", "wrap",
]
