"""10-Four, Good Buddy on the rig: tap a Mike card, flick the band it names, move.

The plain instruction is always on screen; the CB slang of the rulebook's last page
only decorates it (RULINGS G3).
"""

from __future__ import annotations

from typing import Any, ClassVar

from engine.api import Action, Event, State
from engine.tenfour import Correct, Draw, Spin
from rig.views import ChanceInput, EventNotices, Notice

BAND_NAMES = {"hi": "Hi-Band", "lo": "Lo-Band"}
CRAWLING_AHEAD = 6
"""Spaces ahead of the leader within which both Smokeys make "many police" (slang only)."""


def bears_crawling(state: Any) -> str | None:
    """The leading truck's name when both Smokeys wait on the highway just ahead of it."""
    g = state.g
    racing = [t for t in range(len(g.trucks)) if not state.is_home(t)]
    if not racing:
        return None
    leader = max(racing, key=lambda t: state.pos[t])
    at = state.location(leader)
    index = {space: i for i, space in enumerate(g.board.loop)}
    smokeys = [state.police[p] for p in ("smokey1", "smokey2") if p in state.police]
    ahead = [(index[s] - at) % g.size for s in smokeys if s in index]
    if len(ahead) == 2 and all(0 < d <= CRAWLING_AHEAD for d in ahead):
        return str(g.truck_names[leader])
    return None


class TenFourView(EventNotices):
    ALERTS: ClassVar[dict[str, str]] = {
        "smokey_catch": "BEAR BITE!",
        "trap_catch": "BEAR TRAP! BEAR BITE!",
        "bear_catch": "BEAR IN THE AIR!",
        "reshuffle": "RESHUFFLE",
        "winner": "10-4, WINNER!",
    }
    NEWS = frozenset({"spin", "lost_turn", "hammer_up", "start_order", "start_tie",
                      "park_exit", "smokey_exact_move", "smokey_trap_move", "bear_move",
                      "back_on_road", "correction", "smokey_placed"})

    def title(self, state: State) -> str:
        prompt = state.prompt()  # type: ignore[attr-defined]
        if prompt.kind == "over":
            return "GAME OVER"
        if prompt.kind == "start_spin":
            return "10-4 START ORDER"
        return f"10-4  {self.game.seat_name(prompt.player).upper()}"

    def prompt_lines(self, state: State) -> list[str]:
        prompt = state.prompt()  # type: ignore[attr-defined]
        kind = prompt.kind
        who = self.game.seat_name(prompt.player) if prompt.player >= 0 else ""
        if kind == "start_spin":
            return [f"{who}: spin for start", "Flick the HI knob"]
        if kind == "draw":
            return [f"{who}: draw a card", "Tap it on the rig"]
        if kind == "spin":
            lines = ["HAMMER UP: no card"] if prompt.hammer else []
            lines.append(f"{who}: spin {BAND_NAMES.get(prompt.band, prompt.band)}")
            if prompt.extra:
                lines.append(f"then move spin +{prompt.extra}")
            if prompt.break_one_nine:
                lines.append("BREAK 1-9: police next")
            lines.append(f"Flick the {prompt.band.upper()} knob")
            return lines
        if kind == "over":
            return [prompt.text, "ADIOS, good buddies"]
        if kind in {"release", "police"}:
            return [f"BREAK ONE NINE, {who}", prompt.text]
        return [prompt.text]

    def chance_input(self, state: State) -> ChanceInput:
        prompt = state.prompt()  # type: ignore[attr-defined]
        if prompt.kind == "draw":
            return ChanceInput("card")
        return ChanceInput("spin", knob=prompt.band or "hi")

    def action_for_card(self, state: State, card_id: str) -> Action | None:
        if state.prompt().kind != "draw":  # type: ignore[attr-defined]
            return None
        return Draw(card=card_id)

    def card_for_action(self, action: Action) -> str:
        assert isinstance(action, Draw)
        return action.card

    def forced_spin(self, state: State, value: int) -> Action | None:
        wanted = Spin(value=value)
        return wanted if any(a == wanted for a, _ in state.chance_outcomes()) else None

    def outcome_text(self, state: State, action: Action) -> str:
        return str(action.value) if isinstance(action, Spin) else action.key()

    def notices(self, state: State, events: list[Event]) -> list[Notice]:
        out = super().notices(state, events)
        if any(e.kind in {"smokey_exact_move", "smokey_trap_move", "park_exit"} for e in events):
            leader = bears_crawling(state)
            if leader is not None:
                out.append(Notice(f"BEARS CRAWLING near {leader}"))
        return out

    def notice(self, event: Event) -> Notice | None:
        if event.kind == "truck_move":
            steps = event.data.get("steps")
            return Notice(event.text, big=f"MOVE {steps}" if steps else "")
        return super().notice(event)

    def status_lines(self, state: State) -> list[str]:
        g = self.game
        lines = [f"{name}: {state.truck_where(i)}"  # type: ignore[attr-defined]
                 for i, name in enumerate(g.truck_names)]
        police = state.to_json().get("police", {})
        lines += [f"{piece}: {where}" for piece, where in police.items()]
        return lines

    def card_ids(self, game: Any) -> list[str]:
        return [card.id for card in game.deck.cards]

    def correction(self, piece: str, location: str) -> Action:
        return Correct(piece=piece, location=location)
