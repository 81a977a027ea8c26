"""The `hard` level's search: sampled one-round lookahead with common random numbers.

For each candidate action the search plays the rest of the round forward on a clone of
the real engine state: chance outcomes are drawn from `chance_outcomes()` with their
exact probabilities, every later decision (the opponents', and the mover's own later
in the same turn) is made by the game's `medium` policy, and when the turn comes back
to the mover the game scores the position with the `medium` evaluation, turned into a
win chance (a logistic of the score; a finished game counts 1 or 0).

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

Pure and deterministic: the budget is a number of samples (the rig maps its CPU time
budget onto it by calibration), the sample seeds come from the passed rng, and no clock
is read.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.api import Action, State
from engine.selfplay import Chooser, Rng, pick_best, sample_chance

MAX_SAMPLE_STEPS = 10_000
"""A round is a few dozen engine steps; this only guards against a game that stalls."""


@dataclass(frozen=True)
class SearchHooks:
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
    """The mover's score of a leaf position (the `medium` evaluation's units)."""
    scale: float
    """Score units per logistic unit: a lead of `scale` is worth a 73% win chance."""
    width: int = 6
    """Most candidates searched (the best by `prior`)."""


def win_chance(score: float, scale: float) -> float:
    """The logistic of score/scale, safe for the evaluations' huge win/loss scores."""
    x = score / scale
    if x >= 40.0:
        return 1.0
    if x <= -40.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def search_choice(state: State, legal: Sequence[Action], rng: Rng, budget: int,
                  hooks: SearchHooks) -> Action:
    """The action with the best mean sampled win chance after `budget` samples."""
    if not isinstance(state, hooks.plays):
        raise TypeError(f"this search plays {hooks.plays.__name__} states, not "
                        f"{type(state).__name__}")
    if len(legal) == 1:
        return legal[0]
    me = state.current_player()
    prior = hooks.prior(state, legal)
    candidates = _candidates(state, legal, prior, hooks.width)
    if len(candidates) == 1 or budget < len(candidates):
        return _best_by_prior(legal, prior, rng)
    seeds: list[int] = []
    totals = [0.0] * len(candidates)
    counts = [0] * len(candidates)
    alive = list(range(len(candidates)))
    rounds = max(1, math.ceil(math.log2(len(candidates))))
    spent = 0
    for r in range(rounds):
        share = (budget - spent) // (len(alive) * (rounds - r))
        target = max(counts[alive[0]] + max(share, 1), 1)
        while len(seeds) < target:
            seeds.append(int(rng.random() * (1 << 53)))
        for i in alive:
            child = candidates[i][1]
            for j in range(counts[i], target):
                totals[i] += _sample(child, state, me, seeds[j], hooks)
                spent += 1
            counts[i] = target
        if len(alive) == 1:
            break
        alive.sort(key=lambda i: (-totals[i] / counts[i], -candidates[i][2]))
        alive = alive[:max(1, (len(alive) + 1) // 2)]
        if spent >= budget:
            break
    best = max(alive, key=lambda i: (totals[i] / counts[i], candidates[i][2]))
    return candidates[best][0]


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


def _sample(child: State, root: State, me: int, seed: int, hooks: SearchHooks) -> float:
    """One playout of the rest of the round from `child`: the mover's win chance."""
    r = random.Random(seed)
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
