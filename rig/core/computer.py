"""Computer seats on the rig: the level's choice is announced for a person to carry out.

The `hard` level searches with a budget counted in samples (the engine reads no clock,
so a seed replays a game exactly); the rig owns the mapping from the config's CPU time
budget (`[game] think_ms`) to samples: `calibrated_budget` times a short probe search on
this machine once per game configuration and scales it.

A `hard` seat (or hint) also thinks in slices (`Seat.think`): the controller starts an
`engine.search.Search` at the decision and the loop advances it a few samples at a time
while no event waits, so the knobs and the screen stay served while the computer thinks.
Every search gets its own generator, seeded by one draw from the seat's: a search dropped
half way (the state changed under it) leaves the seat's later choices as they would be.
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Callable, Generator

from engine.api import Action, Game, State
from engine.players import canonical_level
from engine.search import Search, SearchHooks, Thinking, to_the_end
from engine.selfplay import sample_chance
from rig import gametype, registry
from rig.core.controller import Seat

DEFAULT_THINK_MS = 100
PROBE_SAMPLES = 24
"""Samples per probe decision: enough that the search spends about that many (with
fewer, its first round's one-sample-per-candidate floor overshoots), few enough that
the probe costs well under a second on a Pi."""
PROBE_DECISIONS = 4
"""Real decisions of a seeded `medium` game the probe searches (their costs differ)."""
PROBE_EVERY = 8
"""The probe searches every eighth real decision, so it sees the middle game too."""
PROBE_GAMES = 10
"""Most seeded games the probe plays to find its decisions."""
MIN_BUDGET = 8

_BUDGETS: dict[tuple[str, int, str, int], int] = {}


def calibrated_budget(game: Game, think_ms: int,
                      clock: Callable[[], float] = time.process_time) -> int:
    """Samples of `hard` search that take about `think_ms` of CPU here, for this game.

    The probe plays seeded `medium` games and, at every `PROBE_EVERY`-th real decision,
    times `hard` with `PROBE_SAMPLES` samples, until `PROBE_DECISIONS` are timed (a
    game with few decisions, like three- or four-player 10-Four, takes more than one).
    The result is cached per game configuration, so the probe runs once per process.
    """
    steps = calibration(game, think_ms, clock, step=1 << 20)  # each probe in one go
    while True:
        try:
            next(steps)
        except StopIteration as finished:
            budget: int = finished.value
            return budget


def calibration(game: Game, think_ms: int, clock: Callable[[], float] = time.process_time,
                step: int = 1) -> Generator[None, None, int]:
    """`calibrated_budget` in slices, yielding after every `step` probe samples (a seat
    calibrates at its first decision this way, between the loop's events). Only the
    probe's own slices are timed, not what the loop does between them."""
    key = (game.name, game.num_players, game.variant, think_ms)
    found = _BUDGETS.get(key)
    if found is not None:
        return found
    entry = registry.entry(game.name)
    hooks = _search_hooks(entry)
    medium = entry.chooser("medium")
    spent = 0.0
    probes = seen = 0
    for attempt in range(PROBE_GAMES):
        rng = random.Random(f"calibrate:{attempt}")
        state = game.new_initial_state()
        while probes < PROBE_DECISIONS and not state.is_terminal():
            if state.is_chance_node():
                state.apply(sample_chance(state.chance_outcomes(), rng))
                continue
            legal = state.legal_actions()
            if len(legal) > 1:
                if seen % PROBE_EVERY == 0:
                    probe = Search(state, legal, random.Random(probes), PROBE_SAMPLES, hooks)
                    while True:
                        started = clock()
                        done = probe.advance(step)
                        spent += clock() - started
                        if done is not None:
                            break
                        yield
                    probes += 1
                seen += 1
            state.apply(medium(state, legal, rng))
        if probes >= PROBE_DECISIONS:
            break
    per_sample_ms = spent * 1000 / max(1, probes * PROBE_SAMPLES)
    budget = MIN_BUDGET if per_sample_ms <= 0 else max(MIN_BUDGET,
                                                      int(think_ms / per_sample_ms))
    _BUDGETS[key] = budget
    return budget


def seat_for(game_name: str, level: str, seed: int | None = None, hint: bool = False,
             hint_level: str = "hard", game: Game | None = None,
             think_ms: int = DEFAULT_THINK_MS) -> Seat:
    """A seat for `level` ("human" or a computer level); a human may get hints.

    A human seat with `hint` shows the choice `hint_level` would make. A `hard` seat
    thinks in slices (`Seat.think`) and, for callers without a loop, also has the same
    search unsliced (`Seat.chooser`: the same answer). `game` (when the caller has it)
    lets it calibrate its budget to `think_ms` at its first decision; without it the
    game's default budget is used.
    """
    if level == "human" and not hint:
        return Seat()
    entry = registry.entry(game_name)
    plays = canonical_level(level) if level != "human" else _hint_level(entry, hint_level)
    rng = random.Random(seed)
    shown = "hint" if level == "human" else level
    if plays != "hard":
        quick = entry.chooser(plays)
        return Seat(level=shown, chooser=lambda state, legal: quick(state, legal, rng))
    hooks = _search_hooks(entry)
    budget: int | None = None if game is not None else _default_budget(entry)

    def think(state: State, legal: list[Action]) -> Thinking:
        own = random.Random(rng.getrandbits(64))
        root = state.clone()
        if budget is not None:
            return Search(root, legal, own, budget, hooks)
        assert game is not None

        def calibrated(samples: int) -> Search:
            nonlocal budget
            budget = samples
            return Search(root, legal, own, samples, hooks)

        return _Calibrating(calibration(game, think_ms), calibrated)

    def choose(state: State, legal: list[Action]) -> Action:
        return to_the_end(think(state, legal))

    return Seat(level=shown, chooser=choose, think=think)


def _search_hooks(entry: gametype.GameEntry) -> SearchHooks:
    """The game's `hard` search hooks (its ai module's `HARD_HOOKS`)."""
    assert entry.ai is not None, "a game with a hard level names its ai module"
    hooks: SearchHooks = importlib.import_module(entry.ai).HARD_HOOKS
    return hooks


def _default_budget(entry: gametype.GameEntry) -> int:
    """The game's own samples per decision (a seat that cannot calibrate: no game)."""
    default: int = importlib.import_module(str(entry.ai)).HARD_BUDGET
    return default


class _Calibrating:
    """A `hard` seat's first decision: the budget's calibration, then the search with
    it, as one `Thinking` whose slices run the probe's samples and then the search's."""

    def __init__(self, probe: Generator[None, None, int],
                 search: Callable[[int], Search]) -> None:
        self._probe = probe
        self._start = search
        self._search: Search | None = None

    def advance(self, samples: int) -> Action | None:
        if self._search is not None:
            return self._search.advance(samples)
        for _ in range(max(1, samples)):
            try:
                next(self._probe)
            except StopIteration as finished:
                self._search = self._start(finished.value)
                break
        return None


def _hint_level(entry: gametype.GameEntry, hint_level: str) -> str:
    """The configured hint level, or the game's strongest when it has no such level (a
    game with only `easy` computers still answers a hint)."""
    wanted = canonical_level(hint_level)
    return wanted if wanted in entry.computer_levels else entry.computer_levels[-1]
