"""Bump 'Em on the rig: press (or tap a ticket card) for a ticket, choose a move."""

from __future__ import annotations

from typing import Any, ClassVar

from engine.api import Action, State
from engine.bumpem import TICKET_IDS, Correct, DrawTicket
from engine.bumpem.tickets import ticket_label
from rig.views import ChanceInput, EventNotices


class BumpEmView(EventNotices):
    ALERTS: ClassVar[dict[str, str]] = {
        "bump": "BUMPED!",
        "oil_slide": "OIL SLICK!",
        "turbo_zoom": "TURBO ZOOM!",
        "winner": "CHECKERED FLAG",
    }
    NEWS = frozenset({"ticket", "lost_ticket", "forced_move", "extra_ticket", "reshuffle",
                      "finish", "home_stretch_entry", "entry", "correction", "swap"})

    def title(self, state: State) -> str:
        prompt = state.prompt()  # type: ignore[attr-defined]
        if prompt.kind == "over":
            return "GAME OVER"
        return f"BUMP 'EM  {self.game.seat_name(prompt.player).upper()}"

    def prompt_lines(self, state: State) -> list[str]:
        prompt = state.prompt()  # type: ignore[attr-defined]
        if prompt.kind == "ticket":
            return [prompt.text, "Press for a ticket"]
        if prompt.kind == "move":
            return [prompt.text]
        return [prompt.text, "ADIOS, good buddies"]

    def chance_input(self, state: State) -> ChanceInput:
        return ChanceInput("ticket")

    def action_for_card(self, state: State, card_id: str) -> Action | None:
        if card_id not in TICKET_IDS or not state.is_chance_node():
            return None
        return DrawTicket(ticket=card_id)

    def card_for_action(self, action: Action) -> str:
        assert isinstance(action, DrawTicket)
        return action.ticket

    def forced_spin(self, state: State, value: int) -> Action | None:
        return None

    def outcome_text(self, state: State, action: Action) -> str:
        return ticket_label(action.ticket) if isinstance(action, DrawTicket) else action.key()

    def status_lines(self, state: State) -> list[str]:
        cars = state.to_json()["cars"]
        return [f"{colour}: {' '.join(places)}" for colour, places in cars.items()]

    def card_ids(self, game: Any) -> list[str]:
        return list(TICKET_IDS)

    def correction(self, piece: str, location: str) -> Action:
        return Correct(piece=piece, location=location)
