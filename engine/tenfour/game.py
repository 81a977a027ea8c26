"""A configured 10-Four game: board, bands, deck, options and seats, plus lookup tables.

Everything a move needs that does not change during play (Smokey destinations from
every location, spin outcomes, card order) is computed here once, so `apply` is cheap.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from engine.api import (
    JSON,
    Action,
    ActionCodec,
    Probability,
    game_identity,
    json_int,
    uniform,
)
from engine.tenfour.actions import (
    ACTION_CLASSES,
    ChooseTruck,
    DeclareTruck,
    Draw,
    MoveBear,
    Release,
    Spin,
)
from engine.tenfour.board import COLOURS, Board, load_board
from engine.tenfour.cards import Bands, Deck, load_bands, load_deck
from engine.tenfour.info import DATA_ROLES, NAME, OPTIONS, VARIANTS
from engine.tenfour.places import BEAR, SMOKEYS
from engine.tenfour.police import smokey_routes
from engine.tenfour.state import TenFourState


def _check_options(options: Mapping[str, object] | None) -> dict[str, JSON]:
    merged = dict(OPTIONS)
    for key, value in (options or {}).items():
        if key not in OPTIONS:
            raise ValueError(f"unknown option {key!r}; options are {', '.join(OPTIONS)}")
        default = OPTIONS[key]
        if isinstance(default, bool):
            if not isinstance(value, bool):
                raise ValueError(f"option {key} must be true or false, not {value!r}")
        elif not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ValueError(f"option {key} must be a whole number of 1 or more, not {value!r}")
        merged[key] = value
    return merged


def build(*, players: int, variant: str, data: Mapping[str, tuple[str, str]],
          options: Mapping[str, object] | None = None,
          seats: Sequence[str] | None = None) -> TenFourGame:
    """Build a configured game; DataError for bad files, ValueError for bad settings."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; variants are {', '.join(VARIANTS)}")
    if variant == "two-player" and players != 2:
        raise ValueError("the two-player variant is for exactly 2 players")
    if variant == "standard" and players not in (3, 4):
        raise ValueError("the standard game is for 3 or 4 players (use the two-player variant)")
    missing = [role for role in DATA_ROLES if role not in data]
    if missing:
        raise ValueError(f"missing data for {', '.join(missing)}")
    merged = _check_options(options)
    board = load_board(*data["board"])
    bands = load_bands(*data["bands"])
    deck = load_deck(*data["deck"], bands=bands)
    if variant == "two-player":
        default_seats: Sequence[str] = ("red", "blue")
    else:
        default_seats = [r.colour for r in board.routes][:players]
    chosen = list(seats) if seats is not None else list(default_seats)
    _check_seats(chosen, players, variant)
    return TenFourGame(variant, chosen, board, bands, deck, merged,
                       {role: data[role] for role in DATA_ROLES})


def _check_seats(seats: list[str], players: int, variant: str) -> None:
    if len(seats) != players or len(set(seats)) != players:
        raise ValueError(f"need {players} different seat colours, got {seats!r}")
    allowed = ("red", "blue") if variant == "two-player" else COLOURS
    for seat in seats:
        if seat not in allowed:
            raise ValueError(f"seat {seat!r} must be one of {', '.join(allowed)}")


def _key_ranks(actions: Sequence[Action]) -> tuple[int, ...]:
    """actions[i]'s place in `Action.key` order, for each i."""
    order = sorted(range(len(actions)), key=lambda i: actions[i].key())
    ranks = [0] * len(actions)
    for place, i in enumerate(order):
        ranks[i] = place
    return tuple(ranks)


