"""Input to frame: one mock hardware event through the whole rig to the display.

An :class:`rig.desktop.emulated.EmulatedRig` (the real Controller and RigLoop, manual clock)
with its journal in a temporary directory (every accepted input is written and
fsynced), drawing with :func:`rig.screens.render.render` onto an
:class:`hardware.display.OledDisplay` with luma's real SSD1306 driver and I2C interface
over a fake bus that only records the transfers (:mod:`hardware.display.fakebus`, no
decoding), so the display's CPU cost is the rig's (partial updates included);
input_to_frame_bus_ms_400khz is the I2C time those transfers take at 400 kHz, beside the
CPU figures (on the Pi the frame is on the glass that much later). The
autopilot (:func:`rig.core.autopilot.gestures_for`) makes the events a table would make:
knob turns and presses, spins, Mike cards presented and removed. The main figures have
every seat human without hints; input_to_frame_hints_* repeat 10-Four 4p and Bump 'Em
4p with hints on (the shipped config), where the strong level's suggestion is computed
inside the step of every input that reaches a decision node.

The rig draws as the daemon does: the frame is rendered while the input's fsync runs on
the journal's helper thread and handed to the display only once the fsync has returned
(:mod:`rig.core.loop`). For each event: t0 just before ``loop.step(event)``; t1 when
``display.show`` returns for the frame that event caused. Events that change nothing on
screen (a card taken off the reader) hand no frame over and are counted apart. The parts
are timed by wrapping the instance's methods: ``Controller.handle`` (engine + journal
write), ``Controller.screen``, ``render`` and ``display.show``; input_to_frame_cpu_ms is
the thread's CPU time over the same span (time.thread_time: no fsync wait, no time lost
to other processes; the fsync's own kernel time is on the helper thread). The sync
itself (``os.fdatasync`` of a line written over the journal's preallocated zero tail;
``os.fsync`` when the tail grows) is timed through a stand-in for the ``os`` module that
``rig.core.journal`` sees (restored afterwards) and reported as fsync; ``journal`` is
``Journal.begin_append`` (JSON, write, hand-over) plus ``finish_append`` (the wait for
the fsync, after the render); ``prepare`` is the display working out its bus plan for
the frame, also while the fsync runs (``Daemon._render``), so ``display`` is then only
the bus writes. input_to_frame_without_fsync_ms subtracts the fsync's time from the wall
time: a lower bound now that rendering overlaps it.
A pending computer choice or hint is worked out on the ticks after the input's frame
(a `hard` one a slice per tick, the loop serving events between slices) and timed
apart: hint_or_choice_ms from its first slice to its last, think_slice_ms per slice
(the longest an input can wait behind one).
input_to_frame_sequential_ms is the comparison, paired game by game with the first
configuration: the same games drawn the old way (fsync, then render, then show).
"""

from __future__ import annotations

import gc
import os
import random
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench import progress
from bench.stats import rnd, summary_ms
from rig.registry import entries

RIG_CONFIGS: tuple[tuple[str, str | None, int, int, int, bool], ...] = tuple(
    (game.name, case.variant, case.players, case.quick_games, case.full_games, case.hints)
    for cases in ("latency", "hinted_latency") for game in entries()
    for case in getattr(game.bench, cases))
"""(game, variant, players, games in quick mode, games in the full run, hints): the
registry's latency cases, every game's plain ones first, then those with hints on (the
shipped config, wiring/config.toml, has hints = true: every human seat gets the strong
level's suggestion, computed at each decision node inside the input's step)."""

QUICK_HINTED_INPUTS = 60
"""A quick run plays only this many inputs of each hinted game: the hard hint level
thinks for up to its think_ms at every decision (a second or more here)."""

METHOD = __doc__.strip().replace("\n", " ") if __doc__ else ""


def event_kind(event: Any) -> str:
    """The report's name for a hardware event."""
    return {"KnobTurn": "turn", "KnobPress": "press", "KnobSpin": "spin",
            "CardPresented": "card_presented", "CardRemoved": "card_removed"}.get(
        type(event).__name__, type(event).__name__)


