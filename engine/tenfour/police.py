"""How the police move and catch (RULINGS T5-T8, T10-T12): the Smokeys and the Bear In
The Air.

A Smokey moves exactly `smokey_move` spaces, or fewer ending in a Bear Trap (T11; the
game works out `smokey_routes` once), and catches a truck on, just behind or just in
front of its space, or on a trap's spaces when it sits in the trap (T5, T6). The
Bear watches one route and catches a truck spinning `bear_limit` or more there (T8). A
caught truck goes to the side of the road and its owner loses the next turn (T7).

Every function takes the `TenFourState` it reads and changes; ending the turn after a
police move is the turn's business (`turns.py`), so this module imports no other rules.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from engine.api import JSON, Action, Event, LazyEvent
from engine.tenfour.actions import MoveBear, MoveSmokey, PlaceSmokey, Release
from engine.tenfour.names import destination_phrase, piece_at, place_name
from engine.tenfour.phases import SPIN
from engine.tenfour.places import BEAR, PARK, SMOKEYS
from valueclass import Frozen

if TYPE_CHECKING:
    from engine.tenfour.board import Board
    from engine.tenfour.game import TenFourGame
    from engine.tenfour.kinds import CatchKind
    from engine.tenfour.state import TenFourState


# -- where a Smokey can go (T11) ---------------------------------------------------------

class SmokeyRoute(Frozen):
    """One way a Smokey can move from a location: where it ends and how it got there."""

    to: str
    steps: int
    via: str
    into_trap: bool


def smokey_routes(board: Board, start: str, distance: int) -> tuple[SmokeyRoute, ...]:
    """Every end of a Smokey move from `start` (T11), one route per destination.

    Exactly `distance` steps along the highway (a short cut is one space, so one step
    onto it and one off it), or fewer ending with the one step into a Bear Trap. When
    two routes reach the same place the one with fewer short cuts, then steps, is kept.
    """
    found: dict[str, SmokeyRoute] = {}
    trap_by_id = {t.id: t for t in board.traps}
    cut_by_id = {c.id: c for c in board.shortcuts}
    entries: dict[str, list[str]] = {}
    for trap in board.traps:
        for space in trap.entry:
            entries.setdefault(space, []).append(trap.id)
    cuts_from: dict[str, list[str]] = {}
    for cut in board.shortcuts:
        cuts_from.setdefault(cut.entry, []).append(cut.id)

    def keep(route: SmokeyRoute) -> None:
        old = found.get(route.to)
        rank = (1 if route.via else 0, route.steps)
        if old is None or rank < (1 if old.via else 0, old.steps):
            found[route.to] = route

    def walk(here: str, steps: int, via: str) -> None:
        if steps == distance:
            keep(SmokeyRoute(here, steps, via, False))
            return
        nexts: list[tuple[str, str]] = []
        if here in trap_by_id:
            nexts.append((trap_by_id[here].exit, via))
        elif here in cut_by_id:
            nexts.append((cut_by_id[here].exit, via))
        else:
            for trap_id in entries.get(here, []):
                keep(SmokeyRoute(trap_id, steps + 1, via, True))
            nexts.append((board.loop[(board.index[here] + 1) % board.size], via))
            nexts.extend((cut_id, via or cut_id) for cut_id in cuts_from.get(here, []))
        for place, how in nexts:
            walk(place, steps + 1, how)

    walk(start, 0, "")
    found.pop(start, None)  # a move always goes somewhere else
    return tuple(sorted(found.values(), key=lambda r: r.to))


# -- the choices after BREAK ONE NINE (T10-T12) ----------------------------------------

def police_actions(state: TenFourState, previews: bool = True) -> list[Action]:
    """The police moves; without `previews`, a Smokey's move does not say which
    trucks it would catch (a random playout does not read it)."""
    g = state.g
    in_park = [p for p in g.police if state.police[p] == PARK]
    out: list[Action] = []
    if in_park:
        smokeys = [p for p in in_park if p != BEAR]
        if smokeys:
            out.extend(g.releases[smokeys[0]])
        if BEAR in in_park:
            out.extend(g.releases[BEAR])
        return out
    for smokey in SMOKEYS:
        for route in g.smokey_routes[state.police[smokey]]:
            catches = _would_catch(state, route.to, route.into_trap) if previews else ()
            out.append(MoveSmokey(smokey, route.to, route.steps, route.via, route.into_trap,
                                  catches))
    if BEAR in state.police:
        out.extend(g.bear_moves[state.police[BEAR]])
    return out


def _would_catch(state: TenFourState, to: str, into_trap: bool) -> tuple[str, ...]:
    return tuple(state.g.trucks[t] for t in caught_by_smokey_at(state, to, into_trap))


def destination(g: TenFourGame, piece: str, to: str) -> str:
    """Where a released piece goes: the Bear by the route it watches, a Smokey by place."""
    if piece == BEAR:
        return f"to the {g.bear_route[to].capitalize()} route"
    return destination_phrase(g.board, to)


# -- moving the police -----------------------------------------------------------------

def place_smokey(state: TenFourState, action: PlaceSmokey, events: list[Event]) -> None:
    """Two players, before play: the next Smokey goes into the chosen Bear Trap."""
    smokey = SMOKEYS[state.placed]
    seat = state.placed_seat()
    state.police[smokey] = action.trap
    state.placed += 1
    events.append(Event("smokey_placed", f"{state.g.seat_name(seat)} puts "
                        f"{smokey_name(smokey)} "
                        f"{destination_phrase(state.g.board, action.trap)}",
                        {"seat": seat, "smokey": smokey, "to": action.trap}))


def move(state: TenFourState, action: Release | MoveSmokey | MoveBear,
         events: list[Event]) -> None:
    """Carry out a police move chosen after BREAK ONE NINE (the turn then ends)."""
    if isinstance(action, Release):
        _release(state, action, events)
    elif isinstance(action, MoveSmokey):
        _move_smokey(state, action, events)
    else:
        state.police[BEAR] = action.to
        events.append(Event("bear_move", f"Bear In The Air to the "
                            f"{action.watches.capitalize()} route",
                            {"to": action.to, "route": action.watches}))


def _release(state: TenFourState, action: Release, events: list[Event]) -> None:
    state.police[action.piece] = action.to
    events.append(LazyEvent("park_exit", partial(_release_words, state.g, action)))
    if state.g.options["trap_catches_on_entry"] and action.piece != BEAR:
        catch_by_smokey(state, action.piece, events)


def _move_smokey(state: TenFourState, action: MoveSmokey, events: list[Event]) -> None:
    """The Smokey moves; its words are worked out when read (a playout never reads
    them), from where it was, passed along before the state moves on."""
    g = state.g
    was = state.police[action.smokey]
    state.police[action.smokey] = action.to
    data: dict[str, JSON] = {"smokey": action.smokey, "to": action.to,
                             "steps": action.steps, "via": action.via}
    events.append(LazyEvent("smokey_trap_move" if action.into_trap else "smokey_exact_move",
                            partial(_smokey_move_words, g, action, was, data)))
    if action.via:
        events.append(LazyEvent("shortcut_move", partial(_shortcut_words, g, action, data)))
    catch_by_smokey(state, action.smokey, events)


def _release_words(g: TenFourGame, action: Release) -> tuple[str, dict[str, JSON]]:
    where = destination(g, action.piece, action.to)
    return (f"{smokey_name(action.piece)} out of {g.board.park} {where}",
            {"piece": action.piece, "to": action.to})


def _smokey_move_words(g: TenFourGame, action: MoveSmokey, was: str,
                       data: dict[str, JSON]) -> tuple[str, dict[str, JSON]]:
    name = piece_at(g, action.smokey, was)
    where = destination_phrase(g.board, action.to)
    if action.into_trap:
        return f"{name}: {action.steps} {where}", data
    how = f" by the {place_name(g.board, action.via)}" if action.via else ""
    return f"{name}: {action.steps}{how} {where}", data


def _shortcut_words(g: TenFourGame, action: MoveSmokey,
                    data: dict[str, JSON]) -> tuple[str, dict[str, JSON]]:
    return (f"{smokey_name(action.smokey)} takes the {place_name(g.board, action.via)}",
            data)


# -- catches (T5, T6, T7, T8) ------------------------------------------------------------

def speed_limit(state: TenFourState) -> tuple[str, int] | None:
    """Before a spin (T8): the route the Bear watches and the highest spin the
    moving truck can make there without being caught, when the truck starts on
    that route; None when the Bear does not watch it. The limit may be below the
    band's lowest value (then every spin is caught)."""
    g = state.g
    bear_at = state.police.get(BEAR, PARK)
    if state.phase != SPIN or state.truck < 0 or bear_at == PARK:
        return None
    route = g.bear_route[bear_at]
    if g.board.route_of[state.location(state.truck)] != route:
        return None
    extra = g.cards[state.card].extra if state.card >= 0 else 0
    return route, g.bear_limit - 1 - extra


