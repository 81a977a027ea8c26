"""The state of a 10-Four game and the rules that move it (RULINGS T1-T13).

A turn walks through phases: "draw" (chance) -> "spin" (chance) -> the automatic truck
move (or "choose" in the two-player game) -> "police" after BREAK ONE NINE. Skipped
turns, forced single choices, catches and reshuffles happen inside `apply` and come
back as events, so every node left waiting has something to choose.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import partial
from typing import TYPE_CHECKING

from engine.api import CHANCE, JSON, TERMINAL, Action, Event, LazyEvent
from engine.errors import IllegalAction, Reason
from engine.selfplay import Rng, sample_chance
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
from engine.tenfour.names import (
    board_rank,
    destination_phrase,
    piece_at,
    piece_name,
    place_name,
)
from engine.tenfour.places import BEAR, HOME, PARK, SIDE, SMOKEYS
from valueclass import Frozen

if TYPE_CHECKING:
    from engine.tenfour.cards import Card
    from engine.tenfour.game import TenFourGame

START_SPIN = "start_spin"
PLACE = "place_smokey"
DECLARE = "declare_truck"
DRAW = "draw"
SPIN = "spin"
CHOOSE = "choose_truck"
POLICE = "police"
OVER = "over"
PHASES = (START_SPIN, PLACE, DECLARE, DRAW, SPIN, CHOOSE, POLICE, OVER)
CHANCE_PHASES = frozenset((START_SPIN, DRAW, SPIN))


class Prompt(Frozen):
    """What the rig is waiting for. `player` is the seat who acts at the table (the
    one who spins or draws at chance nodes), or TERMINAL when the game is over."""

    kind: str
    player: int
    text: str
    band: str = ""
    hammer: bool = False
    card: str = ""
    extra: int = 0
    break_one_nine: bool = False
    truck: str = ""
    trucks: tuple[str, ...] = ()
    spin: int = 0
    pieces: tuple[str, ...] = ()
    """Police pieces still in Yellowstone Park ("release")."""
    winners: tuple[int, ...] = ()


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
        """Before a spin (T8): the route the Bear watches and the highest spin the
        moving truck can make there without being caught, when the truck starts on
        that route; None when the Bear does not watch it. The limit may be below the
        band's lowest value (then every spin is caught)."""
        g = self.g
        bear_at = self.police.get(BEAR, PARK)
        if self.phase != SPIN or self.truck < 0 or bear_at == PARK:
            return None
        route = g.bear_route[bear_at]
        if g.board.route_of[self.location(self.truck)] != route:
            return None
        extra = g.cards[self.card].extra if self.card >= 0 else 0
        return route, g.bear_limit - 1 - extra

    def chance_outcomes(self) -> Sequence[tuple[Action, Fraction]]:
        phase = self.phase
        if phase == DRAW:
            g = self.g
            pile = self.pile
            draws = g.draws
            share = g.shares[self.pile_left - 1]
            return [(draws[i], share[pile[i]]) for i in g.draw_order if pile[i]]
        if phase in (SPIN, START_SPIN):
            return self.g.band_outcomes[self.band()]  # an immutable, shared tuple
        return ()

    def legal_actions(self) -> tuple[Action, ...]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def _compute_legal(self) -> tuple[Action, ...]:
        phase = self.phase
        if phase == POLICE:
            found = self._police_actions()
        elif phase == CHOOSE:
            found = [self._choose_preview(t) for t in self._movable(self.turn)]
        elif phase == DECLARE:
            found = [DeclareTruck(self.g.trucks[t], self._on_curve(t))
                     for t in self._movable(self.turn)]
        elif phase == PLACE:
            smokey = SMOKEYS[self.placed]
            found = [PlaceSmokey(trap.id, smokey) for trap in self.g.board.traps]
        else:
            return ()
        return tuple(sorted(found, key=Action.key))

    def _police_actions(self, previews: bool = True) -> list[Action]:
        """The police moves; without `previews`, a Smokey's move does not say which
        trucks it would catch (a random playout does not read it)."""
        g = self.g
        in_park = [p for p in g.police if self.police[p] == PARK]
        out: list[Action] = []
        if in_park:
            smokeys = [p for p in in_park if p != BEAR]
            if smokeys:
                out.extend(Release(smokeys[0], trap.id) for trap in g.board.traps)
            if BEAR in in_park:
                out.extend(Release(BEAR, bear.id) for bear in g.board.bears)
            return out
        for smokey in SMOKEYS:
            for route in g.smokey_routes[self.police[smokey]]:
                catches = self._would_catch(route.to, route.into_trap) if previews else ()
                out.append(MoveSmokey(smokey, route.to, route.steps, route.via, route.into_trap,
                                      catches))
        if BEAR in self.police:
            here = self.police[BEAR]
            out.extend(MoveBear(b.id, b.route) for b in g.board.bears if b.id != here)
        return out

    def _would_catch(self, to: str, into_trap: bool) -> tuple[str, ...]:
        return tuple(self.g.trucks[t] for t in self._caught_by_smokey_at(to, into_trap))

    def _choose_preview(self, truck: int) -> ChooseTruck:
        g = self.g
        steps = self.spun + (g.cards[self.card].extra if self.card >= 0 else 0)
        new_pos = self.pos[truck] + steps
        if new_pos >= g.size:
            return ChooseTruck(g.trucks[truck], steps, HOME, False)
        index = (g.truck_start[truck] + new_pos) % g.size
        return ChooseTruck(g.trucks[truck], steps, g.board.loop[index],
                           self._catch_kind(index) is not None)

    def prompt(self) -> Prompt:
        g = self.g
        phase = self.phase
        name = g.seat_name(self.turn)
        if phase == OVER:
            names = " and ".join(g.seat_name(s) for s in self.winner)
            return Prompt("over", TERMINAL, f"10-4! {names} wins. ADIOS",
                          winners=tuple(self.winner))
        if phase == START_SPIN:
            seat = self.contenders[len(self.start_spins)]
            return Prompt("start_spin", seat, f"{g.seat_name(seat)}: spin the Hi-Band for "
                          "the starting order", band="hi")
        if phase == PLACE:
            seat = self.placed_seat()
            return Prompt("place_smokey", seat,
                          f"{g.seat_name(seat)}: put a Smokey into any Bear Trap")
        if phase == DECLARE:
            trucks = tuple(g.trucks[t] for t in self._movable(self.turn))
            return Prompt("declare_truck", self.turn, f"{name}: which truck will you move? "
                          "(Hammer Up: no card, Lo-Band)", trucks=trucks)
        truck = g.trucks[self.truck] if self.truck >= 0 else ""
        if phase == DRAW:
            return Prompt("draw", self.turn, f"{name}: draw a Mike card", truck=truck)
        card = g.cards[self.card] if self.card >= 0 else None
        extra = card.extra if card else 0
        b19 = card.break_one_nine if card else False
        if phase == SPIN:
            band = self.band()
            label = {"hi": "Hi-Band", "lo": "Lo-Band"}.get(band, f"{band} band")
            text = (f"{name}: Hammer Up! No card, spin the Lo-Band" if self.hammer
                    else f"{name}: spin the {label}" + (f" (+{extra})" if extra else ""))
            return Prompt("spin", self.turn, text, band=band, hammer=self.hammer,
                          card=card.id if card else "", extra=extra, break_one_nine=b19,
                          truck=truck)
        if phase == CHOOSE:
            trucks = tuple(g.trucks[t] for t in self._movable(self.turn))
            return Prompt("choose_truck", self.turn,
                          f"{name}: move either truck {self.spun + extra}", trucks=trucks,
                          spin=self.spun, extra=extra, card=card.id if card else "")
        in_park = tuple(p for p in g.police if self.police[p] == PARK)
        if in_park:
            return Prompt("release", self.turn,
                          f"{name}: BREAK ONE NINE! Take a police car out of {g.board.park}",
                          break_one_nine=True, pieces=in_park)
        what = "a Smokey or the Bear" if BEAR in self.police else "a Smokey"
        return Prompt("police", self.turn, f"{name}: BREAK ONE NINE! Move {what}",
                      break_one_nine=True)

    def describe(self, action: Action) -> str:
        """A short instruction a person can carry out on the board."""
        g = self.g
        if isinstance(action, Spin):
            return f"Spin {action.value}"
        if isinstance(action, Draw):
            return f"Draw Mike card {action.card}"
        if isinstance(action, PlaceSmokey):
            smokey = piece_name(g, action.smokey) if action.smokey else "a Smokey"
            return f"Put {smokey} {destination_phrase(g.board, action.trap)}"
        if isinstance(action, DeclareTruck):  # by where it stands, as the table finds it
            where = self.truck_where(g.truck_index[action.truck])
            return piece_at(g, action.truck, where) + (" (Hammer Up)" if action.hammer else "")
        if isinstance(action, ChooseTruck):
            truck = g.truck_index[action.truck]
            caught = ", caught!" if action.caught else ""
            return (f"{piece_at(g, action.truck, self.truck_where(truck))}: {action.steps} "
                    f"{destination_phrase(g.board, action.to)}{caught}")
        if isinstance(action, Release):
            return (f"{piece_name(g, action.piece)} "
                    f"{self._police_destination(action.piece, action.to)}")
        if isinstance(action, MoveSmokey):
            how = " by short cut" if action.via else ""
            where = destination_phrase(g.board, action.to)
            catches = (", catches " + "+".join(c.capitalize() for c in action.catches)
                       if action.catches else "")
            return (f"{piece_at(g, action.smokey, self.police[action.smokey])}: "
                    f"{action.steps} {where}{how}{catches}")
        if isinstance(action, MoveBear):
            watches = action.watches or g.bear_route.get(action.to, "")
            return f"Bear to the {watches.capitalize()} route"
        if isinstance(action, Correct):
            where = destination_phrase(g.board, action.location)
            return f"Set {piece_name(g, action.piece)} {where}"
        if isinstance(action, CorrectTurn):
            return f"It is {g.seat_name(action.seat)}'s turn"
        if isinstance(action, CorrectLostTurn):
            lost = "loses the next turn" if action.lost else "loses no turn"
            return f"{g.seat_name(action.seat)} {lost}"
        if isinstance(action, CorrectHammer):
            which = piece_name(g, action.truck)
            return f"Hammer Up for the {which}" if action.hammer else f"No Hammer Up: {which}"
        return action.key()

    def _police_destination(self, piece: str, to: str) -> str:
        if piece == BEAR:
            return f"to the {self.g.bear_route[to].capitalize()} route"
        return destination_phrase(self.g.board, to)

    def in_board_order(self, actions: Sequence[Action]) -> list[Action]:
        """The choices as a menu lists them (RULINGS G4): police moves piece by piece
        (Smokey 1, Smokey 2, the Bear), in board order: a Smokey's moves from where it
        stands onwards, traps and Bear spaces clockwise from the first route."""
        return sorted(actions, key=self._board_key)

    def _board_key(self, action: Action) -> tuple[int, int, int]:
        g = self.g
        board = g.board
        if isinstance(action, ChooseTruck | DeclareTruck):
            return (0, g.truck_index[action.truck], 0)
        if isinstance(action, PlaceSmokey):
            return (0, *board_rank(board, action.trap))
        if isinstance(action, Release | MoveSmokey | MoveBear):
            piece = action.piece if isinstance(action, Release) else (
                action.smokey if isinstance(action, MoveSmokey) else BEAR)
            rank, sub = board_rank(board, action.to)
            if isinstance(action, MoveSmokey):  # ahead of where it stands, nearest first
                rank = (rank - board_rank(board, self.police[piece])[0]) % (board.size + 2)
            return (g.police.index(piece) + 1, rank, sub)
        return (9, 0, 0)

    # -- apply -------------------------------------------------------------------------

    def apply(self, action: Action, player: int | None = None) -> list[Event]:
        if self.phase == OVER:
            raise IllegalAction(Reason.GAME_OVER, "the game is over")
        if isinstance(action, Correct):
            return self._correct(action)
        if isinstance(action, _TURN_CORRECTIONS):
            return self._correct_turn(action)
        events: list[Event] = []
        if self.phase in CHANCE_PHASES:
            if player is not None:
                raise IllegalAction(Reason.NOT_YOUR_TURN, "waiting for a chance outcome")
            if self.phase == DRAW:
                draw = self._check_draw(action)
                self._legal = None
                self._on_draw(draw, events)
            else:
                band = self.band()
                if not isinstance(action, Spin) or action.value not in self.g.band_values[band]:
                    raise IllegalAction(Reason.IMPOSSIBLE_OUTCOME,
                                        f"{action.key()} is not a {band} spin here")
                self._legal = None
                if self.phase == START_SPIN:
                    self._on_start_spin(action.value, events)
                else:
                    self._on_spin(action.value, band, events)
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
            self._on_place(chosen, events)
        elif isinstance(chosen, DeclareTruck):
            self._on_declare(self.g.truck_index[chosen.truck], events)
        elif isinstance(chosen, ChooseTruck):
            self._drive(self.g.truck_index[chosen.truck], events)
        elif isinstance(chosen, Release):
            self._on_release(chosen, events)
        elif isinstance(chosen, MoveSmokey):
            self._on_smokey(chosen, events)
        elif isinstance(chosen, MoveBear):
            self.police[BEAR] = chosen.to
            events.append(Event("bear_move", f"Bear In The Air to the "
                                f"{chosen.watches.capitalize()} route",
                                {"to": chosen.to, "route": chosen.watches}))
            self._end_turn(events)

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
                self._on_draw(draws[_drawn(self.pile, self.pile_left, draw_order,
                                           rng.random())], events)
            elif phase in (SPIN, START_SPIN):
                band = self.band()
                spin = sample_chance(band_outcomes[band], rng)
                self._legal = None
                if phase == START_SPIN:
                    self._on_start_spin(spin.value, events)
                else:
                    self._on_spin(spin.value, band, events)
            elif phase == CHOOSE:  # the choices in `legal_actions()` order, no previews
                movable = sorted(self._movable(self.turn), key=choose_keys.__getitem__)
                self._legal = None
                self._drive(movable[int(rng.random() * len(movable))], events)
            else:
                found = self._police_actions(previews=False) if phase == POLICE else None
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

    # -- start of the game ---------------------------------------------------------------

    def _on_start_spin(self, value: int, events: list[Event]) -> None:
        g = self.g
        seat = self.contenders[len(self.start_spins)]
        self.start_spins.append(value)
        events.append(Event("spin", f"{g.seat_name(seat)} spins {value}",
                            {"seat": seat, "value": value, "band": "hi", "start": True}))
        if len(self.start_spins) < len(self.contenders):
            return
        top = max(self.start_spins)
        tied = [s for s, v in zip(self.contenders, self.start_spins, strict=True) if v == top]
        self.start_spins = []
        if len(tied) > 1:
            self.contenders = tied
            names = ", ".join(g.seat_name(s) for s in tied)
            events.append(Event("start_tie", f"Tie at {top}: {names} spin again",
                                {"seats": tied, "value": top}))
            return
        self.contenders = []
        self.turn = tied[0]
        events.append(Event("start_order", f"{g.seat_name(tied[0])} goes first",
                            {"seat": tied[0], "value": top}))
        if g.two_player:
            self.phase = PLACE
        else:
            self._begin_turn(events)

    def _on_place(self, action: PlaceSmokey, events: list[Event]) -> None:
        smokey = SMOKEYS[self.placed]
        seat = self.placed_seat()
        self.police[smokey] = action.trap
        self.placed += 1
        events.append(Event("smokey_placed", f"{self.g.seat_name(seat)} puts "
                            f"{_smokey_name(smokey)} "
                            f"{destination_phrase(self.g.board, action.trap)}",
                            {"seat": seat, "smokey": smokey, "to": action.trap}))
        if self.placed == len(SMOKEYS):
            self._begin_turn(events)

    # -- a turn --------------------------------------------------------------------------

    def _begin_turn(self, events: list[Event]) -> None:
        """Start the next turn someone actually takes, skipping lost turns (T7)."""
        g = self.g
        while True:
            seat = self.turn
            self.turns += 1
            events.append(Event("turn", f"{g.seat_name(seat)}'s turn",
                                {"seat": seat, "number": self.turns}))
            if self.lose[seat]:
                self.lose[seat] = False
                events.append(Event("lost_turn", f"{g.seat_name(seat)} loses this turn "
                                    "(caught speeding)", {"seat": seat}))
                self.turn = (seat + 1) % g.num_players
                continue
            self._put_back_on_road(events)
            self._setup_turn(events)
            return

    def _setup_turn(self, events: list[Event]) -> None:
        """Decide how this turn is played: Hammer Up, a declaration, or a draw."""
        movable = self._movable(self.turn)
        self.card = -1
        self.hammer = False
        self.truck = -1
        self.spun = 0
        g = self.g
        curve, start, pos, size = g.board.on_curve, g.truck_start, self.pos, g.size
        on_curve = [t for t in movable if curve[(start[t] + pos[t]) % size]]  # _on_curve
        if len(movable) == 1:
            self.truck = movable[0]
            if on_curve:
                self._start_hammer(events)
                return
        elif on_curve:
            self.phase = DECLARE
            return
        self._to_draw(events)

    def _to_draw(self, events: list[Event]) -> None:
        if self.pile_left == 0:
            self.pile = [card.copies for card in self.g.cards]
            self.pile_left = sum(self.pile)
            events.append(Event("reshuffle", "All Mike cards used: reshuffle them and put "
                                "them back in the rig", {"cards": self.pile_left}))
        self.phase = DRAW

    def _start_hammer(self, events: list[Event]) -> None:
        self.hammer = True
        self.phase = SPIN
        truck = self.g.trucks[self.truck]
        events.append(Event("hammer_up", f"Hammer Up! {truck.capitalize()} truck: no card, "
                            "spin the Lo-Band", {"seat": self.turn, "truck": truck}))

    def _on_declare(self, truck: int, events: list[Event]) -> None:
        self.truck = truck
        if self._on_curve(truck):
            self._start_hammer(events)
        else:
            self._to_draw(events)

    def _on_draw(self, action: Draw, events: list[Event]) -> None:
        g = self.g
        index = g.card_index[action.card]
        card = g.cards[index]
        self.pile[index] -= 1
        self.pile_left -= 1
        self.card = index
        self.phase = SPIN
        events.append(LazyEvent("card_draw", partial(_card_draw_words, g, self.turn, card)))
        if card.break_one_nine:
            events.append(Event("break_one_nine", "BREAK ONE NINE! Move your truck, then a "
                                "police car", {"seat": self.turn}))

    def _on_spin(self, value: int, band: str, events: list[Event]) -> None:
        g = self.g
        events.append(Event("spin", f"{g.seat_name(self.turn)} spins {value}",
                            {"seat": self.turn, "value": value, "band": band}))
        if self.truck < 0:
            movable = self._movable(self.turn)
            if len(movable) > 1:
                self.spun = value
                self.phase = CHOOSE
                return
            self.truck = movable[0]
        self.spun = value
        self._drive(self.truck, events)

    def _drive(self, truck: int, events: list[Event]) -> None:
        """Move the truck spin + extra (unless the Bear catches it), then finish the turn."""
        g = self.g
        self.truck = truck
        card = g.cards[self.card] if self.card >= 0 else None
        steps = self.spun + (card.extra if card else 0)
        moved = True
        bear_at = self.police.get(BEAR, PARK)
        n = g.size
        here = (g.truck_start[truck] + self.pos[truck]) % n
        if (steps >= g.bear_limit and bear_at != PARK
                and g.bear_route[bear_at] == g.board.route_of[here]):
            moved = False
            events.append(LazyEvent("bear_catch", partial(
                _bear_catch_words, g, self.turn, truck, here, steps, bear_at)))
        else:
            self.pos[truck] += steps
            if self.pos[truck] >= n:
                events.append(LazyEvent("truck_move", partial(
                    _truck_move_words, g, truck, here, steps, True)))
                if all(self.pos[t] >= n for t in g.seat_trucks[self.turn]):
                    self._win(events)
                    return
            else:
                events.append(LazyEvent("truck_move", partial(
                    _truck_move_words, g, truck, here, steps, False)))
                self._check_truck(truck, events)
        if card is not None and card.break_one_nine and (
                moved or g.options["police_move_when_stuck"]):
            self.phase = POLICE
            return
        self._end_turn(events)

    def _win(self, events: list[Event]) -> None:
        self.phase = OVER
        self.winner = [self.turn]
        events.append(Event("winner", f"10-4, good buddy! {self.g.seat_name(self.turn)} wins",
                            {"seat": self.turn}))

    def _end_turn(self, events: list[Event]) -> None:
        self.turn = (self.turn + 1) % self.g.num_players
        self._begin_turn(events)

    # -- police ----------------------------------------------------------------------------

    def _on_release(self, action: Release, events: list[Event]) -> None:
        self.police[action.piece] = action.to
        where = self._police_destination(action.piece, action.to)
        events.append(Event("park_exit", f"{_smokey_name(action.piece)} out of "
                            f"{self.g.board.park} {where}",
                            {"piece": action.piece, "to": action.to}))
        if self.g.options["trap_catches_on_entry"] and action.piece != BEAR:
            self._catch_by_smokey(action.piece, events)
        self._end_turn(events)

    def _on_smokey(self, action: MoveSmokey, events: list[Event]) -> None:
        name = piece_at(self.g, action.smokey, self.police[action.smokey])
        self.police[action.smokey] = action.to
        where = destination_phrase(self.g.board, action.to)
        data = {"smokey": action.smokey, "to": action.to, "steps": action.steps,
                "via": action.via}
        if action.into_trap:
            events.append(Event("smokey_trap_move", f"{name}: {action.steps} {where}", data))
        else:
            how = f" by the {place_name(self.g.board, action.via)}" if action.via else ""
            events.append(Event("smokey_exact_move", f"{name}: {action.steps}{how} {where}",
                                data))
        if action.via:
            events.append(Event("shortcut_move", f"{_smokey_name(action.smokey)} takes the "
                                f"{place_name(self.g.board, action.via)}", data))
        self._catch_by_smokey(action.smokey, events)
        self._end_turn(events)

    # -- catches (T5, T6, T7) -----------------------------------------------------------

    def _catch_kind(self, index: int) -> tuple[str, str] | None:
        """Would a truck ending its move on loop index `index` be caught, and by whom?"""
        board = self.g.board
        n = self.g.size
        police = self.police
        for smokey in SMOKEYS:
            at = board.index.get(police.get(smokey, PARK))
            if at is not None and (index - at) % n in (0, 1, n - 1):
                return ("smokey_catch", smokey)
        for trap_id in board.traps_at[index]:
            for smokey in SMOKEYS:
                if police.get(smokey) == trap_id:
                    return ("trap_catch", smokey)
        return None

    def _check_truck(self, truck: int, events: list[Event]) -> None:
        """After a truck move: is the moved truck caught where it ended?"""
        if self.side[truck] and self.g.options["sidelined_immune"]:
            return
        found = self._catch_kind(self.location(truck))
        if found is not None:
            self._caught(truck, found[0], found[1], events)

    def _caught_by_smokey_at(self, to: str, into_trap: bool) -> list[int]:
        """Trucks a Smokey ending at `to` catches: adjacency on the highway (T5); in a
        trap only if the option says trucks already there are caught (T6)."""
        board = self.g.board
        n = self.g.size
        immune = self.g.options["sidelined_immune"]
        caught: list[int] = []
        at = board.index.get(to)
        if at is None and not (into_trap and self.g.options["trap_catches_on_entry"]):
            return caught
        trap_spaces = ({board.index[s] for s in board.trap(to).spaces} if at is None
                       else set())
        for t in range(len(self.pos)):
            if self.is_home(t) or (self.side[t] and immune):
                continue
            where = self.location(t)
            if (at is not None and (where - at) % n in (0, 1, n - 1)) or where in trap_spaces:
                caught.append(t)
        return caught

    def _catch_by_smokey(self, smokey: str, events: list[Event]) -> None:
        to = self.police[smokey]
        kind = "smokey_catch" if to in self.g.board.index else "trap_catch"
        for t in self._caught_by_smokey_at(to, to in self.g.trap_ids):
            self._caught(t, kind, smokey, events)

    def _caught(self, truck: int, kind: str, smokey: str, events: list[Event]) -> None:
        g = self.g
        owner = g.truck_owner[truck]
        space = g.board.loop[self.location(truck)]
        self.side[truck] = True
        self.lose[owner] = True
        events.append(LazyEvent(kind, partial(_caught_words, g, owner, truck, smokey, space)))

    # -- helpers -----------------------------------------------------------------------------

    def _movable(self, seat: int) -> list[int]:
        """The seat's trucks not yet home (`is_home`, inlined: asked every turn)."""
        size = self.g.size
        pos = self.pos
        return [t for t in self.g.seat_trucks[seat] if pos[t] < size]

    def _on_curve(self, truck: int) -> bool:
        return self.g.board.on_curve[self.location(truck)]

    # -- corrections (RULINGS G1) -----------------------------------------------------------

    def correction_options(self) -> dict[str, list[str]]:
        """Piece id -> every location the table may set it to."""
        g = self.g
        board = g.board
        out: dict[str, list[str]] = {}
        truck_places = [*board.loop, *(SIDE + s for s in board.loop), HOME]
        for colour in g.trucks:
            out[colour] = list(truck_places)
        smokey_places = [*board.loop, *(t.id for t in board.traps),
                         *(c.id for c in board.shortcuts)]
        if not g.two_player:
            smokey_places.append(PARK)
        for smokey in SMOKEYS:
            out[smokey] = list(smokey_places)
        if BEAR in self.police:
            out[BEAR] = [*(b.id for b in board.bears), PARK]
        return out

    def _correct(self, action: Correct) -> list[Event]:
        options = self.correction_options()
        if action.piece not in options:
            raise IllegalAction(Reason.NOT_LEGAL_NOW, f"no piece {action.piece!r} to correct; "
                                f"pieces are {', '.join(options)}")
        if action.location not in options[action.piece]:
            raise IllegalAction(Reason.NOT_LEGAL_NOW, f"{action.piece} cannot be set to "
                                f"{action.location!r}")
        self._legal = None
        events = [Event("correction", f"Correction: {piece_name(self.g, action.piece)} set "
                        f"{destination_phrase(self.g.board, action.location)}",
                        {"piece": action.piece,
                                               "location": action.location})]
        if action.piece in self.police:
            self.police[action.piece] = action.location
            return events
        self._set_truck(self.g.truck_index[action.piece], action.location)
        self._settle_after_correction(events)
        return events

    def turn_corrections(self) -> dict[str, bool]:
        """Which turn corrections (G5) fit this moment: "turn" before the card is drawn,
        "hammer_on" when the turn's truck is known and no card is drawn, "hammer_off"
        on a Hammer Up turn before its spin; a lost turn can always be set."""
        phase = self.phase
        no_card = phase in (DRAW, DECLARE) or (phase == SPIN and self.card < 0)
        return {"turn": no_card, "lost_turn": phase != OVER,
                "hammer_on": phase == DRAW and self.truck >= 0,
                "hammer_off": phase == SPIN and self.hammer}

    def _correct_turn(self, action: CorrectTurn | CorrectLostTurn | CorrectHammer
                      ) -> list[Event]:
        """Whose turn, a lost turn, a Hammer Up (RULINGS G5): validated first, so a
        refused correction changes nothing."""
        g = self.g
        allowed = self.turn_corrections()
        events: list[Event] = []
        if isinstance(action, CorrectTurn | CorrectLostTurn):
            seat = action.seat
            if isinstance(seat, bool) or not isinstance(seat, int) or not (
                    0 <= seat < g.num_players):
                raise IllegalAction(Reason.NOT_LEGAL_NOW, f"no seat {seat!r}; seats are "
                                    f"0..{g.num_players - 1}")
        if isinstance(action, CorrectTurn):
            if not allowed["turn"]:
                raise IllegalAction(Reason.NOT_LEGAL_NOW, "whose turn it is can be corrected "
                                    "only before the turn's card is drawn")
            self._legal = None
            self.turn = action.seat
            events.append(Event("correction", f"Correction: it is {g.seat_name(self.turn)}'s "
                                "turn", {"turn": self.turn}))
            self._put_back_on_road(events)
            self._setup_turn(events)
            return events
        if isinstance(action, CorrectLostTurn):
            if not isinstance(action.lost, bool) or not allowed["lost_turn"]:
                raise IllegalAction(Reason.NOT_LEGAL_NOW, f"lost must be true or false, not "
                                    f"{action.lost!r}")
            self.lose[action.seat] = action.lost
            name = g.seat_name(action.seat)
            text = f"{name} loses the next turn" if action.lost else f"{name} loses no turn"
            return [Event("correction", f"Correction: {text}",
                          {"seat": action.seat, "lost": action.lost})]
        return self._correct_hammer(action, allowed)

    def _correct_hammer(self, action: CorrectHammer, allowed: dict[str, bool]) -> list[Event]:
        g = self.g
        truck = g.truck_index.get(action.truck) if isinstance(action.truck, str) else None
        if truck is None or not isinstance(action.hammer, bool):
            raise IllegalAction(Reason.NOT_LEGAL_NOW, f"no truck {action.truck!r} or hammer "
                                f"{action.hammer!r} not true/false")
        events: list[Event] = []
        if action.hammer:
            if not allowed["hammer_on"] or truck != self.truck:
                raise IllegalAction(Reason.NOT_LEGAL_NOW, "a Hammer Up can be set only for the "
                                    "turn's truck, before its card is drawn")
            self._legal = None
            events.append(Event("correction", f"Correction: {g.truck_names[truck]} plays "
                                "Hammer Up", {"truck": action.truck, "hammer": True}))
            self._start_hammer(events)
            return events
        if not allowed["hammer_off"] or truck != self.truck:
            raise IllegalAction(Reason.NOT_LEGAL_NOW, "only a Hammer Up turn waiting for its "
                                "spin can be turned into a turn with a card")
        self._legal = None
        self.hammer = False
        events.append(Event("correction", f"Correction: no Hammer Up for the "
                            f"{g.truck_names[truck]}: draw a card",
                            {"truck": action.truck, "hammer": False}))
        self._to_draw(events)
        return events

    def _put_back_on_road(self, events: list[Event]) -> None:
        """The trucks of the player whose turn starts leave the side of the road (T7)."""
        g = self.g
        for t in g.seat_trucks[self.turn]:
            if self.side[t]:
                self.side[t] = False
                events.append(Event("back_on_road", f"{g.trucks[t].capitalize()} truck "
                                    "goes back onto the road",
                                    {"seat": self.turn, "truck": g.trucks[t]}))

    def _set_truck(self, truck: int, location: str) -> None:
        g = self.g
        if location == HOME:
            self.pos[truck] = g.size
            self.side[truck] = False
            return
        sidelined = location.startswith(SIDE)
        space = location[len(SIDE):] if sidelined else location
        self.pos[truck] = (g.board.index[space] - g.truck_start[truck]) % g.size
        owner = g.truck_owner[truck]
        if sidelined and not self.side[truck]:
            self.lose[owner] = True
        self.side[truck] = sidelined
        if not sidelined and not any(self.side[t] for t in g.seat_trucks[owner]):
            self.lose[owner] = False  # back on the road: no lost turn is pending

    def _settle_after_correction(self, events: list[Event]) -> None:
        """A corrected truck may finish the game or change what the turn waits for."""
        g = self.g
        for seat in range(g.num_players):
            if all(self.is_home(t) for t in g.seat_trucks[seat]):
                self.turn = seat
                self._win(events)
                return
        if self.phase == CHOOSE:
            movable = self._movable(self.turn)
            if len(movable) == 1:
                self._drive(movable[0], events)
        elif self.phase == DECLARE:
            self._setup_turn(events)
        elif self.phase in (DRAW, SPIN) and self.truck >= 0 and self.is_home(self.truck):
            if self.card >= 0:
                self.truck = -1  # the card stays drawn; the spin decides which truck moves
            else:
                self._setup_turn(events)  # no card used yet: set the turn up again

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
            state._load(data)
        except (KeyError, TypeError, IndexError, AttributeError) as exc:
            raise ValueError(f"not a saved 10-Four state for this game: {exc!r}") from exc
        return state

    def _load(self, data: JSON) -> None:
        g = self.g
        if data["phase"] not in PHASES:
            raise ValueError(f"unknown phase {data['phase']!r}")
        self.phase = data["phase"]
        self.turn = int(data["turn"])
        self.turns = int(data["turns"])
        trucks = data["trucks"]
        if set(trucks) != set(g.trucks):
            raise ValueError(f"trucks {sorted(trucks)} do not match the seats")
        self.pos = [int(trucks[c]["driven"]) for c in g.trucks]
        self.side = [bool(trucks[c]["side"]) for c in g.trucks]
        self.lose = [bool(v) for v in data["lose_next_turn"]]
        if set(data["police"]) != set(g.police):
            raise ValueError("police pieces do not match the variant")
        self.police = {p: str(data["police"][p]) for p in g.police}
        self.pile = [int(data["pile"][card.id]) for card in g.cards]
        self.pile_left = sum(self.pile)
        self.card = g.card_index[data["card"]] if data["card"] is not None else -1
        self.hammer = bool(data["hammer"])
        self.truck = g.truck_index[data["truck"]] if data["truck"] is not None else -1
        self.spun = int(data["spun"])
        self.contenders = [int(v) for v in data["contenders"]]
        self.start_spins = [int(v) for v in data["start_spins"]]
        self.placed = int(data["placed"])
        self.winner = [int(v) for v in data["winners"]]
        self._validate()

    def _validate(self) -> None:
        """Refuse a saved state that no game could reach in its shape."""
        g = self.g
        seats = range(g.num_players)
        places = self.correction_options()
        problems = [
            (self.turn not in seats, f"turn {self.turn}"),
            (len(self.lose) != g.num_players, "lose_next_turn"),
            (any(p < 0 or p > g.size + 99 for p in self.pos), "trucks driven"),
            (any(self.police[p] not in places[p] + [PARK] for p in g.police), "police"),
            (any(not 0 <= n <= c.copies for n, c in zip(self.pile, g.cards, strict=True)),
             "pile"),
            (any(s not in seats for s in [*self.contenders, *self.winner]), "seats"),
            (not 0 <= self.placed <= len(SMOKEYS), "placed"),
        ]
        for bad, what in problems:
            if bad:
                raise ValueError(f"saved state has an impossible {what}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TenFourState):
            return NotImplemented
        same_game = self.g is other.g or self.g.identity() == other.g.identity()
        return same_game and all(getattr(self, n) == getattr(other, n) for n in _COMPARED)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"TenFourState({self.to_json()!r})"


_COMPARED = tuple(n for n in TenFourState.__slots__ if n not in ("_legal", "g"))
"""The fields that make up a position (the game itself is compared by identity)."""


_TURN_CORRECTIONS = (CorrectTurn, CorrectLostTurn, CorrectHammer)
"""Corrections of whose turn it is and how it is played (RULINGS G5)."""


def _card_draw_words(g: TenFourGame, seat: int, card: Card) -> tuple[str, dict[str, JSON]]:
    return (f"{g.seat_name(seat)} draws: {card.text}",
            {"seat": seat, "card": card.id, "band": card.band, "extra": card.extra,
             "break_one_nine": card.break_one_nine})


def _bear_catch_words(g: TenFourGame, seat: int, truck: int, here: int, steps: int,
                      bear_at: str) -> tuple[str, dict[str, JSON]]:
    return (f"{g.truck_names[truck]} at {g.board.loop[here]} caught speeding ({steps}) on "
            f"the {g.board.route_of[here].capitalize()} route: no move",
            {"seat": seat, "truck": g.trucks[truck], "steps": steps, "bear": bear_at})


def _truck_move_words(g: TenFourGame, truck: int, here: int, steps: int,
                      home: bool) -> tuple[str, dict[str, JSON]]:
    """A truck's move from loop index `here`; `home`: it drove past the end."""
    name = g.truck_names[truck]
    start = g.board.loop[here]
    if home:
        return (f"{name} at {start}: {steps} ahead, home!",
                {"truck": g.trucks[truck], "steps": steps, "to": HOME, "from": start})
    to = g.board.loop[(here + steps) % g.size]
    return (f"{name} at {start}: {steps} ahead to {to}",
            {"truck": g.trucks[truck], "steps": steps, "to": to, "from": start})


def _caught_words(g: TenFourGame, owner: int, truck: int, smokey: str,
                  space: str) -> tuple[str, dict[str, JSON]]:
    return (f"{g.trucks[truck].capitalize()} truck at {space} caught by "
            f"{_smokey_name(smokey)}: to the side of the road, loses next turn",
            {"seat": owner, "truck": g.trucks[truck], "smokey": smokey, "space": space})


def _smokey_name(piece: str) -> str:
    if piece == BEAR:
        return "Bear"
    return f"Smokey {piece[-1]}" if piece.startswith("smokey") else piece


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
