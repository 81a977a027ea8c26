"""The conformance battery, as a library any game runs on itself (after OpenSpiel's
``random_sim_test``): a shipped game, a test game or a game installed from outside.

``check_game(ENTRY)`` builds every variant and player count the game's facts declare and
plays seeded random games through each, checking at every node what the rig relies on
(docs/ENGINE_CONTRACT.md): legal actions sorted by key and unique, chance outcomes sorted
with exact probabilities summing to 1, JSON round trips of states and actions, clones
independent, a ``"turn"`` event with ``{"seat": i}``, typed refusals that change nothing,
a finished game refusing input, no use of the global ``random`` and the same state from
replayed inputs. A game passes its own invariants (``invariants=``), called after every
step. A failure raises :class:`ConformanceError` naming the case, the seed and the step.

Given an entry (or a registered game's name), it then drives seeded games through the
rig itself (:mod:`cbrig.rigcheck`): the view, every screen (fits 21x8, each prompt with
its instruction), the spoken text, the board drawing, the live board's JSON, the card
tray and the printed sheets; so a game that passes plays in ``cbrig demo``,
``emulate``, ``print`` and the browser. ``rig=False`` checks the rules only.

The other extension points have a battery each, here too, that any implementation runs
on itself (one installed from outside included): ``check_reader`` (a card reader type,
hardware.rfid.kinds), ``check_display`` (a display driver, hardware.display.kinds) and
``check_effect`` (a voice effect, rig.voice.effects).

No pytest needed: call it from a test of your own package,

    from cbrig.conformance import check_game
    from mygame.rig import ENTRY

    def test_mygame_conforms() -> None:
        check_game(ENTRY, invariants=my_invariants)
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from fractions import Fraction
from functools import partial
from typing import TypeAlias

from cbrig.rigcheck import RIG_SEEDS, RigPartError, check_rig, rig_cases
from engine.api import CHANCE, JSON, TERMINAL, Action, Event, Game, State
from engine.errors import IllegalAction, Reason
from engine.selfplay import play, sample_chance
from hardware.display.kinds import check_display
from hardware.rfid.kinds import check_reader
from rig import registry
from rig.gamebuild import build_game
from rig.gametype import GameEntry
from rig.voice.effectcheck import check_effect
from valueclass import Frozen

Invariants: TypeAlias = "Callable[[Game, State, dict[str, JSON] | None, Action | None], None]"
"""A game's own checks, run on the initial state (``before`` and ``action`` None) and
after every step (``before`` the state's JSON before the step): raise AssertionError (a
plain ``assert``) when one does not hold."""

SEEDS = range(6)
"""The random playthroughs per case when the caller names none."""
MAX_STEPS = 50_000
"""The steps a random game may take before the battery says it does not end."""


__all__ = ["Case", "ConformanceError", "Invariants", "Report", "check_case", "check_display",
           "check_effect", "check_game", "check_reader"]


class ConformanceError(AssertionError):
    """A game broke the contract: the message names the case, the check and where."""


class Case(Frozen):
    """One configuration the battery plays: a variant and a player count."""

    game: str
    variant: str
    players: int

    def __str__(self) -> str:
        return f"{self.game}-{self.variant}-{self.players}p"


class Report(Frozen):
    """What a passed battery played (the caller may assert on it)."""

    cases: tuple[Case, ...]
    games: int
    """Random playthroughs finished."""
    steps: int
    """Inputs applied across them."""
    rig_games: int = 0
    """Seeded games played through the rig (its view, screens, voice, drawings, live
    board and sheets: :mod:`cbrig.rigcheck`)."""


def no_invariants(game: Game, state: State, before: dict[str, JSON] | None,
                  action: Action | None) -> None:
    """The invariants of a game that brings none: the battery's own checks only."""


def cases_of(entry: GameEntry) -> tuple[Case, ...]:
    """Every (variant, players) the entry's facts declare: each variant with each count
    it is for."""
    return tuple(Case(entry.name, variant.name, players)
                 for variant in entry.facts.variants for players in variant.players)


def check_game(game: GameEntry | str | Game, *, invariants: Invariants | None = None,
               seeds: Iterable[int] = SEEDS, steps: int = MAX_STEPS,
               cases: Sequence[Case] | None = None, rig: bool = True,
               rig_seeds: Iterable[int] = RIG_SEEDS) -> Report:
    """Run the whole battery on `game`: an entry (registered for the run if it is not
    yet), a registered game's name, or one built game. Every declared case (or those in
    `cases`), `seeds` random playthroughs each, games ending within `steps` inputs; then,
    for an entry or a name and unless `rig` is False, `rig_seeds` games of each case (or
    of each variant at its fewest players) through the rig's parts.
    ConformanceError on the first broken rule or rig part; a :class:`Report` when all
    hold."""
    check = invariants or no_invariants
    seeds = tuple(seeds)
    if not isinstance(game, (GameEntry, str)):
        return _check_built(game, f"{game.name}-{game.variant}-{game.num_players}p",
                            check, seeds, steps)
    with _registered(game) as entry:
        chosen = tuple(cases) if cases is not None else cases_of(entry)
        if not chosen:
            raise ConformanceError(f"{entry.name}: no variant declares a player count")
        games = played = 0
        for case in chosen:
            built = build_game(entry.name, players=case.players, variant=case.variant)
            report = _check_built(built, str(case), check, seeds, steps)
            games, played = games + report.games, played + report.steps
        on_rig = 0
        if rig:
            rig_chosen = ([(case.variant, case.players) for case in chosen]
                          if cases is not None else rig_cases(entry))
            try:
                on_rig = check_rig(entry, seeds=rig_seeds, cases=rig_chosen)
            except RigPartError as exc:
                raise ConformanceError(f"{exc} (the rig's {exc.part})") from exc
        return Report(chosen, games, played, on_rig)


