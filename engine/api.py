"""The state API every game implements (modelled on OpenSpiel's State).

A state is mutated in place by `apply`; an illegal action raises `IllegalAction` and
leaves it untouched. Chance nodes (spins, draws) list their outcomes with exact
probabilities and are applied like any decision, so a journal of actions replays a game.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, ClassVar, NoReturn, Protocol, TypeAlias, TypeVar

from engine.errors import IllegalAction, Reason
from valueclass import Frozen, FrozenInstanceError, compared_fields

CHANCE = -1
TERMINAL = -4

JSON: TypeAlias = dict[str, "JSON"] | list["JSON"] | str | int | float | bool | None
"""A value made of dict, list, str, int, float, bool and None: what ``json.loads``
gives. Data read from outside (a journal, a saved state, a file) is narrowed where it
is read, with the ``json_*`` readers below, so a malformed value is refused there."""

_SCALARS = (str, int, float, bool, type(None))


def json_object(value: JSON) -> dict[str, JSON]:
    """`value` as a JSON object; TypeError if it is not one."""
    if isinstance(value, dict):
        return value
    raise TypeError(f"expected an object, not {value!r}")


def json_list(value: JSON) -> list[JSON]:
    """`value` as a JSON array; TypeError if it is not one."""
    if isinstance(value, list):
        return value
    raise TypeError(f"expected a list, not {value!r}")


def json_str(value: JSON) -> str:
    """`value` as a string; TypeError if it is not one."""
    if isinstance(value, str):
        return value
    raise TypeError(f"expected a string, not {value!r}")


def json_int(value: JSON) -> int:
    """``int(value)`` for a number or a numeric string, as saved states have always been
    read (ValueError for a string that is no number); TypeError for the rest."""
    if isinstance(value, int | float | str):
        return int(value)
    raise TypeError(f"expected a number, not {value!r}")


def _to_jsonable(value: object) -> JSON:
    if isinstance(value, tuple | list):
        return [_to_jsonable(v) for v in value]
    if isinstance(value, _SCALARS):
        return value
    raise TypeError(f"an action field holds {value!r}, which is not JSON")


def _from_jsonable(value: JSON) -> object:
    if isinstance(value, list):
        return tuple(_from_jsonable(v) for v in value)
    return value


class Action(Frozen):
    """Base of every action. Fields with compare=False are previews, not input.

    The JSON form holds only the compared fields: what a person or the chance source
    chose, never what it caused, so the journal stores inputs and replays effects.
    """

    KIND: ClassVar[str] = "action"

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"kind": self.KIND}
        for name in compared_fields(self):
            out[name] = _to_jsonable(getattr(self, name))
        return out

    def key(self) -> str:
        """Canonical text of the input: the sort key of `legal_actions`.

        Memoised for every game at once: legal actions are sorted by it on every step,
        and a game's action space is small and repeats, so `json.dumps` runs once per
        distinct action. Actions are frozen and equal inputs have equal keys.
        """
        try:
            return _KEYS[self]
        except KeyError:
            pass
        except TypeError:  # an unhashable field value: nothing to cache it by
            return _canonical(self)
        if len(_KEYS) >= _KEYS_MAX:
            _KEYS.clear()
        text = _KEYS[self] = _canonical(self)
        return text


_KEYS: dict[Action, str] = {}
_KEYS_MAX = 1 << 16
"""Bound on the memo: corrections and journals could name unusual inputs."""


def _canonical(action: Action) -> str:
    return json.dumps(action.to_json(), sort_keys=True, separators=(",", ":"))


A = TypeVar("A", bound=Action)


class ActionCodec:
    """Turns journal JSON back into a game's actions, refusing anything malformed."""

    def __init__(self, classes: Iterable[type[Action]]) -> None:
        self._by_kind: dict[str, type[Action]] = {}
        for cls in classes:
            if cls.KIND in self._by_kind:
                raise ValueError(f"two action classes share the kind {cls.KIND!r}")
            self._by_kind[cls.KIND] = cls

    def from_json(self, data: JSON) -> Action:
        if not isinstance(data, Mapping):
            raise IllegalAction(Reason.MALFORMED, f"an action is an object, not {data!r}")
        kind = data.get("kind")
        cls = self._by_kind.get(kind) if isinstance(kind, str) else None
        if cls is None:
            raise IllegalAction(Reason.MALFORMED, f"unknown action kind {kind!r}")
        wanted = set(compared_fields(cls))
        given = set(data) - {"kind"}
        if given != wanted:
            missing = sorted(wanted - given)
            extra = sorted(given - wanted)
            raise IllegalAction(
                Reason.MALFORMED, f"{kind}: missing fields {missing}, unknown fields {extra}"
            )
        try:
            return cls(**{name: _from_jsonable(data[name]) for name in wanted})
        except (TypeError, ValueError) as exc:
            raise IllegalAction(Reason.MALFORMED, f"{kind}: {exc}") from exc


