"""The `strong` computer level for Bump 'Em: a scored heuristic over each move's result.

Every legal move is resolved to the car positions it leaves (the engine's own move
resolution, so bumps, slides, zooms and home-stretch entries are exactly what will
happen), and each resulting position is scored for the player to move:

  score(seat) = - (weighted distance its cars still have to go)
                + bonuses (finished cars, cars safe in the home stretch, turbo spaces)
                - expected loss from being bumped before its next turn

and the move with the best `score(me) - (best + mean opponent score) / 2` is chosen
(weights in `Weights`; figures and tuning in docs/AI_BUMPEM.md). The rulebook's
"Notes and Tips" are all consequences of this score: finishing and entering the home
stretch remove a car's distance and danger; backing out past one's home entrance turns
64 spaces to go into a handful; bumping the car nearest its finish (or of the leading
player) takes the most from the opponents' score; turbo spaces cannot be bumped by a
landing car; another colour's oil-slick lane raises a car's danger because a slide
there bumps it.

The danger of a car is an analytic one-ply look at the opponents' next tickets: for each
opponent, the share of the 13 tickets with which one of its cars could land on that car
(forward, backward, an 8 split part, entering on its start space, or sliding over it
from an oil slick), plus a share of its Bump 'em! ticket. Tables of which tickets let a
car of one seat standing on one place hit one track space are built once per rules
object, so a typical decision takes about 0.1 ms on a desktop and the worst about 2 ms.

Pure and deterministic: no I/O, no clock, no global state beyond a per-rules table
cache; the passed rng only breaks exact ties.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache
from typing import NamedTuple
from weakref import WeakKeyDictionary

from engine.api import Action, State
from engine.bumpem.board import SLIDE_LENGTH
from engine.bumpem.rules import BACKWARD_TICKETS, NO_OIL, PIT, SPLIT_TOTAL, Rules
from engine.bumpem.state import BumpemState
from engine.search import SearchHooks, checked_weights, fitted_logit, played_on, search_choice
from engine.selfplay import Rng, pick_best, sample_chance
from valueclass import Frozen

TICKETS = 13
"""Ticket kinds, taken as equally likely (the default ticket set). In the ticket masks
"1".."12" are bits 0..11; Bump 'em! is counted apart (it may hit any car)."""


class Weights(Frozen):
    """Tunable weights of the evaluation (defaults measured, see docs/AI_BUMPEM.md)."""

    pit_penalty: float = 20.0
    """Extra distance a pit car is worth beyond sitting on its start space."""
    finish_bonus: float = 12.0
    """A finished car is out of the game for good."""
    home_bonus: float = 6.0
    """A car in its home stretch is safe from bumps and swaps."""
    home_need: float = 0.8
    """Extra per step a home-stretch car still needs (it needs an exact count)."""
    turbo_bonus: float = 2.0
    """A car on a turbo space is safe from landing cars and may be zoomed ahead."""
    back_option: float = 0.35
    """Share of the gain of a backward ticket a car may use to pass behind its home
    entrance (per applicable ticket kind)."""
    attack: float = 0.7
    """Chance that an opponent holding a ticket that bumps a car uses it."""
    bump_ticket: float = 0.8
    """Chance an opponent with a car in its pit row spends a Bump 'em! ticket on a car."""
    danger: float = 1.0
    """Weight of the expected loss of the mover's own cars."""
    opp_danger: float = 0.0
    """Weight of the opponents' expected loss (the mover's threats); 0 skips it (measured
    no better than 0.3 or 0.7, and it is most of the work)."""
    leader: float = 0.5
    """Opponents' aggregate: leader * best opponent + (1 - leader) * mean opponent."""


DEFAULT_WEIGHTS = Weights()


