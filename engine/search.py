"""The `hard` level's search: sampled one-round lookahead with common random numbers.

For each candidate action the search plays the rest of the round forward on a clone of
the real engine state: chance outcomes are drawn from `chance_outcomes()` with their
exact probabilities, every later decision (the opponents', and the mover's own later
in the same turn) is made by the game's `medium` policy, and when the turn comes back
to the mover the game scores the position, turned into a win chance (a logistic; a
finished game counts 1 or 0). The score is the game's leaf: a logistic model of the
`medium` evaluation's parts fitted to game outcomes (`bench.ai_fit`, weights per player
count in `engine/<game>/leaf.py`, `fitted_logit`), or the `medium` evaluation over a
fixed scale where none is fitted.

Why this shape: the `medium` evaluation already sees one move ahead analytically; what
it cannot see is what the opponents actually do with their next spin or ticket and how
that combines with the mover's own next chances. Sampling those against the real
rules fixes that, and the evaluation at the leaves keeps the horizon short, so a useful
number of samples fits in a decision's budget.

The candidates share their samples (sample j of every candidate starts from the same
seed), so differences between actions are not drowned by the luck of the draws; and the
budget is spent by sequential halving: every candidate gets an equal share of a round's
samples, the worse half is dropped, and the rest go on with more. Candidates are the
distinct positions the legal actions lead to, the best `width` by the `medium` scores.

`medium`'s own choice (the best by its scores) is never dropped, and another action is
played instead only when its paired sampled advantage is `confidence` standard errors
clear: with a few dozen samples per candidate the best of six sampled means is mostly
the luckiest (measured: picking it outright won 8 of 52 three-player 10-Four games
against `medium` seats, a fair share being 17; docs/AI_TENFOUR.md).

Pure and deterministic: the budget is a number of samples (the rig maps its CPU time
budget onto it by calibration), the sample seeds come from the passed rng, and no clock
is read. `Search` runs the same search in slices of a few samples (for a caller with an
event loop), with the same answer however it is sliced.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Generator, Sequence
from typing import Protocol

from engine.api import Action, State
from engine.seeded import SplitMix64
from engine.selfplay import Chooser, Rng, pick_best, sample_chance
from valueclass import Frozen

MAX_SAMPLE_STEPS = 10_000
"""A round is a few dozen engine steps; this only guards against a game that stalls."""


class SearchHooks(Frozen):
    """What the search needs from a game."""

    plays: type
    """The game's state class (anything else is refused with a TypeError)."""
    policy: Chooser
    """The `medium` chooser: plays every decision inside a sample."""
    prior: Callable[[State, Sequence[Action]], list[float]]
    """The `medium` scores of the legal actions: which candidates to search first."""
    is_leaf: Callable[[State, State, int], bool]
    """(position, root, mover): True once the round is over, the mover's next turn about
    to begin."""
    leaf: Callable[[State, int, Rng], float]
    """The mover's score of a leaf position (in `scale` units)."""
    scale: float
    """Score units per logistic unit: a lead of `scale` is worth a 73% win chance (1.0
    for a leaf that is already a fitted logit)."""
    width: int = 6
    """Most candidates searched (the best by `prior`)."""
    confidence: float = 1.5
    """Standard errors by which a searched action must beat `medium`'s own choice (the
    best by `prior`, which is never dropped) to be played instead of it."""


def win_chance(score: float, scale: float) -> float:
    """The logistic of score/scale, safe for the evaluations' huge win/loss scores."""
    x = score / scale
    if x >= 40.0:
        return 1.0
    if x <= -40.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def fitted_logit(weights: Sequence[float], features: Sequence[float]) -> float:
    """A fitted leaf's logit: the tempo weight (the mover is about to play) plus the
    weighted features."""
    logit = weights[0]
    for w, x in zip(weights[1:], features, strict=True):
        logit += w * x
    return logit


def checked_weights(weights: dict[int, tuple[float, ...]], size: int,
                    source: str) -> dict[int, tuple[float, ...]]:
    """A game's fitted leaf weights (player count -> weights), refused unless each has
    `size` finite numbers: a hand-edited or stale file fails at once, naming itself."""
    for players, row in weights.items():
        if len(row) != size or not all(math.isfinite(w) for w in row):
            raise ValueError(f"{source}: WEIGHTS[{players}] needs {size} finite numbers, "
                             f"has {len(row)}")
    return weights


class Thinking(Protocol):
    """A choice worked out in slices (a `Search`, or anything built on one):
    `advance(k)` runs up to k more samples and returns the action once it is chosen,
    None before."""

    def advance(self, samples: int) -> Action | None: ...


def to_the_end(thinking: Thinking, step: int = 1 << 20) -> Action:
    """A sliced choice run in one go (`step` samples a slice): the same answer."""
    while True:
        action = thinking.advance(step)
        if action is not None:
            return action


def search_choice(state: State, legal: Sequence[Action], rng: Rng, budget: int,
                  hooks: SearchHooks) -> Action:
    """The action with the best mean sampled win chance after `budget` samples."""
    return to_the_end(Search(state, legal, rng, budget, hooks), budget)


