"""The state of a 10-Four game: the position, what may be played now, and `apply`.

A turn walks through phases (`phases.py`): "draw" (chance) -> "spin" (chance) -> the
automatic truck move (or "choose" in the two-player game) -> "police" after BREAK ONE
NINE. Skipped turns, forced single choices, catches and reshuffles happen inside `apply`
and come back as events, so every node left waiting has something to choose.

Where each rule lives: the order of play in `turns.py`, the trucks' moves in
`trucks.py`, the Smokeys and the Bear in `police.py`, corrections in `corrections.py`,
the prompt and an action's words in `words.py`. This class holds the position and the
State surface of docs/ENGINE_CONTRACT.md, and hands each input to its rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from engine.api import (
    CHANCE,
    JSON,
    TERMINAL,
    Action,
    Event,
    json_int,
    json_list,
    json_object,
    json_str,
)
from engine.errors import IllegalAction, Reason
from engine.selfplay import Rng, sample_chance
from engine.tenfour import corrections, police, trucks, turns, words
from engine.tenfour.actions import (
    ChooseTruck,
    Correct,
    CorrectHammer,
    CorrectLostTurn,
    CorrectTurn,
    DeclareTruck,
    Draw,
    MoveBear,
    MoveSmokey,
    PlaceSmokey,
    Release,
    Spin,
)
from engine.tenfour.phases import (
    CHANCE_PHASES,
    CHOOSE,
    DECLARE,
    DRAW,
    OVER,
    PHASES,
    PLACE,
    POLICE,
    SPIN,
    START_SPIN,
)
from engine.tenfour.places import HOME, PARK, SIDE, SMOKEYS
from engine.tenfour.words import Prompt

if TYPE_CHECKING:
    from engine.tenfour.game import TenFourGame


class TenFourState:
    """Mutable game state; `apply` validates first and changes nothing on refusal."""

    __slots__ = (
        "_legal",
        "card",
        "contenders",
        "g",
        "hammer",
        "lose",
        "phase",
        "pile",
        "pile_left",
        "placed",
        "police",
        "pos",
        "side",
        "spun",
        "start_spins",
        "truck",
        "turn",
        "turns",
        "winner",
    )

    def __init__(self, game: TenFourGame) -> None:
        self.g = game
        self.phase = START_SPIN
        self.turn = 0
        self.pos = [0] * len(game.trucks)
        """Spaces each truck has driven from its start; >= board size means home."""
        self.side = [False] * len(game.trucks)
        """Trucks on the side of the road after a catch."""
        self.lose = [False] * game.num_players
        """Seats whose next turn is lost."""
        self.police = dict.fromkeys(game.police, PARK)
        self.pile = [card.copies for card in game.cards]
        self.pile_left = sum(self.pile)
        self.card = -1
        self.hammer = False
        self.truck = -1
        self.spun = 0
        self.contenders = list(range(game.num_players))
        self.start_spins: list[int] = []
        self.placed = 0
        self.turns = 0
        self.winner: list[int] = []
        self._legal: tuple[Action, ...] | None = None

    @classmethod
    def initial(cls, game: TenFourGame) -> TenFourState:
        return cls(game)

    # -- queries ---------------------------------------------------------------------

    def current_player(self) -> int:
        phase = self.phase
        if phase == OVER:
            return TERMINAL
        if phase in (START_SPIN, DRAW, SPIN):
            return CHANCE
        if phase == PLACE:
            return self.placed_seat()
        return self.turn

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_chance_node(self) -> bool:
        return self.phase in CHANCE_PHASES

    def winners(self) -> list[int]:
        return list(self.winner)

    def placed_seat(self) -> int:
        """Two players place Smokeys in turn order, starting with the first player."""
        return (self.turn + self.placed) % self.g.num_players

    def location(self, truck: int) -> int:
        """Loop index of a truck that is not home."""
        return (self.g.truck_start[truck] + self.pos[truck]) % self.g.size

    def is_home(self, truck: int) -> bool:
        return self.pos[truck] >= self.g.size

    def truck_where(self, truck: int) -> str:
        """The truck's location as a correction location: a space id, side:ID or home."""
        if self.is_home(truck):
            return HOME
        space = self.g.board.loop[self.location(truck)]
        return SIDE + space if self.side[truck] else space

    def band(self) -> str:
        """The band the pending spin uses."""
        if self.phase == START_SPIN:
            return "hi"
        if self.card < 0:
            return "lo"  # a Hammer Up turn: no card, the Lo-Band (T9)
        return self.g.cards[self.card].band

    def bear_speed_limit(self) -> tuple[str, int] | None:
        """Before a spin: what the Bear allows the moving truck (`police.speed_limit`)."""
        return police.speed_limit(self)

    def chance_outcomes(self) -> Sequence[tuple[Action, Fraction]]:
        phase = self.phase
        if phase == DRAW:
            g = self.g
            pile = self.pile
            draws = g.draws
            share = g.shares[self.pile_left - 1]
            return [(draws[i], share[pile[i]]) for i in g.draw_order if pile[i]]
        if phase == SPIN:  # `band()`, inlined: asked at every spin
            g = self.g
            return g.band_outcomes[g.cards[self.card].band if self.card >= 0 else "lo"]
        if phase == START_SPIN:
            return self.g.band_outcomes["hi"]  # an immutable, shared tuple
        return ()

    def legal_actions(self) -> tuple[Action, ...]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def _compute_legal(self) -> tuple[Action, ...]:
        phase = self.phase
        if phase == POLICE:
            found = police.police_actions(self)
        elif phase == CHOOSE:  # in key order already: the trucks sorted by their rank
            return tuple([trucks.choose_preview(self, t) for t in sorted(
                trucks.movable(self, self.turn), key=self.g.choose_rank.__getitem__)])
        elif phase == DECLARE:
            return tuple([DeclareTruck(self.g.trucks[t], trucks.on_curve(self, t))
                          for t in sorted(trucks.movable(self, self.turn),
                                          key=self.g.declare_rank.__getitem__)])
        elif phase == PLACE:
            smokey = SMOKEYS[self.placed]
            found = [PlaceSmokey(trap.id, smokey) for trap in self.g.board.traps]
        else:
            return ()
        return tuple(sorted(found, key=Action.key))

    def prompt(self) -> Prompt:
        return words.prompt(self)

    def describe(self, action: Action) -> str:
        """A short instruction a person can carry out on the board (`words.describe`)."""
        return words.describe(self, action)

    def in_board_order(self, actions: Sequence[Action]) -> list[Action]:
        """The choices as a menu lists them (`words.in_board_order`, RULINGS G4)."""
        return words.in_board_order(self, actions)

    # -- apply -------------------------------------------------------------------------

    def apply(self, action: Action, player: int | None = None) -> list[Event]:
        phase = self.phase
        if phase == OVER:
            raise IllegalAction(Reason.GAME_OVER, "the game is over")
        if isinstance(action, _CORRECTIONS):
            return self._correct(action)
        events: list[Event] = []
        if phase in CHANCE_PHASES:
            if player is not None:
                raise IllegalAction(Reason.NOT_YOUR_TURN, "waiting for a chance outcome")
            if phase == DRAW:
                draw = self._check_draw(action)
                self._legal = None
                turns.draw(self, draw, events)
                return events
            g = self.g  # the band (`band()`, inlined: this is every other step)
            band = "hi" if phase == START_SPIN else (
                g.cards[self.card].band if self.card >= 0 else "lo")
            if not isinstance(action, Spin) or action.value not in g.band_values[band]:
                raise IllegalAction(Reason.IMPOSSIBLE_OUTCOME,
                                    f"{action.key()} is not a {band} spin here")
            self._legal = None
            if phase == START_SPIN:
                turns.start_spin(self, action.value, events)
            else:
                turns.spin(self, action.value, band, events)
            return events
        if player is not None and player != self.current_player():
            raise IllegalAction(Reason.NOT_YOUR_TURN,
                                f"seat {player} acted but seat {self.current_player()} is to play")
        legal = self.legal_actions()
        if action not in legal:  # tuple membership tries identity first, in C
            raise IllegalAction(Reason.NOT_LEGAL_NOW, f"{action.key()} is not a legal move here")
        chosen = legal[legal.index(action)]  # with its previews
        self._legal = None
        self._act(chosen, events)
        return events

    def _act(self, chosen: Action, events: list[Event]) -> None:
        """Carry out one of `legal_actions()` (with its previews) at a decision node."""
        if isinstance(chosen, PlaceSmokey):
            police.place_smokey(self, chosen, events)
            if self.placed == len(SMOKEYS):
                turns.begin_turn(self, events)
        elif isinstance(chosen, DeclareTruck):
            turns.declare(self, self.g.truck_index[chosen.truck], events)
        elif isinstance(chosen, ChooseTruck):
            turns.drive(self, self.g.truck_index[chosen.truck], events)
        elif isinstance(chosen, Release | MoveSmokey | MoveBear):
            police.move(self, chosen, events)
            turns.end_turn(self, events)

    def _correct(self, action: Correct | CorrectTurn | CorrectLostTurn | CorrectHammer
                 ) -> list[Event]:
        """A correction, validated first by its rule (a refusal changes nothing); the
        legal moves are then worked out afresh."""
        if isinstance(action, Correct):
            events = corrections.correct(self, action)
        else:
            events = corrections.correct_turn(self, action)
        self._legal = None
        return events

    def play_randomly(self, rng: Rng, max_steps: int) -> int:
        """Play on to the end (at most `max_steps` chance draws and decisions), every
        decision uniformly random, and return the steps taken: the game, the state it
        ends in and every `rng` draw are those of `engine.selfplay.random_playout`'s
        generic loop (`sample_chance` of `chance_outcomes()`, then `random_choice` of
        `legal_actions()`), through the same rule code as `apply` but without checking
        outcomes the loop itself drew, building the outcome lists or previewing moves
        (tests/test_random_playouts.py holds them equal)."""
        g = self.g
        draw_order, draws, band_outcomes = g.draw_order, g.draws, g.band_outcomes
        choose_keys = [ChooseTruck(truck).key() for truck in g.trucks]  # their sort keys
        steps = 0
        while self.phase != OVER and steps < max_steps:
            steps += 1
            events: list[Event] = []
            phase = self.phase
            if phase == DRAW:
                self._legal = None
                turns.draw(self, draws[_drawn(self.pile, self.pile_left, draw_order,
                                           rng.random())], events)
            elif phase in (SPIN, START_SPIN):
                band = self.band()
                spin = sample_chance(band_outcomes[band], rng)
                self._legal = None
                if phase == START_SPIN:
                    turns.start_spin(self, spin.value, events)
                else:
                    turns.spin(self, spin.value, band, events)
            elif phase == CHOOSE:  # the choices in `legal_actions()` order, no previews
                movable = sorted(trucks.movable(self, self.turn), key=choose_keys.__getitem__)
                self._legal = None
                turns.drive(self, movable[int(rng.random() * len(movable))], events)
            else:
                found = police.police_actions(self, previews=False) if phase == POLICE else None
                legal = self.legal_actions() if found is None else sorted(found, key=Action.key)
                picked = legal[int(rng.random() * len(legal))]  # `random_choice`
                chosen = legal[legal.index(picked)]  # as `apply` finds it: the first equal
                self._legal = None
                self._act(chosen, events)
        return steps

    def _check_draw(self, action: Action) -> Draw:
        """The card if it can be drawn now (T13: enrolled, not drawn since the reshuffle)."""
        if not isinstance(action, Draw):
            raise IllegalAction(Reason.IMPOSSIBLE_OUTCOME, f"{action.key()}: a card is drawn here")
        index = self.g.card_index.get(action.card)
        if index is None:
            raise IllegalAction(Reason.IMPOSSIBLE_OUTCOME, f"no Mike card {action.card!r} in "
                                "this deck")
        if not self.pile[index]:
            raise IllegalAction(Reason.IMPOSSIBLE_OUTCOME, f"Mike card {action.card} was already "
                                "drawn since the last reshuffle")
        return action

    # -- corrections (RULINGS G1, G5) -------------------------------------------------------

    def correction_options(self) -> dict[str, list[str]]:
        """Piece id -> every location the table may set it to."""
        return corrections.correction_options(self)

    def turn_corrections(self) -> dict[str, bool]:
        """Which turn corrections (G5) fit this moment (`corrections.turn_corrections`)."""
        return corrections.turn_corrections(self)

    # -- copying, equality, JSON -------------------------------------------------------------

    def clone(self) -> TenFourState:
        """An independent copy; every slot is named here (not looped over: a clone starts
        each playout and each searched child)."""
        other = TenFourState.__new__(TenFourState)
        other.g = self.g
        other.phase = self.phase
        other.turn = self.turn
        other.pos = self.pos.copy()
        other.side = self.side.copy()
        other.lose = self.lose.copy()
        other.police = self.police.copy()
        other.pile = self.pile.copy()
        other.pile_left = self.pile_left
        other.card = self.card
        other.hammer = self.hammer
        other.truck = self.truck
        other.spun = self.spun
        other.contenders = self.contenders.copy()
        other.start_spins = self.start_spins.copy()
        other.placed = self.placed
        other.turns = self.turns
        other.winner = self.winner.copy()
        other._legal = None
        return other

    def to_json(self) -> dict[str, JSON]:
        g = self.g
        return {
            "phase": self.phase,
            "turn": self.turn,
            "turns": self.turns,
            "trucks": {g.trucks[t]: {"driven": self.pos[t], "side": self.side[t]}
                       for t in range(len(self.pos))},
            "lose_next_turn": list(self.lose),
            "police": dict(self.police),
            "pile": {card.id: self.pile[i] for i, card in enumerate(g.cards)},
            "card": g.cards[self.card].id if self.card >= 0 else None,
            "hammer": self.hammer,
            "truck": g.trucks[self.truck] if self.truck >= 0 else None,
            "spun": self.spun,
            "contenders": list(self.contenders),
            "start_spins": list(self.start_spins),
            "placed": self.placed,
            "winners": list(self.winner),
        }

    @classmethod
    def from_json(cls, game: TenFourGame, data: JSON) -> TenFourState:
        """Rebuild a state saved by `to_json`; ValueError if it does not fit this game."""
        try:
            state = cls(game)
            _load(state, data)
        except (KeyError, TypeError, IndexError, AttributeError) as exc:
            raise ValueError(f"not a saved 10-Four state for this game: {exc!r}") from exc
        return state

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TenFourState):
            return NotImplemented
        same_game = self.g is other.g or self.g.identity() == other.g.identity()
        return same_game and all(getattr(self, n) == getattr(other, n) for n in _COMPARED)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"TenFourState({self.to_json()!r})"


