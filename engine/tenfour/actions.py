"""Inputs of a 10-Four game: chance outcomes, player choices and corrections.

Compared fields are what a person or the chance source chose (the journal keeps only
those); `compare=False` fields are previews the rig shows before a choice is made.
"""

from __future__ import annotations

from typing import ClassVar

from engine.api import Action
from valueclass import field


class Spin(Action):
    """A spinner outcome: a start-order spin (Hi-Band) or a turn's spin."""

    KIND: ClassVar[str] = "spin"
    value: int


class Draw(Action):
    """A Mike card drawn from the draw pile, named by its deck id."""

    KIND: ClassVar[str] = "draw"
    card: str


class PlaceSmokey(Action):
    """Two players: before play, put your Smokey into a Bear Trap."""

    KIND: ClassVar[str] = "place_smokey"
    trap: str
    smokey: str = field(compare=False, default="")


class DeclareTruck(Action):
    """Two players: with a truck on a Hammer Up curve, name the truck BEFORE drawing."""

    KIND: ClassVar[str] = "declare_truck"
    truck: str
    hammer: bool = field(compare=False, default=False)
    """Preview: choosing this truck means no card and the Lo-Band."""


class ChooseTruck(Action):
    """Two players: after the spin, move one of your trucks."""

    KIND: ClassVar[str] = "choose_truck"
    truck: str
    steps: int = field(compare=False, default=0)
    to: str = field(compare=False, default="")
    """Preview: the space it ends on, or "home"."""
    caught: bool = field(compare=False, default=False)


class Release(Action):
    """Take a police piece out of Yellowstone Park: a Smokey into a trap, the Bear onto
    a Bear space."""

    KIND: ClassVar[str] = "release"
    piece: str
    to: str


class MoveSmokey(Action):
    """Move a Smokey exactly the full distance, or up to it and into a Bear Trap."""

    KIND: ClassVar[str] = "smokey_move"
    smokey: str
    to: str
    steps: int = field(compare=False, default=0)
    via: str = field(compare=False, default="")
    """Preview: the short cut taken, if any."""
    into_trap: bool = field(compare=False, default=False)
    catches: tuple[str, ...] = field(compare=False, default=())
    """Preview: trucks this move would catch."""


class MoveBear(Action):
    """Move the Bear In The Air to another Bear space."""

    KIND: ClassVar[str] = "bear_move"
    to: str
    watches: str = field(compare=False, default="")


class Correct(Action):
    """Set a piece where the table says it is (RULINGS G1); never in legal_actions()."""

    KIND: ClassVar[str] = "correct"
    piece: str
    location: str


class CorrectTurn(Action):
    """RULINGS G5: it is `seat`'s turn; that turn starts afresh (before its card)."""

    KIND: ClassVar[str] = "correct_turn"
    seat: int


class CorrectLostTurn(Action):
    """RULINGS G5: whether `seat` loses its next turn (caught, T7)."""

    KIND: ClassVar[str] = "correct_lost_turn"
    seat: int
    lost: bool


class CorrectHammer(Action):
    """RULINGS G5: whether this turn is a Hammer Up turn for `truck` (T9: no card,
    the Lo-Band)."""

    KIND: ClassVar[str] = "correct_hammer"
    truck: str
    hammer: bool


CORRECTIONS: tuple[type[Action], ...] = (Correct, CorrectTurn, CorrectLostTurn, CorrectHammer)
"""Inputs accepted at any node, by anyone, and never in legal_actions()."""

ACTION_CLASSES: tuple[type[Action], ...] = (
    Spin, Draw, PlaceSmokey, DeclareTruck, ChooseTruck, Release, MoveSmokey, MoveBear,
    *CORRECTIONS,
)
