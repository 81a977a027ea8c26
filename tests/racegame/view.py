"""Race to 20 on the rig: spin the HI knob, then choose ride or steady."""

from __future__ import annotations

from typing import Any, ClassVar

from engine.api import Action, Game, State
from rig.screen import Part
from rig.views import ChanceInput, CorrectionPlace, EventNotices, Fix, own
from tests.racegame.game import Correct, Prompt, RaceGame, RaceState, Spin


def _state(state: State) -> RaceState:
    return own(state, RaceState)


def _prompt(state: State) -> Prompt:
    return _state(state).prompt()


class RaceView(EventNotices[RaceGame]):
    ALERTS: ClassVar[dict[str, str]] = {"winner": "FINISH LINE"}
    RESULTS = frozenset({"move", "steady"})
    NEWS = frozenset({"correction"})

    def __init__(self, game: Game) -> None:
        super().__init__(own(game, RaceGame))

    def title(self, state: State) -> str:
        prompt = _prompt(state)
        return "GAME OVER" if prompt.kind == "over" else self.seat_title(prompt.player)

    def seat_title(self, seat: int) -> str:
        return f"RACE  {self.game.seat_name(seat).upper()}"

    def prompt_parts(self, state: State) -> list[Part]:
        return [Part(_prompt(state).text, "instruction")]

    def chance_input(self, state: State) -> ChanceInput:
        return ChanceInput("spin", knob="hi")

    def action_for_card(self, state: State, card_id: str) -> Action | None:
        return None

    def card_for_action(self, action: Action) -> str:
        return action.key()

    def forced_spin(self, state: State, value: int) -> Action | None:
        wanted = Spin(value)
        return wanted if any(a == wanted for a, _ in state.chance_outcomes()) else None

    def outcome_text(self, state: State, action: Action) -> str:
        return str(action.value) if isinstance(action, Spin) else action.key()

    def status_lines(self, state: State) -> list[str]:
        race = _state(state)
        return [f"{self.game.seat_name(i)} at {p}" for i, p in enumerate(race.positions)]

    def card_ids(self, game: Any) -> list[str]:
        return []

    def correction(self, piece: str, location: str) -> Action:
        return Correct(piece=piece, location=location)

    def correction_pieces(self, state: State) -> list[tuple[str, str]]:
        race = _state(state)
        return [(seat, f"{seat.capitalize()} at {race.positions[i]}")
                for i, seat in enumerate(race.game.seats)]

    def correction_places(self, state: State, piece: str) -> list[CorrectionPlace]:
        return [CorrectionPlace(place, f"space {place}", f"{int(place) // 10 * 10}s")
                for place in _state(state).correction_options()[piece]]

    def current_place(self, state: State, piece: str) -> str:
        race = _state(state)
        return str(race.positions[race.game.seats.index(piece)])

    def turn_fixes(self, state: State) -> list[Fix]:
        return []
