"""Hand-built Bump 'Em positions and scripted tickets for the scenario tests.

The default board (engine/bumpem/data/bumpem_board.toml) is used unless a test says otherwise:
60 track spaces; starts red T5, blue T20, yellow T35, green T50; home entrances two
spaces before each start (T3, T18, T33, T48); home stretch 5; 4 cars per colour;
oil slicks red T10, blue T25, yellow T40, green T55; turbo spaces T13, T28, T43, T58.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.api import Event
from engine.bumpem import BumpemGame, BumpemState, DrawTicket, build
from rig.datafiles import read_data

BOARD = read_data("default:bumpem_board.toml", "engine.bumpem.data")
TICKETS = read_data("default:bumpem_tickets.toml", "engine.bumpem.data")


def make_game(players: int = 4, options: Mapping[str, Any] | None = None,
              board: str | None = None, tickets: str | None = None,
              seats: list[str] | None = None) -> BumpemGame:
    data = {
        "board": (board, "test:board.toml") if board is not None else BOARD,
        "tickets": (tickets, "test:tickets.toml") if tickets is not None else TICKETS,
    }
    return build(players=players, variant="standard", data=data, options=options, seats=seats)


def position(game: BumpemGame, cars: Mapping[str, list[str]], turn: int = 0,
             phase: str = "ticket", ticket: str | None = None) -> BumpemState:
    """A state with the given cars (missing cars wait in their pit row)."""
    cars_per = game.board.cars_per_player
    full = {}
    for colour in game.seats:
        given = list(cars.get(colour, []))
        full[colour] = given + [f"pit:{colour}"] * (cars_per - len(given))
    deck = None
    if game.tickets.is_deck:
        from engine.bumpem import TICKET_IDS
        deck = dict(zip(TICKET_IDS, game.tickets.counts, strict=True))
    return game.state_from_json({"turn": turn, "phase": phase, "ticket": ticket,
                                 "extra": False, "winner": None, "cars": full, "deck": deck})


def draw(state: BumpemState, ticket: str) -> list[Event]:
    return state.apply(DrawTicket(ticket))


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def cars(state: BumpemState, colour: str) -> list[str]:
    result: list[str] = state.to_json()["cars"][colour]
    return result


def keys(state: BumpemState) -> list[str]:
    return [a.key() for a in state.legal_actions()]
