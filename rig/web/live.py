"""What the live board shows: every piece where the rig thinks it is, and the card tray.

The board itself is print's one drawing of each board (`rig.boardart`, SVG backend);
this module only says which piece stands on which location, and where on that drawing
(`piece_position`, one slot per piece sharing a location). Locations are the rig's own
ids, the same the correction menu uses: "R13", "side:R13" (a caught truck at the side of
the road), "park" (police in Yellowstone Park), "pit:red", "T12", ...
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from engine.api import Game, State
from rig.views import own

if TYPE_CHECKING:
    from engine.bumpem.game import BumpemGame
    from engine.bumpem.state import BumpemState
    from engine.tenfour import TenFourGame, TenFourState
    from rig.registry import LiveTools


class _WithBoard(Game, Protocol):
    """A game with a loaded board (what its drawing is made from)."""

    @property
    def board(self) -> object: ...


G = TypeVar("G", bound=_WithBoard)
S = TypeVar("S", bound=State)


@dataclass(frozen=True)
class Piece:
    id: str
    kind: str
    """"truck", "smokey", "bear" or "car"."""
    colour: str
    location: str
    mark: str
    """The short text on the marker ("1", "S2", "B")."""
    says: str
    """The piece and its place in words, as the rig's screens name them."""


def _tools(game: Game) -> LiveTools:
    """The game's live-board tools, from its registry entry."""
    from rig.registry import UnknownGame, entry

    try:
        tools = entry(game.name).live
    except UnknownGame:
        tools = None
    if tools is None:
        raise ValueError(f"no live board for the game {game.name!r}")
    return tools()


def piece_places(game: Game, state: State) -> list[Piece]:
    """Every piece of the game and its location id, in a fixed order."""
    return _tools(game).pieces(game, state)


def tenfour_live() -> LiveTools:
    from engine.tenfour import TenFourGame, TenFourState

    return _live(TenFourGame, TenFourState, _tenfour_pieces, _tenfour_cards)


def bumpem_live() -> LiveTools:
    from engine.bumpem.game import BumpemGame
    from engine.bumpem.state import BumpemState

    return _live(BumpemGame, BumpemState, _bumpem_pieces, _bumpem_tickets)


def _live(game_kind: type[G], state_kind: type[S], pieces: Callable[[G, S], list[Piece]],
          cards: Callable[[G, S, list[str]], list[dict[str, Any]]]) -> LiveTools:
    """Live-board tools from functions of the game's own classes (checked on each call)."""
    from rig.registry import LiveTools

    return LiveTools(
        board=lambda game: own(game, game_kind).board,
        pieces=lambda game, state: pieces(own(game, game_kind), own(state, state_kind)),
        cards=lambda game, state, valid: cards(own(game, game_kind), own(state, state_kind),
                                               valid))


def _tenfour_pieces(game: TenFourGame, state: TenFourState) -> list[Piece]:
    from engine.tenfour.names import piece_at

    pieces = []
    for index, colour in enumerate(game.trucks):
        where = state.truck_where(index)
        pieces.append(Piece(colour, "truck", colour, where, colour[:1].upper(),
                            piece_at(game, colour, where)))
    for police, where in state.police.items():
        kind, colour, mark = (("bear", "brown", "B") if police == "bear"
                              else ("smokey", "black", "S" + police[-1]))
        pieces.append(Piece(police, kind, colour, where, mark, piece_at(game, police, where)))
    return pieces


def _bumpem_pieces(game: BumpemGame, state: BumpemState) -> list[Piece]:
    from engine.bumpem.names import car_at

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


class LiveBoard:
    """One game's board drawing and the positions of its pieces on it."""

    def __init__(self, game: Game) -> None:
        from rig.boardart import board_geometry
        from rig.boardart.svg import board_svg

        self.game = game
        self.geometry = board_geometry(game.name, _tools(game).board(game))
        self.svg = board_svg(self.geometry)

    def pieces(self, state: State) -> list[dict[str, Any]]:
        """Each piece with the mm position it is drawn at (pieces sharing a location
        take its successive slots)."""
        from rig.boardart import piece_position

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


def card_tray(game: Game, state: State, valid: list[str]) -> list[dict[str, Any]]:
    """The cards (or tickets) a person can tap, with their printed texts: `can` when the
    reader would take it now (`valid`), `out` when it is out of the pile (drawn since the
    last reshuffle), whether or not a card is asked."""
    return _tools(game).cards(game, state, valid)


def _tenfour_cards(game: TenFourGame, state: TenFourState,
                   valid: list[str]) -> list[dict[str, Any]]:
    return [{"id": card.id, "title": card.id, "band": card.band, "text": card.text,
             "copies": card.copies, "can": card.id in valid, "out": left == 0}
            for card, left in zip(game.deck.cards, state.pile, strict=True)]


def _bumpem_tickets(game: BumpemGame, state: BumpemState,
                    valid: list[str]) -> list[dict[str, Any]]:
    from engine.bumpem import TICKET_IDS
    from engine.bumpem.tickets import ticket_label

    tickets = game.tickets
    left = state.deck if state.deck is not None else tickets.counts  # None: drawn uniformly
    return [{"id": ticket, "title": ticket_label(ticket), "band": "", "text": text,
             "copies": count, "can": ticket in valid, "out": remaining == 0}
            for ticket, count, text, remaining in zip(TICKET_IDS, tickets.counts,
                                                      tickets.texts, left, strict=True)]
