"""`hard` in the loop: a hint or a computer seat's search runs a slice per tick while no
event waits, an input is served while it is pending, a state change drops it, and the
choices are those of the unsliced search (so a seed replays the same game)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.api import Action, State
from engine.search import Thinking
from hardware.events import KnobTurn
from rig import registry
from rig.core import computer
from rig.core import decisions as decisions_module
from rig.core.autopilot import gestures_for
from rig.core.computer import seat_for
from rig.core.controller import Seat
from rig.core.loop import RigLoop, Stop
from rig.desktop.emulated import EmulatedRig, new_emulated_rig
from rig.screens import words
from tests.rig.drive import advance_to_choice
from tests.rig.test_controller import _to_decision_without_settling

BUDGET = 40
"""Samples per `hard` decision in these tests: several slices, a fast test."""


@pytest.fixture(autouse=True)
def small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """The calibration stood in for: two steps, then `BUDGET` (a real one times this
    machine, and is tested in test_computer.py)."""

    def calibration(game: object, think_ms: int):
        yield
        yield
        return BUDGET

    monkeypatch.setattr(computer, "calibration", calibration)


class Counted:
    """A search that counts its slices and keeps what it last returned."""

    def __init__(self, inner: Thinking) -> None:
        self.inner = inner
        self.advances = 0
        self.chosen: Action | None = None

    def advance(self, samples: int) -> Action | None:
        self.advances += 1
        self.chosen = self.inner.advance(samples)
        return self.chosen


def _counting(seat: Seat, started: list[Counted]) -> None:
    """Wrap the seat's searches so a test sees them (in `started`, in order)."""
    think = seat.think
    assert think is not None

    def counted(state: State, legal: list[Action]) -> Thinking:
        search = Counted(think(state, legal))
        started.append(search)
        return search

    seat.think = counted


def _hard_hint_rig(seed: int) -> tuple[EmulatedRig, list[Counted]]:
    """Two people with `hard` hints at 10-Four, their searches counted."""
    game = new_emulated_rig("tenfour", 2, seed=seed).session.game
    seats = [seat_for("tenfour", "human", seed=i, hint=True, hint_level="hard", game=game)
             for i in range(2)]
    started: list[Counted] = []
    for seat in seats:
        _counting(seat, started)
    rig = new_emulated_rig("tenfour", 2, seed=seed, seats=seats)
    rig.controller.decisions.work_clock = lambda: 0.0  # slices end by their sample count
    return rig, started


def test_a_hard_hint_thinks_a_slice_per_tick_and_the_knob_is_served_meanwhile() -> None:
    rig, started = _hard_hint_rig(seed=21)
    _to_decision_without_settling(rig, random.Random(21))
    controller = rig.controller
    assert started == [], "no search before the frame is drawn"
    rig.loop.run_due()
    assert controller.decisions.choice_pending and len(started) == 1
    assert started[0].advances == decisions_module.SLICE_SAMPLES, "one slice, then the loop"
    rig.loop.run_due()
    assert started[0].advances == 2 * decisions_module.SLICE_SAMPLES
    renders = rig.loop.stats.renders
    rig.loop.step(KnobTurn("hi", 1))
    assert rig.loop.stats.renders == renders + 1 and controller.decisions.cursor == 1
    assert controller.decisions.choice_pending, "the turn did not wait for the search"
    assert len(started) == 1, "the turn changed no state: the same search goes on"
    rig.settle()
    assert not controller.decisions.choice_pending
    assert controller.decisions.cursor == 1, "the hint leaves the cursor where the person put it"
    menu = rig.screen.menu
    assert menu[controller.decisions.hinted].startswith("* ")
    assert controller.next_deadline() is None, "done: nothing to wake up for"


def test_a_slice_ends_once_its_time_is_spent() -> None:
    rig, started = _hard_hint_rig(seed=29)
    _to_decision_without_settling(rig, random.Random(29))
    spent = [0.0]

    def work_clock() -> float:  # each read: another millisecond of work
        spent[0] += 0.001
        return spent[0]

    rig.controller.decisions.work_clock = work_clock
    rig.loop.run_due()
    assert decisions_module.SLICE_MS == 2.0
    assert started[0].advances == 2, "1 ms, 2 ms: the slice is over"


