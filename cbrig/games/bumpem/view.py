"""Bump 'Em on the rig: press (or tap a ticket card) for a ticket, choose a move.

Cars of one colour look alike on the table, so every screen names a car by where it
stands ("Red car at T35", engine/bumpem/names.py) and every move says where it ends.
"""

from __future__ import annotations

from typing import ClassVar

from cbrig.game import (
    DETAIL,
    RESULT,
    Action,
    ChanceInput,
    CorrectionPlace,
    Event,
    EventNotices,
    Fix,
    Notice,
    Part,
    replace,
)
from engine.bumpem import TICKET_IDS, Correct, CorrectTurn, DrawTicket
from engine.bumpem.game import BumpemGame
from engine.bumpem.names import car_at, position_name
from engine.bumpem.state import BumpemState
from engine.bumpem.tickets import ticket_label

TRACK_SECTION = 10
"""Track spaces per section of the correction menu (the other knob jumps by section)."""


class BumpEmView(EventNotices[BumpemGame, BumpemState]):
    ALERT_SOUND: ClassVar[str] = "catch"
    ALERTS: ClassVar[dict[str, str]] = {
        "bump": "BUMPED!",
        "oil_slide": "OIL SLICK!",
        "turbo_zoom": "TURBO ZOOM!",
        "winner": "CHECKERED FLAG",
    }
    RESULTS = frozenset({"move", "lost_ticket"})
    DETAILS = frozenset({"finish"})
    NEWS = frozenset({"reshuffle", "correction"})

    def title(self, state: BumpemState) -> str:
        prompt = state.prompt()
        if prompt.kind == "over":
            return "GAME OVER"
        return self.seat_title(prompt.player)

    def seat_title(self, seat: int) -> str:
        return f"BUMP 'EM  {self.game.seat_name(seat).upper()}"

    def prompt_parts(self, state: BumpemState) -> list[Part]:
        prompt = state.prompt()
        who = self.game.seat_name(prompt.player) if prompt.player >= 0 else ""
        if prompt.kind == "ticket":
            return [Part(prompt.text, "instruction")]
        if prompt.kind == "move":
            label = ticket_label(str(prompt.ticket))
            then = " Choose a move" if label.endswith("!") else ": choose a move"
            return [Part(f"{who} drew {label}{then}", "instruction", f"{who}: use {label}")]
        return [Part(prompt.text, "instruction")]

    def notices(self, state: BumpemState, events: list[Event]) -> list[Notice]:
        """A forced move says so once ("Only move: ..."), after the ticket that forced
        it; a ticket with a choice is shown on the move prompt instead."""
        forced = any(e.kind in {"forced_move", "lost_ticket"} for e in events)
        out: list[Notice] = []
        for event in events:
            if event.kind == "ticket":
                if forced:
                    out.append(Notice(event.text, role=DETAIL))
            elif event.kind == "forced_move":
                out.append(Notice(event.text, role=RESULT))
            elif event.kind == "move" and forced:
                continue
            else:
                notice = self.notice(event)
                if notice is not None:
                    out.append(notice)
        return out

    def notice(self, event: Event) -> Notice | None:
        """Alerts keep their full wording, with a short one for a full screen."""
        notice = super().notice(event)
        if notice is None or not notice.alert or "piece" not in event.data:
            return notice
        colour = str(event.data["piece"]).partition(":")[0].capitalize()
        to = position_name(str(event.data["to"]))
        src = position_name(str(event.data["from"]))
        short = {"bump": f"{colour} car at {src}: pit", "oil_slide": f"Slides to {to}",
                 "turbo_zoom": f"{colour} car zooms to {to}"}.get(event.kind, "")
        return replace(notice, short=short)

    def chance_input(self, state: BumpemState) -> ChanceInput:
        return ChanceInput("ticket", noun="ticket")

    def action_for_card(self, state: BumpemState, card_id: str) -> Action | None:
        if card_id not in TICKET_IDS or not state.is_chance_node():
            return None
        return DrawTicket(ticket=card_id)

    def card_for_action(self, action: Action) -> str:
        assert isinstance(action, DrawTicket)
        return action.ticket

    def forced_spin(self, state: BumpemState, value: int) -> Action | None:
        return None

    def outcome_text(self, state: BumpemState, action: Action) -> str:
        return ticket_label(action.ticket) if isinstance(action, DrawTicket) else action.key()

    def status_lines(self, state: BumpemState) -> list[str]:
        return [car_at(colour, place) for colour, places in state.car_places().items()
                for place in places]

    def card_ids(self) -> list[str]:
        return list(TICKET_IDS)

    def correction(self, piece: str, location: str) -> Action:
        return Correct(piece=piece, location=location)

    # -- corrections (RULINGS G5) ------------------------------------------------------

    def correction_pieces(self, state: BumpemState) -> list[tuple[str, str]]:
        rules = self.game.rules
        pieces = []
        for car in range(rules.players * rules.cars):
            piece = rules.piece_id(car)
            pieces.append((piece, car_at(piece.partition(":")[0],
                                         self.current_place(state, piece))))
        return pieces

    def current_place(self, state: BumpemState, piece: str) -> str:
        colour, _, number = piece.partition(":")
        return state.car_places()[colour][int(number) - 1]

    def turn_fixes(self, state: BumpemState) -> list[Fix]:
        """Whose turn it is, before a ticket is drawn."""
        prompt = state.prompt()
        if prompt.kind != "ticket":
            return []
        names = [self.game.seat_name(seat) for seat in range(self.game.num_players)]
        others = tuple((f"It is {name}'s turn", CorrectTurn(seat))
                       for seat, name in enumerate(names) if seat != prompt.player)
        return [Fix(f"Whose turn: {names[prompt.player]}", options=others)]

    def correction_places(self, state: BumpemState, piece: str) -> list[CorrectionPlace]:
        options = state.correction_options()[piece]
        return [CorrectionPlace(o, position_name(o), _section(o)) for o in options]


def _section(position_id: str) -> str:
    """Pit, a block of TRACK_SECTION track spaces, the home stretch, finish."""
    if position_id.startswith("T"):
        low = (int(position_id[1:]) - 1) // TRACK_SECTION * TRACK_SECTION + 1
        return f"T{low}-T{low + TRACK_SECTION - 1}"
    return position_id.split(":")[0]