def check_case(case: Case, *, invariants: Invariants | None = None,
               seeds: Iterable[int] = SEEDS, steps: int = MAX_STEPS,
               rig: bool = True) -> Report:
    """The battery on one case of a registered game (a test parametrized by case)."""
    return check_game(case.game, invariants=invariants, seeds=seeds, steps=steps,
                      cases=(case,), rig=rig)


@contextmanager
def _registered(game: GameEntry | str) -> Iterator[GameEntry]:
    if isinstance(game, str):
        yield registry.entry(game)
        return
    if registry.find(game.name) is game:
        yield game
        return
    with registry.registered(game):
        yield game


def _check_built(game: Game, name: str, invariants: Invariants, seeds: tuple[int, ...],
                 steps: int) -> Report:
    played = 0
    for seed in seeds:
        played += _run(name, f"seed {seed}",
                       partial(random_playthrough, game, seed, invariants, steps))
    _run(name, "illegal input", lambda: illegal_input_is_refused(game))
    _run(name, "finished game", lambda: finished_game_refuses_input(game, steps))
    _run(name, "global random", lambda: same_seed_same_game(game, steps))
    _run(name, "replay", lambda: replaying_the_inputs_gives_the_same_state(game, steps))
    return Report((), len(seeds), played)


def _run(name: str, what: str, check: Callable[[], int | None]) -> int:
    try:
        return check() or 0
    except ConformanceError as exc:
        raise ConformanceError(f"{name}, {what}: {exc}") from exc
    except Exception as exc:
        raise ConformanceError(f"{name}, {what}: {type(exc).__name__}: {exc}") from exc


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ConformanceError(message)


