"""Move generation and resolution for Bump 'Em, on a flat tuple of car positions.

Every car has one integer position (`pos[seat * cars + car]`), so a whole game state is
a short tuple that is cheap to copy when previewing a move:

  PIT (-1)        the car's pit row
  0 .. N-1        a track space (shared by every colour)
  N .. N+K-1      step 1..K of the car's OWN home stretch (relative to its colour)
  N+K             the car's finish area

A move is resolved on a copy of the positions and returns the new positions with a list
of effects (bumps, slides, zooms, home-stretch entries, finishes). Legal moves are
exactly the moves whose resolution succeeds, and their effects become both the preview
fields of the action and the events of `apply`: one code path, so the preview is what
happens.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from engine.api import JSON
from engine.bumpem.actions import (
    Backward,
    BumpTicket,
    Enter,
    Forward,
    MoveAction,
    Split,
    Swap,
    built,
)
from engine.bumpem.board import Board
from engine.bumpem.track import ABSENT_COLOUR, NO_OIL, PIT, Effect, Track

__all__ = ["ABSENT_COLOUR", "BACKWARD_TICKETS", "ENTER_TICKETS", "FORWARD_TICKETS", "NO_OIL", "PIT",
           "SPLIT_TOTAL", "Choice", "Effect", "Outcome", "Rules"]

FORWARD_TICKETS: dict[str, int] = {str(n): n for n in range(1, 13)}
BACKWARD_TICKETS: dict[str, int] = {"6": 9, "9": 6, "11": 1}
ENTER_TICKETS = frozenset({"1", "12"})
SPLIT_TOTAL = 8


class Outcome(NamedTuple):
    """A legal move with its resolved result."""

    action: MoveAction
    positions: tuple[int, ...]
    effects: tuple[Effect, ...]


_PLANS: dict[str, tuple[bool, int, int, str]] = {
    ticket: (ticket in ENTER_TICKETS, FORWARD_TICKETS.get(ticket, 0),
             BACKWARD_TICKETS.get(ticket, 0), ticket if ticket in ("7", "8", "bump") else "")
    for ticket in (*FORWARD_TICKETS, "bump")}
"""Ticket -> (enters a car, steps forward, steps back (0: none), its own kind of move):
what `legal_moves` tries, in the order the moves are generated."""
_NO_PLAN = (False, 0, 0, "")

_KEYS_MAX = 1 << 14
"""Bound on each rules' memo of action keys (a game's moves are few and repeat)."""


_Found = list[tuple[tuple[object, ...], Outcome]]
"""Moves found so far, each with its inputs (class, input fields...) for sorting."""


ENTER, STEP, SWAP, BUMP, SPLIT = range(5)
Choice = tuple[int, int, int, int]
"""A legal move not yet resolved (`Rules.move_choices`): (ENTER, car, 0, 0), (STEP,
car, destination, 0), (SWAP, car, other car, 0), (BUMP, car, other car, 0) or (SPLIT,
first car, second car, first part); cars are flat indices."""


def _first(pair: tuple[str, object]) -> str:
    return pair[0]


class Rules(Track):
    """The moves of a ticket (B2-B5): each move found, resolved on a copy of the
    positions with `Track.land` (so its preview is what happens) and keyed for sorting."""

    def __init__(self, board: Board, seats: Sequence[str], options: Mapping[str, JSON]) -> None:
        super().__init__(board, seats, options)
        self._keys: dict[tuple[object, ...], str] = {}

    # ----- legal moves --------------------------------------------------------------

    def legal_moves(self, pos: tuple[int, ...], seat: int, ticket: str) -> list[Outcome]:
        """Every legal move for `seat` holding `ticket`, with previews, sorted by key."""
        out: _Found = []
        enter, steps, back, special = _PLANS.get(ticket, _NO_PLAN)
        if enter:
            self._enter(pos, seat, out)
        if steps or back:
            base = seat * self.cars
            finish = self.finish
            own = [c for c in range(base, base + self.cars) if 0 <= pos[c] < finish]
            for car in own:
                if steps:
                    self._step(pos, car, steps, True, out)
            for car in own:
                if back:
                    self._step(pos, car, back, False, out)
        if special == "7":
            self._swaps(pos, seat, out)
        elif special == "8":
            self._splits(pos, seat, out)
        elif special == "bump":
            self._bump_ticket(pos, seat, out)
        if len(out) < 2:
            return [o for _, o in out]
        memo = self._keys
        ordered = [(memo.get(inputs) or self._key(inputs, o.action), o) for inputs, o in out]
        ordered.sort(key=_first)
        return [o for _, o in ordered]

    def _key(self, inputs: tuple[object, ...], action: MoveAction) -> str:
        """`action.key()`, remembered by `inputs` (class, input fields...): a plain
        tuple is cheaper to hash than the action."""
        key = self._keys.get(inputs)
        if key is None:
            if len(self._keys) >= _KEYS_MAX:
                self._keys.clear()
            key = self._keys[inputs] = action.key()
        return key

    def _outcome(self, inputs: tuple[object, ...], values: dict[str, object],
                 new: list[int], effects: Sequence[Effect]
                 ) -> tuple[tuple[object, ...], Outcome]:
        """A generated move with its inputs (class, input fields...) for sorting; the
        action is made without re-checking fields the rules set (`built`)."""
        action: MoveAction = built(inputs[0], values)  # type: ignore[arg-type]
        return inputs, tuple.__new__(Outcome, (action, tuple(new), tuple(effects)))

    def _preview(self, mover: int, pos: list[int], effects: Sequence[Effect]) -> dict[str, object]:
        """The preview fields of a move (all of them, as `built` needs)."""
        seat = mover // self.cars
        if not effects:
            return {"to": self.position_id(seat, pos[mover]), "bumps": (), "zooms": (),
                    "slide": False}
        pieces = self._pieces
        bumps: list[str] = []
        zooms: list[str] = []
        slide = False
        for kind, car, _, _ in effects:
            if kind == "bump":
                bumps.append(pieces[car])
            elif kind == "zoom":
                zooms.append(pieces[car])
            elif kind == "slide":
                slide = True
        return {"to": self.position_id(seat, pos[mover]), "bumps": tuple(bumps),
                "zooms": tuple(zooms), "slide": slide}

    def _first_in_pit(self, pos: Sequence[int], seat: int) -> int:
        """Cars in a pit row are alike: only the lowest-numbered one is offered."""
        base = seat * self.cars
        for car in range(base, base + self.cars):
            if pos[car] == PIT:
                return car
        return -1

    def _enter(self, pos: tuple[int, ...], seat: int, out: _Found) -> None:
        car = self._first_in_pit(pos, seat)
        if car < 0:
            return
        new = list(pos)
        start = self.start[seat]
        effects = [Effect("entry", car, PIT, start)]
        if self.land(new, car, start, effects):
            values = self._preview(car, new, effects)
            number = values["car"] = car % self.cars + 1
            out.append(self._outcome((Enter, number), values, new, effects))

    def _step(self, pos: tuple[int, ...], car: int, steps: int, forward: bool,
              out: _Found) -> None:
        seat = car // self.cars
        if forward:
            dest = self.forward_dest(seat, pos[car], steps)
        else:
            dest = self.backward_dest(seat, pos[car], steps)
        if dest is None:
            return
        new = list(pos)
        effects: list[Effect] = []
        if not self.land(new, car, dest, effects):
            return
        number = car % self.cars + 1
        cls = Forward if forward else Backward
        if effects:
            values = self._preview(car, new, effects)
            values["car"] = number
            values["steps"] = steps
            out.append(self._outcome((cls, number, steps), values, new, effects))
            return
        # the common plain move, made in line: its preview is just where it ends
        values = {"to": self._ids[seat][new[car] + 1], "bumps": (), "zooms": (),
                  "slide": False, "car": number, "steps": steps}
        action = built(cls, values)
        out.append(((cls, number, steps), tuple.__new__(Outcome, (action, tuple(new), ()))))

    def _swaps(self, pos: tuple[int, ...], seat: int, out: _Found) -> None:
        """7: own car and another player's car, both on the main track; no landing."""
        n = self.n
        base = seat * self.cars
        for car in range(base, base + self.cars):
            mine = pos[car]
            if not 0 <= mine < n:
                continue
            for other, theirs in enumerate(pos):
                if other // self.cars == seat or not 0 <= theirs < n:
                    continue
                new = list(pos)
                new[car], new[other] = theirs, mine
                effects = (Effect("swap", car, mine, theirs), Effect("swap", other, theirs, mine))
                number, target = car % self.cars + 1, self._pieces[other]
                values: dict[str, object] = {
                    "car": number, "target": target, "to": self.position_id(seat, theirs),
                    "bumps": (), "zooms": (), "slide": False}
                out.append(self._outcome((Swap, number, target), values, new, effects))

    def _splits(self, pos: tuple[int, ...], seat: int, out: _Found) -> None:
        """8 split: two different cars, positive parts adding to 8 (`_split_results`)."""
        ids = self._ids[seat]
        cars = self.cars
        for (first, second, part), (new, effects) in self._split_results(pos, seat).items():
            values = self._preview(first, new, effects)
            number, other = first % cars + 1, second % cars + 1
            rest = SPLIT_TOTAL - part
            values["car"] = number
            values["steps"] = part
            values["other"] = other
            values["other_steps"] = rest
            values["other_to"] = ids[new[second] + 1]
            out.append(self._outcome((Split, number, part, other, rest), values, new, effects))

    def _split_results(self, pos: Sequence[int], seat: int
                       ) -> dict[tuple[int, int, int], tuple[list[int], list[Effect]]]:
        """(first car, second car, first part) -> positions and effects of every legal
        8 split: two different cars, positive parts adding to 8, first part moved first.

        Both orders are offered only when they end differently (a slide or zoom by the
        first car can change what the second may do); otherwise the lower car goes first.
        When the lower-first order had no effect at all and the higher car does not end
        where the lower one started, the other order is not worked out: each car then
        counts from, and lands beside, the same cars either way, so it ends the same.
        """
        base = seat * self.cars
        movable = [c for c in range(base, base + self.cars) if 0 <= pos[c] < self.finish]
        found: dict[tuple[int, int, int], tuple[list[int], list[Effect]]] = {}
        if len(movable) < 2:
            return found
        firsts = self._first_parts(pos, seat, movable)
        for first in movable:
            for second in movable:
                if first == second:
                    continue
                for part in range(1, SPLIT_TOTAL):
                    moved = firsts.get((first, part))
                    if moved is None:
                        continue
                    rest = SPLIT_TOTAL - part
                    twin = found.get((second, first, rest)) if first > second else None
                    if twin is not None and not twin[1] and twin[0][first] != pos[second]:
                        continue  # the other order was plain: this one ends the same
                    result = self._split_rest(seat, moved, second, rest)
                    if result is None:
                        continue
                    if twin is not None and twin[0] == result[0]:
                        continue
                    found[(first, second, part)] = result
        return found

    def _first_parts(self, pos: Sequence[int], seat: int, movable: list[int]
                     ) -> dict[tuple[int, int], tuple[list[int], list[Effect]]]:
        """(car, part) -> the positions and effects after that car moves `part` first:
        worked out once, whichever car moves second."""
        firsts: dict[tuple[int, int], tuple[list[int], list[Effect]]] = {}
        for first in movable:
            for part in range(1, SPLIT_TOTAL):
                dest = self.forward_dest(seat, pos[first], part)
                if dest is None:
                    continue
                new = list(pos)
                effects: list[Effect] = []
                if self.land(new, first, dest, effects):
                    firsts[(first, part)] = new, effects
        return firsts

    def _split_rest(self, seat: int, moved: tuple[list[int], list[Effect]], second: int,
                    rest: int) -> tuple[list[int], list[Effect]] | None:
        """The positions and effects after `second` moves `rest` from `moved` (the first
        part done), or None if that step is illegal."""
        dest = self.forward_dest(seat, moved[0][second], rest)
        if dest is None:
            return None
        new = list(moved[0])
        more: list[Effect] = []
        if not self.land(new, second, dest, more):  # a refused landing adds no effect
            return None
        return new, moved[1] + more

    def _bump_ticket(self, pos: tuple[int, ...], seat: int,
                     out: _Found) -> None:
        """Bump 'em!: a pit car onto any other player's car on the main track."""
        car = self._first_in_pit(pos, seat)
        if car < 0:
            return
        for other, theirs in enumerate(pos):
            if other // self.cars == seat or not 0 <= theirs < self.n:
                continue
            new = list(pos)
            new[other] = PIT
            effects = [Effect("bump", other, theirs, PIT)]
            self.land(new, car, theirs, effects, slides=self.bump_ticket_lands)
            values = self._preview(car, new, effects)
            number, target = car % self.cars + 1, self._pieces[other]
            values.update(car=number, target=target)
            out.append(self._outcome((BumpTicket, number, target), values, new, effects))

    # ----- moves without previews (random playouts) --------------------------------

    def move_choices(self, pos: Sequence[int], seat: int, ticket: str) -> list[Choice]:
        """The legal moves of `legal_moves`, in the same order, as bare `Choice`s: no
        action or preview is made, and a move is only checked to land, not resolved
        (a split is: whether it is offered depends on where its parts end). A random
        playout resolves just the move it picks (`resolve`)."""
        enter, steps, back, special = _PLANS.get(ticket, _NO_PLAN)
        cars = self.cars
        base = seat * cars
        if steps and not (enter or back or special) and cars < 10:
            # forward moves alone: their keys differ only in the car's one digit, so
            # they sort in car order, the order they are found in
            finish = self.finish
            plain: list[Choice] = []
            for car in range(base, base + cars):
                if 0 <= pos[car] < finish:
                    dest = self.forward_dest(seat, pos[car], steps)
                    if dest is not None and self._may_land(pos, car, dest):
                        plain.append((STEP, car, dest, 0))
            return plain
        found: list[tuple[str, Choice]] = []
        if enter:
            car = self._first_in_pit(pos, seat)
            if car >= 0 and self._may_land(pos, car, self.start[seat]):
                found.append((self._key_of((Enter, car - base + 1)), (ENTER, car, 0, 0)))
        if steps or back:
            finish = self.finish
            own = [c for c in range(base, base + cars) if 0 <= pos[c] < finish]
            if steps:
                for car in own:
                    dest = self.forward_dest(seat, pos[car], steps)
                    if dest is not None and self._may_land(pos, car, dest):
                        found.append((self._key_of((Forward, car - base + 1, steps)),
                                      (STEP, car, dest, 0)))
            if back:
                for car in own:
                    dest = self.backward_dest(seat, pos[car], back)
                    if dest is not None and self._may_land(pos, car, dest):
                        found.append((self._key_of((Backward, car - base + 1, back)),
                                      (STEP, car, dest, 0)))
        if special == "8":
            for first, second, part in self._split_results(pos, seat):
                inputs = (Split, first - base + 1, part, second - base + 1, SPLIT_TOTAL - part)
                found.append((self._key_of(inputs), (SPLIT, first, second, part)))
        elif special == "7" or special == "bump":
            n = self.n
            if special == "7":
                mine = [c for c in range(base, base + cars) if 0 <= pos[c] < n]
                kind, cls = SWAP, Swap
            else:
                first = self._first_in_pit(pos, seat)
                mine = [first] if first >= 0 else []
                kind, cls = BUMP, BumpTicket  # type: ignore[assignment]
            for car in mine:
                for other, theirs in enumerate(pos):
                    if other // cars == seat or not 0 <= theirs < n:
                        continue
                    found.append((self._key_of((cls, car - base + 1, self._pieces[other])),
                                  (kind, car, other, 0)))
        if len(found) > 1:
            found.sort(key=_first)
        return [choice for _, choice in found]

    def resolve(self, pos: Sequence[int], choice: Choice) -> tuple[list[int], list[Effect]]:
        """The positions and effects of one of `move_choices`, exactly as `legal_moves`
        resolves that move."""
        kind, car, arg, part = choice
        new = list(pos)
        effects: list[Effect] = []
        if kind == SPLIT:
            dest = self.forward_dest(car // self.cars, pos[car], part)
            assert dest is not None
            self.land(new, car, dest, effects)
            done = self._split_rest(car // self.cars, (new, effects), arg, SPLIT_TOTAL - part)
            assert done is not None
            return done
        if kind == STEP:
            self.land(new, car, arg, effects)
        elif kind == ENTER:
            start = self.start[car // self.cars]
            effects.append(Effect("entry", car, PIT, start))
            self.land(new, car, start, effects)
        elif kind == SWAP:
            mine, theirs = pos[car], pos[arg]
            new[car], new[arg] = theirs, mine
            effects += (Effect("swap", car, mine, theirs), Effect("swap", arg, theirs, mine))
        else:
            theirs = pos[arg]
            new[arg] = PIT
            effects.append(Effect("bump", arg, theirs, PIT))
            self.land(new, car, theirs, effects, slides=self.bump_ticket_lands)
        return new, effects

    def _key_of(self, inputs: tuple[object, ...]) -> str:
        """The sort key of the move with these inputs (class, input fields...)."""
        key = self._keys.get(inputs)
        if key is None:
            key = self._key(inputs, inputs[0](*inputs[1:]))  # type: ignore[operator]
        return key
