"""The Bump 'Em game state: whose turn, the ticket in hand, every car, the ticket deck.

A turn is a chance node (draw a ticket) followed by a decision node (choose a legal
move). A ticket with no legal move is lost and one with exactly one legal move is played
automatically (B5), both inside `apply`, so a decision node always offers a real choice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import partial
from typing import TYPE_CHECKING, Final

from engine.api import (
    CHANCE,
    JSON,
    TERMINAL,
    Action,
    Event,
    LazyEvent,
    Probability,
    check_legal,
)
from engine.bumpem.actions import (
    Backward,
    BumpTicket,
    Correct,
    CorrectTurn,
    DrawTicket,
    Enter,
    Forward,
    Split,
    Swap,
)
from engine.bumpem.names import car_at, colour_word, destination_phrase, position_name
from engine.bumpem.rules import PIT, Choice, Effect, Outcome, Rules
from engine.bumpem.tickets import TICKET_IDS, ticket_label
from engine.errors import IllegalAction, Reason
from engine.selfplay import Rng, sample_chance
from valueclass import Frozen

if TYPE_CHECKING:
    from engine.bumpem.game import BumpemGame
    from engine.bumpem.kinds import EffectKind, EventKind, PromptKind

TICKET: Final = "ticket"
MOVE: Final = "move"
OVER: Final = "over"
PHASES = (TICKET, MOVE, OVER)


class Prompt(Frozen):
    """What the rig waits for.

    kind "ticket": `player` draws a ticket (`extra` after a 3);
    kind "move": `player` chooses one of `choices` moves for `ticket`;
    kind "over": nobody; `winners` won.
    """

    kind: PromptKind
    player: int
    seat: str
    text: str
    ticket: str | None = None
    extra: bool = False
    choices: int = 0
    winners: tuple[int, ...] = ()


class BumpemState:
    """A mutable game state; `apply` either changes it fully or raises and changes nothing."""

    def __init__(self, game: BumpemGame) -> None:
        self.game = game
        self.rules: Rules = game.rules
        self.pos: list[int] = [PIT] * (self.rules.players * self.rules.cars)
        self.turn = 0
        self.phase = TICKET
        self.ticket: str | None = None
        self.extra = False
        self.winner: int | None = None
        self.deck: list[int] | None = list(game.tickets.counts) if game.tickets.is_deck else None
        self._moves: list[Outcome] | None = None

    # ----- node kind ----------------------------------------------------------------

    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.phase == TICKET:
            return CHANCE
        return self.turn

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_chance_node(self) -> bool:
        return self.phase == TICKET

    def winners(self) -> list[int]:
        return [] if self.winner is None else [self.winner]

    def _outcomes(self) -> list[Outcome]:
        if self._moves is None:
            assert self.ticket is not None
            self._moves = self.rules.legal_moves(tuple(self.pos), self.turn, self.ticket)
        return self._moves

    def legal_actions(self) -> list[Action]:
        if self.phase != MOVE:
            return []
        return [o.action for o in self._outcomes()]

    def chance_outcomes(self) -> Sequence[tuple[Action, Fraction]]:
        if self.phase != TICKET:
            return []
        if self.deck is None:
            return self.game.independent_outcomes
        total = sum(self.deck)
        return [(DrawTicket(t), Probability(c, total))
                for t, c in sorted(zip(TICKET_IDS, self.deck, strict=True),
                                   key=lambda tc: DrawTicket(tc[0]).key()) if c > 0]

    # ----- apply --------------------------------------------------------------------

    def apply(self, action: Action, player: int | None = None) -> list[Event]:
        if isinstance(action, Correct):
            return self._correct(action)
        if isinstance(action, CorrectTurn):
            return self._correct_turn(action)
        events: list[Event] = []
        if self.phase == TICKET and player is None and isinstance(action, DrawTicket) and (
                self._can_draw(action.ticket)):
            self._draw(action.ticket, events)  # the common case, without the generic search
            return events
        if self.phase == MOVE and (player is None or player == self.turn):
            chosen = self._find(action)
            if chosen is not None:
                self._play(chosen, events, forced=False)
                return events
        check_legal(self, action, player)  # raises the shared reason for everything else
        raise AssertionError(f"check_legal accepted {action.key()} that apply refused")

    def _find(self, action: Action) -> Outcome | None:
        """The outcome of `action` if it is legal now: by identity first (a chooser hands
        back one of `legal_actions()` itself), else by equality (input from outside)."""
        outcomes = self._outcomes()
        for o in outcomes:
            if o.action is action:
                return o
        for o in outcomes:
            if o.action == action:
                return o
        return None

    def _can_draw(self, ticket: str) -> bool:
        index = _TICKET_INDEX.get(ticket)
        if index is None:
            return False
        counts = self.game.tickets.counts if self.deck is None else self.deck
        return counts[index] > 0

    def _draw(self, ticket: str, events: list[Event]) -> None:
        colour = self.game.seat_name(self.turn)
        if self.deck is not None:
            self.deck[_TICKET_INDEX[ticket]] -= 1
            if sum(self.deck) == 0:
                self.deck = list(self.game.tickets.counts)
                events.append(Event("reshuffle", "All tickets used: reshuffle the tickets", {}))
        if not self.extra:
            events.append(Event("turn", f"{colour}'s turn", {"seat": self.turn}))
        events.append(Event("ticket", f"{colour} draws {ticket_label(ticket)}",
                            {"seat": self.turn, "ticket": ticket, "extra": self.extra}))
        self.ticket = ticket
        self.phase = MOVE
        self._moves = None
        self._settle(events)

    def _settle(self, events: list[Event]) -> None:
        """At a move node: lose a ticket with no move, play a ticket with one (B5)."""
        outcomes = self._outcomes()
        if not outcomes:
            colour = self.game.seat_name(self.turn)
            events.append(Event("lost_ticket",
                                f"{colour} cannot use {ticket_label(str(self.ticket))}",
                                {"seat": self.turn, "ticket": self.ticket}))
            self._end_move(events, moved=False)
        elif len(outcomes) == 1:
            self._play(outcomes[0], events, forced=True)

    def _play(self, outcome: Outcome, events: list[Event], forced: bool) -> None:
        action = outcome.action
        seat = self.turn
        said = _MoveWords(self.game, tuple(self.pos), seat, self.ticket, action)
        if forced:
            events.append(LazyEvent("forced_move", said.forced))
        events.append(LazyEvent("move", said.plain))
        kind = _MOVE_KINDS.get(type(action))
        if kind is not None:
            events.append(LazyEvent(kind, said.plain))
        self.pos = list(outcome.positions)
        finished_order = self._effect_events(outcome.effects, events)
        if self._check_winner(seat, finished_order, events):
            return
        self._end_move(events, moved=True)

    def _effect_events(self, effects: tuple[Effect, ...], events: list[Event]) -> list[int]:
        """Events for each effect (their words when read); returns the seats whose cars
        finished, in order."""
        rules = self.rules
        finished: list[int] = []
        for e in effects:
            kind = _EFFECT_EVENTS.get(e.kind)
            if kind is None:
                continue
            if kind == "finish":
                finished.append(e.car // rules.cars)
            events.append(LazyEvent(kind, partial(_effect_words, rules, e)))
        return finished

    def _check_winner(self, mover: int, finished: list[int], events: list[Event]) -> bool:
        """B8: the first player with every car finished wins; the mover first on a tie."""
        if not self._win_quietly([mover, *finished]):
            return False
        assert self.winner is not None
        events.append(Event("winner", f"{self.game.seat_name(self.winner)} wins!",
                            {"seat": self.winner}))
        return True

    def _end_move(self, events: list[Event], moved: bool) -> None:
        """After a move or a lost ticket: another ticket after a 3 (B3), else next seat."""
        extra = self.ticket == "3" and (moved or self.game.options["extra_ticket_without_move"])
        self._end_move_quietly(bool(extra))
        if extra:
            events.append(Event("extra_ticket",
                                f"{self.game.seat_name(self.turn)} takes another ticket",
                                {"seat": self.turn}))

    # ----- random playouts ---------------------------------------------------------

    def play_randomly(self, rng: Rng, max_steps: int) -> int:
        """Play on to the end (at most `max_steps` chance draws and decisions), every
        decision uniformly random, and return the steps taken: the game, the state it
        ends in and every `rng` draw are those of `engine.selfplay.random_playout`'s
        generic loop (`sample_chance` of `chance_outcomes()`, then `random_choice` of
        `legal_actions()`), but no action, preview or event is made: a flat Monte Carlo
        playout only asks who won (tests/test_random_playouts.py holds them equal)."""
        rules = self.rules
        game = self.game
        sorted_tickets = _SORTED_TICKETS
        independent = game.independent_outcomes
        refill = game.tickets.counts
        again_without_move = bool(game.options["extra_ticket_without_move"])
        steps = 0
        choices: list[Choice] = []
        known = False  # choices / outcomes hold the moves of the ticket in hand
        while self.phase != OVER and steps < max_steps:
            steps += 1
            drawing = self.phase == TICKET
            if drawing:
                deck = self.deck
                if deck is None:
                    drawn = sample_chance(independent, rng)
                    ticket = drawn.ticket
                else:
                    ticket = _deck_draw(deck, sorted_tickets, rng.random())
                    deck[_TICKET_INDEX[ticket]] -= 1
                    if sum(deck) == 0:
                        self.deck = list(refill)
                self.ticket = ticket
                self.phase = MOVE
                self._moves = None
            else:
                ticket = str(self.ticket)
            if drawing or not known:
                choices = rules.move_choices(self.pos, self.turn, ticket)
            count = len(choices)
            if not drawing:
                pick = int(rng.random() * count)  # a decision: `random_choice`
            elif count == 0:  # B5: the ticket is lost
                self._end_move_quietly(ticket == "3" and again_without_move)
                continue
            elif count == 1:  # B5: the only move is played
                pick = 0
            else:  # a decision node: the next step decides
                known = True
                continue
            known = False
            new, effects = rules.resolve(self.pos, choices[pick])
            self.pos = new
            finished = [e.car // rules.cars for e in effects if e.kind == "finish"]
            if not self._win_quietly([self.turn, *finished]):
                self._end_move_quietly(ticket == "3")
        return steps

    def _win_quietly(self, candidates: list[int]) -> bool:
        """The first of `candidates` with every car finished wins (B8)."""
        for seat in candidates:
            if self.rules.complete(self.pos, seat):
                self.phase = OVER
                self.winner = seat
                self.ticket = None
                self.extra = False
                self._moves = None
                return True
        return False

    def _end_move_quietly(self, extra: bool) -> None:
        """The next seat's ticket, or the same seat's again if `extra` (B3)."""
        self.phase = TICKET
        self.ticket = None
        self._moves = None
        self.extra = extra
        if not extra:
            self.turn = (self.turn + 1) % self.rules.players

    # ----- corrections (RULINGS G1) -------------------------------------------------

    def correction_options(self) -> dict[str, list[str]]:
        """Piece id -> every position it may be set to: its pit, finish, any free track
        space or free step of its own home stretch, and where it is now."""
        return self.rules.correction_places(self.pos)

    def _correct_turn(self, action: CorrectTurn) -> list[Event]:
        """G5: whose turn it is, before a ticket is drawn (an extra ticket after a 3 is
        then not owed)."""
        if self.phase != TICKET:
            raise IllegalAction(Reason.NOT_LEGAL_NOW, "whose turn it is can be corrected "
                                "only before a ticket is drawn")
        if not 0 <= action.seat < self.rules.players:
            raise IllegalAction(Reason.NOT_LEGAL_NOW, f"no seat {action.seat}; seats are "
                                f"0..{self.rules.players - 1}")
        self.turn = action.seat
        self.extra = False
        return [Event("correction", f"Correction: it is {self.game.seat_name(self.turn)}'s "
                      "turn", {"turn": self.turn})]

    def _correct(self, action: Correct) -> list[Event]:
        if self.phase == OVER:
            raise IllegalAction(Reason.GAME_OVER, "the game is over")
        rules = self.rules
        car, place = rules.correction(self.pos, action.piece, action.location)
        seat = car // rules.cars
        old = rules.position_id(seat, self.pos[car])
        self.pos[car] = place
        name = car_at(rules.seats[seat], old)
        events = [Event("correction", f"Correction: {name} set "
                        f"{destination_phrase(action.location)}",
                        {"seat": seat, "piece": action.piece, "from": old,
                         "to": action.location})]
        self._moves = None
        for s in range(rules.players):
            if rules.complete(self.pos, s):
                self._check_winner(s, [], events)
                return events
        if self.phase == MOVE:
            self._settle(events)
        return events

    # ----- text ---------------------------------------------------------------------

    def describe(self, action: Action) -> str:
        """Plain words a person can carry out on the board: the car named by where it
        stands ("Red car at T35"), how far, and where it ends (RULINGS G4)."""
        return _Describer(self.game, self.pos, self.turn).describe(action)

    def piece_name(self, piece: str) -> str:
        """A car by where it stands now: "Blue car at T40" (piece id "blue:2")."""
        return _Describer(self.game, self.pos, self.turn).piece_name(piece)

    def prompt(self) -> Prompt:
        if self.phase == OVER:
            winner = self.winner if self.winner is not None else 0
            return Prompt(OVER, TERMINAL, self.rules.seats[winner],
                          f"{self.game.seat_name(winner)} wins!",
                          winners=tuple(self.winners()))
        colour = self.game.seat_name(self.turn)
        if self.phase == TICKET:
            more = "another" if self.extra else "a"
            return Prompt(TICKET, self.turn, self.rules.seats[self.turn],
                          f"{colour}: take {more} ticket", extra=self.extra)
        count = len(self._outcomes())
        return Prompt(MOVE, self.turn, self.rules.seats[self.turn],
                      f"{colour}: use {ticket_label(str(self.ticket))}", ticket=self.ticket,
                      extra=self.extra, choices=count)

    # ----- copies and JSON ----------------------------------------------------------

    def clone(self) -> BumpemState:
        other = BumpemState.__new__(BumpemState)
        other.game = self.game
        other.rules = self.rules
        other.pos = list(self.pos)
        other.turn = self.turn
        other.phase = self.phase
        other.ticket = self.ticket
        other.extra = self.extra
        other.winner = self.winner
        other.deck = None if self.deck is None else list(self.deck)
        other._moves = self._moves
        return other

    def _key(self) -> tuple[object, ...]:
        deck = None if self.deck is None else tuple(self.deck)
        return (tuple(self.pos), self.turn, self.phase, self.ticket, self.extra, self.winner,
                deck)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BumpemState):
            return NotImplemented
        if self._key() != other._key():
            return False
        return self.game is other.game or self.game.identity() == other.game.identity()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"BumpemState({self.to_json()!r})"

    def car_places(self) -> dict[str, list[str]]:
        """Where each colour's cars stand (position ids), car by car."""
        return self.rules.car_places(self.pos)

    def to_json(self) -> dict[str, JSON]:
        cars: dict[str, JSON] = {colour: list[JSON](places)
                                 for colour, places in self.car_places().items()}
        return {
            "turn": self.turn,
            "phase": self.phase,
            "ticket": self.ticket,
            "extra": self.extra,
            "winner": self.winner,
            "cars": cars,
            "deck": None if self.deck is None else dict(zip(TICKET_IDS, self.deck, strict=True)),
        }

    @classmethod
    def from_json(cls, game: BumpemGame, data: JSON) -> BumpemState:
        """Rebuild a state; ValueError names the first thing that does not fit."""
        if not isinstance(data, Mapping):
            raise ValueError("a Bump 'Em state is a JSON object")
        state = cls(game)
        rules = state.rules
        turn = data.get("turn")
        if not isinstance(turn, int) or isinstance(turn, bool) or not 0 <= turn < rules.players:
            raise ValueError(f"turn must be a seat 0..{rules.players - 1}, got {turn!r}")
        phase = data.get("phase")
        if phase not in PHASES:
            raise ValueError(f"phase must be one of {PHASES}, got {phase!r}")
        ticket = data.get("ticket")
        if (phase == MOVE) != (ticket in TICKET_IDS) or (ticket is not None and phase != MOVE):
            raise ValueError(f"ticket {ticket!r} does not fit phase {phase!r}")
        winner = data.get("winner")
        if (phase == OVER) != isinstance(winner, int) or (
                isinstance(winner, int) and not 0 <= winner < rules.players):
            raise ValueError(f"winner {winner!r} does not fit phase {phase!r}")
        extra = data.get("extra")
        if not isinstance(extra, bool):
            raise ValueError(f"extra must be true or false, got {extra!r}")
        pos = rules.positions_from_json(data.get("cars"))
        state.deck = _deck_from_json(game, data.get("deck"))
        state.pos = pos
        state.turn = turn
        state.phase = str(phase)
        state.ticket = ticket if isinstance(ticket, str) else None
        state.extra = extra
        state.winner = winner if isinstance(winner, int) else None
        return state


