"""How each game's prompts and events look on the rig: the game-specific half of the UI.

The controller is generic (menus, chance inputs, corrections, journaling); a view says,
for one game, what a prompt asks of the table, which hardware input resolves a chance
node, and which events are alerts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from engine.api import Action, Event, State


@dataclass(frozen=True)
class ChanceInput:
    """How the table resolves a chance node.

    kind: "spin" (a knob flick on `knob`), "card" (tap a card, or press for a virtual
    deck), "ticket" (press, or tap an enrolled ticket card).
    """

    kind: str
    knob: str = "hi"


@dataclass(frozen=True)
class Notice:
    text: str
    alert: bool = False
    headline: str = ""
    big: str = ""
    """A short instruction worth the big font, e.g. "MOVE 9"."""


class GameView(Protocol):
    def title(self, state: State) -> str: ...

    def prompt_lines(self, state: State) -> list[str]: ...

    def chance_input(self, state: State) -> ChanceInput: ...

    def action_for_card(self, state: State, card_id: str) -> Action | None: ...

    def card_for_action(self, action: Action) -> str: ...

    def forced_spin(self, state: State, value: int) -> Action | None: ...

    def outcome_text(self, state: State, action: Action) -> str: ...

    def notices(self, state: State, events: list[Event]) -> list[Notice]: ...

    def status_lines(self, state: State) -> list[str]: ...

    def card_ids(self, game: Any) -> list[str]: ...

    def correction(self, piece: str, location: str) -> Action: ...


class EventNotices:
    """Events to notices by kind: ALERTS fill the screen (with a headline), NEWS is a line.

    Each game view lists its kinds; anything else stays off the small screen.
    """

    ALERTS: ClassVar[dict[str, str]] = {}
    NEWS: frozenset[str] = frozenset()

    def __init__(self, game: Any) -> None:
        self.game = game

    def notices(self, state: State, events: list[Event]) -> list[Notice]:
        out = []
        for event in events:
            notice = self.notice(event)
            if notice is not None:
                out.append(notice)
        return out

    def notice(self, event: Event) -> Notice | None:
        if event.kind in self.ALERTS:
            return Notice(event.text, alert=True, headline=self.ALERTS[event.kind])
        if event.kind in self.NEWS:
            return Notice(event.text)
        return None


def view_for(game: Any) -> GameView:
    if game.name == "tenfour":
        from rig.view_tenfour import TenFourView

        return TenFourView(game)
    if game.name == "bumpem":
        from rig.view_bumpem import BumpEmView

        return BumpEmView(game)
    raise ValueError(f"no rig view for the game {game.name!r}")
