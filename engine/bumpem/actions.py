"""Bump 'Em actions: a ticket draw (chance), the moves a ticket allows, and corrections.

Cars are numbered 1..cars_per_player within a colour; another player's car is named by
its piece id ("blue:2"). Input fields compare and are journaled; the preview fields
(where the car ends, who is bumped, who zooms, whether it slides) are compare=False so a
display can show a move's consequences before it is chosen (as "apologies" does).
"""

from __future__ import annotations

from typing import ClassVar, TypeVar

from engine.api import Action
from valueclass import compared_fields, field, field_types

_TYPES: dict[str, type] = {"int": int, "str": str}


class _Checked(Action):
    """Checks every input field against its annotation (int or str), so a malformed
    journal line fails where it is read rather than deep in the rules."""

    def __post_init__(self) -> None:
        for name, kind in _checks(type(self)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, kind):
                raise TypeError(f"{name} must be {kind.__name__}, got {value!r}")


_CHECKS: dict[type, tuple[tuple[str, type], ...]] = {}


def _checks(cls: type) -> tuple[tuple[str, type], ...]:
    """The input fields of `cls` with their types, worked out once per class (actions
    are built on every move generation)."""
    found = _CHECKS.get(cls)
    if found is None:
        types = field_types(cls)
        found = _CHECKS[cls] = tuple((name, _TYPES[types[name]])
                                     for name in compared_fields(cls) if types[name] in _TYPES)
    return found


A = TypeVar("A", bound=Action)


def built(cls: type[A], values: dict[str, object]) -> A:
    """An action the rules made themselves, with `values` giving every field: made
    without the shared `__init__` and its field checks, which the rules' own values
    pass by construction (move generation makes thousands of actions per game; input
    from outside still goes through the checked constructor)."""
    action = object.__new__(cls)
    action.__dict__.update(values)
    return action


class DrawTicket(_Checked):
    """Chance: the ticket the player drew ("1".."12" or "bump")."""

    KIND: ClassVar[str] = "draw_ticket"
    ticket: str


class _Move(_Checked):
    """Preview fields shared by every move: never journaled, never compared."""

    to: str = field(compare=False, kw_only=True, default="")
    """Position id where the moved car ends (after any slide)."""
    bumps: tuple[str, ...] = field(compare=False, kw_only=True, default=())
    """Piece ids sent to their pit row, in the order it happens."""
    zooms: tuple[str, ...] = field(compare=False, kw_only=True, default=())
    """Piece ids zoomed off turbo spaces, in chain order."""
    slide: bool = field(compare=False, kw_only=True, default=False)
    """The moved car lands on another colour's oil slick and slides."""


class Enter(_Move):
    """1 or 12: the lowest-numbered car in the pit row goes onto the start space."""

    KIND: ClassVar[str] = "enter"
    car: int


class Forward(_Move):
    """Move one car `steps` spaces forward."""

    KIND: ClassVar[str] = "forward"
    car: int
    steps: int


class Backward(_Move):
    """6, 9 or 11: move one car `steps` spaces backward (out of the home stretch too)."""

    KIND: ClassVar[str] = "backward"
    car: int
    steps: int


class Swap(_Move):
    """7: swap own `car` with another player's car `target`, both on the main track."""

    KIND: ClassVar[str] = "swap"
    car: int
    target: str


class Split(_Move):
    """8 split: `car` moves `steps` forward first, then `other` moves `other_steps`."""

    KIND: ClassVar[str] = "split"
    car: int
    steps: int
    other: int
    other_steps: int
    other_to: str = field(compare=False, kw_only=True, default="")
    """Position id where the second car ends."""


class BumpTicket(_Move):
    """Bump 'em!: the lowest-numbered pit car goes onto `target`'s space, bumping it."""

    KIND: ClassVar[str] = "bump_ticket"
    car: int
    target: str


class Correct(_Checked):
    """RULINGS G1: set a piece ("red:2") to a position id; accepted whatever the turn."""

    KIND: ClassVar[str] = "correct"
    piece: str
    location: str


class CorrectTurn(_Checked):
    """RULINGS G5: it is `seat`'s turn to take a ticket; accepted before a ticket is
    drawn."""

    KIND: ClassVar[str] = "correct_turn"
    seat: int


ACTION_CLASSES: tuple[type[Action], ...] = (DrawTicket, Enter, Forward, Backward, Swap, Split,
                                            BumpTicket, Correct, CorrectTurn)
MoveAction = Enter | Forward | Backward | Swap | Split | BumpTicket
