"""The Bump 'Em track for one game: the board, the seats and the options compiled into
lookup tables, the positions' names, where a car gets to, and how it lands.

Positions are integers, one per car (see `engine.bumpem.rules`): PIT (-1), a track
space 0..N-1, a step of the car's own home stretch N..N+K-1, its finish area N+K.
`engine.bumpem.rules.Rules` finds the moves on it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

from engine.api import JSON
from engine.bumpem.board import SLIDE_LENGTH, Board
from engine.errors import IllegalAction, Reason

if TYPE_CHECKING:
    from engine.bumpem.kinds import EffectKind

PIT = -1
NO_OIL = -1
ABSENT_COLOUR = -2
"""Oil slick of a colour nobody plays: it slides every car."""


class Effect(NamedTuple):
    """One thing that happened to one car during a move."""

    kind: EffectKind
    car: int
    """Flat car index."""
    src: int
    dst: int


class Track:
    """A board, the seats in play and the options, compiled into lookup tables: how
    positions are named, where a car gets to, and how it lands (B4, B6, B7)."""

    def __init__(self, board: Board, seats: Sequence[str], options: Mapping[str, JSON]) -> None:
        self.board = board
        self.seats = tuple(seats)
        self.players = len(seats)
        self.n = board.track_length
        self.k = board.home_length
        self.cars = board.cars_per_player
        self.finish = self.n + self.k
        self.start = [board.start[c] for c in seats]
        self.entrance = [board.entrance[c] for c in seats]
        self.oil = [NO_OIL] * self.n
        for space, colour in board.oil.items():
            self.oil[space] = self.seats.index(colour) if colour in self.seats else ABSENT_COLOUR
        self.turbo = [False] * self.n
        if options["turbo"]:
            for space in board.turbo:
                self.turbo[space] = True
        self.bump_ticket_lands = bool(options["bump_ticket_lands"])
        self.backward_from_home = bool(options["backward_from_home_stretch"])
        self.zoom = [[self._zoom_target(s, q) if self.turbo[q] else PIT for q in range(self.n)]
                     for s in range(self.players)]
        self.max_chain = self.players * self.cars * (len(board.turbo) + 1) + 1
        self._ids = [[self._name_position(s, p) for p in range(PIT, self.finish + 1)]
                     for s in range(self.players)]
        self._pieces = [f"{self.seats[car // self.cars]}:{car % self.cars + 1}"
                        for car in range(self.players * self.cars)]

    # ----- naming -------------------------------------------------------------------

    def piece_id(self, car: int) -> str:
        return self._pieces[car]

    def position_id(self, seat: int, p: int) -> str:
        """Position id of position `p` for a car of `seat` (home and finish are per colour);
        looked up in a table made once (previews name several positions per move)."""
        if PIT <= p <= self.finish:
            return self._ids[seat][p + 1]
        return self._name_position(seat, p)

    def _name_position(self, seat: int, p: int) -> str:
        colour = self.seats[seat]
        if p == PIT:
            return f"pit:{colour}"
        if p < self.n:
            return f"T{p + 1}"
        if p < self.finish:
            return f"home:{colour}:{p - self.n + 1}"
        return f"finish:{colour}"

    def parse_position(self, seat: int, text: str) -> int | None:
        """Inverse of `position_id` for a car of `seat`; None if it is not one of its places."""
        colour = self.seats[seat]
        if text == f"pit:{colour}":
            return PIT
        if text == f"finish:{colour}":
            return self.finish
        if text.startswith("T") and text[1:].isdigit():
            space = int(text[1:]) - 1
            return space if 0 <= space < self.n and text == f"T{space + 1}" else None
        prefix = f"home:{colour}:"
        if text.startswith(prefix) and text[len(prefix):].isdigit():
            step = int(text[len(prefix):])
            ok = 1 <= step <= self.k and text == f"{prefix}{step}"
            return self.n + step - 1 if ok else None
        return None

    # ----- geometry -----------------------------------------------------------------

    def _zoom_target(self, seat: int, q: int) -> int:
        """Where a car of `seat` zooms from turbo space q: the next turbo, or finish if its
        own home entrance comes first."""
        entrance = self.entrance[seat]
        cur = q
        for _ in range(self.n):
            if cur == entrance:
                return self.finish
            cur = (cur + 1) % self.n
            if self.turbo[cur]:
                return cur
        return self.finish

    def forward_dest(self, seat: int, p: int, steps: int) -> int | None:
        """Position after `steps` forward, taking the home stretch; None if impossible."""
        n = self.n
        if p == PIT or p >= self.finish:
            return None
        if p < n:
            to_entrance = (self.entrance[seat] - p) % n
            if steps <= to_entrance:
                return (p + steps) % n
            dest = n + steps - to_entrance - 1
        else:
            dest = p + steps
        return dest if dest <= self.finish else None

    def backward_dest(self, seat: int, p: int, steps: int) -> int | None:
        """Position after `steps` backward; out of the home stretch onto the track (B3)."""
        n = self.n
        if p == PIT or p >= self.finish:
            return None
        if p < n:
            return (p - steps) % n
        if not self.backward_from_home:
            return None
        step = p - n + 1
        if steps < step:
            return p - steps
        return (self.entrance[seat] - (steps - step)) % n

    # ----- resolution ---------------------------------------------------------------

    def land(self, pos: list[int], car: int, dest: int, effects: list[Effect],
             slides: bool = True) -> bool:
        """Put `car` on `dest` with the landing rules (B4, B6, B7); False if illegal.

        Works on `pos` in place, so callers pass a copy they can throw away.
        """
        n = self.n
        seat = car // self.cars
        src = pos[car]
        if dest >= n:
            if dest < self.finish:
                base = seat * self.cars
                if dest in pos[base:base + self.cars]:
                    return False
            pos[car] = dest
            if 0 <= src < n:
                effects.append(Effect("home", car, src, dest))
            if dest == self.finish:
                effects.append(Effect("finish", car, src, dest))
            return True
        if dest in pos:
            occupant = pos.index(dest)
            if self.turbo[dest]:
                pos[car] = dest
                self._zoom_chain(pos, occupant, dest, effects)
                return True
            if occupant // self.cars == seat:
                return False
            pos[occupant] = PIT
            effects.append(Effect("bump", occupant, dest, PIT))
        pos[car] = dest
        oil = self.oil[dest]
        if slides and oil != NO_OIL and oil != seat:
            end = (dest + SLIDE_LENGTH) % n
            effects.append(Effect("slide", car, dest, end))
            for step in range(1, SLIDE_LENGTH + 1):
                space = (dest + step) % n
                if space in pos:
                    victim = pos.index(space)
                    pos[victim] = PIT
                    effects.append(Effect("bump", victim, space, PIT))
            pos[car] = end
        return True

    def _zoom_chain(self, pos: list[int], car: int, q: int, effects: list[Effect]) -> None:
        """`car` sits on turbo space q where another car just landed: it zooms, and so on.

        Each zoom moves a car strictly closer to its own home entrance, so the chain ends;
        `max_chain` only guards against a broken board table.
        """
        for _ in range(self.max_chain):
            target = self.zoom[car // self.cars][q]
            following = -1
            if target < self.n:
                for other, p in enumerate(pos):
                    if p == target and other != car:
                        following = other
                        break
            pos[car] = target
            effects.append(Effect("zoom", car, q, target))
            if target == self.finish:
                effects.append(Effect("finish", car, q, target))
            if following < 0:
                return
            car, q = following, target
        raise RuntimeError("a turbo chain did not end: the board's zoom table is broken")

    def _may_land(self, pos: Sequence[int], car: int, dest: int) -> bool:
        """Whether `land(list(pos), car, dest, ...)` would succeed, without doing it."""
        if dest >= self.n:
            if dest < self.finish:
                base = car // self.cars * self.cars
                return dest not in pos[base:base + self.cars]
            return True
        if dest in pos:
            if self.turbo[dest]:
                return True
            return pos.index(dest) // self.cars != car // self.cars
        return True

    # ----- results ------------------------------------------------------------------

    def complete(self, pos: Sequence[int], seat: int) -> bool:
        """Every car of `seat` is in its finish area (B8)."""
        base = seat * self.cars
        return pos[base:base + self.cars].count(self.finish) == self.cars

    # ----- every car's place, as the table sees it -----------------------------------

    def car_places(self, pos: Sequence[int]) -> dict[str, list[str]]:
        """Where each colour's cars stand (position ids), car by car."""
        return {colour: [self.position_id(s, p)
                         for p in pos[s * self.cars:(s + 1) * self.cars]]
                for s, colour in enumerate(self.seats)}

    def positions_from_json(self, cars: JSON) -> list[int]:
        """The positions of a stored state's ``cars`` (colour -> position ids, as
        `car_places` gives them); ValueError names the first thing that does not fit."""
        if not isinstance(cars, Mapping) or set(cars) != set(self.seats):
            raise ValueError(f"cars must list the seats {list(self.seats)}")
        pos: list[int] = []
        for seat, colour in enumerate(self.seats):
            places = cars[colour]
            if not isinstance(places, list) or len(places) != self.cars:
                raise ValueError(f"cars.{colour} must list {self.cars} positions")
            for place in places:
                p = self.parse_position(seat, place) if isinstance(place, str) else None
                if p is None:
                    raise ValueError(f"cars.{colour}: unknown position {place!r}")
                pos.append(p)
        on_track = [p for p in pos if 0 <= p < self.n]
        if len(on_track) != len(set(on_track)):
            raise ValueError("two cars share a track space")
        for seat, colour in enumerate(self.seats):
            home = [p for p in pos[seat * self.cars:(seat + 1) * self.cars]
                    if self.n <= p < self.finish]
            if len(home) != len(set(home)):
                raise ValueError(f"two {colour} cars share a home-stretch space")
        return pos

    # ----- corrections (RULINGS G1) ---------------------------------------------------

    def correction_places(self, pos: Sequence[int]) -> dict[str, list[str]]:
        """Piece id -> every position it may be set to: its pit, finish, any free track
        space or free step of its own home stretch, and where it is now."""
        options: dict[str, list[str]] = {}
        for car, p in enumerate(pos):
            seat = car // self.cars
            base = seat * self.cars
            own = pos[base:base + self.cars]
            places = [PIT]
            places += [q for q in range(self.n) if q == p or q not in pos]
            places += [q for q in range(self.n, self.finish) if q == p or q not in own]
            places.append(self.finish)
            options[self.piece_id(car)] = [self.position_id(seat, q) for q in places]
        return options

    def correction(self, pos: Sequence[int], piece: str, location: str) -> tuple[int, int]:
        """The car and the position a correction sets it to; IllegalAction if the piece
        is none of the game's or cannot stand there."""
        options = self.correction_places(pos)
        if piece not in options:
            raise IllegalAction(Reason.NOT_LEGAL_NOW, f"there is no piece {piece!r}")
        if location not in options[piece]:
            raise IllegalAction(Reason.NOT_LEGAL_NOW, f"{piece} cannot be set to {location!r}")
        car = list(options).index(piece)
        place = self.parse_position(car // self.cars, location)
        assert place is not None
        return car, place
