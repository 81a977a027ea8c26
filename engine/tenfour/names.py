"""Places and pieces named as the board shows them (RULINGS G4).

A highway space's printed label is its id in the board data ("R13"): `cbrig print`
prints exactly these labels and the live board uses them, so the words the rig shows
are words a player finds on the board. Side spaces are named by where they stand:
a Bear Trap by its route ("the Bear Trap on Blue"), a short cut by the two spaces it
joins, a Bear space by the route it watches.

`board_rank` orders places as they come round the board, so menus of police moves
read in board order (clockwise from the first route), not alphabetically.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.tenfour.board import Board
from engine.tenfour.places import BEAR, HOME, PARK, SIDE, SMOKEYS

if TYPE_CHECKING:
    from engine.tenfour.game import TenFourGame


def colour_word(colour: str) -> str:
    return colour.capitalize()


def trap_route(board: Board, trap_id: str) -> str:
    """The colour of the route a Bear Trap stands beside (its middle space's route)."""
    return board.route_of[board.index[board.trap(trap_id).spaces[1]]]


def trap_name(board: Board, trap_id: str) -> str:
    """"Bear Trap on Blue" (with a route number when a route has more than one)."""
    route = trap_route(board, trap_id)
    same = [t.id for t in board.traps if trap_route(board, t.id) == route]
    number = f" {same.index(trap_id) + 1}" if len(same) > 1 else ""
    return f"Bear Trap{number} on {colour_word(route)}"


def shortcut_name(board: Board, cut_id: str) -> str:
    """"short cut R16-G2": the two highway spaces it joins, as printed."""
    cut = board.shortcut(cut_id)
    return f"short cut {cut.entry}-{cut.exit}"


def bear_space_name(board: Board, bear_id: str) -> str:
    """"Bear space on Green": the route the Bear watches from it."""
    return f"Bear space on {colour_word(board.bear(bear_id).route)}"


def place_name(board: Board, place: str) -> str:
    """Any location a piece can have, in words found on the board.

    Highway spaces keep their printed label ("R13"); "side:R13" is "side of road R13";
    traps, short cuts and Bear spaces are named by where they stand.
    """
    if place in board.index:
        return place
    if place.startswith(SIDE):
        return f"side of road {place[len(SIDE):]}"
    if place == HOME:
        return "home"
    if place == PARK:
        return board.park
    if any(t.id == place for t in board.traps):
        return trap_name(board, place)
    if any(c.id == place for c in board.shortcuts):
        return shortcut_name(board, place)
    if any(b.id == place for b in board.bears):
        return bear_space_name(board, place)
    return place


def place_phrase(board: Board, place: str) -> str:
    """The place with the preposition a sentence needs: "at R13", "in the Bear Trap
    on Blue", "on the short cut R16-G2", "in Yellowstone Park", "home"."""
    name = place_name(board, place)
    if place in board.index:
        return f"at {name}"
    if place == HOME:
        return "home"
    if place.startswith(SIDE):
        return f"at the {name}"
    if place == PARK:
        return f"in {name}"
    if any(t.id == place for t in board.traps):
        return f"in the {name}"
    return f"on the {name}"


def destination_phrase(board: Board, place: str) -> str:
    """Where a move goes: "to R13", "into the Bear Trap on Blue", "onto the short cut
    R16-G2", "to the Bear space on Green", "home"."""
    name = place_name(board, place)
    if place == HOME:
        return "home"
    if any(t.id == place for t in board.traps):
        return f"into the {name}"
    if any(c.id == place for c in board.shortcuts):
        return f"onto the {name}"
    if any(b.id == place for b in board.bears):
        return f"to the {name}"
    return f"to {name}"


def piece_name(game: TenFourGame, piece: str) -> str:
    """"Red truck", "Smokey 1", "Bear" (the box's pieces, never an internal id)."""
    if piece == BEAR:
        return "Bear"
    if piece in SMOKEYS:
        return f"Smokey {SMOKEYS.index(piece) + 1}"
    if piece in game.truck_index:
        return f"{colour_word(piece)} truck"
    return piece


def piece_at(game: TenFourGame, piece: str, place: str) -> str:
    """"Red truck at R13", "Smokey 2 in the Bear Trap on Blue", "Bear on Green route"."""
    if piece == BEAR and any(b.id == place for b in game.board.bears):
        return f"Bear on {colour_word(game.board.bear(place).route)} route"
    return f"{piece_name(game, piece)} {place_phrase(game.board, place)}"


def board_rank(board: Board, place: str) -> tuple[int, int]:
    """Sort key: places in the order they come clockwise round the board.

    The Park comes first (police start there); a side space sorts just after the
    highway space it starts beside (a trap after its first space, a short cut after its
    entry, a Bear space after the space it is drawn beside); home comes last.
    """
    if place == PARK:
        return (-1, 0)
    if place == HOME:
        return (board.size + 1, 0)
    if place.startswith(SIDE):
        return (board.index.get(place[len(SIDE):], board.size), 1)
    if place in board.index:
        return (board.index[place], 0)
    for trap in board.traps:
        if trap.id == place:
            return (board.index[trap.spaces[0]], 2)
    for cut in board.shortcuts:
        if cut.id == place:
            return (board.index[cut.entry], 3)
    for bear in board.bears:
        if bear.id == place:
            return (board.index[bear.beside], 4)
    return (board.size, 9)


def in_board_order(board: Board, places: list[str]) -> list[str]:
    return sorted(places, key=lambda place: board_rank(board, place))
