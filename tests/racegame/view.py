"""Race to 20 on the rig: spin the HI knob, then choose ride or steady."""

from __future__ import annotations

from typing import ClassVar

from cbrig.game import Action, ChanceInput, CorrectionPlace, EventNotices, Fix, Part
from tests.racegame.game import Correct, Prompt, RaceGame, RaceState, Spin


def _prompt(state: RaceState) -> Prompt:
    return state.prompt()


class RaceView(EventNotices[RaceGame, RaceState]):
    ALERTS: ClassVar[dict[str, str]] = {"winner": "FINISH LINE"}
    RESULTS = frozenset({"move", "steady"})
    NEWS = frozenset({"correction"})

    def title(self, state: RaceState) -> str:
        prompt = _prompt(state)
        return "GAME OVER" if prompt.kind == "over" else self.seat_title(prompt.player)

    def seat_title(self, seat: int) -> str:
        return f"RACE  {self.game.seat_name(seat).upper()}"

    def prompt_parts(self, state: RaceState) -> list[Part]:
        return [Part(_prompt(state).text, "instruction")]

    def chance_input(self, state: RaceState) -> ChanceInput:
        return ChanceInput("spin", knob="hi")

    def action_for_card(self, state: RaceState, card_id: str) -> Action | None:
        return None

    def card_for_action(self, action: Action) -> str:
        return action.key()

    def forced_spin(self, state: RaceState, value: int) -> Action | None:
        wanted = Spin(value)
        return wanted if any(a == wanted for a, _ in state.chance_outcomes()) else None

    def outcome_text(self, state: RaceState, action: Action) -> str:
        return str(action.value) if isinstance(action, Spin) else action.key()

    def status_lines(self, state: RaceState) -> list[str]:
        return [f"{self.game.seat_name(i)} at {p}" for i, p in enumerate(state.positions)]

    def card_ids(self) -> list[str]:
        return []

    def correction(self, piece: str, location: str) -> Action:
        return Correct(piece=piece, location=location)

    def correction_pieces(self, state: RaceState) -> list[tuple[str, str]]:
        return [(seat, f"{seat.capitalize()} at {state.positions[i]}")
                for i, seat in enumerate(state.game.seats)]

    def correction_places(self, state: RaceState, piece: str) -> list[CorrectionPlace]:
        return [CorrectionPlace(place, f"space {place}", f"{int(place) // 10 * 10}s")
                for place in state.correction_options()[piece]]

    def current_place(self, state: RaceState, piece: str) -> str:
        return str(state.positions[state.game.seats.index(piece)])

    def turn_fixes(self, state: RaceState) -> list[Fix]:
        return []
