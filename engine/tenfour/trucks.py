"""How the trucks move (RULINGS T3, T4, T7, T9): spin plus the card's extra along the
highway from where each truck starts, home past the end of the loop.

A truck on a Hammer Up curve plays no card and spins the Lo-Band (T9); in the
two-player game a player moves either of two trucks. Where a move ends is checked
against the police (`police.py`), which may stop it (the Bear, T8) or catch it after.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from engine.api import JSON, Event, LazyEvent
from engine.tenfour import police
from engine.tenfour.actions import ChooseTruck
from engine.tenfour.places import HOME

if TYPE_CHECKING:
    from engine.tenfour.game import TenFourGame
    from engine.tenfour.state import TenFourState


def movable(state: TenFourState, seat: int) -> list[int]:
    """The seat's trucks not yet home (`is_home`, inlined: asked every turn)."""
    size = state.g.size
    pos = state.pos
    return [t for t in state.g.seat_trucks[seat] if pos[t] < size]


def on_curve(state: TenFourState, truck: int) -> bool:
    """On a Hammer Up curve (T9): the truck moves without a card, on the Lo-Band."""
    return state.g.board.on_curve[state.location(truck)]


def choose_preview(state: TenFourState, truck: int) -> ChooseTruck:
    """Two players, after the spin: moving this truck, with where it would end."""
    g = state.g
    steps = state.spun + (g.cards[state.card].extra if state.card >= 0 else 0)
    new_pos = state.pos[truck] + steps
    if new_pos >= g.size:
        return ChooseTruck(g.trucks[truck], steps, HOME, False)
    index = (g.truck_start[truck] + new_pos) % g.size
    return ChooseTruck(g.trucks[truck], steps, g.board.loop[index],
                       police.catch_kind(state, index) is not None)


def drive(state: TenFourState, truck: int, events: list[Event]) -> bool:
    """Move the truck spin + extra unless the Bear catches it (then False); a truck
    ending on the highway may be caught where it stops."""
    g = state.g
    state.truck = truck
    steps = state.spun + (g.cards[state.card].extra if state.card >= 0 else 0)
    n = g.size
    here = (g.truck_start[truck] + state.pos[truck]) % n
    # below the Bear's limit no truck is caught speeding: most moves skip the call
    if steps >= g.bear_limit and police.bear_catches(state, truck, here, steps, events):
        return False
    pos = state.pos
    pos[truck] += steps
    if pos[truck] >= n:
        events.append(LazyEvent("truck_move", partial(
            _truck_move_words, g, truck, here, steps, True)))
    else:
        events.append(LazyEvent("truck_move", partial(
            _truck_move_words, g, truck, here, steps, False)))
        police.check_truck(state, truck, events, (here + steps) % n)
    return True


def put_back_on_road(state: TenFourState, events: list[Event]) -> None:
    """The trucks of the player whose turn starts leave the side of the road (T7)."""
    g = state.g
    for t in g.seat_trucks[state.turn]:
        if state.side[t]:
            state.side[t] = False
            events.append(Event("back_on_road", f"{g.trucks[t].capitalize()} truck "
                                "goes back onto the road",
                                {"seat": state.turn, "truck": g.trucks[t]}))


def _truck_move_words(g: TenFourGame, truck: int, here: int, steps: int,
                      home: bool) -> tuple[str, dict[str, JSON]]:
    """A truck's move from loop index `here`; `home`: it drove past the end."""
    name = g.truck_names[truck]
    start = g.board.loop[here]
    if home:
        return (f"{name} at {start}: {steps} ahead, home!",
                {"truck": g.trucks[truck], "steps": steps, "to": HOME, "from": start})
    to = g.board.loop[(here + steps) % g.size]
    return (f"{name} at {start}: {steps} ahead to {to}",
            {"truck": g.trucks[truck], "steps": steps, "to": to, "from": start})