class _Describer:
    """The words for actions at one position: `pos` and `turn` are read, never changed,
    so a move's words can be worked out after the state has moved on (`LazyEvent`)."""

    def __init__(self, game: BumpemGame, pos: Sequence[int], turn: int) -> None:
        self.game = game
        self.pos = pos
        self.turn = turn

    def describe(self, action: Action) -> str:
        """Plain words a person can carry out on the board: the car named by where it
        stands ("Red car at T35"), how far, and where it ends (RULINGS G4)."""
        colour = self.game.seat_name(self.turn)
        if isinstance(action, DrawTicket):
            return f"{colour} draws {ticket_label(action.ticket)}"
        if isinstance(action, Correct):
            return f"Set {self.piece_name(action.piece)} {destination_phrase(action.location)}"
        if isinstance(action, CorrectTurn):
            return f"It is {self.game.seat_name(action.seat)}'s turn"
        if isinstance(action, Enter):
            text = f"{self._own(action.car)} enters at {position_name(action.to)}"
        elif isinstance(action, Forward):
            text = (f"{self._own(action.car)}: {action.steps} "
                    f"{destination_phrase(self._landing(action))}")
        elif isinstance(action, Backward):
            text = (f"{self._own(action.car)}: {action.steps} back "
                    f"{destination_phrase(self._landing(action))}")
        elif isinstance(action, Swap):
            return f"{self._own(action.car)}: swap with {self.piece_name(action.target)}"
        elif isinstance(action, Split):
            second = self._own(action.other)  # "Red car at T12": the colour too
            first_to = self._landing(Forward(action.car, action.steps))
            second_to = self._landing(Forward(action.other, action.other_steps))
            return (f"{self._own(action.car)}: {action.steps} "
                    f"{destination_phrase(first_to)}, {second}: {action.other_steps} "
                    f"{destination_phrase(second_to)}")
        elif isinstance(action, BumpTicket):
            return f"{self._own(action.car)} onto {self.piece_name(action.target)}"
        else:
            return action.key()
        return text + self._consequence(action)

    def piece_name(self, piece: str) -> str:
        """A car by where it stands now: "Blue car at T40" (piece id "blue:2")."""
        rules = self.game.rules
        colour, _, number = piece.partition(":")
        seat = rules.seats.index(colour)
        car = seat * rules.cars + int(number) - 1
        return car_at(colour, rules.position_id(seat, self.pos[car]))

    def _slide_bumps(self, bumps: tuple[str, ...]) -> str:
        """The cars an oil slide bumps, named so the table finds them: one in full
        ("Red car at T1"), several by colour and place ("Green T25, Red T27")."""
        if not bumps:
            return ""
        if len(bumps) == 1:
            return f", bumps {self.piece_name(bumps[0])}"
        return ", bumps " + ", ".join(self.piece_name(p).replace(" car at ", " ")
                                      .replace(" car in ", " in ") for p in bumps)

    def _own(self, car: int) -> str:
        return self.piece_name(f"{self.game.rules.seats[self.turn]}:{car}")

    def _landing(self, action: Forward | Backward) -> str:
        """Where the car lands before any slide or zoom (the space a person counts to)."""
        rules = self.game.rules
        seat = self.turn
        here = self.pos[seat * rules.cars + action.car - 1]
        if isinstance(action, Forward):
            dest = rules.forward_dest(seat, here, action.steps)
        else:
            dest = rules.backward_dest(seat, here, action.steps)
        return action.to if dest is None else rules.position_id(seat, dest)

    def _consequence(self, action: Enter | Forward | Backward) -> str:
        """The move's telling effect, after where the car lands."""
        landing = action.to if isinstance(action, Enter) else self._landing(action)
        if action.slide:
            return f", slides {destination_phrase(action.to)}{self._slide_bumps(action.bumps)}"
        if action.bumps:
            victims = sorted({p.partition(":")[0].capitalize() for p in action.bumps})
            return ", bumps " + "+".join(victims)
        if action.zooms:
            return f", zooms {self.piece_name(action.zooms[0])}"
        if action.to != landing:
            return f", ends {destination_phrase(action.to)}"
        return ""