def test_a_press_before_the_hard_hint_is_done_drops_its_search() -> None:
    rig, started = _hard_hint_rig(seed=22)
    _to_decision_without_settling(rig, random.Random(22))
    rig.loop.run_due()
    steps = rig.session.steps
    rig.press("hi")
    assert rig.session.steps == steps + 1, "the press is played at once"
    assert rig.controller.decisions.thinking is None
    rig.settle()
    assert started[0].chosen is None, "the first search was never finished"


def test_a_hard_computer_seat_asks_to_wait_then_its_move_appears() -> None:
    game_rig = new_emulated_rig("bumpem", 2, seed=23)
    seats = [seat_for("bumpem", "hard", seed=1, game=game_rig.session.game),
             seat_for("bumpem", "medium", seed=2)]
    rig = new_emulated_rig("bumpem", 2, seed=23, seats=seats)
    rng = random.Random(23)
    for _ in range(300):
        state = rig.session.state
        if state.current_player() == 0 and not state.is_chance_node() \
                and len(state.legal_actions()) > 1 and rig.controller.alert is None \
                and rig.controller.decisions.choice_pending:
            break
        gestures = gestures_for(rig.controller, rng)
        if not gestures:
            rig.settle()  # the medium seat chooses
        for gesture in gestures:
            rig.loop.step(gesture)
    else:
        pytest.fail("no pending hard choice came up")
    rig.loop.run_due()
    assert rig.controller.decisions.choice_pending
    assert "is thinking" in rig.screen.plain()
    steps = rig.session.steps
    rig.press("hi")
    assert rig.session.steps == steps, "a press while the computer thinks plays nothing"
    assert words.THINKING in rig.screen.plain()
    rig.settle()
    assert not rig.controller.decisions.choice_pending
    chosen = rig.controller.choices()[rig.controller.decisions.hinted]
    assert rig.controller.decisions.cursor == rig.controller.decisions.hinted
    rig.press("hi")
    assert rig.session.last_action == chosen


def _recorded(rig: EmulatedRig) -> list[tuple[State, Action]]:
    """Every decision of the played game: the state before it and the action taken."""
    game = rig.session.game
    state = game.new_initial_state()
    out = []
    for raw in rig.session.history:
        action = game.action_from_json(raw)
        if not state.is_chance_node():
            out.append((state.clone(), action))
        state.apply(action)
    return out


@pytest.mark.parametrize("game_name", ["tenfour", "bumpem"])
def test_hard_seats_in_the_loop_play_the_unsliced_search_moves(game_name: str) -> None:
    from rig.core.autopilot import play_out

    game_rig = new_emulated_rig(game_name, 2, seed=24)
    game = game_rig.session.game
    seats = [seat_for(game_name, "hard", seed=i, game=game) for i in range(2)]
    rig = new_emulated_rig(game_name, 2, seed=24, seats=seats)
    play_out(rig, random.Random(24))
    unsliced = [seat_for(game_name, "hard", seed=i, game=game) for i in range(2)]
    decisions = _recorded(rig)
    assert len(decisions) > 10
    for state, action in decisions:
        chooser = unsliced[state.current_player()].chooser
        assert chooser is not None
        assert chooser(state, list(state.legal_actions())) == action


def _first_decision(game_name: str, players: int, seed: int) -> tuple[EmulatedRig, State,
                                                                      list[Action]]:
    """An emulated rig at its first real decision, that state and its legal actions."""
    rig = new_emulated_rig(game_name, players, seed=seed)
    advance_to_choice(rig, random.Random(seed))
    state = rig.session.state
    return rig, state, list(state.legal_actions())


def test_a_dropped_search_leaves_the_seats_later_choices_alone() -> None:
    rig, state, legal = _first_decision("tenfour", 2, seed=25)
    dropping = seat_for("tenfour", "hard", seed=7, game=rig.session.game)
    finishing = seat_for("tenfour", "hard", seed=7, game=rig.session.game)
    assert dropping.think is not None and finishing.chooser is not None
    assert dropping.think(state, legal).advance(3) is None  # dropped after three samples
    finishing.chooser(state, legal)
    later = dropping.think(state, legal)
    while (found := later.advance(5)) is None:
        pass
    assert found == finishing.chooser(state, legal)