class _Tables:
    """Per-rules lookup tables."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        n, k = rules.n, rules.k
        self.n = n
        self.finish = rules.finish
        players = rules.players
        self.to_go_from_start = [self.to_go(s, rules.start[s]) for s in range(players)]
        # hit[u][q][p]: tickets with which a car of seat u on position q bumps a car on
        # track space p (q: track 0..n-1 or home n..n+k-1); rows are filled on first use
        # (`hit_row`), so no decision pays for the whole table.
        self.hit: list[list[list[int] | None]] = [[None] * (n + k) for _ in range(players)]
        # entry[u][p]: tickets with which seat u entering a pit car bumps a car on p.
        self.entry: list[list[int]] = []
        for u in range(players):
            row = [0] * n
            row[rules.start[u]] = (1 << 0) | (1 << 11)
            self.entry.append(row)
        # back[s][p]: (gain, count) of backward tickets taking a car of s on p behind
        # its entrance: best gain in distance and how many ticket kinds give a gain.
        self.back: list[list[tuple[float, int]]] = [
            [self._back(s, p) for p in range(n)] for s in range(players)]
        self.values: dict[Weights, list[list[float]]] = {}
        """Car values per weights (see `_values`)."""

    def to_go(self, seat: int, p: int) -> int:
        """Spaces a car of `seat` at track/home/finish position p still has to go."""
        r = self.rules
        if p >= r.n:
            return r.finish - p
        return (r.entrance[seat] - p) % r.n + r.k + 1

    def _land_mask(self, u: int, dest: int) -> list[int]:
        """Track spaces bumped when a car of seat u lands on track space dest."""
        r = self.rules
        spaces = [] if r.turbo[dest] else [dest]
        oil = r.oil[dest]
        if oil != NO_OIL and oil != u:
            spaces.append(dest)
            spaces.extend((dest + i) % r.n for i in range(1, SLIDE_LENGTH + 1))
        return spaces

    def hit_row(self, u: int, q: int) -> list[int]:
        """`hit[u][q]`, computed on first use."""
        row = self.hit[u][q]
        if row is None:
            row = self._hits(u, q)
            self.hit[u][q] = row
        return row

    def _hits(self, u: int, q: int) -> list[int]:
        r = self.rules
        row = [0] * r.n
        if q < r.n:
            for d in range(1, 13):
                dest = r.forward_dest(u, q, d)
                if dest is None or dest >= r.n:
                    continue
                bits = 1 << (d - 1)
                if d < SPLIT_TOTAL:
                    bits |= 1 << (SPLIT_TOTAL - 1)
                for p in self._land_mask(u, dest):
                    row[p] |= bits
        for ticket, steps in BACKWARD_TICKETS.items():
            dest = r.backward_dest(u, q, steps)
            if dest is None or dest >= r.n:
                continue
            for p in self._land_mask(u, dest):
                row[p] |= 1 << (int(ticket) - 1)
        return row

    def _back(self, s: int, p: int) -> tuple[float, int]:
        r = self.rules
        now = self.to_go(s, p)
        best = 0.0
        count = 0
        for steps in BACKWARD_TICKETS.values():
            dest = r.backward_dest(s, p, steps)
            if dest is None:
                continue
            gain = now - self.to_go(s, dest)
            if gain > 0:
                best = max(best, gain)
                count += 1
        return best, count


_TABLES: WeakKeyDictionary[Rules, _Tables] = WeakKeyDictionary()


def _tables(rules: Rules) -> _Tables:
    tables = _TABLES.get(rules)
    if tables is None:
        tables = _Tables(rules)
        _TABLES[rules] = tables
    return tables


def _values(t: _Tables, w: Weights) -> list[list[float]]:
    """values[s][p + 1]: what a car of seat s on position p (PIT .. finish) is worth,
    danger aside."""
    values = t.values.get(w)
    if values is not None:
        return values
    rules = t.rules
    n, finish = t.n, t.finish
    values = []
    for s in range(rules.players):
        row = [-(t.to_go_from_start[s] + w.pit_penalty)]
        for p in range(finish + 1):
            togo = t.to_go(s, p)
            if p == finish:
                value = w.finish_bonus
            elif p >= n:
                value = w.home_bonus - togo - w.home_need * togo
            else:
                gain, count = t.back[s][p]
                value = -togo + w.back_option * gain * count / TICKETS
                if rules.turbo[p]:
                    value += w.turbo_bonus
            row.append(value)
        values.append(row)
    t.values[w] = values
    return values


class _Threat(NamedTuple):
    """What one seat's cars threaten: rows[i][p] are the tickets with which its car i
    (or its pit car entering) bumps a car on track space p."""

    rows: tuple[list[int], ...]
    has_pit: bool
    on_track: int


def _threat(t: _Tables, u: int, cars: Sequence[int]) -> _Threat:
    rows = [t.hit_row(u, q) for q in cars if PIT < q < t.finish]
    has_pit = PIT in cars
    if has_pit:
        rows.append(t.entry[u])
    return _Threat(tuple(rows), has_pit, sum(1 for q in cars if 0 <= q < t.n))


def evaluate(rules: Rules, pos: Sequence[int], seat: int,
             weights: Weights = DEFAULT_WEIGHTS,
             cache: dict[tuple[int, ...], _Threat] | None = None) -> float:
    """How good `pos` is for `seat`, the player who just moved (higher is better).

    `cache` may be shared by the evaluations of one decision: the threats of a seat
    whose cars did not move are then computed once.
    """
    t = _tables(rules)
    values = _values(t, weights)
    n = t.n
    cars = rules.cars
    players = rules.players
    w = weights
    if cache is None:
        cache = {}
    threats: list[_Threat] = []
    scores: list[float] = []
    for u in range(players):
        mine = tuple(pos[u * cars:u * cars + cars])
        value_u = values[u]
        scores.append(sum(value_u[q + 1] for q in mine))
        key = (u, *mine)
        threat = cache.get(key)
        if threat is None:
            threat = _threat(t, u, mine)
            cache[key] = threat
        threats.append(threat)
    all_on_track = sum(th.on_track for th in threats)
    for s in range(players):
        danger = w.danger if s == seat else w.opp_danger
        if not danger:
            continue
        pit_loss = t.to_go_from_start[s] + w.pit_penalty
        for c in range(s * cars, s * cars + cars):
            p = pos[c]
            if not 0 <= p < n:
                continue
            # Danger: chance some opponent bumps this car before `s` moves again.
            safe = 1.0
            for u in range(players):
                if u == s:
                    continue
                threat = threats[u]
                mask = 0
                for row in threat.rows:
                    mask |= row[p]
                chance = w.attack * mask.bit_count() / TICKETS
                if threat.has_pit:
                    chance += w.bump_ticket / TICKETS / (all_on_track - threat.on_track)
                if chance:
                    safe *= 1.0 - min(chance, 1.0)
            if safe < 1.0:
                scores[s] -= danger * (1.0 - safe) * (pit_loss - t.to_go(s, p))
    mine_score = scores[seat]
    others = [scores[v] for v in range(players) if v != seat]
    return mine_score - (w.leader * max(others) + (1.0 - w.leader) * sum(others) / len(others))


def choose(state: BumpemState, legal: Sequence[Action], rng: Rng,
           weights: Weights = DEFAULT_WEIGHTS) -> Action:
    """The best-scoring legal action; exact ties are broken with `rng`."""
    rules = state.rules
    seat = state.turn
    if not legal:
        raise ValueError("no legal action to choose from")
    if len(legal) == 1 or state.ticket is None:
        return legal[0]
    # The state's own resolved moves (cached when it computed `legal`): the position each
    # legal action leaves, exactly as `apply` will leave it.
    result: dict[Action, tuple[int, ...]] = {o.action: o.positions for o in state._outcomes()}
    cache: dict[tuple[int, ...], _Threat] = {}
    scored = [a for a in legal if a in result]
    if not scored:
        return legal[0]
    scores = [evaluate(rules, result[a], seat, weights, cache) for a in scored]
    return pick_best(scored, scores, rng)


def strong_choice(state: State, legal: Sequence[Action], rng: Rng) -> Action:
    """The `strong` level (engine.players): the best move by `evaluate`."""
    if not isinstance(state, BumpemState):
        raise TypeError("strong_choice plays Bump 'Em states only")
    return choose(state, legal, rng)


# -- the `hard` level: engine.search over the `medium` policy and evaluation ---------------

HARD_BUDGET = 400
"""Samples per decision by default: about 100 ms of CPU on the desktop of docs/AI_*.md (the rig
calibrates its own from `[game] think_ms`)."""

HARD_SCALE = 25.0
"""Score units (about spaces) per logistic unit at the leaves."""

WIN = 1.0e6
"""Score of a won position at a leaf (minus it for a lost one)."""


def evaluate_actions(state: BumpemState, legal: Sequence[Action],
                     weights: Weights = DEFAULT_WEIGHTS) -> list[float]:
    """The `medium` score of each legal action for the player to move (higher is better)."""
    result: dict[Action, tuple[int, ...]] = {o.action: o.positions
                                             for o in state._outcomes()}
    cache: dict[tuple[int, ...], _Threat] = {}
    seat = state.turn
    rules = state.rules
    scores = []
    for action in legal:
        pos = result.get(action)
        if pos is None:
            scores.append(-2 * WIN)
        elif rules.complete(pos, seat):
            scores.append(WIN)
        else:
            scores.append(evaluate(rules, pos, seat, weights, cache))
    return scores


HARD_WEIGHTS: dict[int, Weights] = {}
"""The evaluation `hard` searches with, per player count: `medium`'s weights tuned
against `medium` seats by `bench.ai_tune` (docs/AI_BUMPEM.md, "A policy tuned against
medium"); a player count not here searches with `medium`'s own (DEFAULT_WEIGHTS). The
leaf keeps `medium`'s weights: the fitted leaf was fitted to their scores."""


def hard_weights(players: int) -> Weights:
    """The weights `hard` plays with at this player count."""
    return HARD_WEIGHTS.get(players, DEFAULT_WEIGHTS)


def hard_policy(state: State, legal: Sequence[Action], rng: Rng) -> Action:
    """`medium`'s choice with `hard`'s weights: every decision inside `hard`'s samples,
    and a level of its own for the tuning benches."""
    if not isinstance(state, BumpemState):
        raise TypeError("hard_policy plays Bump 'Em states only")
    return choose(state, legal, rng, hard_weights(state.rules.players))


def _prior(state: State, legal: Sequence[Action]) -> list[float]:
    """The candidates' order and the choice kept unless beaten: `hard`'s weights."""
    assert isinstance(state, BumpemState)
    return evaluate_actions(state, legal, hard_weights(state.rules.players))


def _round_over(state: State, root: State, me: int) -> bool:
    """The mover is about to draw the first ticket of its next turn."""
    assert isinstance(state, BumpemState)
    return state.turn == me and state.is_chance_node() and not state.extra


def leaf_score(state: State, me: int, rng: Rng) -> float:
    """The mover's next ticket, drawn, and its best `medium` move, scored (+-WIN: the
    ticket decides the game)."""
    assert isinstance(state, BumpemState)
    s = state.clone()
    s.apply(sample_chance(s.chance_outcomes(), rng))
    if s.is_terminal():
        return WIN if me in s.winners() else -WIN
    if s.is_chance_node() or s.current_player() != me:
        return evaluate(s.rules, s.pos, me)
    return max(evaluate_actions(s, s.legal_actions()))


def leaf_features(state: BumpemState, me: int, score: float) -> list[float]:
    """A leaf's `medium` score in logistic units at the old fixed scale, and the same
    divided by the square root of the race still to run (the mover's and the leading
    opponent's spaces to go): a lead decides more of a game near its end."""
    t = _tables(state.rules)
    cars = state.rules.cars
    togo = [sum(t.to_go_from_start[u] if q == PIT else t.to_go(u, q)
                for q in state.pos[u * cars:u * cars + cars])
            for u in range(state.rules.players)]
    leader = min(togo[u] for u in range(len(togo)) if u != me)
    x = score / HARD_SCALE
    return [x, x / math.sqrt((togo[me] + leader) / 2.0 + 4.0)]


DECIDED = 40.0
"""A game finished inside a sample's rounds, in logistic units: a certain win or loss."""


def hard_leaf(state: State, me: int, rng: Rng, rounds: int = 1) -> float:
    """The leaf in logistic units: the fitted weights of `engine.bumpem.leaf` for this
    player count over `leaf_features`, else the score over HARD_SCALE. With `rounds` > 1
    (a bench's longer horizon: two rounds with three players won fewer games than one,
    docs/AI_BUMPEM.md) the sample first plays the rounds beyond the first."""
    assert isinstance(state, BumpemState)
    if rounds > 1:
        later = played_on(state, me, rng, rounds - 1, hard_policy, _round_over)
        if later.is_terminal():
            return DECIDED if me in later.winners() else -DECIDED
        assert isinstance(later, BumpemState)
        state = later
    score = leaf_score(state, me, rng)
    weights = _fitted_weights().get(state.rules.players)
    if weights is None or abs(score) >= WIN:
        return score / HARD_SCALE
    return fitted_logit(weights, leaf_features(state, me, score))


@cache
def _fitted_weights() -> dict[int, tuple[float, ...]]:
    from engine.bumpem.leaf import WEIGHTS

    return checked_weights(WEIGHTS, 3, "engine/bumpem/leaf.py")


HARD_HOOKS = SearchHooks(plays=BumpemState, policy=hard_policy, prior=_prior,
                         is_leaf=_round_over, leaf=hard_leaf, scale=1.0)


def hard_choice(state: State, legal: Sequence[Action], rng: Rng,
                budget: int = HARD_BUDGET) -> Action:
    """The `hard` level (engine.players): `engine.search` with `budget` samples."""
    return search_choice(state, legal, rng, budget, HARD_HOOKS)