def bear_catches(state: TenFourState, truck: int, here: int, steps: int,
                 events: list[Event]) -> bool:
    """T8: a truck at loop index `here` moving `steps` on the route the Bear watches is
    caught speeding when `steps` reaches the limit: it does not move."""
    g = state.g
    bear_at = state.police.get(BEAR, PARK)
    if (steps < g.bear_limit or bear_at == PARK
            or g.bear_route[bear_at] != g.board.route_of[here]):
        return False
    events.append(LazyEvent("bear_catch", partial(
        _bear_catch_words, g, state.turn, truck, here, steps, bear_at)))
    return True


def catch_kind(state: TenFourState, index: int) -> tuple[CatchKind, str] | None:
    """Would a truck ending its move on loop index `index` be caught, and by whom?"""
    board = state.g.board
    n = state.g.size
    police = state.police
    for smokey in SMOKEYS:
        at = board.index.get(police.get(smokey, PARK))
        if at is not None and (index - at) % n in (0, 1, n - 1):
            return ("smokey_catch", smokey)
    for trap_id in board.traps_at[index]:
        for smokey in SMOKEYS:
            if police.get(smokey) == trap_id:
                return ("trap_catch", smokey)
    return None


def check_truck(state: TenFourState, truck: int, events: list[Event],
                index: int | None = None) -> None:
    """After a truck move: is the moved truck caught where it ended (loop index
    `index`, which the mover knows; else worked out)?"""
    if state.side[truck] and state.g.options["sidelined_immune"]:
        return
    found = catch_kind(state, state.location(truck) if index is None else index)
    if found is not None:
        caught(state, truck, found[0], found[1], events)


