"""The `strong` computer level for 10-Four, Good Buddy: a one-ply search scored by an
analytic evaluation of catch risk from the exact spin and card distributions.

Every legal action is applied to a clone of the state with the engine's own `apply`
(so catches, lost turns, Hammer Up and the end of the turn are exactly what the rules
do). When the action leaves the same player to make a police move (a two-player truck
choice on a BREAK ONE NINE card), the best police move is searched too. The resulting
position is scored for every seat, in spaces:

  value(seat) = - spaces its trucks still have to drive
                - turn_value * turns it will lose (caught now, or pending)
                + landing * E[quality of its next move]
                - turn_value * P(an opponent catches one of its trucks with a
                                 BREAK ONE NINE police move before its next turn)

The next move's quality takes the exact distribution of steps for the seat's next turn:
the cards still in the draw pile (band, extra spaces) and the band's segments, or the
Lo-Band alone on a Hammer Up turn. A step that ends where a Smokey catches (on, beside
or in a trap with a Smokey) costs a turn; one that ends on a Hammer Up curve costs
`hammer`; a step the Bear forbids (spin + extra >= the limit from its watched route)
gives no progress; steps past the start space are wasted. In the two-player game the
owner picks the better truck for each step, as they will after the spin, and declares
the better truck on a Hammer Up turn.

The police threat: each opponent who plays before the seat's next turn draws BREAK ONE
NINE with the pile's exact share; it then catches a truck of the seat with probability
`alpha` if any Smokey move does so without catching its own trucks (a careful
opponent), plus (1 - alpha) times the share of its police moves that would (a careless
one).

The action chosen maximises value(me) - (leader * best opponent + (1 - leader) * mean
opponent). So police moves catch the leaders now, sit Smokeys and traps in the likely
landing zones of the opponents who play next and away from the mover's own, and keep
Smokeys out of reach of the mover's trucks; the Bear goes where it forbids the most
opponents' long moves. The choice of truck avoids catches, curves and Smokey reach.

Pure and deterministic: no I/O, clock or global randomness; the passed rng only breaks
exact ties. Per-game tables are cached by game object.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Final
from weakref import WeakKeyDictionary

from engine.api import Action, State, json_int
from engine.search import SearchHooks, checked_weights, fitted_logit, search_choice
from engine.selfplay import Rng, pick_best
from engine.tenfour.actions import DeclareTruck
from engine.tenfour.game import TenFourGame
from engine.tenfour.phases import DECLARE, OVER, POLICE
from engine.tenfour.places import BEAR, PARK, SMOKEYS
from engine.tenfour.state import TenFourState
from valueclass import Frozen

if TYPE_CHECKING:
    from engine.tenfour.kinds import EventKind

WIN = 1.0e6
"""Score of a position the mover has won (and minus it for one an opponent has won)."""

LOST_TURN: Final[EventKind] = "lost_turn"
"""The event a skipped turn makes (named once, checked against the game's kinds)."""


class Weights(Frozen):
    """Tunable weights of the evaluation (defaults measured, see docs/AI_TENFOUR.md)."""

    turn_value: float = 0.0
    """Spaces a lost turn costs; 0: the deck's mean card move (4.68 for the default)."""
    hammer: float = -1.0
    """Spaces a Hammer Up turn costs; negative: the deck's mean card move less the
    Lo-Band's mean (1.18 for the default)."""
    landing: float = 1.0
    """Weight of the expected quality of each seat's next move."""
    police_risk: float = 1.0
    """Weight of the chance of being caught by an opponent's police move."""
    alpha: float = 0.5
    """Share of opponents assumed to pick a catching police move when one exists."""
    leader: float = 0.5
    """Opponents' aggregate: leader * best opponent + (1 - leader) * mean opponent."""
    future: float = 0.5
    """Weight of the chance of ending a later move (2nd to horizon-th) in a catch zone."""
    horizon: int = 3
    """Moves ahead the catch zones are looked at."""
    persist: float = 0.8
    """Discount per further move (the police may move away meanwhile)."""
    bear: float = 1.0
    """Weight of the progress later turns lose to the Bear."""
    b19_bonus: float = 1.5
    """Worth of drawing a card (a chance of BREAK ONE NINE) over a Hammer Up spin, per
    unit of BREAK ONE NINE probability, in turn_value units."""


DEFAULT_WEIGHTS = Weights()


class _Tables:
    """Per-game lookups."""

    def __init__(self, g: TenFourGame) -> None:
        board = g.board
        self.g = g
        self.n = g.size
        self.index = dict(board.index)
        self.route_of = board.route_of
        self.on_curve = board.on_curve
        self.trap_spaces = {t.id: tuple(board.index[s] for s in t.spaces) for t in board.traps}
        self.bear_route = dict(g.bear_route)
        self.bear_limit = g.bear_limit
        self.band: dict[str, list[tuple[int, float]]] = {
            name: [(spin.value, float(p)) for spin, p in outcomes]
            for name, outcomes in g.band_outcomes.items()}
        self.hammer_dist = self.band.get("lo", [])
        self.cards = [(c.band, c.extra, c.break_one_nine) for c in g.cards]
        self.full_pile = [c.copies for c in g.cards]
        self.hammer_mean = sum(d * p for d, p in self.hammer_dist)
        deck = float(sum(self.full_pile))
        self.card_mean = sum(count / deck * (extra + sum(v * p for v, p in self.band[band]))
                             for count, (band, extra, _) in zip(self.full_pile, self.cards,
                                                                 strict=True))
        """The mean move of a card turn with a full deck."""
        # Smokey destinations from every location: the highway spaces a Smokey ending
        # there catches trucks on (none from a short cut, nor from a trap unless the
        # trap_catches_on_entry option says trucks already on its spaces are caught).
        entry = bool(g.options["trap_catches_on_entry"])
        self.routes: dict[str, list[frozenset[int]]] = {}
        for loc, routes in g.smokey_routes.items():
            found = []
            for r in routes:
                at = board.index.get(r.to)
                if at is not None:
                    found.append(frozenset(((at - 1) % self.n, at, (at + 1) % self.n)))
                elif r.into_trap and entry:
                    found.append(frozenset(self.trap_spaces[r.to]))
                else:
                    found.append(frozenset())
            self.routes[loc] = found
        self.immune = bool(g.options["sidelined_immune"])
        self._draws: dict[tuple[float, ...], _Draws] = {}

    def draws(self, pile: Sequence[int], horizon: int, persist: float) -> _Draws:
        """The steps distribution of a card turn for this pile (memoised)."""
        key = (*pile, horizon, persist)
        found = self._draws.get(key)
        if found is None:
            if len(self._draws) >= 4096:
                self._draws.clear()
            found = self._draws[key] = _Draws(self, pile, horizon, persist)
        return found


_CACHE: WeakKeyDictionary[TenFourGame, _Tables] = WeakKeyDictionary()


def _tables(g: TenFourGame) -> _Tables:
    found = _CACHE.get(g)
    if found is None:
        found = _CACHE[g] = _Tables(g)
    return found


class _Draws:
    """The steps distribution of a turn with a card, from the cards left in the pile."""

    def __init__(self, t: _Tables, pile: Sequence[int], horizon: int, persist: float) -> None:
        if not sum(pile):
            pile = t.full_pile
        total = float(sum(pile))
        steps: dict[int, float] = {}
        self.b19 = 0.0
        for count, (band, extra, b19) in zip(pile, t.cards, strict=True):
            if not count:
                continue
            share = count / total
            if b19:
                self.b19 += share
            for value, p in t.band[band]:
                d = value + extra
                steps[d] = steps.get(d, 0.0) + share * p
        self.dist = sorted(steps.items())
        # later[o]: chance that a move after the next one (the 2nd .. horizon-th) ends
        # o spaces ahead, each further move discounted by `persist` (the police may
        # have moved by then).
        self.later: list[float] = []
        # starts[o]: chance that a later turn (2nd .. horizon-th) starts o spaces ahead.
        self.starts: list[float] = []
        self.bear_loss = sum(p * d for d, p in self.dist if d >= t.bear_limit)
        """Expected progress a card turn loses to the Bear on its watched route."""
        reach = [1.0]  # distribution of the sum of k moves, k = 0
        for k in range(1, horizon + 1):
            nxt = [0.0] * (len(reach) + self.dist[-1][0])
            for o, q in enumerate(reach):
                if q:
                    for d, p in self.dist:
                        nxt[o + d] += q * p
            reach = nxt
            if k < horizon:
                if len(self.starts) < len(reach):
                    self.starts.extend([0.0] * (len(reach) - len(self.starts)))
                for o, q in enumerate(reach):
                    self.starts[o] += persist ** k * q
            if k >= 2:
                if len(self.later) < len(reach):
                    self.later.extend([0.0] * (len(reach) - len(self.later)))
                scale = persist ** (k - 1)
                for o, q in enumerate(reach):
                    self.later[o] += scale * q


class _Eval:
    """Scores positions for one decision (the pile is fixed during the decision)."""

    def __init__(self, state: TenFourState, w: Weights) -> None:
        self.t = _tables(state.g)
        self.w = w
        self.draws = self.t.draws(state.pile, w.horizon, w.persist)
        self.turn_value = w.turn_value if w.turn_value > 0 else self.t.card_mean
        self.hammer = w.hammer if w.hammer >= 0 else max(0.0, self.t.card_mean
                                                          - self.t.hammer_mean)

    # -- the position ------------------------------------------------------------------

    def score(self, s: TenFourState, me: int, lost: Sequence[int]) -> float:
        """value(me) minus the opponents' aggregate; `lost` are seats whose turns were
        skipped while the action was applied."""
        g = s.g
        if s.phase == OVER:
            return WIN if me in s.winner else -WIN
        w = self.w
        caught = self._catch_map(s)
        penalty = self._penalties(caught)
        zone = [i for i, c in enumerate(caught) if c]
        values = []
        for seat in range(g.num_players):
            left, turns_lost, landing, risk, bear = self._seat_parts(s, seat, lost, zone,
                                                                     penalty)
            v = -float(left)
            v -= self.turn_value * turns_lost
            v += w.landing * landing
            v -= w.future * self.turn_value * risk
            v -= w.bear * bear
            values.append(v)
        if w.police_risk:
            self._police_threat(s, values)
        mine = values[me]
        others = [v for seat, v in enumerate(values) if seat != me]
        best = max(others)
        mean = sum(others) / len(others)
        return mine - (w.leader * best + (1.0 - w.leader) * mean)

    def _seat_parts(self, s: TenFourState, seat: int, lost: Sequence[int],
                    zone: Sequence[int], penalty: list[float]
                    ) -> tuple[int, int, float, float, float]:
        """A seat's parts of the score, unweighted: spaces left, turns lost, the next
        move's quality, the chance of a later move ending where a Smokey catches, the
        progress later turns lose to the Bear (the fitted leaf of `hard` weighs them
        itself, `score` with the `Weights`)."""
        g = s.g
        t = self.t
        w = self.w
        n = t.n
        left = 0
        for truck in g.seat_trucks[seat]:
            left += max(0, n - s.pos[truck])
        turns_lost = lost.count(seat) + (1 if s.lose[seat] else 0)
        landing = self._next_move(s, seat, penalty)
        risk = 0.0
        if w.future and zone:
            later = self.draws.later
            for truck in g.seat_trucks[seat]:
                togo = n - s.pos[truck]
                if togo <= 0:
                    continue
                loc = self._loc(s, truck)
                for x in zone:
                    o = (x - loc) % n
                    if 0 < o < togo and o < len(later):
                        risk += later[o]
        bear = 0.0
        watched = t.bear_route.get(s.police.get(BEAR, PARK), "")
        if w.bear and watched:
            bear = self._bear_risk(s, seat, watched)
        return left, turns_lost, landing, risk, bear

    def _bear_risk(self, s: TenFourState, seat: int, watched: str) -> float:
        """Expected progress the seat's later turns lose to the Bear where it watches."""
        t = self.t
        n = t.n
        starts = self.draws.starts
        route_of = t.route_of
        total = 0.0
        for truck in s.g.seat_trucks[seat]:
            left = n - s.pos[truck]
            loc = self._loc(s, truck)
            for o in range(1, min(left, len(starts))):
                if route_of[(loc + o) % n] == watched:
                    total += starts[o]
        return total * self.draws.bear_loss

    def _catch_map(self, s: TenFourState) -> list[bool]:
        """Highway spaces where a truck ending its move is caught now."""
        t = self.t
        n = t.n
        caught = [False] * n
        for smokey in SMOKEYS:
            loc = s.police.get(smokey, PARK)
            at = t.index.get(loc)
            if at is not None:
                caught[at] = caught[(at + 1) % n] = caught[(at - 1) % n] = True
            elif loc in t.trap_spaces:
                for i in t.trap_spaces[loc]:
                    caught[i] = True
        return caught

    def _penalties(self, caught: list[bool]) -> list[float]:
        """Cost of a move ending on each highway space: a catch, a Hammer Up curve."""
        t = self.t
        return [self.turn_value * c + self.hammer * h
                for c, h in zip(caught, t.on_curve, strict=True)]

    def _gains(self, s: TenFourState, truck: int, dist: Sequence[tuple[int, float]],
               penalty: list[float]) -> list[float]:
        """Quality of moving `truck` each step count of `dist`: the progress less the
        cost where it ends; nothing if the Bear forbids it; no waste past home."""
        t = self.t
        n = t.n
        loc = (s.g.truck_start[truck] + s.pos[truck]) % n
        bear = s.police.get(BEAR, PARK)
        limit = (t.bear_limit if bear != PARK and t.bear_route.get(bear) == t.route_of[loc]
                 else 1 << 30)
        left = n - s.pos[truck]
        out = []
        for d, _ in dist:
            if d >= limit:
                out.append(0.0)
            elif d >= left:
                out.append(float(left))
            else:
                out.append(d - penalty[(loc + d) % n])
        return out

    def _expected(self, s: TenFourState, trucks: Sequence[int],
                  dist: Sequence[tuple[int, float]], penalty: list[float]) -> float:
        """Expected quality of the move, the owner picking the truck after the spin."""
        rows = [self._gains(s, truck, dist, penalty) for truck in trucks]
        best = rows[0]
        for row in rows[1:]:
            best = [max(a, b) for a, b in zip(best, row, strict=True)]
        total = 0.0
        for (_, p), g in zip(dist, best, strict=True):
            total += p * g
        return total

    def _next_move(self, s: TenFourState, seat: int, penalty: list[float]) -> float:
        """Expected quality of the seat's next move, choosing the truck as it may."""
        t = self.t
        movable = [tr for tr in s.g.seat_trucks[seat] if s.pos[tr] < t.n]
        if not movable:
            return 0.0
        if s.turn == seat and s.phase != DECLARE and s.truck >= 0:
            movable = [s.truck]
        on_curve = [tr for tr in movable if t.on_curve[self._loc(s, tr)]]
        card = self.w.b19_bonus * self.turn_value * self.draws.b19 * 0.5
        if not on_curve:
            return self._expected(s, movable, self.draws.dist, penalty) + card
        options = []
        for tr in movable:
            if tr in on_curve:
                options.append(self._expected(s, [tr], t.hammer_dist, penalty))
            else:
                options.append(self._expected(s, [tr], self.draws.dist, penalty) + card)
        return max(options)

    def _loc(self, s: TenFourState, truck: int) -> int:
        return (s.g.truck_start[truck] + s.pos[truck]) % self.t.n

    def _police_threat(self, s: TenFourState, values: list[float]) -> None:
        """Subtract from each seat the chance that an opponent playing before its next
        turn catches one of its trucks with a BREAK ONE NINE police move."""
        t = self.t
        g = s.g
        n = t.n
        players = g.num_players
        police = s.police
        if any(police[p] == PARK for p in g.police):
            return  # the next police moves are releases: no catches (by default)
        road = [(truck, self._loc(s, truck)) for truck in range(len(s.pos))
                if s.pos[truck] < n and not (s.side[truck] and t.immune)]
        # The trucks each police option would catch.
        hits: list[list[int]] = []
        for smokey in SMOKEYS:
            for spaces in t.routes.get(police[smokey], ()):
                hits.append([truck for truck, where in road if where in spaces])
        if BEAR in police:
            hits.extend([] for _ in range(len(t.bear_route) - 1))
        if not hits:
            return
        options = float(len(hits))
        owner = g.truck_owner
        alpha = self.w.alpha
        risk = self.w.police_risk * self.turn_value * self.draws.b19
        # Seats in play order from the one about to play.
        order = [(s.turn + k) % players for k in range(players)]
        for pos_in_order, seat in enumerate(order):
            if pos_in_order == 0:
                continue  # it plays next: nobody's police move comes first
            for actor in order[:pos_in_order]:
                if actor != s.turn and s.lose[actor]:
                    continue
                bad = 0
                clean = False
                for found in hits:
                    victims = {owner[tr] for tr in found}
                    if seat in victims:
                        bad += 1
                        if actor not in victims:
                            clean = True
                p = alpha * (1.0 if clean else 0.0) + (1.0 - alpha) * bad / options
                values[seat] -= risk * p

    # -- decisions -----------------------------------------------------------------------

    def declare(self, s: TenFourState, action: DeclareTruck) -> float:
        """A two-player declaration, by the expected quality of that truck's move."""
        t = self.t
        truck = s.g.truck_index[action.truck]
        penalty = self._penalties(self._catch_map(s))
        if action.hammer:
            return self._expected(s, [truck], t.hammer_dist, penalty)
        return (self._expected(s, [truck], self.draws.dist, penalty)
                + self.w.b19_bonus * self.turn_value * self.draws.b19 * 0.5)

    def after(self, s: TenFourState, me: int, lost: list[int], depth: int) -> float:
        """Score a position reached by an action; search my own police move next."""
        if s.phase == POLICE and s.turn == me and depth < 2:
            best = -2 * WIN
            for action in s.legal_actions():
                child = s.clone()
                events = child.apply(action)
                more = lost + [json_int(e.data["seat"]) for e in events if e.kind == LOST_TURN]
                best = max(best, self.after(child, me, more, depth + 1))
            return best
        return self.score(s, me, lost)


def evaluate_actions(state: TenFourState, legal: Sequence[Action],
                     weights: Weights = DEFAULT_WEIGHTS) -> list[float]:
    """The score of each legal action for the player to move (higher is better)."""
    ev = _Eval(state, weights)
    me = state.current_player()
    scores = []
    for action in legal:
        if state.phase == DECLARE and isinstance(action, DeclareTruck):
            scores.append(ev.declare(state, action))
            continue
        child = state.clone()
        events = child.apply(action)
        lost = [json_int(e.data["seat"]) for e in events if e.kind == LOST_TURN]
        scores.append(ev.after(child, me, lost, 0))
    return scores


def choose(state: TenFourState, legal: Sequence[Action], rng: Rng,
           weights: Weights = DEFAULT_WEIGHTS) -> Action:
    """The best action by `evaluate_actions`; the rng breaks exact ties."""
    if len(legal) == 1:
        return legal[0]
    return pick_best(legal, evaluate_actions(state, legal, weights), rng)


def strong_choice(state: State, legal: Sequence[Action], rng: Rng) -> Action:
    """The `strong` level (engine.players): the best action by `evaluate_actions`."""
    if not isinstance(state, TenFourState):
        raise TypeError("strong_choice plays 10-Four states only")
    return choose(state, legal, rng)


# -- the `hard` level: engine.search over the `medium` policy and evaluation ---------------

HARD_BUDGET = 120
"""Samples per decision by default: about 100 ms of CPU on the desktop of docs/AI_*.md (the rig
calibrates its own from `[game] think_ms`)."""

HARD_SCALE = 10.0
"""Spaces of lead per logistic unit at the leaves (a lead of 10 spaces: a 73% chance)."""


HARD_WEIGHTS: dict[int, Weights] = {
    # python -m bench.ai_tune --game tenfour --players 2 --screen 600 --confirm 1200
    #     --holdout 4000 --seed 1   (turn_value 4.683 -> 7.025, alpha 0.5 -> 0.75), then
    # python -m bench.ai_tune --game tenfour --players 2 --start '{"alpha": 0.75,
    #     "turn_value": 7.025}' --only turn_value,alpha --screen 600 --confirm 1200
    #     --holdout 4000 --seed 2   (turn_value -> 10.5375: 2.25 x the mean card move),
    # then the same from those with --only hammer,landing,police_risk,future,horizon,
    #     persist,b19_bonus --holdout 0 --seed 4   (future 0.5 -> 0.333, horizon 3 -> 2),
    #     held out on seed 5: docs/AI_TENFOUR.md
    2: Weights(turn_value=10.5375, alpha=0.75, future=0.333333, horizon=2),
}
"""The evaluation `hard` searches with, per player count: `medium`'s weights tuned
against `medium` seats by `bench.ai_tune` (docs/AI_TENFOUR.md, "A policy tuned against
medium"); a player count not here searches with `medium`'s own (DEFAULT_WEIGHTS). The
leaf keeps `medium`'s weights: the fitted leaf was fitted to their parts."""


def hard_weights(players: int) -> Weights:
    """The weights `hard` plays with at this player count."""
    return HARD_WEIGHTS.get(players, DEFAULT_WEIGHTS)


def hard_policy(state: State, legal: Sequence[Action], rng: Rng) -> Action:
    """`medium`'s one-ply choice with `hard`'s weights: every decision inside `hard`'s
    samples, and a level of its own for the tuning benches."""
    if not isinstance(state, TenFourState):
        raise TypeError("hard_policy plays 10-Four states only")
    return choose(state, legal, rng, hard_weights(state.g.num_players))


def _prior(state: State, legal: Sequence[Action]) -> list[float]:
    """The candidates' order and the choice kept unless beaten: `hard`'s weights."""
    assert isinstance(state, TenFourState)
    return evaluate_actions(state, legal, hard_weights(state.g.num_players))


def _round_over(state: State, root: State, me: int) -> bool:
    """The mover's next turn has begun (turns lost on the way are counted as turns)."""
    assert isinstance(state, TenFourState) and isinstance(root, TenFourState)
    return state.turn == me and state.turns > root.turns


def _leaf(state: State, me: int, rng: Rng) -> float:
    """The mover's win chance at a leaf in logistic units: the fitted weights of
    `engine.tenfour.leaf` for this player count, else `medium`'s score over HARD_SCALE."""
    assert isinstance(state, TenFourState)
    weights = _fitted_weights().get(state.g.num_players)
    if weights is None:
        return _Eval(state, DEFAULT_WEIGHTS).score(state, me, ()) / HARD_SCALE
    return fitted_logit(weights, leaf_features(state, me))


@cache
def _fitted_weights() -> dict[int, tuple[float, ...]]:
    from engine.tenfour.leaf import WEIGHTS

    return checked_weights(WEIGHTS, 1 + 2 * len(PART_NAMES), "engine/tenfour/leaf.py")


HARD_HOOKS = SearchHooks(plays=TenFourState, policy=hard_policy, prior=_prior,
                         is_leaf=_round_over, leaf=_leaf, scale=1.0)


def hard_choice(state: State, legal: Sequence[Action], rng: Rng,
                budget: int = HARD_BUDGET) -> Action:
    """The `hard` level (engine.players): `engine.search` with `budget` samples, with any
    number of players. (From commit 1d35377 to this one three- and four-player games
    played `medium`'s choice on a game count within its noise; judged one by one with
    paired full playouts, the search's departures from `medium` there win more than they
    lose: docs/AI_TENFOUR.md, "Why `hard` does not beat `medium`".)"""
    return search_choice(state, legal, rng, budget, HARD_HOOKS)


# -- the fitted leaf of `hard`: the score's parts, weighed by a fit to game outcomes -------

PART_NAMES = ("left", "lost", "landing", "risk", "bear", "police")
"""The parts of a seat's score that `leaf_features` compares, in its order."""


def leaf_features(state: TenFourState, me: int) -> list[float]:
    """The mover's parts of the score against the leading opponent's (fewest spaces
    left), each as an advantage (positive: good for `me`), then the same divided by
    the square root of the race still to run: a lead of ten spaces decides more of a
    game near its end than at its start, which one fixed scale cannot say."""
    ev = _Eval(state, DEFAULT_WEIGHTS)
    caught = ev._catch_map(state)
    penalty = ev._penalties(caught)
    zone = [i for i, c in enumerate(caught) if c]
    seats = range(state.g.num_players)
    parts = [ev._seat_parts(state, seat, (), zone, penalty) for seat in seats]
    police = [0.0] * len(parts)
    ev._police_threat(state, police)
    leader = min((seat for seat in seats if seat != me), key=lambda seat: parts[seat][0])
    mine, theirs = parts[me], parts[leader]
    ahead = [float(theirs[0] - mine[0]), float(theirs[1] - mine[1]), mine[2] - theirs[2],
             theirs[3] - mine[3], theirs[4] - mine[4], police[me] - police[leader]]
    race = math.sqrt((mine[0] + theirs[0]) / 2.0 + 4.0)
    return [*ahead, *(a / race for a in ahead)]
