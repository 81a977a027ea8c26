"""How each game's prompts and events look on the rig: the game-specific half of the UI.

The controller is generic (menus, chance inputs, corrections, journaling); a view says,
for one game, what a prompt asks of the table, which hardware input resolves a chance
node, and what each event means for the screen:

- a *result* is what the last move did ("Red truck at R4: 9 ahead to R13"); it opens a
  screen of its own, titled with the mover, before the next prompt (RULINGS G4: the
  big number and the title always belong to the same player);
- a *detail* goes with that result (a car reaching its finish);
- an *alert* (a catch, a bump) fills the screen, inverted, with a headline;
- *news* is a line on the next prompt ("Blue loses this turn").
"""

from __future__ import annotations

from typing import ClassVar, Generic, TypeVar

from engine.api import Action, Event, Game, State
from rig.registry import UnknownGame, entry
from rig.screens.gameview import (
    ALERT,
    DETAIL,
    NEWS,
    RESULT,
    ChanceInput,
    CorrectionPlace,
    Fix,
    GameView,
    Notice,
)
from rig.screens.screen import Part

__all__ = ["ALERT", "DETAIL", "NEWS", "RESULT", "ChanceInput", "CorrectionPlace", "EventNotices",
           "Fix", "GameView", "Notice", "OwnState", "StateChecked", "own", "view_for"]

G = TypeVar("G", bound=Game)
T = TypeVar("T")
OwnState = TypeVar("OwnState", bound=State)


def own(value: Game | State, kind: type[T]) -> T:
    """`value` as the game's own class (its game or its state), whose particulars a view
    reads (the prompt's band, where a truck stands); another game's is a wiring error."""
    if not isinstance(value, kind):
        raise TypeError(f"a view for {kind.__name__} was given a {type(value).__name__}")
    return value


class EventNotices(Generic[G, OwnState]):
    """Events to notices by kind: ALERTS fill the screen (with a headline), RESULTS open
    the mover's result screen, DETAILS go with it, NEWS is a line on the next prompt.

    Each game view lists its kinds; anything else stays off the small screen. A game's
    view derives from it with its game and state classes
    (``EventNotices[TenFourGame, TenFourState]``) and reads both typed.
    """

    ALERTS: ClassVar[dict[str, str]] = {}
    ALERT_SOUND: ClassVar[str] = "alert"
    """The buzzer pattern of the game's alerts."""
    RESULTS: frozenset[str] = frozenset()
    DETAILS: frozenset[str] = frozenset()
    NEWS: frozenset[str] = frozenset()

    def __init__(self, game: G) -> None:
        self.game = game

    def notices(self, state: OwnState, events: list[Event]) -> list[Notice]:
        out = []
        for event in events:
            notice = self.notice(event)
            if notice is not None:
                out.append(notice)
        return out

    def notice(self, event: Event) -> Notice | None:
        if event.kind in self.ALERTS:
            return Notice(event.text, alert=True, headline=self.ALERTS[event.kind],
                          role=ALERT, sound=self.ALERT_SOUND)
        if event.kind in self.RESULTS:
            return Notice(event.text, role=RESULT)
        if event.kind in self.DETAILS:
            return Notice(event.text, role=DETAIL)
        if event.kind in self.NEWS:
            return Notice(event.text)
        return None

    def prompt_parts(self, state: OwnState) -> list[Part]:
        """What the prompt asks of the table, line by line (each view says it)."""
        raise NotImplementedError

    def prompt_lines(self, state: OwnState) -> list[str]:
        return [part.text for part in self.prompt_parts(state)]

    def menu_order(self, state: OwnState, actions: list[Action]) -> list[Action]:
        return actions

    # What a game without cards, forced spins or turn fixes needs say nothing more: the
    # defaults below (a game with them overrides each).
    def action_for_card(self, state: OwnState, card_id: str) -> Action | None:
        return None

    def card_for_action(self, action: Action) -> str:
        return ""

    def card_ids(self) -> list[str]:
        return []

    def forced_spin(self, state: OwnState, value: int) -> Action | None:
        return None

    def status_lines(self, state: OwnState) -> list[str]:
        return []

    def turn_fixes(self, state: OwnState) -> list[Fix]:
        return []


class StateChecked(Generic[OwnState]):
    """The one place the rig hands a state to a game's view: the controller holds any
    :class:`engine.api.State` (a session is built from the registry by name, so the type
    checker cannot tie it to the view's game), and the view reads its own state class.
    Each call checks that it is (another game's state is a wiring error) and passes it
    on typed."""

    def __init__(self, view: GameView[OwnState], kind: type[OwnState]) -> None:
        self.view = view
        self.kind = kind

    def own(self, state: State) -> OwnState:
        if not isinstance(state, self.kind):
            raise TypeError(f"a view of {self.kind.__name__} was given a "
                            f"{type(state).__name__}")
        return state

    def title(self, state: State) -> str:
        return self.view.title(self.own(state))

    def seat_title(self, seat: int) -> str:
        return self.view.seat_title(seat)

    def prompt_parts(self, state: State) -> list[Part]:
        return self.view.prompt_parts(self.own(state))

    def prompt_lines(self, state: State) -> list[str]:
        return self.view.prompt_lines(self.own(state))

    def chance_input(self, state: State) -> ChanceInput:
        return self.view.chance_input(self.own(state))

    def action_for_card(self, state: State, card_id: str) -> Action | None:
        return self.view.action_for_card(self.own(state), card_id)

    def card_for_action(self, action: Action) -> str:
        return self.view.card_for_action(action)

    def forced_spin(self, state: State, value: int) -> Action | None:
        return self.view.forced_spin(self.own(state), value)

    def outcome_text(self, state: State, action: Action) -> str:
        return self.view.outcome_text(self.own(state), action)

    def notices(self, state: State, events: list[Event]) -> list[Notice]:
        return self.view.notices(self.own(state), events)

    def menu_order(self, state: State, actions: list[Action]) -> list[Action]:
        return self.view.menu_order(self.own(state), actions)

    def status_lines(self, state: State) -> list[str]:
        return self.view.status_lines(self.own(state))

    def card_ids(self) -> list[str]:
        return self.view.card_ids()

    def correction(self, piece: str, location: str) -> Action:
        return self.view.correction(piece, location)

    def correction_pieces(self, state: State) -> list[tuple[str, str]]:
        return self.view.correction_pieces(self.own(state))

    def correction_places(self, state: State, piece: str) -> list[CorrectionPlace]:
        return self.view.correction_places(self.own(state), piece)

    def current_place(self, state: State, piece: str) -> str:
        return self.view.current_place(self.own(state), piece)

    def turn_fixes(self, state: State) -> list[Fix]:
        return self.view.turn_fixes(self.own(state))


def view_for(game: Game) -> GameView[State]:
    """The rig view of a built game, from its registry entry."""

    try:
        found = entry(game.name)
    except UnknownGame:
        raise ValueError(f"no rig view for the game {game.name!r}") from None
    return found.view(game)
