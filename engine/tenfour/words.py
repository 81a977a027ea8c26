"""What the table reads: the prompt for each phase, every action in words a person can
carry out on the board, and the order menus list the choices in (RULINGS G4).

The events' words are built next to the rule that raises them (`turns.py`, `trucks.py`,
`police.py`); the names of places and pieces are in `names.py`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.api import TERMINAL, Action
from engine.tenfour import police, trucks
from engine.tenfour.actions import (
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
from engine.tenfour.names import board_rank, destination_phrase, piece_at, piece_name
from engine.tenfour.phases import CHOOSE, DECLARE, DRAW, OVER, PLACE, SPIN, START_SPIN
from engine.tenfour.places import BEAR, PARK

if TYPE_CHECKING:
    from engine.tenfour.kinds import PromptKind
    from engine.tenfour.state import TenFourState


@dataclass(frozen=True)
class Prompt:
    """What the rig is waiting for. `player` is the seat who acts at the table (the
    one who spins or draws at chance nodes), or TERMINAL when the game is over."""

    kind: PromptKind
    player: int
    text: str
    band: str = ""
    hammer: bool = False
    card: str = ""
    extra: int = 0
    break_one_nine: bool = False
    truck: str = ""
    trucks: tuple[str, ...] = ()
    spin: int = 0
    pieces: tuple[str, ...] = ()
    """Police pieces still in Yellowstone Park ("release")."""
    winners: tuple[int, ...] = ()


def prompt(state: TenFourState) -> Prompt:
    g = state.g
    phase = state.phase
    name = g.seat_name(state.turn)
    if phase == OVER:
        names = " and ".join(g.seat_name(s) for s in state.winner)
        return Prompt("over", TERMINAL, f"10-4! {names} wins. ADIOS",
                      winners=tuple(state.winner))
    if phase == START_SPIN:
        seat = state.contenders[len(state.start_spins)]
        return Prompt("start_spin", seat, f"{g.seat_name(seat)}: spin the Hi-Band for "
                      "the starting order", band="hi")
    if phase == PLACE:
        seat = state.placed_seat()
        return Prompt("place_smokey", seat,
                      f"{g.seat_name(seat)}: put a Smokey into any Bear Trap")
    if phase == DECLARE:
        movable = tuple(g.trucks[t] for t in trucks.movable(state, state.turn))
        return Prompt("declare_truck", state.turn, f"{name}: which truck will you move? "
                      "(Hammer Up: no card, Lo-Band)", trucks=movable)
    truck = g.trucks[state.truck] if state.truck >= 0 else ""
    if phase == DRAW:
        return Prompt("draw", state.turn, f"{name}: draw a Mike card", truck=truck)
    card = g.cards[state.card] if state.card >= 0 else None
    extra = card.extra if card else 0
    b19 = card.break_one_nine if card else False
    if phase == SPIN:
        band = state.band()
        label = {"hi": "Hi-Band", "lo": "Lo-Band"}.get(band, f"{band} band")
        text = (f"{name}: Hammer Up! No card, spin the Lo-Band" if state.hammer
                else f"{name}: spin the {label}" + (f" (+{extra})" if extra else ""))
        return Prompt("spin", state.turn, text, band=band, hammer=state.hammer,
                      card=card.id if card else "", extra=extra, break_one_nine=b19,
                      truck=truck)
    if phase == CHOOSE:
        movable = tuple(g.trucks[t] for t in trucks.movable(state, state.turn))
        return Prompt("choose_truck", state.turn,
                      f"{name}: move either truck {state.spun + extra}", trucks=movable,
                      spin=state.spun, extra=extra, card=card.id if card else "")
    in_park = tuple(p for p in g.police if state.police[p] == PARK)
    if in_park:
        return Prompt("release", state.turn,
                      f"{name}: BREAK ONE NINE! Take a police car out of {g.board.park}",
                      break_one_nine=True, pieces=in_park)
    what = "a Smokey or the Bear" if BEAR in state.police else "a Smokey"
    return Prompt("police", state.turn, f"{name}: BREAK ONE NINE! Move {what}",
                  break_one_nine=True)


def describe(state: TenFourState, action: Action) -> str:
    """A short instruction a person can carry out on the board."""
    g = state.g
    if isinstance(action, Spin):
        return f"Spin {action.value}"
    if isinstance(action, Draw):
        return f"Draw Mike card {action.card}"
    if isinstance(action, PlaceSmokey):
        smokey = piece_name(g, action.smokey) if action.smokey else "a Smokey"
        return f"Put {smokey} {destination_phrase(g.board, action.trap)}"
    if isinstance(action, DeclareTruck):  # by where it stands, as the table finds it
        where = state.truck_where(g.truck_index[action.truck])
        return piece_at(g, action.truck, where) + (" (Hammer Up)" if action.hammer else "")
    if isinstance(action, ChooseTruck):
        truck = g.truck_index[action.truck]
        caught = ", caught!" if action.caught else ""
        return (f"{piece_at(g, action.truck, state.truck_where(truck))}: {action.steps} "
                f"{destination_phrase(g.board, action.to)}{caught}")
    if isinstance(action, Release):
        return (f"{piece_name(g, action.piece)} "
                f"{police.destination(g, action.piece, action.to)}")
    if isinstance(action, MoveSmokey):
        how = " by short cut" if action.via else ""
        where = destination_phrase(g.board, action.to)
        catches = (", catches " + "+".join(c.capitalize() for c in action.catches)
                   if action.catches else "")
        return (f"{piece_at(g, action.smokey, state.police[action.smokey])}: "
                f"{action.steps} {where}{how}{catches}")
    if isinstance(action, MoveBear):
        watches = action.watches or g.bear_route.get(action.to, "")
        return f"Bear to the {watches.capitalize()} route"
    if isinstance(action, Correct):
        where = destination_phrase(g.board, action.location)
        return f"Set {piece_name(g, action.piece)} {where}"
    if isinstance(action, CorrectTurn):
        return f"It is {g.seat_name(action.seat)}'s turn"
    if isinstance(action, CorrectLostTurn):
        lost = "loses the next turn" if action.lost else "loses no turn"
        return f"{g.seat_name(action.seat)} {lost}"
    if isinstance(action, CorrectHammer):
        which = piece_name(g, action.truck)
        return f"Hammer Up for the {which}" if action.hammer else f"No Hammer Up: {which}"
    return action.key()


def in_board_order(state: TenFourState, actions: Sequence[Action]) -> list[Action]:
    """The choices as a menu lists them (RULINGS G4): police moves piece by piece
    (Smokey 1, Smokey 2, the Bear), in board order: a Smokey's moves from where it
    stands onwards, traps and Bear spaces clockwise from the first route."""
    return sorted(actions, key=lambda action: _board_key(state, action))


def _board_key(state: TenFourState, action: Action) -> tuple[int, int, int]:
    g = state.g
    board = g.board
    if isinstance(action, ChooseTruck | DeclareTruck):
        return (0, g.truck_index[action.truck], 0)
    if isinstance(action, PlaceSmokey):
        return (0, *board_rank(board, action.trap))
    if isinstance(action, Release | MoveSmokey | MoveBear):
        piece = action.piece if isinstance(action, Release) else (
            action.smokey if isinstance(action, MoveSmokey) else BEAR)
        rank, sub = board_rank(board, action.to)
        if isinstance(action, MoveSmokey):  # ahead of where it stands, nearest first
            rank = (rank - board_rank(board, state.police[piece])[0]) % (board.size + 2)
        return (g.police.index(piece) + 1, rank, sub)
    return (9, 0, 0)
