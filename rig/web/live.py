"""What the live board shows: every piece where the rig thinks it is, and the card tray.

The board itself is print's one drawing of each board (`rig.boardart`, SVG backend);
this module only says which piece stands on which location, and where on that drawing
(`piece_position`, one slot per piece sharing a location). Locations are the rig's own
ids, the same the correction menu uses: "R13", "side:R13" (a caught truck at the side of
the road), "park" (police in Yellowstone Park), "pit:red", "T12", ...
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from engine.api import Game, State
from rig.views import own

if TYPE_CHECKING:
    from engine.bumpem.board import Board as BumpemBoard
    from engine.bumpem.game import BumpemGame
    from engine.bumpem.state import BumpemState
    from engine.tenfour import TenFourGame, TenFourState
    from engine.tenfour.board import Board as TenFourBoard


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


def piece_places(game: Game, state: State) -> list[Piece]:
    """Every piece of the game and its location id, in a fixed order."""
    if game.name == "tenfour":
        from engine.tenfour import TenFourGame, TenFourState

        return _tenfour_pieces(own(game, TenFourGame), own(state, TenFourState))
    if game.name == "bumpem":
        from engine.bumpem.game import BumpemGame
        from engine.bumpem.state import BumpemState

        return _bumpem_pieces(own(game, BumpemGame), own(state, BumpemState))
    raise ValueError(f"no live board for the game {game.name!r}")


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
    from engine.bumpem.names import colour_word, position_phrase

    rules = game.rules
    pieces = []
    for car, position in enumerate(state.pos):
        seat = car // rules.cars
        colour, ident = rules.seats[seat], rules.piece_id(car)
        number = ident.rsplit(":", 1)[-1]
        where = rules.position_id(seat, position)
        pieces.append(Piece(ident, "car", colour, where, number,
                            f"{colour_word(colour)} car {number} {position_phrase(where)}"))
    return pieces


class LiveBoard:
    """One game's board drawing and the positions of its pieces on it."""

    def __init__(self, game: Game) -> None:
        from rig.boardart import board_geometry
        from rig.boardart.svg import board_svg

        self.game = game
        self.geometry = board_geometry(game.name, _board(game))
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


def _board(game: Game) -> TenFourBoard | BumpemBoard:
    """The loaded board of either game, which its drawing is made from."""
    from engine.bumpem.game import BumpemGame
    from engine.tenfour import TenFourGame

    if isinstance(game, TenFourGame | BumpemGame):
        return game.board
    raise ValueError(f"no board drawing for the game {game.name!r}")


def card_tray(game: Game, valid: list[str]) -> list[dict[str, Any]]:
    """The cards (or tickets) a person can tap, with their printed texts."""
    if game.name == "tenfour":
        from engine.tenfour import TenFourGame

        deck = own(game, TenFourGame).deck
        return [{"id": card.id, "title": card.id, "band": card.band, "text": card.text,
                 "copies": card.copies, "can": card.id in valid} for card in deck.cards]
    from engine.bumpem import TICKET_IDS
    from engine.bumpem.game import BumpemGame
    from engine.bumpem.tickets import ticket_label

    tickets = own(game, BumpemGame).tickets
    return [{"id": ticket, "title": ticket_label(ticket), "band": "", "text": text,
             "copies": count, "can": ticket in valid}
            for ticket, count, text in zip(TICKET_IDS, tickets.counts, tickets.texts,
                                           strict=True)]
