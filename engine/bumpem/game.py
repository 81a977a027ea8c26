"""A configured Bump 'Em game: board, tickets, options and seats, built by `build`.

The rule decisions the rulebook leaves open, and the options, are listed in RULES.md
beside this file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from engine.api import JSON, Action, ActionCodec, Probability, game_identity
from engine.bumpem.actions import ACTION_CLASSES, DrawTicket
from engine.bumpem.board import Board, load_board
from engine.bumpem.info import DATA_ROLES, NAME, OPTIONS, PLAYER_COUNTS, VARIANTS
from engine.bumpem.rules import Rules
from engine.bumpem.state import BumpemState
from engine.bumpem.tickets import TICKET_IDS, TicketSet, load_tickets
from engine.errors import DataError, Problem


class BumpemGame:
    """Rules compiled for one board, ticket set, option set and seating."""

    name = NAME

    def __init__(self, variant: str, board: Board, tickets: TicketSet,
                 options: Mapping[str, JSON], seats: Sequence[str],
                 data: Mapping[str, tuple[str, str]]) -> None:
        self.variant = variant
        self.board = board
        self.tickets = tickets
        self.options: dict[str, JSON] = dict(options)
        self.seats: tuple[str, ...] = tuple(seats)
        self.num_players = len(self.seats)
        self._names = tuple(colour.capitalize() for colour in self.seats)
        self.rules = Rules(board, self.seats, self.options)
        self._codec = ActionCodec(ACTION_CLASSES)
        self._identity = game_identity(NAME, variant, self.seats, self.options, data)
        total = sum(tickets.counts)
        drawn = [(DrawTicket(t), Probability(c, total))
                 for t, c in zip(TICKET_IDS, tickets.counts, strict=True) if c > 0]
        self.independent_outcomes: tuple[tuple[DrawTicket, Fraction], ...] = tuple(sorted(
            drawn, key=lambda ap: ap[0].key()))
        """The same tuple at every independent draw (`sample_chance` keeps its totals)."""

    def new_initial_state(self) -> BumpemState:
        return BumpemState(self)

    def state_from_json(self, data: JSON) -> BumpemState:
        return BumpemState.from_json(self, data)

    def action_from_json(self, data: JSON) -> Action:
        return self._codec.from_json(data)

    def identity(self) -> dict[str, JSON]:
        return dict(self._identity)

    def seat_name(self, seat: int) -> str:
        return self._names[seat]


def build(*, players: int, variant: str, data: Mapping[str, tuple[str, str]],
          options: Mapping[str, object] | None = None,
          seats: Sequence[str] | None = None) -> BumpemGame:
    """Build a game; DataError for bad data files, ValueError for bad settings."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown Bump 'Em variant {variant!r}; choose {', '.join(VARIANTS)}")
    if isinstance(players, bool) or players not in PLAYER_COUNTS:
        raise ValueError(f"Bump 'Em is for {PLAYER_COUNTS[0]} to {PLAYER_COUNTS[-1]} players, "
                         f"not {players!r}")
    for role in DATA_ROLES:
        if role not in data:
            raise ValueError(f"Bump 'Em needs a {role} data file")
    for role in data:
        if role not in DATA_ROLES:
            raise ValueError(f"Bump 'Em has no data role {role!r}; it has {sorted(DATA_ROLES)}")
    merged = _options(options)
    problems: list[Problem] = []
    board: Board | None = None
    tickets: TicketSet | None = None
    try:
        board = load_board(*data["board"])
    except DataError as exc:
        problems += exc.problems
    try:
        tickets = load_tickets(*data["tickets"])
    except DataError as exc:
        problems += exc.problems
    if problems or board is None or tickets is None:
        raise DataError(problems)
    chosen = _seats(board, players, seats)
    return BumpemGame(variant, board, tickets, merged, chosen, data)


def _options(options: Mapping[str, object] | None) -> dict[str, JSON]:
    merged = dict(OPTIONS)
    for key, value in (options or {}).items():
        if key not in OPTIONS:
            raise ValueError(f"unknown Bump 'Em option {key!r}; options are {sorted(OPTIONS)}")
        if not isinstance(value, type(OPTIONS[key])):
            raise ValueError(f"option {key!r} must be {type(OPTIONS[key]).__name__}, "
                             f"got {value!r}")
        merged[key] = value
    return merged


def _seats(board: Board, players: int, seats: Sequence[str] | None) -> tuple[str, ...]:
    if players > len(board.colours):
        raise ValueError(f"the board has only {len(board.colours)} colours for {players} players")
    if seats is None:
        return board.colours[:players]
    chosen = tuple(seats)
    if len(chosen) != players:
        raise ValueError(f"{players} players need {players} seats, got {list(chosen)}")
    for colour in chosen:
        if colour not in board.colours:
            raise ValueError(f"seat {colour!r} is not a colour of the board "
                             f"({', '.join(board.colours)})")
    if len(set(chosen)) != len(chosen):
        raise ValueError(f"seats repeat a colour: {list(chosen)}")
    return chosen