class TenFourGame:
    """The rules' fixed inputs and every table precomputed from them."""

    name = NAME

    def __init__(self, variant: str, seats: list[str], board: Board, bands: Bands, deck: Deck,
                 options: dict[str, JSON], data: dict[str, tuple[str, str]]) -> None:
        self.variant = variant
        self.num_players = len(seats)
        self.seats = tuple(seats)
        self.board = board
        self.bands = bands
        self.deck = deck
        self.options = options
        self._data = data
        self.codec = ActionCodec(ACTION_CLASSES)
        self.two_player = variant == "two-player"
        self.bear_limit = json_int(options["bear_limit"])
        self.smokey_move = json_int(options["smokey_move"])
        self._tables()

    def _tables(self) -> None:
        board = self.board
        self.size = board.size
        if self.two_player:
            pairs = {"red": ("red", "green"), "blue": ("blue", "yellow")}
            self.trucks = tuple(t for seat in self.seats for t in pairs[seat])
            self.truck_owner = tuple(i for i, seat in enumerate(self.seats) for _ in pairs[seat])
            self.truck_start = tuple(board.start[seat] for seat in self.seats for _ in (0, 1))
            self.police: tuple[str, ...] = SMOKEYS
        else:
            self.trucks = self.seats
            self.truck_owner = tuple(range(self.num_players))
            self.truck_start = tuple(board.start[seat] for seat in self.seats)
            self.police = (*SMOKEYS, BEAR)
        self.seat_trucks = tuple(
            tuple(t for t, owner in enumerate(self.truck_owner) if owner == seat)
            for seat in range(self.num_players))
        self.truck_index = {colour: i for i, colour in enumerate(self.trucks)}
        self.names = tuple(seat.capitalize() for seat in self.seats)
        self.truck_names = tuple(f"{colour.capitalize()} truck" for colour in self.trucks)
        self.trap_ids = frozenset(t.id for t in board.traps)
        self.cut_ids = frozenset(c.id for c in board.shortcuts)
        self.bear_route = {b.id: b.route for b in board.bears}
        self.cards = self.deck.cards
        self.card_index = {card.id: i for i, card in enumerate(self.cards)}
        self.draws = tuple(Draw(card.id) for card in self.cards)
        self.draw_order = tuple(sorted(range(len(self.cards)), key=lambda i: self.draws[i].key()))
        self.band_outcomes: dict[str, tuple[tuple[Spin, Fraction], ...]] = {
            name: tuple(uniform([Spin(v) for v in values]))
            for name, values in self.bands.segments.items()
        }
        self.band_values = {name: frozenset(v) for name, v in self.bands.segments.items()}
        self.smokey_routes = {loc: smokey_routes(board, loc, self.smokey_move)
                              for loc in (*board.loop, *self.trap_ids, *self.cut_ids)}
        self.shares = [[Probability(c, total) for c in range(total + 1)]
                       for total in range(1, self.deck.size + 1)]
        """shares[total - 1][count]: the probability count/total of a draw."""
        self.releases = {piece: tuple(Release(piece, place.id) for place in (
            board.bears if piece == BEAR else board.traps)) for piece in self.police}
        """The police choices out of the park, made once: the same objects at every
        BREAK ONE NINE (their sort keys are then found by identity)."""
        self.bear_moves = {here: tuple(MoveBear(b.id, b.route) for b in board.bears
                                       if b.id != here) for here in self.bear_route}
        """The Bear's moves from each Bear space, made once."""
        self.choose_rank = _key_ranks([ChooseTruck(truck) for truck in self.trucks])
        """Each truck's place among the ChooseTruck choices in `Action.key` order (their
        key is the truck alone: the legal list is sorted once here, not at every turn)."""
        self.declare_rank = _key_ranks([DeclareTruck(truck) for truck in self.trucks])
        """The same for DeclareTruck."""
        self.trap_spaces = {trap.id: frozenset(board.index[s] for s in trap.spaces)
                            for trap in board.traps}
        """Each trap's three highway spaces as loop indices."""

    # -- the contract's Game surface ----------------------------------------------------

    def new_initial_state(self) -> TenFourState:
        return TenFourState.initial(self)

    def state_from_json(self, data: JSON) -> TenFourState:
        return TenFourState.from_json(self, data)

    def action_from_json(self, data: JSON) -> Action:
        return self.codec.from_json(data)

    def identity(self) -> dict[str, JSON]:
        return game_identity(NAME, self.variant, self.seats, self.options, self._data)

    def seat_name(self, seat: int) -> str:
        return self.names[seat]

    # -- helpers the state uses -----------------------------------------------------------

    def fraction(self, count: int, total: int) -> Fraction:
        """count/total as an exact probability (memoised: draws ask for it constantly)."""
        return self.shares[total - 1][count]
