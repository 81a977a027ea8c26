"""10-Four, Good Buddy on the rig: tap a Mike card, flick the band it names, move.

The plain instruction is always on screen; the CB slang of the rulebook's last page
only decorates it (RULINGS G3). Places and pieces are named as the board shows them
(engine/tenfour/names.py).
"""

from __future__ import annotations

from typing import ClassVar

from cbrig.game import (
    ALERT,
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
)
from engine.tenfour import (
    BEAR,
    HOME,
    PARK,
    SIDE,
    Correct,
    CorrectHammer,
    CorrectLostTurn,
    CorrectTurn,
    Draw,
    Prompt,
    Spin,
    TenFourGame,
    TenFourState,
)
from engine.tenfour.names import board_rank, piece_at, piece_name, place_name

BAND_NAMES = {"hi": "Hi-Band", "lo": "Lo-Band"}
CRAWLING_AHEAD = 6
"""Spaces ahead of the leader within which both Smokeys make "many police" (slang only)."""


def bears_crawling(state: TenFourState) -> str | None:
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
        return g.truck_names[leader]
    return None


class TenFourView(EventNotices[TenFourGame, TenFourState]):
    ALERT_SOUND: ClassVar[str] = "catch"
    ALERTS: ClassVar[dict[str, str]] = {
        "smokey_catch": "BEAR BITE!",
        "trap_catch": "BEAR TRAP! BEAR BITE!",
        "bear_catch": "BEAR IN THE AIR!",
        "reshuffle": "RESHUFFLE",
        "winner": "10-4, WINNER!",
    }
    RESULTS = frozenset({"truck_move", "park_exit", "smokey_exact_move", "smokey_trap_move",
                         "bear_move", "smokey_placed"})
    NEWS = frozenset({"lost_turn", "start_order", "start_tie", "back_on_road", "correction"})

    def title(self, state: TenFourState) -> str:
        prompt = state.prompt()
        if prompt.kind == "over":
            return "GAME OVER"
        if prompt.kind == "start_spin":
            return "10-4 START ORDER"
        return self.seat_title(prompt.player)

    def seat_title(self, seat: int) -> str:
        return f"10-4  {self.game.seat_name(seat).upper()}"

    def prompt_parts(self, state: TenFourState) -> list[Part]:
        prompt = state.prompt()
        kind = prompt.kind
        who = self.game.seat_name(prompt.player) if prompt.player >= 0 else ""
        if kind == "start_spin":
            return [Part(f"{who}: spin for start", "instruction"),
                    Part("Flick the HI knob", "instruction")]
        if kind == "draw":
            return [Part(f"{who}: draw a Mike card", "instruction")]
        if kind == "spin":
            return self._spin_parts(state, prompt, who)
        if kind == "over":
            return [Part(prompt.text, "instruction")]
        if kind == "release":
            what = (piece_name(self.game, prompt.pieces[0]) if len(prompt.pieces) == 1
                    else "police")
            return [Part(prompt.text, "instruction", f"{who}: {what} out of Park")]
        if kind == "police":
            what = "a Smokey or the Bear" if BEAR in state.police else "a Smokey"
            return [Part(prompt.text, "instruction", f"{who}: move {what}")]
        if kind == "declare_truck":
            return [Part(prompt.text, "instruction", f"{who}: which truck moves?")]
        return [Part(prompt.text, "instruction")]

    def _spin_parts(self, state: TenFourState, prompt: Prompt, who: str) -> list[Part]:
        """The card drawn with its text (the table reads it aloud), what to spin and
        move, BREAK ONE NINE, and the Bear's limit when it watches this truck (G4)."""
        band = BAND_NAMES.get(prompt.band, prompt.band)
        knob = prompt.band.upper()
        flick = f"flick the {knob} knob"
        parts: list[Part] = []
        if prompt.hammer:
            parts.append(Part(f"HAMMER UP! {who}: no card, {flick} ({band})", "instruction",
                              f"HAMMER UP! {who}: flick {knob}"))
        else:
            card = self.game.deck.cards[self.game.card_index[prompt.card]]
            parts.append(Part(f'"{card.text}"', "card"))
            extra = f", move spin +{prompt.extra}" if prompt.extra else ""
            short = f", +{prompt.extra}" if prompt.extra else ""
            parts.append(Part(f"{who}: {flick} ({band}){extra}", "instruction",
                              f"{who}: flick {knob}{short}"))
        if prompt.break_one_nine and not _says_break_one_nine(parts):
            parts.append(Part("BREAK ONE NINE: a police move after your truck", "warning",
                              "BREAK 1-9: police too"))
        watch = state.bear_speed_limit()
        if watch is not None:
            route, limit = watch
            on = f"Bear on {route.capitalize()}"
            if limit < 1:
                parts.append(Part(f"Bear watching the {route.capitalize()} route: "
                                  "any spin is caught", "warning", f"{on}: any spin caught"))
            else:
                parts.append(Part(f"Bear watching the {route.capitalize()} route: "
                                  f"spin {limit} at most", "warning", f"{on}: {limit} max"))
        return parts

    def chance_input(self, state: TenFourState) -> ChanceInput:
        prompt = state.prompt()
        if prompt.kind == "draw":
            return ChanceInput("card", noun="Mike card")
        return ChanceInput("spin", knob=prompt.band or "hi")

    def action_for_card(self, state: TenFourState, card_id: str) -> Action | None:
        if state.prompt().kind != "draw":
            return None
        return Draw(card=card_id)

    def card_for_action(self, action: Action) -> str:
        assert isinstance(action, Draw)
        return action.card

    def forced_spin(self, state: TenFourState, value: int) -> Action | None:
        wanted = Spin(value=value)
        return wanted if any(a == wanted for a, _ in state.chance_outcomes()) else None

    def outcome_text(self, state: TenFourState, action: Action) -> str:
        return str(action.value) if isinstance(action, Spin) else action.key()

    def notices(self, state: TenFourState, events: list[Event]) -> list[Notice]:
        out = _lost_turns_as_one(super().notices(state, events))
        if any(e.kind in {"smokey_exact_move", "smokey_trap_move", "park_exit"} for e in events):
            leader = bears_crawling(state)
            if leader is not None:
                out.append(Notice(f"BEARS CRAWLING near the {leader}", role=DETAIL))
        return out

    def notice(self, event: Event) -> Notice | None:
        if event.kind == "truck_move":
            steps = event.data.get("steps")
            return Notice(event.text, big=f"MOVE {steps}", role=RESULT)
        if event.kind == "spin" and event.data.get("start"):
            return Notice(event.text)
        if event.kind in {"smokey_catch", "trap_catch"}:
            truck = str(event.data.get("truck", "")).capitalize()
            return Notice(event.text, alert=True, headline=self.ALERTS[event.kind],
                          role=ALERT, short=f"{truck} truck caught: side of road, loses "
                          "next turn", sound=self.ALERT_SOUND)
        if event.kind == "bear_catch":
            return Notice(event.text, alert=True, headline=self.ALERTS["bear_catch"],
                          role=RESULT, sound=self.ALERT_SOUND)
        return super().notice(event)

    def menu_order(self, state: TenFourState, actions: list[Action]) -> list[Action]:
        return state.in_board_order(actions)

    def status_lines(self, state: TenFourState) -> list[str]:
        g = self.game
        lines = [piece_at(g, colour, state.truck_where(i)) for i, colour in enumerate(g.trucks)]
        lines += [piece_at(g, piece, where) for piece, where in state.police.items()]
        return lines

    def card_ids(self) -> list[str]:
        return [card.id for card in self.game.deck.cards]

    def correction(self, piece: str, location: str) -> Action:
        return Correct(piece=piece, location=location)

    # -- corrections (RULINGS G5) ------------------------------------------------------

    def correction_pieces(self, state: TenFourState) -> list[tuple[str, str]]:
        g = self.game
        return [(piece, piece_at(g, piece, self.current_place(state, piece)))
                for piece in (*g.trucks, *g.police)]

    def current_place(self, state: TenFourState, piece: str) -> str:
        if piece in self.game.truck_index:
            return state.truck_where(self.game.truck_index[piece])
        return state.police[piece]

    def turn_fixes(self, state: TenFourState) -> list[Fix]:
        """Whose turn, the lost turns and a Hammer Up, where they can be corrected now."""
        g = self.game
        allowed = state.turn_corrections()
        names = [g.seat_name(seat) for seat in range(g.num_players)]
        fixes: list[Fix] = []
        if allowed["turn"]:
            others = tuple((f"It is {name}'s turn", CorrectTurn(seat))
                           for seat, name in enumerate(names) if seat != state.turn)
            fixes.append(Fix(f"Whose turn: {names[state.turn]}", options=others))
        losing = [name for seat, name in enumerate(names) if state.lose[seat]]
        flips = tuple((f"{name}: loses no turn" if state.lose[seat] else
                       f"{name}: loses next turn", CorrectLostTurn(seat, not state.lose[seat]))
                      for seat, name in enumerate(names))
        fixes.append(Fix("Lost turns: " + (", ".join(losing) or "none"), options=flips))
        if allowed["hammer_on"] or allowed["hammer_off"]:
            truck = g.trucks[state.truck]
            on = bool(allowed["hammer_on"])
            words = (f"Hammer Up for the {truck.capitalize()} truck" if on
                     else f"No Hammer Up: {truck.capitalize()} truck draws a card")
            fixes.append(Fix(words, action=CorrectHammer(truck, on)))
        return fixes

    def correction_places(self, state: TenFourState, piece: str) -> list[CorrectionPlace]:
        """Every place the piece may be set to, in board order, each with the section
        the other knob jumps by (a route, the side of the road, the traps...)."""
        board = self.game.board
        options = state.correction_options()[piece]
        places = [CorrectionPlace(o, place_name(board, o), self._section(o)) for o in options]
        return sorted(places, key=lambda p: (_SECTIONS.index(p.section.split(" ")[0]),
                                             board_rank(board, p.location)))

    def _section(self, location: str) -> str:
        board = self.game.board
        if location in board.index:
            return f"route {board.route_of[board.index[location]]}"
        if location.startswith(SIDE):
            return "side of road"
        if location == HOME:
            return "home"
        if location == PARK:
            return "park"
        if location == BEAR or any(b.id == location for b in board.bears):
            return "bear spaces"
        if any(t.id == location for t in board.traps):
            return "traps"
        return "short cuts"


_LOST = " loses this turn (caught speeding)"


def _lost_turns_as_one(notices: list[Notice]) -> list[Notice]:
    """Several players who lose this turn one after another, as one line ("Green, Blue
    and Yellow lose this turn (caught speeding)"): one line fits where three paged."""
    out: list[Notice] = []
    lost: list[Notice] = []
    for notice in [*notices, None]:
        if notice is not None and notice.text.endswith(_LOST) and not notice.alert:
            lost.append(notice)
            continue
        if len(lost) == 1:
            out.append(lost[0])
        elif lost:
            names = [n.text.removesuffix(_LOST) for n in lost]
            said = ", ".join(names[:-1]) + " and " + names[-1]
            out.append(Notice(f"{said} lose this turn (caught speeding)",
                              short=f"{said} lose this turn"))
        lost = []
        if notice is not None:
            out.append(notice)
    return out


_SECTIONS = ("park", "route", "traps", "short", "bear", "side", "home")
"""Correction sections in menu order; routes are in board order within "route"."""


def _says_break_one_nine(parts: list[Part]) -> bool:
    """Whether the card's own text already tells the table (no line said twice)."""
    return any(p.role == "card" and "BREAK ONE NINE" in p.text.upper() for p in parts)
