"""What the rig asks of a game's view (`GameView`) and the records a view answers in.

The shared type of the game records: `rig.gametype` names it, and `rig.screens.views`
(which finds a game's view in the registry) builds on it; this module imports neither,
so the game records and the registry stand on it without a circle.
"""

from __future__ import annotations

from typing import Literal, Protocol, TypeVar

from engine.api import Action, Event
from rig.screens.screen import Part
from valueclass import Frozen

RESULT = "result"
DETAIL = "detail"
NEWS = "news"
ALERT = "alert"


class ChanceInput(Frozen):
    """How the table resolves a chance node.

    kind: "spin" (a knob flick on `knob`), "card" (tap a card, or press for a virtual
    deck), "ticket" (press, or tap an enrolled ticket card).
    """

    kind: Literal["spin", "card", "ticket"]
    knob: str = "hi"
    noun: str = "card"
    """What a draw is called on the screen ("Mike card", "ticket"): the rig's words."""


class Notice(Frozen):
    text: str
    alert: bool = False
    headline: str = ""
    big: str = ""
    """A short instruction worth the big font, e.g. "MOVE 9"."""
    role: str = NEWS
    short: str = ""
    """A shorter wording for a full screen."""
    sound: str = "alert"
    """The buzzer pattern an alert sets off (hardware.buzzer.PATTERNS)."""


class CorrectionPlace(Frozen):
    """One place in a correction menu: its location id, its words, and the section
    (route or area) the other knob jumps by."""

    location: str
    words: str
    section: str


class Fix(Frozen):
    """A row of the correction menu: a piece (opens its places), a set of options
    (opens them), a correction applied at once, or taking back the last input. An
    option is an action, or what the menu asks of the controller (`rig.core.corrections`:
    ABANDON); a row with a ``question`` is a confirmation, its cursor starting on Back."""

    words: str
    piece: str = ""
    action: Action | None = None
    options: tuple[tuple[str, Action | str], ...] = ()
    take_back: bool = False
    question: str = ""


S = TypeVar("S", contravariant=True)
"""The state class a view reads: its game's own (``GameView[TenFourState]``)."""


class GameView(Protocol[S]):
    """What the rig asks of a game's view. A game's view is a ``GameView`` of its own
    state class, so it reads its particulars (its prompt's kind, where a piece stands)
    typed; the rig holds a ``GameView[State]``, which :class:`StateChecked` makes of it."""

    def title(self, state: S) -> str: ...

    def seat_title(self, seat: int) -> str: ...

    def prompt_parts(self, state: S) -> list[Part]: ...

    def prompt_lines(self, state: S) -> list[str]: ...

    def chance_input(self, state: S) -> ChanceInput: ...

    def action_for_card(self, state: S, card_id: str) -> Action | None: ...

    def card_for_action(self, action: Action) -> str: ...

    def forced_spin(self, state: S, value: int) -> Action | None: ...

    def outcome_text(self, state: S, action: Action) -> str: ...

    def notices(self, state: S, events: list[Event]) -> list[Notice]: ...

    def menu_order(self, state: S, actions: list[Action]) -> list[Action]: ...

    def status_lines(self, state: S) -> list[str]: ...

    def card_ids(self) -> list[str]: ...

    def correction(self, piece: str, location: str) -> Action: ...

    def correction_pieces(self, state: S) -> list[tuple[str, str]]: ...

    def correction_places(self, state: S, piece: str) -> list[CorrectionPlace]: ...

    def current_place(self, state: S, piece: str) -> str: ...

    def turn_fixes(self, state: S) -> list[Fix]: ...