class _MoveWords:
    """The words of one move's events, worked out once when the first is read: the
    position before the move is kept (a tuple), so they match what `describe` said."""

    def __init__(self, game: BumpemGame, before: tuple[int, ...], seat: int,
                 ticket: str | None, action: Action) -> None:
        self._args = (game, before, seat, ticket, action)
        self._made: tuple[str, dict[str, JSON]] | None = None

    def plain(self) -> tuple[str, dict[str, JSON]]:
        if self._made is None:
            game, before, seat, ticket, action = self._args
            text = _Describer(game, before, seat).describe(action)
            self._made = text, {"seat": seat, "ticket": ticket, "action": action.to_json()}
        return self._made

    def forced(self) -> tuple[str, dict[str, JSON]]:
        text, data = self.plain()
        return f"Only move: {text}", data


_TICKET_INDEX: dict[str, int] = {ticket: i for i, ticket in enumerate(TICKET_IDS)}

_SORTED_TICKETS: tuple[tuple[str, int], ...] = tuple(sorted(
    ((t, i) for i, t in enumerate(TICKET_IDS)), key=lambda ti: DrawTicket(ti[0]).key()))
"""(ticket, deck index) in the order `chance_outcomes` lists a deck's draws."""


def _deck_draw(deck: list[int], tickets: tuple[tuple[str, int], ...], point: float) -> str:
    """The ticket `sample_chance` draws from a deck's `chance_outcomes()` for `point`:
    the same running totals of count / total (the float of the reduced fraction: both
    are correctly rounded int divisions of the same value)."""
    total = sum(deck)
    running = 0.0
    last = ""
    for ticket, index in tickets:
        count = deck[index]
        if count > 0:
            running += count / total
            last = ticket
            if point < running:
                return ticket
    return last