class Event:
    """Something the table must be told about; derived from an apply, never stored.

    `kind` is a stable identifier (counted by the simulator, mapped to screens by the
    rig); `text` is the plain instruction or news; `data` carries the particulars.
    `kind` is a `str` here because each game has its own set; the game names it as a
    `Literal` (`engine.<game>.kinds.EventKind`) for its tables and tests.
    Events compare by these three, whatever their class (see `LazyEvent`), and are
    frozen like a `valueclass.Frozen`; not one (every apply makes events: they fill
    their instance dict directly, and `LazyEvent` works its words out when read).
    """

    if TYPE_CHECKING:  # read-only to the type checker; plain instance values at run time
        @property
        def kind(self) -> str: ...

        @property
        def text(self) -> str: ...

        @property
        def data(self) -> Mapping[str, JSON]: ...

    def __init__(self, kind: str, text: str, data: Mapping[str, JSON] | None = None) -> None:
        fields_ = self.__dict__
        fields_["kind"] = kind
        fields_["text"] = text
        fields_["data"] = {} if data is None else data

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return (self.kind, self.text, self.data) == (other.kind, other.text, other.data)

    __hash__ = None  # type: ignore[assignment]  # data is a dict: never hashable

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(kind={self.kind!r}, text={self.text!r}, "
                f"data={self.data!r})")

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        raise FrozenInstanceError(f"cannot delete field {name!r}")


class LazyEvent(Event):
    """An `Event` whose text and data are worked out when first read, then kept.

    A random playout (flat Monte Carlo, search rollouts, the simulator) applies
    thousands of actions and reads only event kinds; the words "Red car at T35: 5 to
    T40" cost more than the move itself. `make` must depend only on values fixed when
    the event is created (it is called later, after the state moved on), so the words
    read are exactly the ones an eager event would have had.
    """

    _make: Callable[[], tuple[str, Mapping[str, JSON]]]
    _made: tuple[str, Mapping[str, JSON]] | None

    def __init__(self, kind: str,
                 make: Callable[[], tuple[str, Mapping[str, JSON]]]) -> None:
        fields_ = self.__dict__
        fields_["kind"] = kind
        fields_["_make"] = make
        fields_["_made"] = None

    def _words(self) -> tuple[str, Mapping[str, JSON]]:
        made = self._made
        if made is None:
            made = self.__dict__["_made"] = self._make()
        return made

    @property
    def text(self) -> str:
        return self._words()[0]

    @property
    def data(self) -> Mapping[str, JSON]:
        return self._words()[1]

    def __repr__(self) -> str:
        return f"Event(kind={self.kind!r}, text={self.text!r}, data={self.data!r})"


class Prompt(Protocol):
    """What a state is waiting for, as every game states it.

    Each game returns a frozen dataclass of its own with these fields and the
    particulars its view needs (the band to spin, the ticket drawn...).
    """

    @property
    def kind(self) -> str:
        """A stable identifier ("draw", "spin", "move", "over"...) mapped to screens.
        Each game's prompt narrows it to its own `Literal` (`engine.<game>.kinds`), so
        mypy checks comparisons made on that game's prompt; a game outside the repo
        brings kinds of its own, hence `str` here."""
        ...

    @property
    def player(self) -> int:
        """The seat who acts at the table (also at chance nodes: who spins or draws),
        or TERMINAL once the game is over."""
        ...

    @property
    def text(self) -> str:
        """The plain instruction for the table."""
        ...