def caught_by_smokey_at(state: TenFourState, to: str, into_trap: bool) -> list[int]:
    """Trucks a Smokey ending at `to` catches: adjacency on the highway (T5); in a
    trap only if the option says trucks already there are caught (T6)."""
    g = state.g
    board = g.board
    n = g.size
    immune = g.options["sidelined_immune"]
    found: list[int] = []
    at = board.index.get(to)
    if at is None and not (into_trap and g.options["trap_catches_on_entry"]):
        return found
    trap_spaces = g.trap_spaces[to] if at is None else frozenset()
    pos, side, start = state.pos, state.side, g.truck_start
    for t in range(len(pos)):
        if pos[t] >= n or (side[t] and immune):  # home, or sidelined and immune
            continue
        where = (start[t] + pos[t]) % n  # `state.location(t)`
        if (at is not None and (where - at) % n in (0, 1, n - 1)) or where in trap_spaces:
            found.append(t)
    return found


def catch_by_smokey(state: TenFourState, smokey: str, events: list[Event]) -> None:
    """The Smokey that just moved catches every truck next to where it stopped."""
    to = state.police[smokey]
    kind: CatchKind = "smokey_catch" if to in state.g.board.index else "trap_catch"
    for t in caught_by_smokey_at(state, to, to in state.g.trap_ids):
        caught(state, t, kind, smokey, events)


def caught(state: TenFourState, truck: int, kind: CatchKind, smokey: str,
           events: list[Event]) -> None:
    """T7: to the side of the road, and the owner loses the next turn."""
    g = state.g
    owner = g.truck_owner[truck]
    space = g.board.loop[state.location(truck)]
    state.side[truck] = True
    state.lose[owner] = True
    events.append(LazyEvent(kind, partial(_caught_words, g, owner, truck, smokey, space)))


# -- words ---------------------------------------------------------------------------------

def smokey_name(piece: str) -> str:
    if piece == BEAR:
        return "Bear"
    return f"Smokey {piece[-1]}" if piece.startswith("smokey") else piece


def _caught_words(g: TenFourGame, owner: int, truck: int, smokey: str,
                  space: str) -> tuple[str, dict[str, JSON]]:
    return (f"{g.trucks[truck].capitalize()} truck at {space} caught by "
            f"{smokey_name(smokey)}: to the side of the road, loses next turn",
            {"seat": owner, "truck": g.trucks[truck], "smokey": smokey, "space": space})


def _bear_catch_words(g: TenFourGame, seat: int, truck: int, here: int, steps: int,
                      bear_at: str) -> tuple[str, dict[str, JSON]]:
    return (f"{g.truck_names[truck]} at {g.board.loop[here]} caught speeding ({steps}) on "
            f"the {g.board.route_of[here].capitalize()} route: no move",
            {"seat": seat, "truck": g.trucks[truck], "steps": steps, "bear": bear_at})
