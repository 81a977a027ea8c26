"""Corrections (RULINGS G1, G5): the table sets a piece where it really stands, or
says whose turn it is, that a seat loses its next turn, or that a turn is Hammer Up.

Every correction is validated first, so a refused one changes nothing; an accepted one
may finish the game or change what the turn waits for (`_settle_after_correction`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.api import Event
from engine.errors import IllegalAction, Reason
from engine.tenfour import trucks, turns
from engine.tenfour.actions import Correct, CorrectHammer, CorrectLostTurn, CorrectTurn
from engine.tenfour.names import destination_phrase, piece_name
from engine.tenfour.phases import CHOOSE, DECLARE, DRAW, OVER, SPIN
from engine.tenfour.places import BEAR, HOME, PARK, SIDE, SMOKEYS

if TYPE_CHECKING:
    from engine.tenfour.state import TenFourState

def correction_options(state: TenFourState) -> dict[str, list[str]]:
    """Piece id -> every location the table may set it to."""
    g = state.g
    board = g.board
    out: dict[str, list[str]] = {}
    truck_places = [*board.loop, *(SIDE + s for s in board.loop), HOME]
    for colour in g.trucks:
        out[colour] = list(truck_places)
    smokey_places = [*board.loop, *(t.id for t in board.traps),
                     *(c.id for c in board.shortcuts)]
    if not g.two_player:
        smokey_places.append(PARK)
    for smokey in SMOKEYS:
        out[smokey] = list(smokey_places)
    if BEAR in state.police:
        out[BEAR] = [*(b.id for b in board.bears), PARK]
    return out


def correct(state: TenFourState, action: Correct) -> list[Event]:
    """Set a piece where the table says it is (G1)."""
    options = correction_options(state)
    if action.piece not in options:
        raise IllegalAction(Reason.NOT_LEGAL_NOW, f"no piece {action.piece!r} to correct; "
                            f"pieces are {', '.join(options)}")
    if action.location not in options[action.piece]:
        raise IllegalAction(Reason.NOT_LEGAL_NOW, f"{action.piece} cannot be set to "
                            f"{action.location!r}")
    events = [Event("correction", f"Correction: {piece_name(state.g, action.piece)} set "
                    f"{destination_phrase(state.g.board, action.location)}",
                    {"piece": action.piece, "location": action.location})]
    if action.piece in state.police:
        state.police[action.piece] = action.location
        return events
    _set_truck(state, state.g.truck_index[action.piece], action.location)
    _settle_after_correction(state, events)
    return events


def turn_corrections(state: TenFourState) -> dict[str, bool]:
    """Which turn corrections (G5) fit this moment: "turn" before the card is drawn,
    "hammer_on" when the turn's truck is known and no card is drawn, "hammer_off"
    on a Hammer Up turn before its spin; a lost turn can always be set."""
    phase = state.phase
    no_card = phase in (DRAW, DECLARE) or (phase == SPIN and state.card < 0)
    return {"turn": no_card, "lost_turn": phase != OVER,
            "hammer_on": phase == DRAW and state.truck >= 0,
            "hammer_off": phase == SPIN and state.hammer}


def correct_turn(state: TenFourState, action: CorrectTurn | CorrectLostTurn | CorrectHammer
                 ) -> list[Event]:
    """Whose turn, a lost turn, a Hammer Up (RULINGS G5): validated first, so a
    refused correction changes nothing."""
    g = state.g
    allowed = turn_corrections(state)
    events: list[Event] = []
    if isinstance(action, CorrectTurn | CorrectLostTurn):
        seat = action.seat
        if isinstance(seat, bool) or not isinstance(seat, int) or not (
                0 <= seat < g.num_players):
            raise IllegalAction(Reason.NOT_LEGAL_NOW, f"no seat {seat!r}; seats are "
                                f"0..{g.num_players - 1}")
    if isinstance(action, CorrectTurn):
        if not allowed["turn"]:
            raise IllegalAction(Reason.NOT_LEGAL_NOW, "whose turn it is can be corrected "
                                "only before the turn's card is drawn")
        state.turn = action.seat
        events.append(Event("correction", f"Correction: it is {g.seat_name(state.turn)}'s "
                            "turn", {"turn": state.turn}))
        trucks.put_back_on_road(state, events)
        turns.setup_turn(state, events)
        return events
    if isinstance(action, CorrectLostTurn):
        if not isinstance(action.lost, bool) or not allowed["lost_turn"]:
            raise IllegalAction(Reason.NOT_LEGAL_NOW, f"lost must be true or false, not "
                                f"{action.lost!r}")
        state.lose[action.seat] = action.lost
        name = g.seat_name(action.seat)
        text = f"{name} loses the next turn" if action.lost else f"{name} loses no turn"
        return [Event("correction", f"Correction: {text}",
                      {"seat": action.seat, "lost": action.lost})]
    return _correct_hammer(state, action, allowed)


def _correct_hammer(state: TenFourState, action: CorrectHammer,
                    allowed: dict[str, bool]) -> list[Event]:
    g = state.g
    truck = g.truck_index.get(action.truck) if isinstance(action.truck, str) else None
    if truck is None or not isinstance(action.hammer, bool):
        raise IllegalAction(Reason.NOT_LEGAL_NOW, f"no truck {action.truck!r} or hammer "
                            f"{action.hammer!r} not true/false")
    events: list[Event] = []
    if action.hammer:
        if not allowed["hammer_on"] or truck != state.truck:
            raise IllegalAction(Reason.NOT_LEGAL_NOW, "a Hammer Up can be set only for the "
                                "turn's truck, before its card is drawn")
        events.append(Event("correction", f"Correction: {g.truck_names[truck]} plays "
                            "Hammer Up", {"truck": action.truck, "hammer": True}))
        turns.start_hammer(state, events)
        return events
    if not allowed["hammer_off"] or truck != state.truck:
        raise IllegalAction(Reason.NOT_LEGAL_NOW, "only a Hammer Up turn waiting for its "
                            "spin can be turned into a turn with a card")
    state.hammer = False
    events.append(Event("correction", f"Correction: no Hammer Up for the "
                        f"{g.truck_names[truck]}: draw a card",
                        {"truck": action.truck, "hammer": False}))
    turns.to_draw(state, events)
    return events


def _set_truck(state: TenFourState, truck: int, location: str) -> None:
    g = state.g
    if location == HOME:
        state.pos[truck] = g.size
        state.side[truck] = False
        return
    sidelined = location.startswith(SIDE)
    space = location[len(SIDE):] if sidelined else location
    state.pos[truck] = (g.board.index[space] - g.truck_start[truck]) % g.size
    owner = g.truck_owner[truck]
    if sidelined and not state.side[truck]:
        state.lose[owner] = True
    state.side[truck] = sidelined
    if not sidelined and not any(state.side[t] for t in g.seat_trucks[owner]):
        state.lose[owner] = False  # back on the road: no lost turn is pending


def _settle_after_correction(state: TenFourState, events: list[Event]) -> None:
    """A corrected truck may finish the game or change what the turn waits for."""
    g = state.g
    for seat in range(g.num_players):
        if all(state.is_home(t) for t in g.seat_trucks[seat]):
            state.turn = seat
            turns.win(state, events)
            return
    if state.phase == CHOOSE:
        movable = trucks.movable(state, state.turn)
        if len(movable) == 1:
            turns.drive(state, movable[0], events)
    elif state.phase == DECLARE:
        turns.setup_turn(state, events)
    elif state.phase in (DRAW, SPIN) and state.truck >= 0 and state.is_home(state.truck):
        if state.card >= 0:
            state.truck = -1  # the card stays drawn; the spin decides which truck moves
        else:
            turns.setup_turn(state, events)  # no card used yet: set the turn up again