class State(Protocol):
    """What the rig, the simulator and the tests need from any game state."""

    def current_player(self) -> int:
        """A seat index, CHANCE or TERMINAL."""
        ...

    def is_terminal(self) -> bool: ...

    def is_chance_node(self) -> bool: ...

    def legal_actions(self) -> Sequence[Action]:
        """Decision actions sorted by `Action.key`; empty at chance and terminal nodes."""
        ...

    def chance_outcomes(self) -> Sequence[tuple[Action, Fraction]]:
        """Outcomes sorted by `Action.key`, exact probabilities summing to 1."""
        ...

    def apply(self, action: Action, player: int | None = None) -> list[Event]:
        """Play `action` (as `player`, if the input names one) and report what happened."""
        ...

    def clone(self) -> State: ...

    def to_json(self) -> dict[str, JSON]: ...

    def winners(self) -> list[int]:
        """Seats that won; empty until the game is over."""
        ...

    def prompt(self) -> Prompt:
        """What the table is asked for now (the rig maps its kind to a screen)."""
        ...

    def describe(self, action: Action) -> str:
        """`action` in plain words a person can carry out on the board (~40 characters)."""
        ...

    def correction_options(self) -> dict[str, list[str]]:
        """Piece id -> every location a `Correct` action may set it to (RULINGS G1)."""
        ...


class Game(Protocol):
    """A configured game: rules plus its data (board, deck...) and seats."""

    name: str
    variant: str
    num_players: int

    def new_initial_state(self) -> State: ...

    def state_from_json(self, data: JSON) -> State: ...

    def action_from_json(self, data: JSON) -> Action: ...

    def identity(self) -> dict[str, JSON]:
        """Everything a journal header needs to rebuild this game exactly."""
        ...

    def seat_name(self, seat: int) -> str:
        """How the table calls a seat ("Red")."""
        ...


def check_legal(state: State, action: Action, player: int | None) -> None:
    """Raise the right `IllegalAction` unless `action` may be applied now.

    Shared by every game so that rejections read the same at every table.
    """
    if state.is_terminal():
        raise IllegalAction(Reason.GAME_OVER, "the game is over")
    if state.is_chance_node():
        if player is not None:
            raise IllegalAction(Reason.NOT_YOUR_TURN, "waiting for a chance outcome")
        if not any(action == outcome for outcome, _ in state.chance_outcomes()):
            raise IllegalAction(Reason.IMPOSSIBLE_OUTCOME, f"{action.key()} cannot happen here")
        return
    if player is not None and player != state.current_player():
        to_play = state.current_player()
        detail = f"seat {player} acted but seat {to_play} is to play"
        raise IllegalAction(Reason.NOT_YOUR_TURN, detail)
    if action not in state.legal_actions():
        raise IllegalAction(Reason.NOT_LEGAL_NOW, f"{action.key()} is not a legal move here")


class Probability(Fraction):
    """An exact probability (a `Fraction`) whose numerator and denominator are plain
    slots: `Fraction` serves them through Python properties, and samplers read both for
    every outcome of every chance node (`engine.selfplay.sample_chance`). Equal to,
    hashed and printed like the `Fraction` of the same value; arithmetic gives Fractions.
    """

    __slots__ = ("denominator", "numerator")  # shadow Fraction's properties
    numerator: int
    denominator: int

    def __new__(cls, numerator: int, denominator: int = 1) -> Probability:
        value = Fraction(numerator, denominator)
        self = super().__new__(cls, value.numerator, value.denominator)
        self.numerator = value.numerator
        self.denominator = value.denominator
        return self

    def __float__(self) -> float:
        return self.numerator / self.denominator

    def __repr__(self) -> str:
        return f"Fraction({self.numerator}, {self.denominator})"


def uniform(outcomes: Sequence[A]) -> list[tuple[A, Fraction]]:
    """Group equal outcomes and give each its exact share (a band may repeat a value)."""
    counts: dict[A, int] = {}
    for outcome in outcomes:
        counts[outcome] = counts.get(outcome, 0) + 1
    total = len(outcomes)
    ordered = sorted(counts, key=lambda a: a.key())
    return [(a, Probability(counts[a], total)) for a in ordered]


def game_identity(
    name: str,
    variant: str,
    seats: Sequence[str],
    options: Mapping[str, JSON],
    data: Mapping[str, tuple[str, str]],
) -> dict[str, JSON]:
    """The journal header's description of a game: enough to rebuild it exactly.

    `data` maps a role ("board", "deck"...) to (text, source); the text is hashed so a
    replay refuses a board file that was edited after the game began.
    """
    import hashlib

    return {
        "game": name,
        "variant": variant,
        "players": len(seats),
        "seats": list(seats),
        "options": dict(options),
        "data": {
            role: {"source": source, "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest()}
            for role, (text, source) in sorted(data.items())
        },
    }