class _Timer:
    """Accumulates time spent in wrapped callables during the current event."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = defaultdict(float)

    def wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        spent = self.spent
        clock = time.perf_counter

        def timed(*args: Any, **kwargs: Any) -> Any:
            start = clock()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[name] += clock() - start

        return timed

    def take(self) -> dict[str, float]:
        out = dict(self.spent)
        self.spent.clear()
        return out


class _TimedOs:
    """``os`` for ``rig.core.journal`` with ``fsync`` and ``fdatasync`` timed (both filed as
    "fsync": an append's sync is ``fdatasync``); everything else passes through."""

    def __init__(self, timer: _Timer) -> None:
        self._fsync = timer.wrap("fsync", os.fsync)
        self._fdatasync = timer.wrap("fsync", os.fdatasync)

    def __getattr__(self, name: str) -> Any:
        return getattr(os, name)

    def fsync(self, fd: int) -> None:
        self._fsync(fd)

    def fdatasync(self, fd: int) -> None:
        self._fdatasync(fd)


def play_game(game_name: str, variant: str | None, players: int, seed: int,
              directory: Path, samples: dict[str, list[Any]], hints: bool = False,
              overlap: bool = True, max_inputs: int | None = None) -> None:
    """Play one whole game through the rig, appending per-event timings to `samples`;
    ``overlap=False`` draws the old way (render only after the fsync)."""
    from hardware.display import OledDisplay, i2c_device_factory
    from hardware.display.fakebus import FakeSmbus2, bits_of, fake_bus
    from rig.core.session import Session
    from rig.desktop.emulated import EmulatedRig
    from rig.gamebuild import build_game
    from rig.screens.render import render

    game = build_game(game_name, players=players, variant=variant)
    name = f"{game_name}-{players}-{seed}-{hints}-{overlap}.jsonl"
    session = Session.start(game, directory / name, {"created": "bench"})
    bus = fake_bus("ssd1306", decode=False)
    display = OledDisplay(i2c_device_factory("ssd1306", smbus=FakeSmbus2(bus)))
    display.open()
    timer = _Timer()
    handed: list[tuple[float, float]] = []
    show = timer.wrap("display", display.show)
    render_timed = timer.wrap("render", render)

    def shown(frame: Any) -> None:
        show(frame)
        handed.append((time.perf_counter(), time.thread_time()))
        timer.spent["bus_bits"] += bits_of(bus.take())

    seats = None
    if hints:
        from rig.core.computer import seat_for

        seats = [seat_for(game_name, "human", seed=i, hint=True, game=session.game)
                 for i in range(players)]
    # As the daemon draws: the frame is rendered while the input's fsync runs on the
    # journal's helper thread and shown once the fsync has returned.
    if overlap:
        prepare = timer.wrap("prepare", display.prepare)

        def render_and_prepare(screen: Any) -> Any:  # as Daemon._render
            frame = render_timed(screen)
            prepare(frame)
            return frame

        rig = EmulatedRig(session=session, seed=seed, render=render_and_prepare,
                          show=shown, seats=seats)
    else:
        rig = EmulatedRig(session=session, seed=seed, seats=seats,
                          draw=lambda screen: shown(render_timed(screen)))
    # The bench's own heap (thousands of kept samples) must not make the garbage
    # collector's full passes longer than the daemon's would be: freeze what exists.
    gc.collect()
    gc.freeze()
    import rig.core.journal as journal_module

    real_os = vars(journal_module)["os"]
    setattr(journal_module, "os", _TimedOs(timer))  # noqa: B010 (not re-exported)
    into: dict[str, list[Any]] = samples if overlap else defaultdict(list)
    try:
        _drive(rig, session, display, timer, handed, seed, into, max_inputs)
        if not overlap:
            for name, rows in into.items():
                samples["sequential_" + name].extend(rows)
    finally:
        setattr(journal_module, "os", real_os)  # noqa: B010
        session.close()
        gc.unfreeze()


def _drive(rig: Any, session: Any, display: Any, timer: _Timer,
           handed: list[tuple[float, float]],
           seed: int, samples: dict[str, list[Any]], max_inputs: int | None = None) -> None:
    from rig.core.autopilot import gestures_for

    assert session.journal is not None
    journal = session.journal
    setattr(journal, "begin_append", timer.wrap("journal", journal.begin_append))  # noqa: B010
    setattr(journal, "finish_append", timer.wrap("journal", journal.finish_append))  # noqa: B010
    controller = rig.controller
    controller.handle = timer.wrap("handle", controller.handle)
    controller.screen = timer.wrap("screen", controller.screen)
    loop = rig.loop
    rng = random.Random(f"bench-rig:{seed}")
    timer.take()
    steps = 0
    while not session.state.is_terminal() and (max_inputs is None or steps < max_inputs):
        for event in gestures_for(controller, rng):
            handed.clear()
            cpu_start = time.thread_time()
            start = time.perf_counter()
            loop.step(event)
            end = time.perf_counter()
            parts = timer.take()
            kind = event_kind(event)
            if handed:
                parts["cpu"] = handed[0][1] - cpu_start
                samples["input"].append((kind, handed[0][0] - start, parts))
            else:
                samples["no_frame"].append((kind, end - start, parts))
            # Spin animation frames: each deadline is a Tick through the same loop.
            while controller.animation is not None:
                due = controller.next_deadline()
                assert due is not None
                rig.clock.set(max(rig.clock(), due))
                handed.clear()
                cpu_start = time.thread_time()
                start = time.perf_counter()
                loop.step(_tick())
                parts = timer.take()
                if handed:
                    parts["cpu"] = handed[0][1] - cpu_start
                    samples["tick"].append(("tick", handed[0][0] - start, parts))
            if controller.face.ready_at is not None:  # the result is read before the next press
                rig.clock.set(max(rig.clock(), controller.face.ready_at))
            # A computer's choice or a hint is worked out on the tick after the frame,
            # long before a person's next input: timed apart, as the table sees it.
            # A hard one thinks a slice per tick (the loop looks at its events between
            # slices): each slice is timed, and the whole choice from first to last.
            if controller.decisions.choice_pending:
                start = time.perf_counter()
                while controller.decisions.choice_pending:
                    began = time.perf_counter()
                    loop.run_due()
                    samples["think_slice"].append(("slice", time.perf_counter() - began,
                                                   timer.take()))
                    progress.tick("  input to frame: game %d, input %d, a computer thinking",
                                  seed + 1, steps + 1)
                samples["choice"].append(("choice", time.perf_counter() - start, {}))
            steps += 1
            progress.tick("  input to frame: game %d, input %d", seed + 1, steps)
            if steps > 50_000:
                raise RuntimeError("the game did not end")
    samples["display_sent"].append(display.stats.sent)
    samples["display_skipped"].append(display.stats.skipped)


def _tick() -> Any:
    from rig.core.loop import Tick

    return Tick()


def _parts_summary(rows: list[tuple[str, float, dict[str, float]]]) -> dict[str, Any]:
    names = ("handle", "journal", "fsync", "screen", "render", "prepare", "display")
    return {name: summary_ms([parts.get(name, 0.0) for _, _, parts in rows]) for name in names}


def measure(quick: bool, journal_dir: Path | None = None) -> dict[str, Any]:
    samples: dict[str, list[Any]] = defaultdict(list)
    per_config: dict[str, Any] = {}
    base = Path(tempfile.mkdtemp(prefix="cbrig-bench-", dir=journal_dir))
    try:
        for game_name, variant, players, quick_games, full_games, hints in RIG_CONFIGS:
            mine: dict[str, list[Any]] = defaultdict(list)
            games = quick_games if quick else full_games
            for seed in range(games):
                progress.say(f"  input to frame: {game_name} {players}p"
                             f"{' with hints' if hints else ''}, game {seed + 1} of {games}")
                play_game(game_name, variant, players, seed, base, mine, hints=hints,
                          max_inputs=QUICK_HINTED_INPUTS if quick and hints else None)
                if not per_config:  # the first configuration, paired: the old way
                    play_game(game_name, variant, players, seed, base, mine, hints=hints,
                              overlap=False)
            key = f"{game_name}/{variant or 'standard'}/{players}p" + ("+hints" if hints else "")
            per_config[key] = {
                "input_to_frame_ms": summary_ms([t for _, t, _ in mine["input"]]),
                "input_to_frame_cpu_ms": summary_ms([p["cpu"] for _, _, p in mine["input"]]),
                "games": quick_games if quick else full_games,
            }
            for name, rows in mine.items():
                if name.startswith("sequential_"):
                    samples[name].extend(rows)
                else:
                    samples[("hints_" if hints else "") + name].extend(rows)
        fs_type = _filesystem(base)
    finally:
        for path in base.iterdir():
            path.unlink()
        base.rmdir()

    inputs = samples["input"]
    total = sum(t for _, t, _ in inputs)
    journal_total = sum(parts.get("journal", 0.0) for _, _, parts in inputs)
    journaled = [(k, t, p) for k, t, p in inputs if p.get("journal")]
    by_kind: dict[str, list[float]] = defaultdict(list)
    for kind, seconds, _ in inputs:
        by_kind[kind].append(seconds)
    overall = summary_ms([t for _, t, _ in inputs])
    journal = summary_ms([p["journal"] for _, _, p in journaled])
    fsync_total = sum(parts.get("fsync", 0.0) for _, _, parts in inputs)
    without_fsync = [t - p.get("fsync", 0.0) for _, t, p in inputs]
    return {
        "input_to_frame_ms": overall,
        "input_to_frame_sequential_ms": summary_ms([t for _, t, _ in
                                                    samples["sequential_input"]]),
        "input_to_frame_by_event_ms": {k: summary_ms(v) for k, v in sorted(by_kind.items())},
        "input_to_frame_by_game_ms": per_config,
        "input_to_frame_parts_ms": _parts_summary(inputs),
        "journal_append_ms": journal,
        "fsync_ms": summary_ms([p["fsync"] for _, _, p in journaled if "fsync" in p]),
        "journal_share_of_input_to_frame": rnd(journal_total / total) if total else 0.0,
        "fsync_share_of_input_to_frame": rnd(fsync_total / total) if total else 0.0,
        "input_to_frame_without_fsync_ms": summary_ms(without_fsync),
        "input_to_frame_cpu_ms": summary_ms([p.get("cpu", 0.0) for _, _, p in inputs]),
        "input_to_frame_hints_ms": summary_ms([t for _, t, _ in samples["hints_input"]]),
        "input_to_frame_hints_cpu_ms": summary_ms([p["cpu"] for _, _, p in
                                                   samples["hints_input"]]),
        "input_to_frame_hints_fsync_ms": summary_ms([p["fsync"] for _, _, p in
                                                     samples["hints_input"] if "fsync" in p]),
        "input_to_frame_hints_without_fsync_ms": summary_ms(
            [t - p.get("fsync", 0.0) for _, t, p in samples["hints_input"]]),
        "journal_share_of_journaled_inputs_p50": rnd(
            sorted(p["journal"] / t for _, t, p in journaled)[len(journaled) // 2])
        if journaled else 0.0,
        "journaled_inputs": len(journaled),
        "events_without_new_frame_ms": summary_ms([t for _, t, _ in samples["no_frame"]]),
        "spin_animation_tick_to_frame_ms": summary_ms([t for _, t, _ in samples["tick"]]),
        "spin_animation_tick_cpu_ms": summary_ms([p["cpu"] for _, _, p in samples["tick"]]),
        "hint_or_choice_ms": summary_ms([t for _, t, _ in samples["hints_choice"]
                                         + samples["choice"]]),
        "think_slice_ms": summary_ms([t for _, t, _ in samples["hints_think_slice"]
                                      + samples["think_slice"]]),
        "input_to_frame_bus_ms_400khz": summary_ms([p.get("bus_bits", 0) / 400_000
                                                    for _, _, p in inputs]),
        "spin_animation_tick_bus_ms_400khz": summary_ms([p.get("bus_bits", 0) / 400_000
                                                         for _, _, p in samples["tick"]]),
        "journal_filesystem": fs_type,
        "display_frames_sent": sum(samples["display_sent"]),
        "display_frames_skipped_identical": sum(samples["display_skipped"]),
    }


def _filesystem(path: Path) -> str:
    """The mount's filesystem type (fsync on tmpfs is free; on ext4 it is not)."""
    best, kind = "", "unknown"
    real = os.path.realpath(path)
    try:
        with open("/proc/mounts", encoding="utf-8") as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 3 and real.startswith(parts[1]) and len(parts[1]) > len(best):
                    best, kind = parts[1], parts[2]
    except OSError:
        pass
    return kind
