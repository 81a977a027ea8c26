"""Play a game to the end with injected chance and injected choices.

Randomness is an argument, never a global: the caller passes any object with
`random()` (a `random.Random(seed)` in the simulator and tests), so a seed replays.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Protocol, TypeVar

from engine.api import Action, Event, Game, State
from valueclass import Record, field

A = TypeVar("A", bound=Action)


class Rng(Protocol):
    def random(self) -> float: ...


Chooser = Callable[[State, Sequence[Action], Rng], Action]
"""Picks one of the legal actions for the seat to play (a computer level)."""


def random_choice(state: State, legal: Sequence[Action], rng: Rng) -> Action:
    """The `random` level: any legal action, equally likely."""
    return legal[int(rng.random() * len(legal))]


def pick_best(actions: Sequence[A], scores: Sequence[float], rng: Rng) -> A:
    """The highest-scoring action; exact ties (within 1e-9) are broken with `rng`, which
    is only consulted when there is a tie, so a level stays deterministic for a seed."""
    top = max(scores)
    best = [a for a, score in zip(actions, scores, strict=True) if score >= top - 1e-9]
    if len(best) == 1:
        return best[0]
    return best[min(int(rng.random() * len(best)), len(best) - 1)]


def sample_chance(outcomes: Sequence[tuple[A, Fraction]], rng: Rng) -> A:
    """Draw one outcome with its exact probability (float comparison is close enough).

    The first outcome whose running total of probabilities (as floats, in order) exceeds
    one `rng.random()` draw. A tuple of outcomes is immutable, and games hand out the
    same tuple at every spin or independent draw, so its running totals are worked out
    once and searched with `bisect` (the same floats, so the same outcome as the loop).
    """
    point = rng.random()
    if type(outcomes) is tuple:
        found = _TOTALS.get(id(outcomes))
        totals = found[1] if found is not None and found[0] is outcomes else (
            _running_totals(outcomes))
        index = bisect_right(totals, point)
        drawn: A = outcomes[index if index < len(totals) else -1][0]
        return drawn
    running = 0.0
    for action, probability in outcomes:
        # numerator / denominator is the float(Fraction) value (both are a correctly
        # rounded int division) without the generic numbers.Rational.__float__ call,
        # which cost 6% of a flat Monte Carlo playout
        running += probability.numerator / probability.denominator
        if point < running:
            return action
    return outcomes[-1][0]


_TOTALS: dict[int, tuple[tuple[tuple[Action, Fraction], ...], list[float]]] = {}
"""id(outcomes) -> (outcomes, running totals). The tuple itself is kept beside its
totals, so its id cannot be reused by another object while the entry lives."""
_TOTALS_MAX = 512


def _running_totals(outcomes: tuple[tuple[Action, Fraction], ...]) -> list[float]:
    """Work out and remember the running totals of `outcomes`."""
    totals: list[float] = []
    running = 0.0
    for _, probability in outcomes:
        running += probability.numerator / probability.denominator
        totals.append(running)
    if len(_TOTALS) >= _TOTALS_MAX:
        _TOTALS.clear()
    _TOTALS[id(outcomes)] = (outcomes, totals)
    return totals


def random_playout(state: State, rng: Rng, max_steps: int = 100_000) -> int:
    """Play `state` itself on to the end (at most `max_steps` steps), every chance
    outcome drawn by `sample_chance` from `chance_outcomes()` and every decision by
    `random_choice`; return the steps taken. A game whose state has `play_randomly`
    (Bump 'Em) does the same there, with the same draws, states and result, without
    building actions, previews or events it would throw away."""
    fast = getattr(state, "play_randomly", None)
    if fast is not None:
        steps: int = fast(rng, max_steps)
        return steps
    return _generic_random_playout(state, rng, max_steps)


def _generic_random_playout(state: State, rng: Rng, max_steps: int) -> int:
    """The loop `play_randomly` must match: every game can be played out this way."""
    steps = 0
    while steps < max_steps and not state.is_terminal():
        if state.is_chance_node():
            state.apply(sample_chance(state.chance_outcomes(), rng))
        else:
            state.apply(random_choice(state, state.legal_actions(), rng))
        steps += 1
    return steps


class PlayResult(Record):
    state: State
    steps: int = 0
    events: list[Event] = field(default_factory=list)
    finished: bool = False


def play(
    game: Game,
    rng: Rng,
    choosers: Sequence[Chooser] | None = None,
    max_steps: int = 100_000,
    keep_events: bool = True,
    on_step: Callable[[State, Action, list[Event]], None] | None = None,
) -> PlayResult:
    """Play one game; seat i uses choosers[i] (random by default).

    The loop is the engine benchmark's hot path: the count is kept in a local (one
    attribute write per game, not per step) and the state's methods are called as
    methods (CPython 3.11 specialises `state.method()`; a bound method kept in a local
    calls slower)."""
    state = game.new_initial_state()
    result = PlayResult(state=state)
    kept = result.events
    steps = 0
    while steps < max_steps and not state.is_terminal():
        if state.is_chance_node():
            action = sample_chance(state.chance_outcomes(), rng)
        else:
            legal = state.legal_actions()
            if choosers:
                action = choosers[state.current_player()](state, legal, rng)
            else:
                action = legal[int(rng.random() * len(legal))]  # random_choice
        events = state.apply(action)
        steps += 1
        if keep_events:
            kept.extend(events)
        if on_step is not None:
            on_step(state, action, events)
    result.steps = steps
    result.finished = state.is_terminal()
    return result
