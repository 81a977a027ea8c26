"""Ladders on the rig's screen: spin the HI knob, then choose ride or step."""

from __future__ import annotations

from typing import ClassVar

from cbrig.game import Action, ChanceInput, CorrectionPlace, EventNotices, Fix, Part
from mygame.game import Correct, LaddersGame, LaddersState, Spin


class LaddersView(EventNotices[LaddersGame, LaddersState]):
    ALERTS: ClassVar[dict[str, str]] = {"winner": "TOP SQUARE", "chute": "CHUTE!"}
    RESULTS = frozenset({"move", "ladder"})
    NEWS = frozenset({"correction"})

    def title(self, state: LaddersState) -> str:
        prompt = state.prompt()
        return "GAME OVER" if prompt.kind == "over" else self.seat_title(prompt.player)

    def seat_title(self, seat: int) -> str:
        return f"LADDERS  {self.game.seat_name(seat).upper()}"

    def prompt_parts(self, state: LaddersState) -> list[Part]:
        return [Part(state.prompt().text, "instruction")]

    def chance_input(self, state: LaddersState) -> ChanceInput:
        return ChanceInput("spin", knob="hi")

    def action_for_card(self, state: LaddersState, card_id: str) -> Action | None:
        return None

    def card_for_action(self, action: Action) -> str:
        return action.key()

    def forced_spin(self, state: LaddersState, value: int) -> Action | None:
        wanted = Spin(value)
        return wanted if any(a == wanted for a, _ in state.chance_outcomes()) else None

    def outcome_text(self, state: LaddersState, action: Action) -> str:
        return str(action.value) if isinstance(action, Spin) else action.key()

    def status_lines(self, state: LaddersState) -> list[str]:
        return [f"{self.game.seat_name(i)} on {p}" for i, p in enumerate(state.positions)]

    def card_ids(self) -> list[str]:
        return []

    def correction(self, piece: str, location: str) -> Action:
        return Correct(piece=piece, location=location)

    def correction_pieces(self, state: LaddersState) -> list[tuple[str, str]]:
        return [(seat, f"{seat.capitalize()} on {state.positions[i]}")
                for i, seat in enumerate(state.game.seats)]

    def correction_places(self, state: LaddersState, piece: str) -> list[CorrectionPlace]:
        return [CorrectionPlace(place, f"square {place}", f"{int(place) // 10 * 10}s")
                for place in state.correction_options()[piece]]

    def current_place(self, state: LaddersState, piece: str) -> str:
        return str(state.positions[state.game.seats.index(piece)])

    def turn_fixes(self, state: LaddersState) -> list[Fix]:
        return []
