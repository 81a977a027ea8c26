"""What the live board shows: every piece where the rig thinks it is, and the card tray.

The board itself is print's one drawing of each board (`rig.maker.boardart`, SVG backend);
this module only says which piece stands on which location, and where on that drawing
(`piece_position`, one slot per piece sharing a location). Locations are the rig's own
ids, the same the correction menu uses: "R13", "side:R13" (a caught truck at the side of
the road), "park" (police in Yellowstone Park), "pit:red", "T12", ...
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar
from xml.sax.saxutils import escape

from engine.api import JSON, Game, State
from rig.gametype import LiveTools, Piece
from rig.maker.boardart import board_geometry, piece_position
from rig.maker.boardart.svg import board_svg
from rig.registry import find
from rig.screens.views import own
from valueclass import asdict

__all__ = ["LiveBoard", "Piece", "card_tray", "live_tools", "no_board_svg", "piece_places"]

if TYPE_CHECKING:
    from rig.gametype import GameWithBoard, LiveTools
    from rig.maker.boardart.geometry import BoardGeometry


G = TypeVar("G", bound="GameWithBoard")
S = TypeVar("S", bound=State)


def _tools(game: Game) -> LiveTools | None:
    """The game's live-board tools, from its registry entry (None: it has none)."""

    found = find(game.name)
    tools = found.live if found is not None else None
    return tools() if tools is not None else None


def piece_places(game: Game, state: State) -> list[Piece]:
    """Every piece of the game and its location id, in a fixed order (none for a game
    without a live board)."""
    tools = _tools(game)
    return tools.pieces(game, state) if tools is not None else []


def live_tools(game_kind: type[G], state_kind: type[S],
               pieces: Callable[[G, S], list[Piece]],
               cards: Callable[[G, S, list[str]], list[dict[str, JSON]]]) -> LiveTools:
    """Live-board tools from functions of the game's own classes (checked on each call)."""

    def geometry(game: Game) -> BoardGeometry:
        return board_geometry(game.name, own(game, game_kind).board)

    return LiveTools(
        geometry=geometry,
        pieces=lambda game, state: pieces(own(game, game_kind), own(state, state_kind)),
        cards=lambda game, state, valid: cards(own(game, game_kind), own(state, state_kind),
                                               valid))


def no_board_svg(title: str) -> str:
    """What the board pane shows for a game that has no live board: the rig plays on."""

    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 160 24" '
            'class="no-board"><text x="80" y="14" text-anchor="middle" font-size="6">'
            f"No live board for {escape(title)}</text></svg>")


class LiveBoard:
    """One game's board drawing and the positions of its pieces on it; for a game
    without a live board, a note saying so and no pieces (the rig keeps running)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        tools = _tools(game)
        self.geometry = tools.geometry(game) if tools is not None else None
        self.svg = (board_svg(self.geometry) if self.geometry is not None
                    else no_board_svg(_title(game)))

    def pieces(self, state: State) -> list[dict[str, JSON]]:
        """Each piece with the mm position it is drawn at (pieces sharing a location
        take its successive slots)."""

        if self.geometry is None:
            return []
        taken: dict[str, int] = {}
        out = []
        for piece in piece_places(self.game, state):
            slot = taken.get(piece.location, 0)
            taken[piece.location] = slot + 1
            try:
                x, y = piece_position(self.geometry, piece.location, slot)
            except KeyError:
                continue  # a location the drawing lacks: say so in the list, not on the board
            out.append({**asdict(piece), "x": round(x, 2), "y": round(y, 2),
                        "size": round(self.geometry.piece_mm, 2)})
        return out


def card_tray(game: Game, state: State, valid: list[str]) -> list[dict[str, JSON]]:
    """The cards (or tickets) a person can tap, with their printed texts: `can` when the
    reader would take it now (`valid`), `out` when it is out of the pile (drawn since the
    last reshuffle), whether or not a card is asked. None for a game without a live
    board."""
    tools = _tools(game)
    return tools.cards(game, state, valid) if tools is not None else []


def _title(game: Game) -> str:
    found = find(game.name)
    return found.title if found is not None else game.name
