"""The order of play (RULINGS T1, T2, T7, T9, T13): who starts, whose turn it is, a
lost turn, Hammer Up or a card, the spin, and after the truck's move either the police
(BREAK ONE NINE), the winner or the next turn.

The pieces' own rules are in `trucks.py` and `police.py`; this module strings them into
turns and sets the phase the state then waits in.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from engine.api import JSON, Event, LazyEvent
from engine.tenfour import trucks
from engine.tenfour.phases import CHOOSE, DECLARE, DRAW, OVER, PLACE, POLICE, SPIN

if TYPE_CHECKING:
    from engine.tenfour.actions import Draw
    from engine.tenfour.cards import Card
    from engine.tenfour.game import TenFourGame
    from engine.tenfour.state import TenFourState


def start_spin(state: TenFourState, value: int, events: list[Event]) -> None:
    """A Hi-Band spin for the starting order; ties spin again (T1)."""
    g = state.g
    seat = state.contenders[len(state.start_spins)]
    state.start_spins.append(value)
    events.append(Event("spin", f"{g.names[seat]} spins {value}",
                        {"seat": seat, "value": value, "band": "hi", "start": True}))
    if len(state.start_spins) < len(state.contenders):
        return
    top = max(state.start_spins)
    tied = [s for s, v in zip(state.contenders, state.start_spins, strict=True) if v == top]
    state.start_spins = []
    if len(tied) > 1:
        state.contenders = tied
        names = ", ".join(g.names[s] for s in tied)
        events.append(Event("start_tie", f"Tie at {top}: {names} spin again",
                            {"seats": [*tied], "value": top}))
        return
    state.contenders = []
    state.turn = tied[0]
    events.append(Event("start_order", f"{g.names[tied[0]]} goes first",
                        {"seat": tied[0], "value": top}))
    if g.two_player:
        state.phase = PLACE
    else:
        begin_turn(state, events)


def begin_turn(state: TenFourState, events: list[Event]) -> None:
    """Start the next turn someone actually takes, skipping lost turns (T7)."""
    g = state.g
    while True:
        seat = state.turn
        state.turns += 1
        events.append(Event("turn", f"{g.names[seat]}'s turn",
                            {"seat": seat, "number": state.turns}))
        if state.lose[seat]:
            state.lose[seat] = False
            events.append(Event("lost_turn", f"{g.names[seat]} loses this turn "
                                "(caught speeding)", {"seat": seat}))
            state.turn = (seat + 1) % g.num_players
            continue
        trucks.put_back_on_road(state, events)
        setup_turn(state, events)
        return


def setup_turn(state: TenFourState, events: list[Event]) -> None:
    """Decide how this turn is played: Hammer Up, a declaration, or a draw."""
    g = state.g
    curve, start, pos, size = g.board.on_curve, g.truck_start, state.pos, g.size
    movable = [t for t in g.seat_trucks[state.turn] if pos[t] < size]  # trucks.movable
    state.card = -1
    state.hammer = False
    state.truck = -1
    state.spun = 0
    on_curve = [t for t in movable if curve[(start[t] + pos[t]) % size]]  # trucks.on_curve
    if len(movable) == 1:
        state.truck = movable[0]
        if on_curve:
            start_hammer(state, events)
            return
    elif on_curve:
        state.phase = DECLARE
        return
    to_draw(state, events)


def to_draw(state: TenFourState, events: list[Event]) -> None:
    """Wait for a Mike card, reshuffling the deck when every card is used (T13)."""
    if state.pile_left == 0:
        state.pile = [card.copies for card in state.g.cards]
        state.pile_left = sum(state.pile)
        events.append(Event("reshuffle", "All Mike cards used: reshuffle them and put "
                            "them back in the rig", {"cards": state.pile_left}))
    state.phase = DRAW


def start_hammer(state: TenFourState, events: list[Event]) -> None:
    """T9: no card, the Lo-Band."""
    state.hammer = True
    state.phase = SPIN
    truck = state.g.trucks[state.truck]
    events.append(Event("hammer_up", f"Hammer Up! {truck.capitalize()} truck: no card, "
                        "spin the Lo-Band", {"seat": state.turn, "truck": truck}))


def declare(state: TenFourState, truck: int, events: list[Event]) -> None:
    """Two players: the truck named before the draw; on a curve it plays Hammer Up."""
    state.truck = truck
    if trucks.on_curve(state, truck):
        start_hammer(state, events)
    else:
        to_draw(state, events)


def draw(state: TenFourState, action: Draw, events: list[Event]) -> None:
    g = state.g
    index = g.card_index[action.card]
    card = g.cards[index]
    state.pile[index] -= 1
    state.pile_left -= 1
    state.card = index
    state.phase = SPIN
    events.append(LazyEvent("card_draw", partial(_card_draw_words, g, state.turn, card)))
    if card.break_one_nine:
        events.append(Event("break_one_nine", "BREAK ONE NINE! Move your truck, then a "
                            "police car", {"seat": state.turn}))


def spin(state: TenFourState, value: int, band: str, events: list[Event]) -> None:
    """The turn's spin: the truck moves, or two players choose which truck does."""
    g = state.g
    events.append(Event("spin", f"{g.names[state.turn]} spins {value}",
                        {"seat": state.turn, "value": value, "band": band}))
    if state.truck < 0:
        pos, size = state.pos, g.size
        movable = [t for t in g.seat_trucks[state.turn] if pos[t] < size]  # trucks.movable
        if len(movable) > 1:
            state.spun = value
            state.phase = CHOOSE
            return
        state.truck = movable[0]
    state.spun = value
    drive(state, state.truck, events)


def drive(state: TenFourState, truck: int, events: list[Event]) -> None:
    """Move the truck (`trucks.drive`), then finish the turn: the winner, the police
    after BREAK ONE NINE, or the next player."""
    g = state.g
    moved = trucks.drive(state, truck, events)
    pos, size = state.pos, g.size
    # the seat's other trucks were checked when they went home: only a truck that has
    # just gone home can end the game (the rest of the seat is looked at then)
    if moved and pos[truck] >= size and all(pos[t] >= size for t in g.seat_trucks[state.turn]):
        win(state, events)
        return
    card = g.cards[state.card] if state.card >= 0 else None
    if card is not None and card.break_one_nine and (
            moved or g.options["police_move_when_stuck"]):
        state.phase = POLICE
        return
    end_turn(state, events)


def win(state: TenFourState, events: list[Event]) -> None:
    state.phase = OVER
    state.winner = [state.turn]
    events.append(Event("winner", f"10-4, good buddy! {state.g.names[state.turn]} wins",
                        {"seat": state.turn}))


def end_turn(state: TenFourState, events: list[Event]) -> None:
    state.turn = (state.turn + 1) % state.g.num_players
    begin_turn(state, events)


def _card_draw_words(g: TenFourGame, seat: int, card: Card) -> tuple[str, dict[str, JSON]]:
    return (f"{g.names[seat]} draws: {card.text}",
            {"seat": seat, "card": card.id, "band": card.band, "extra": card.extra,
             "break_one_nine": card.break_one_nine})