def _load(state: TenFourState, saved: JSON) -> None:
    """Read a state saved by `TenFourState.to_json` into ``state`` (a new one)."""
    g = state.g
    data = json_object(saved)
    phase = json_str(data["phase"])
    if phase not in PHASES:
        raise ValueError(f"unknown phase {phase!r}")
    state.phase = phase
    state.turn = json_int(data["turn"])
    state.turns = json_int(data["turns"])
    trucks = json_object(data["trucks"])
    if set(trucks) != set(g.trucks):
        raise ValueError(f"trucks {sorted(trucks)} do not match the seats")
    state.pos = [json_int(json_object(trucks[c])["driven"]) for c in g.trucks]
    state.side = [bool(json_object(trucks[c])["side"]) for c in g.trucks]
    state.lose = [bool(v) for v in json_list(data["lose_next_turn"])]
    police = json_object(data["police"])
    if set(police) != set(g.police):
        raise ValueError("police pieces do not match the variant")
    state.police = {p: str(police[p]) for p in g.police}
    pile = json_object(data["pile"])
    state.pile = [json_int(pile[card.id]) for card in g.cards]
    state.pile_left = sum(state.pile)
    card, truck = data["card"], data["truck"]
    state.card = g.card_index[json_str(card)] if card is not None else -1
    state.hammer = bool(data["hammer"])
    state.truck = g.truck_index[json_str(truck)] if truck is not None else -1
    state.spun = json_int(data["spun"])
    state.contenders = [json_int(v) for v in json_list(data["contenders"])]
    state.start_spins = [json_int(v) for v in json_list(data["start_spins"])]
    state.placed = json_int(data["placed"])
    state.winner = [json_int(v) for v in json_list(data["winners"])]
    _validate(state)