def _text(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def check_node(game: Game, state: State) -> None:
    """What every node must be: a terminal one names its winners and offers nothing; a
    chance node sorted, unique outcomes with exact probabilities summing to 1; a decision
    node a seat's legal actions, sorted, unique, each through JSON and back."""
    player = state.current_player()
    if state.is_terminal():
        _require(player == TERMINAL, f"a finished game's current player is {player}")
        _require(list(state.legal_actions()) == [], "a finished game has legal actions")
        _require(bool(state.winners()), "a finished game names its winners")
        return
    _require(not state.winners(), "an unfinished game names winners")
    if state.is_chance_node():
        _require(player == CHANCE, f"a chance node's current player is {player}")
        outcomes = list(state.chance_outcomes())
        _require(bool(outcomes), "a chance node has outcomes")
        keys = [action.key() for action, _ in outcomes]
        _require(keys == sorted(keys), "chance outcomes in key order")
        _require(len(set(keys)) == len(keys), "chance outcomes unique")
        _require(all(isinstance(p, Fraction) and p > 0 for _, p in outcomes),
                 "chance probabilities are positive Fractions")
        _require(sum(p for _, p in outcomes) == 1, "chance probabilities sum to exactly 1")
        _require(list(state.legal_actions()) == [], "a chance node has legal actions")
        return
    _require(0 <= player < game.num_players, f"the current player {player} is no seat")
    legal = list(state.legal_actions())
    _require(bool(legal), "a decision node has a legal action")
    keys = [action.key() for action in legal]
    _require(keys == sorted(keys), "legal actions in key order")
    _require(len(set(keys)) == len(keys), "legal actions unique")
    for action in legal:
        again = game.action_from_json(json.loads(json.dumps(action.to_json())))
        _require(again == action, f"{action!r} comes back from JSON as {again!r}")


def check_round_trip(game: Game, state: State) -> None:
    """The state through JSON and back: equal, and the same JSON again."""
    text = _text(state)
    again = game.state_from_json(json.loads(text))
    _require(again == state, "state_from_json(state.to_json()) differs from the state")
    _require(_text(again) == text, "a state read back writes different JSON")


def check_events(game: Game, events: Sequence[Event]) -> None:
    """Every event has a string kind and text, JSON data, and a ``"turn"`` names its seat."""
    for event in events:
        _require(isinstance(event.kind, str) and isinstance(event.text, str),
                 f"event {event!r}: kind and text are strings")
        json.dumps(event.data)
        if event.kind == "turn":
            seat = event.data.get("seat")
            _require(isinstance(seat, int) and 0 <= seat < game.num_players,
                     f"a turn event's data is {{'seat': i}} for a seat, not {event.data!r}")


def random_playthrough(game: Game, seed: int, invariants: Invariants = no_invariants,
                       steps: int = MAX_STEPS) -> int:
    """One seeded random game to its end, every node checked; the inputs it took."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    invariants(game, state, None, None)
    taken = turns = 0
    while not state.is_terminal():
        check_node(game, state)
        if taken % 7 == 0:
            check_round_trip(game, state)
        if state.is_chance_node():
            action = sample_chance(state.chance_outcomes(), rng)
        else:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
        if taken % 11 == 0:
            before = _text(state)
            clone = state.clone()
            clone.apply(action)
            _require(_text(state) == before, "applying to a clone changed the original")
        previous = state.to_json()
        events = state.apply(action)
        check_events(game, events)
        turns += sum(1 for event in events if event.kind == "turn")
        invariants(game, state, previous, action)
        taken += 1
        _require(taken < steps, f"the game has not ended after {steps} inputs")
    check_node(game, state)
    check_round_trip(game, state)
    _require(turns > 0, "no \"turn\" event in a whole game (the contract asks one per turn "
                        "played, data {\"seat\": i})")
    return taken


def _refused(reason: Reason, attempt: Callable[[], object], what: str) -> None:
    try:
        attempt()
    except IllegalAction as exc:
        _require(exc.reason is reason, f"{what}: refused as {exc.reason}, not {reason}")
    else:
        raise ConformanceError(f"{what}: accepted")


def _foreign_action(game: Game, seed: int) -> tuple[State, Action] | None:
    """A decision node and an input that belongs to a chance node instead (None: the
    game reaches no decision after a chance node)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    chance_action = None
    for _ in range(10_000):
        if state.is_terminal():
            return None
        if state.is_chance_node():
            chance_action = sample_chance(state.chance_outcomes(), rng)
            state.apply(chance_action)
        else:
            if chance_action is not None:
                return state, chance_action
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    return None


def illegal_input_is_refused(game: Game, seed: int = 3) -> None:
    """A chance input at a decision node, a move by the wrong seat and an unknown kind
    are refused with their reasons, and change nothing."""
    found = _foreign_action(game, seed)
    state = game.new_initial_state()
    if found is not None:
        state, foreign = found
    before = _text(state)
    if found is not None:
        _refused(Reason.NOT_LEGAL_NOW, lambda: state.apply(foreign), "a chance input at a "
                 "decision node")
    if not state.is_chance_node() and game.num_players > 1:
        wrong_seat = (state.current_player() + 1) % game.num_players
        _refused(Reason.NOT_YOUR_TURN,
                 lambda: state.apply(state.legal_actions()[0], player=wrong_seat),
                 "a move by the wrong seat")
    _refused(Reason.MALFORMED, lambda: game.action_from_json({"kind": "no-such-kind"}),
             "an input of no known kind")
    _require(_text(state) == before, "a refused input changed the state")


def finished_game_refuses_input(game: Game, steps: int = MAX_STEPS, seed: int = 5) -> None:
    """Once over, any input is refused as GAME_OVER and changes nothing."""
    result = play(game, random.Random(seed), max_steps=steps)
    _require(result.finished, f"a random game did not end within {steps} inputs")
    before = _text(result.state)
    first = game.new_initial_state()
    outcomes = first.chance_outcomes()
    probe = outcomes[0][0] if outcomes else first.legal_actions()[0]
    _refused(Reason.GAME_OVER, lambda: result.state.apply(probe), "an input after the end")
    _require(_text(result.state) == before, "a refused input changed a finished game")


def same_seed_same_game(game: Game, steps: int = MAX_STEPS, seed: int = 42) -> None:
    """Disturb the global random module between steps: the game must not notice."""

    def transcript(disturb: bool) -> list[str]:
        keys: list[str] = []

        def on_step(state: State, action: Action, events: list[Event]) -> None:
            keys.append(action.key())
            if disturb:
                random.seed(len(keys))
                random.random()

        play(game, random.Random(seed), on_step=on_step, max_steps=steps)
        return keys

    quiet = transcript(False)
    _require(quiet == transcript(True), "the global random module changed a seeded game")


def replaying_the_inputs_gives_the_same_state(game: Game, steps: int = MAX_STEPS,
                                              seed: int = 9) -> None:
    """The inputs of a game, through JSON and applied again, give the same state."""
    inputs: list[JSON] = []
    result = play(game, random.Random(seed), max_steps=steps,
                  on_step=lambda s, a, e: inputs.append(json.loads(json.dumps(a.to_json()))))
    replayed = game.new_initial_state()
    for data in inputs:
        replayed.apply(game.action_from_json(data))
    _require(replayed == result.state, "replaying the journalled inputs gave another state")
