"""Computer seats on the rig: levels by name, hints at the configured level, the CPU
time budget calibrated into `hard`'s sample budget, old journals' level names."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.bumpem.ai import strong_choice as bumpem_medium
from engine.selfplay import random_choice, sample_chance
from engine.tenfour.ai import strong_choice as tenfour_medium
from rig.core import computer
from rig.core.computer import calibrated_budget, seat_for
from rig.gamebuild import build_game
from tests.daemon.helpers import write_config


def _decision(game_name: str, players: int, seed: int = 3):
    """A state at the first real decision of a seeded `easy` game."""
    game = build_game(game_name, players=players)
    state = game.new_initial_state()
    rng = random.Random(seed)
    while True:
        if state.is_chance_node():
            state.apply(sample_chance(state.chance_outcomes(), rng))
            continue
        legal = list(state.legal_actions())
        if len(legal) > 1:
            return game, state, legal
        state.apply(legal[0])


class StepClock:
    """A CPU clock that advances `step` seconds every time it is read."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.fixture(autouse=True)
def _fresh_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(computer, "_BUDGETS", {})


def test_the_budget_is_the_think_time_over_the_measured_cost_of_a_sample() -> None:
    game = build_game("bumpem", players=2)
    # Each probe reads the clock twice: 1 ms per probe of PROBE_SAMPLES samples.
    per_sample_ms = 1.0 / computer.PROBE_SAMPLES
    budget = calibrated_budget(game, 100, clock=StepClock(0.001))
    assert budget == int(100 / per_sample_ms)
    assert calibrated_budget(game, 1000, clock=StepClock(0.001)) == int(1000 / per_sample_ms)
    # A machine ten times slower gets a tenth of the samples, never fewer than the floor.
    assert calibrated_budget(build_game("bumpem", players=3), 100,
                             clock=StepClock(0.01)) == int(100 / per_sample_ms / 10)
    assert calibrated_budget(build_game("tenfour", players=2), 1,
                             clock=StepClock(1.0)) == computer.MIN_BUDGET


def test_the_calibration_runs_once_per_game_configuration() -> None:
    game = build_game("tenfour", players=3)
    clock = StepClock(0.001)
    first = calibrated_budget(game, 100, clock=clock)
    reads = clock.now
    assert calibrated_budget(game, 100, clock=clock) == first
    assert clock.now == reads, "the cached budget needs no new probe"


def test_a_hint_shows_the_choice_of_the_configured_level() -> None:
    _game, state, legal = _decision("bumpem", 2)
    easy = seat_for("bumpem", "human", seed=4, hint=True, hint_level="easy")
    medium = seat_for("bumpem", "human", seed=4, hint=True, hint_level="medium")
    assert easy.level == medium.level == "hint"
    assert easy.chooser is not None and medium.chooser is not None
    assert easy.chooser(state, legal) == random_choice(state, legal, random.Random(4))
    assert medium.chooser(state, legal) == bumpem_medium(state, legal, random.Random(4))
    assert seat_for("bumpem", "human", hint=False).chooser is None


def test_a_hard_seat_calibrates_at_its_first_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    game, state, legal = _decision("tenfour", 2)
    asked: list[int] = []

    def budget(game_arg: object, think_ms: int):
        asked.append(think_ms)
        yield
        return 10

    monkeypatch.setattr(computer, "calibration", budget)
    seat = seat_for("tenfour", "hard", seed=1, game=game, think_ms=250)
    assert asked == [], "no probe before the first decision"
    assert seat.chooser is not None
    assert seat.chooser(state, legal) in legal
    seat.chooser(state, legal)
    assert asked == [250]


def test_a_journal_naming_the_old_levels_resumes_with_them(tmp_path: Path) -> None:
    from rig.config import load_config
    from rig.core.daemon import Daemon
    from rig.core.setup_menu import SetupChoice

    config = load_config(write_config(tmp_path, game="tenfour", players=2))

    class Quiet:
        def ready(self, status: object = None, start_cpu: object = None) -> None: ...
        def watchdog_interval(self) -> None: return None
        def stopping(self) -> None: ...

    first = Daemon(config=config, notifier=Quiet())
    first.config.state.directory.mkdir(parents=True)
    controller = first._start_game(SetupChoice(game="tenfour", players=2,
                                               levels=("strong", "random")))
    session = controller.session
    rng = random.Random(5)
    while session.steps < 40:  # into the game: spins, placements, moves, journalled
        state = session.state
        if state.is_chance_node():
            session.apply(sample_chance(state.chance_outcomes(), rng))
        else:
            session.apply(random_choice(state, state.legal_actions(), rng))
    played = session.state.to_json()
    session.close()
    resumed = Daemon(config=config, notifier=Quiet())._resume()
    assert resumed is not None
    assert resumed.session.state.to_json() == played
    assert [seat.level for seat in resumed.seats] == ["strong", "random"]
    _, state, legal = _decision("tenfour", 2, seed=8)
    chooser = resumed.seats[0].chooser
    assert chooser is not None
    assert chooser(state, legal) == tenfour_medium(state, legal, random.Random(0))


def test_a_hard_seat_calibrates_in_slices_at_its_first_decision() -> None:
    """The probe behind the first `hard` choice runs a sample per step too (the loop
    serves events between them), then the search; the answer is the unsliced one."""
    game, state, legal = _decision("tenfour", 2)
    seat = seat_for("tenfour", "hard", seed=3, game=game, think_ms=5)
    assert seat.think is not None
    thinking = seat.think(state, legal)
    steps = 0
    while (action := thinking.advance(1)) is None:
        steps += 1
        if steps == 1:
            assert computer._BUDGETS == {}, "one step is not the whole probe"
    assert steps > computer.PROBE_DECISIONS * computer.PROBE_SAMPLES
    assert len(computer._BUDGETS) == 1
    again = seat_for("tenfour", "hard", seed=3, game=game, think_ms=5)
    assert again.chooser is not None and again.chooser(state, legal) == action