def _validate(state: TenFourState) -> None:
    """Refuse a saved state that no game could reach in its shape."""
    g = state.g
    seats = range(g.num_players)
    places = state.correction_options()
    problems = [
        (state.turn not in seats, f"turn {state.turn}"),
        (len(state.lose) != g.num_players, "lose_next_turn"),
        (any(p < 0 or p > g.size + 99 for p in state.pos), "trucks driven"),
        (any(state.police[p] not in places[p] + [PARK] for p in g.police), "police"),
        (any(not 0 <= n <= c.copies for n, c in zip(state.pile, g.cards, strict=True)),
         "pile"),
        (any(s not in seats for s in [*state.contenders, *state.winner]), "seats"),
        (not 0 <= state.placed <= len(SMOKEYS), "placed"),
    ]
    for bad, what in problems:
        if bad:
            raise ValueError(f"saved state has an impossible {what}")


_COMPARED = tuple(n for n in TenFourState.__slots__ if n not in ("_legal", "g"))
"""The fields that make up a position (the game itself is compared by identity)."""

_CORRECTIONS = (Correct, CorrectTurn, CorrectLostTurn, CorrectHammer)
"""Inputs the table may give at any node (RULINGS G1, G5), handled by `corrections.py`."""

def _drawn(pile: list[int], left: int, order: Sequence[int], point: float) -> int:
    """The card `sample_chance` draws from `chance_outcomes()` at a draw for `point`:
    the same running totals of count / cards left (the float of the reduced fraction:
    both are correctly rounded int divisions of the same value)."""
    running = 0.0
    last = -1
    for i in order:
        count = pile[i]
        if count:
            running += count / left
            last = i
            if point < running:
                return i
    return last