_MOVE_KINDS: dict[type, EventKind] = {Swap: "swap", Split: "split", Backward: "backward_move",
                                BumpTicket: "bump_ticket"}
"""Moves with an event of their own beside "move"."""

_EFFECT_EVENTS: dict[EffectKind, EventKind] = {
    "entry": "entry", "bump": "bump", "slide": "oil_slide", "zoom": "turbo_zoom",
    "home": "home_stretch_entry", "finish": "finish"}
"""Effect kind -> the event it makes (a swap makes none: the move says it)."""


def _effect_words(rules: Rules, e: Effect) -> tuple[str, dict[str, JSON]]:
    """The text and data of the event for effect `e`."""
    seat = e.car // rules.cars
    piece = rules.piece_id(e.car)
    src = rules.position_id(seat, e.src)
    dst = rules.position_id(seat, e.dst)
    name = car_at(rules.seats[seat], src)
    data: dict[str, JSON] = {"seat": seat, "piece": piece, "from": src, "to": dst}
    if e.kind == "entry":
        return f"{name} enters at its start {dst}", data
    if e.kind == "bump":
        return f"{name} bumped: back to its pit", data
    if e.kind == "slide":
        return f"{name} slides on the oil {destination_phrase(dst)}", data
    if e.kind == "zoom":
        return f"{name} zooms {destination_phrase(dst)}", data
    if e.kind == "home":
        return f"{name} enters its home stretch at {position_name(dst)}", data
    return f"{colour_word(rules.seats[seat])} car reaches its finish", data


def _deck_from_json(game: BumpemGame, deck: JSON) -> list[int] | None:
    if not game.tickets.is_deck:
        if deck is not None:
            raise ValueError("this game draws tickets independently: deck must be null")
        return None
    if not isinstance(deck, Mapping) or set(deck) != set(TICKET_IDS):
        raise ValueError(f"deck must give a count for each of {list(TICKET_IDS)}")
    counts = [deck[t] for t in TICKET_IDS]
    whole = [c for c in counts if isinstance(c, int) and not isinstance(c, bool)]
    full = game.tickets.counts
    if len(whole) != len(counts) or sum(whole) == 0 or any(
            not 0 <= c <= f for c, f in zip(whole, full, strict=True)):
        raise ValueError("deck counts must be between 0 and the full count, not all 0")
    return whole