class Search:
    """`search_choice` in slices: `advance(k)` runs at most k more samples and returns the
    action once the budget is spent, None before.

    Why: a caller with an event loop (a `hard` hint on a Pi Zero 2 W thinks about a
    second) can spend the budget a few samples at a time between events instead of
    blocking. The samples, their seeds and their order are those of `search_choice`,
    so the answer does not depend on how the work is sliced: pure and replayable.
    """

    def __init__(self, state: State, legal: Sequence[Action], rng: Rng, budget: int,
                 hooks: SearchHooks) -> None:
        if not isinstance(state, hooks.plays):
            raise TypeError(f"this search plays {hooks.plays.__name__} states, not "
                            f"{type(state).__name__}")
        self._steps = _search_steps(state, legal, rng, budget, hooks)
        self.result: Action | None = None
        """The chosen action, once the search is over."""

    def advance(self, samples: int) -> Action | None:
        """Run up to `samples` more samples; the action when the search is over."""
        if self.result is not None:
            return self.result
        try:
            for _ in range(max(1, samples)):
                next(self._steps)
        except StopIteration as finished:
            self.result = finished.value
        return self.result


def _search_steps(state: State, legal: Sequence[Action], rng: Rng, budget: int,
                  hooks: SearchHooks) -> Generator[None, None, Action]:
    """The search, yielding after every sample; returns the chosen action."""
    if len(legal) == 1:
        return legal[0]
    me = state.current_player()
    prior = hooks.prior(state, legal)
    candidates = _candidates(state, legal, prior, hooks.width)
    if len(candidates) == 1 or budget < len(candidates):
        return _best_by_prior(legal, prior, rng)
    values: list[list[float]] = [[] for _ in candidates]
    seeds: list[int] = []
    alive = list(range(len(candidates)))
    rounds = max(1, math.ceil(math.log2(len(candidates))))
    spent = 0
    for r in range(rounds):
        share = max(1, (budget - spent) // (len(alive) * (rounds - r)))
        target = len(values[alive[0]]) + share
        while len(seeds) < target:
            seeds.append(int(rng.random() * (1 << 53)))
        for i in alive:
            child = candidates[i][1]
            for j in range(len(values[i]), target):
                values[i].append(_sample(child, state, me, _stream(rng, seeds[j]), hooks))
                spent += 1
                yield
        if len(alive) == 1 or spent >= budget:
            break
        alive.sort(key=lambda i: -_mean(values[i]))
        kept = alive[:max(1, (len(alive) + 1) // 2)]
        alive = kept if 0 in kept else [0, *kept]
    best = max(alive, key=lambda i: _mean(values[i]))
    if best != 0 and not _clearly_better(values[best], values[0], hooks.confidence):
        best = 0
    return candidates[best][0]


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values)


def _clearly_better(mine: Sequence[float], theirs: Sequence[float], z: float) -> bool:
    """True if the paired differences (sample j against sample j, same seed) have a mean
    above `z` standard errors: the searched choice beats `medium`'s beyond the noise."""
    n = min(len(mine), len(theirs))
    if n < 2:
        return False
    diffs = [a - b for a, b in zip(mine[:n], theirs[:n], strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > z * math.sqrt(var / n)


def _candidates(state: State, legal: Sequence[Action], prior: Sequence[float],
                width: int) -> list[tuple[Action, State, float]]:
    """The best `width` actions by prior that lead to distinct positions."""
    order = sorted(range(len(legal)), key=lambda i: -prior[i])
    seen: set[str] = set()
    out: list[tuple[Action, State, float]] = []
    for i in order:
        child = state.clone()
        child.apply(legal[i])
        key = json.dumps(child.to_json(), sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        out.append((legal[i], child, prior[i]))
        if len(out) >= width:
            break
    return out


def _best_by_prior(legal: Sequence[Action], prior: Sequence[float], rng: Rng) -> Action:
    return pick_best(legal, prior, rng)


def _stream(rng: Rng, seed: int) -> Rng:
    """The repeatable stream of one sample (the same for every candidate: common random
    numbers), of the caller's own generator kind: `random.Random(seed)` for the rig's and
    the simulator's generators, so the engine imports no `random` and a seed replays as
    documented. A kind that cannot be seeded with an int gets the engine's SplitMix64."""
    try:
        stream = type(rng)(seed)  # type: ignore[call-arg]
    except TypeError:
        return SplitMix64(seed)
    return stream if callable(getattr(stream, "random", None)) else SplitMix64(seed)


def played_on(state: State, me: int, rng: Rng, rounds: int, policy: Chooser,
              turn_start: Callable[[State, State, int], bool]) -> State:
    """`state` (at the mover's turn start) played on `rounds` more rounds, `policy` in
    every seat and the chance drawn: the position at the mover's turn start that many
    rounds later, or a finished game. Why: a longer horizon for a game whose leaf test
    marks one step, the start of the mover's turn (Bump 'Em), not a stretch of steps."""
    s = state.clone()
    for _ in range(rounds):
        for steps in range(MAX_SAMPLE_STEPS):
            if s.is_terminal() or (steps and turn_start(s, state, me)):
                break
            if s.is_chance_node():
                s.apply(sample_chance(s.chance_outcomes(), rng))
            else:
                legal = s.legal_actions()
                s.apply(legal[0] if len(legal) == 1 else policy(s, legal, rng))
        if s.is_terminal():
            break
    return s


def _sample(child: State, root: State, me: int, r: Rng, hooks: SearchHooks) -> float:
    """One playout of the rest of the round from `child`: the mover's win chance."""
    s = child.clone()
    for _ in range(MAX_SAMPLE_STEPS):
        if s.is_terminal():
            return 1.0 if me in s.winners() else 0.0
        if hooks.is_leaf(s, root, me):
            return win_chance(hooks.leaf(s, me, r), hooks.scale)
        if s.is_chance_node():
            s.apply(sample_chance(s.chance_outcomes(), r))
            continue
        legal = s.legal_actions()
        s.apply(legal[0] if len(legal) == 1 else hooks.policy(s, legal, r))
    return win_chance(hooks.leaf(s, me, r), hooks.scale)