def test_the_seat_search_is_the_engine_hard_level() -> None:
    rig, state, legal = _first_decision("bumpem", 3, seed=26)
    seat = seat_for("bumpem", "hard", seed=5, game=rig.session.game)
    assert seat.chooser is not None
    hard = registry.entry("bumpem").chooser("hard", BUDGET)
    own = random.Random(random.Random(5).getrandbits(64))
    assert seat.chooser(state, legal) == hard(state, legal, own)


def test_run_serves_a_posted_input_between_slices() -> None:
    """The real `run` loop with an injected clock: an input posted while the search is
    running is handled before the next slice, and the search then goes on."""
    rig, started = _hard_hint_rig(seed=27)
    _to_decision_without_settling(rig, random.Random(27))
    loop = RigLoop(rig.controller, draw=lambda screen: None, clock=rig.clock)
    order: list[str] = []
    real_handle = rig.controller.handle

    def handle(event: object) -> None:
        order.append(type(event).__name__)
        real_handle(event)
        if len(order) == 2:
            loop.post(KnobTurn("hi", 1))
        if not rig.controller.decisions.choice_pending and "done" not in order:
            order.append("done")
            loop.post(Stop())

    rig.controller.handle = handle  # type: ignore[method-assign]
    loop.run()
    assert order[:4] == ["Tick", "Tick", "KnobTurn", "Tick"]
    assert order[-1] == "done" and rig.controller.decisions.cursor == 1
    assert started[0].advances > 2 * decisions_module.SLICE_SAMPLES


def test_run_due_runs_one_slice_even_when_the_clock_moves() -> None:
    rig, started = _hard_hint_rig(seed=28)
    _to_decision_without_settling(rig, random.Random(28))
    clock = rig.clock

    def moving() -> float:
        return clock.advance(0.0001)

    rig.controller.clock = moving  # one clock for both, as in the daemon
    loop = RigLoop(rig.controller, draw=lambda screen: None, clock=moving)
    loop.run_due()
    assert len(started) == 1 and started[0].chosen is None
    assert started[0].advances == decisions_module.SLICE_SAMPLES, "one slice ran"
    loop.run_due()
    assert started[0].advances == 2 * decisions_module.SLICE_SAMPLES, "and one more"


def test_the_hint_default_is_hard() -> None:
    from rig.config import GameConfig

    assert GameConfig().hint_level == "hard"
    seat = seat_for("bumpem", "human", hint=True)
    assert seat.think is not None, "a hard hint thinks in slices"
    assert seat_for("bumpem", "human", hint=True, hint_level="medium").think is None


def test_the_daemon_autoplays_a_game_with_hard_seats(tmp_path: Path) -> None:
    """`cbrig run --autoplay` waits for a thinking computer (a slice per pass of its
    loop) instead of pressing into it, and plays the game to the end."""
    from rig.config import load_config
    from rig.core.daemon import Daemon
    from tests.daemon.helpers import write_config

    path = write_config(tmp_path, game="bumpem", players=2)
    path.write_text(path.read_text().replace(
        "hints = false", 'hints = false\nlevels = ["hard", "hard"]\nthink_ms = 1'))
    config = load_config(path)

    class Quiet:
        def ready(self, status: object = None, start_cpu: object = None) -> None: ...
        def status(self, text: str) -> None: ...
        def watchdog_interval(self) -> None: return None
        def stopping(self) -> None: ...

    daemon = Daemon(config=config, notifier=Quiet(), autoplay=31)
    daemon.start()
    try:
        assert daemon.app is not None and daemon.app.controller is not None
        session = daemon.app.controller.session
        assert [seat.level for seat in daemon.app.controller.seats] == ["hard", "hard"]
        daemon.serve()
        assert session.state.is_terminal()
        assert daemon.app.controller is None, "the finished game was archived"
    finally:
        daemon.stop()
