"""Counted work: figures no load can move, held to committed budgets (issue 46).

A machine's speed and its load move every timed figure (issue 46 saw an unmodified tree
fail the old raw-rate gate as a 30 %-slower copy did); what the code *does* per unit
of work does not move. Counted here, in a fresh interpreter (``PYTHONHASHSEED=0``, so
set and dict orders are the same every run), on seeded games:

* ``engine/<config>``: per engine step of random self-play (the engine bench's seeds,
  ``engine.selfplay.play``, ``keep_events=False``, one warm-up game first), the
  **bytecode instructions** executed (``sys.settrace`` with ``f_trace_opcodes``: a busy
  loop with no call in it counts too) and the **calls** made, Python and C
  (``sys.setprofile``);
* ``input/<game>``: per input of an autopiloted game through the emulated rig (the
  real controller and loop, a manual clock, every frame rendered and sent to an SSD1306
  on the fake I2C bus, no journal; its first ``INPUT_LIMIT`` inputs), the instructions
  and calls from the gesture to the frame on the bus, and the **bytes on the display
  bus**;
* **allocations** (``tracemalloc``, in a pass of its own after the counting one, the
  tracer off): per engine step and per input, the bytes a step allocates above what was
  allocated when it began, at its highest (``alloc_peak_bytes_per_step``/``_input``:
  the transient memory a step needs), and per input the bytes the rig still holds
  after it (``retained_bytes_per_input``: a leak or a growing history shows here;
  from input ``RETAINED_FROM`` to the last, counted after the cyclic garbage is
  collected and CPython's method cache emptied, so it repeats).
  High-water marks, not a running total (CPython 3.11 counts no allocations without a
  C allocator hook): a temporary freed before a step's highest point is not seen;
  more held at that point, or kept after, is;
* ``ready``: the modules the daemon has imported when it sends READY=1 (``cbrig run``,
  mock hardware, no display: what start-up loads, and so what it executes).

``bench/budgets.toml`` holds each figure's budget and its headroom; a figure over
budget x (1 + headroom) fails ``tests/bench/test_counted_budgets.py`` and ``cbrig bench
--counted``. The counts are the same on every run of one Python version (the suite
checks it; the inputs' allocation figures vary within ~2 %, and their budgets are the
highest of several runs), so the headroom absorbs next to nothing: it is set under
10 %, so 10 % more work fails on any machine at any load. Counts differ between Python versions
(each has its own bytecode), so the budgets are kept per version.

    python -m bench.counted              # count, judge against the budgets, print JSON
    python -m bench.counted --record     # write today's counts as the budgets
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import subprocess
import sys
import tomllib
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

BUDGETS = Path(__file__).with_name("budgets.toml")
METHOD = " ".join((__doc__ or "").split("\n\n    python -m")[0].split())
ENGINE_CONFIGS: tuple[tuple[str, str, int], ...] = (
    ("tenfour", "standard", 3), ("tenfour", "standard", 4), ("tenfour", "two-player", 2),
    ("bumpem", "standard", 2), ("bumpem", "standard", 4))
ENGINE_GAMES = 4
"""Seeded games a configuration (hundreds of steps: the counts are exact, more games
would only take longer)."""
INPUT_GAMES: tuple[tuple[str, int], ...] = (("tenfour", 4), ("bumpem", 3))
INPUT_SEEDS = 1
INPUT_LIMIT = 150
"""Inputs counted a game (from its start: setup, the first turns, spins, cards and moves):
the count is exact, a whole Bump 'Em game (~1,000 inputs) would only take longer."""
RETAINED_FROM = 30
"""``retained_bytes_per_input`` is counted from this input to the last, not from the
rig's start: the start is a one-time cost (what the rig is built with and then frees:
counted from input 0 with the garbage collected, 10-Four's figure was -800 B an input,
the game's first probability tables and data texts freed)."""
DEFAULT_HEADROOM = 0.05
"""Under 10 %: a change doing 10 % more work per unit fails, whatever the machine."""
HERE = Path(__file__).resolve().parent.parent


class Counter:
    """Instructions (a trace hook on every opcode) and calls (a profile hook) of this
    thread while on."""

    def __init__(self) -> None:
        self.instructions = 0
        self.calls = 0

    def _global(self, frame: FrameType, event: str, arg: object) -> Callable[..., Any]:
        frame.f_trace_opcodes = True
        frame.f_trace_lines = False
        return self._local

    def _local(self, frame: FrameType, event: str, arg: object) -> Callable[..., Any]:
        if event == "opcode":
            self.instructions += 1
        return self._local

    def _profile(self, frame: FrameType, event: str, arg: object) -> None:
        if event == "call" or event == "c_call":
            self.calls += 1

    def __enter__(self) -> Counter:
        sys.setprofile(self._profile)
        sys.settrace(self._global)
        return self

    def __exit__(self, *exc: object) -> None:
        sys.settrace(None)
        sys.setprofile(None)


def _build_game(name: str, players: int, variant: str | None) -> Any:
    from rig.gamebuild import build_game

    return build_game(name, players=players, variant=variant)


def count_engine(name: str, variant: str, players: int, games: int) -> dict[str, Any]:
    from engine.selfplay import play

    game = _build_game(name, players, variant)
    play(game, random.Random("bench:warm-up"), keep_events=False)
    steps = 0
    with Counter() as counter:
        for seed in range(games):
            steps += play(game, random.Random(f"bench:{seed}"), keep_events=False).steps
    peak = _engine_allocations(game, games)
    return {"steps": steps,
            "instructions_per_step": round(counter.instructions / steps, 2),
            "calls_per_step": round(counter.calls / steps, 2),
            "alloc_peak_bytes_per_step": round(peak / steps, 2)}


def _engine_allocations(game: Any, games: int) -> int:
    """The seeded games again under tracemalloc, step by step as `play` steps: the sum
    over steps of each step's highest allocated bytes above its start."""
    from engine.selfplay import sample_chance

    total = 0
    tracemalloc.start()
    try:
        for seed in range(games):
            rng = random.Random(f"bench:{seed}")
            state = game.new_initial_state()
            while not state.is_terminal():
                tracemalloc.reset_peak()
                level = tracemalloc.get_traced_memory()[0]
                if state.is_chance_node():
                    action = sample_chance(state.chance_outcomes(), rng)
                else:
                    legal = state.legal_actions()
                    action = legal[int(rng.random() * len(legal))]
                state.apply(action)
                total += tracemalloc.get_traced_memory()[1] - level
    finally:
        tracemalloc.stop()
    return total


def count_inputs(name: str, players: int, seeds: int) -> dict[str, Any]:
    """Instructions, calls and bus bytes per input of autopiloted games (see above)."""
    from hardware.display import OledDisplay, i2c_device_factory
    from hardware.display.fakebus import FakeSmbus2, fake_bus
    from rig.core.autopilot import gestures_for
    from rig.desktop.emulated import new_emulated_rig
    from rig.screens.render import render

    bus = fake_bus("ssd1306", decode=False)
    display = OledDisplay(i2c_device_factory("ssd1306", smbus=FakeSmbus2(bus)))
    display.open()

    def draw(screen: Any) -> None:
        display.show(render(screen))

    def one(seed: int, counter: Counter | None,
            memory: list[int] | None = None) -> tuple[int, int]:
        """`memory` (tracemalloc on): [sum of each input's peak above its start, bytes
        still held after the inputs above those held at input ``RETAINED_FROM``, the
        inputs between] are added to it."""
        rig = new_emulated_rig(name, players, seed=seed, draw=draw)
        rng = random.Random(f"bench-counted:{name}:{seed}")
        inputs = sent = began = 0
        bus.take()
        while not rig.session.state.is_terminal() and inputs < INPUT_LIMIT:
            for gesture in gestures_for(rig.controller, rng):
                if memory is not None and inputs == RETAINED_FROM:
                    began = _live_bytes()
                if counter is not None:
                    with counter:
                        rig.loop.step(gesture)
                        rig.settle()
                elif memory is not None:
                    tracemalloc.reset_peak()
                    level = tracemalloc.get_traced_memory()[0]
                    rig.loop.step(gesture)
                    rig.settle()
                    memory[0] += tracemalloc.get_traced_memory()[1] - level
                else:
                    rig.loop.step(gesture)
                    rig.settle()
                inputs += 1
                sent += sum(1 + len(t.payload) for t in bus.take())
            if inputs > 50_000:
                raise RuntimeError(f"{name} seed {seed} did not end")
        if memory is not None:
            if inputs <= RETAINED_FROM:
                raise RuntimeError(f"{name} seed {seed} ended before input {RETAINED_FROM}")
            memory[1] += _live_bytes() - began
            memory[2] += inputs - RETAINED_FROM
        return inputs, sent

    one(1_000, None)  # warm-up: caches, first renders of each glyph
    counter = Counter()
    inputs = sent = 0
    for seed in range(seeds):
        n, b = one(seed, counter)
        inputs += n
        sent += b
    memory = [0, 0, 0]
    tracemalloc.start()
    try:
        for seed in range(seeds):
            one(seed, None, memory)
    finally:
        tracemalloc.stop()
    return {"inputs": inputs,
            "instructions_per_input": round(counter.instructions / inputs, 2),
            "calls_per_input": round(counter.calls / inputs, 2),
            "bus_bytes_per_input": round(sent / inputs, 2),
            "alloc_peak_bytes_per_input": round(memory[0] / inputs, 2),
            "retained_bytes_per_input": round(memory[1] / memory[2], 2)}


def _live_bytes() -> int:
    """The bytes traced that are still reachable: the cyclic garbage collected first.
    Without it the figure counted the garbage waiting for the collector, which depends
    on when the collector last ran (the number of objects alive in the process sets
    that), not on what the rig holds; and CPython's method cache emptied, which keeps
    the last name looked up in each of its slots, chosen by the name's address (Pillow's
    ``getattr(core, f"{name}_encoder")`` leaves a new string there per frame: a run-to-run
    spread). See docs/PERFORMANCE.md, "Retained bytes"."""
    gc.collect()
    sys._clear_type_cache()
    return tracemalloc.get_traced_memory()[0]


READY_SITE = '''
import sys, _socket
_calls = [0]
def _profile(frame, event, arg):
    if event == "call" or event == "c_call":
        _calls[0] += 1
sys.setprofile(_profile)
class _Counted(_socket.socket):
    """READY=1 goes out through _socket.socket: the counts are added as it does."""
    __slots__ = ()
    def sendto(self, data, *rest):
        if isinstance(data, bytes) and b"READY=1" in data.split(b"\\n"):
            calls = _calls[0]
            sys.setprofile(None)
            data += b"\\nX_BENCH_MODULES=%d\\nX_BENCH_CALLS=%d" % (len(sys.modules), calls)
        return super().sendto(data, *rest)
_socket.socket = _Counted
'''
"""The daemon's sitecustomize: counts the main thread's calls (Python and C) from the
interpreter's start to READY=1 and the modules loaded by then, and sends both with it."""


def count_ready() -> dict[str, Any]:
    """`cbrig run` (mock hardware, no display) at READY=1: the modules it has loaded
    and the calls its main thread made, counted in the daemon as READY=1 is sent (the
    second start: the first compiles the bytecode)."""
    from bench.daemon import Workdir, start_daemon

    work = Workdir()
    site = work.root / "counted-site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(READY_SITE, encoding="utf-8")
    env = {"PYTHONPATH": os.pathsep.join((str(site), str(HERE))), "PYTHONHASHSEED": "0"}
    fields: dict[str, int] = {}
    try:
        for _ in range(2):
            work.reset_state()
            daemon = start_daemon(work, env)
            daemon.stop()
        for line in daemon.message.split(b"\n"):
            name, _, value = line.partition(b"=")
            if name in (b"X_BENCH_MODULES", b"X_BENCH_CALLS"):
                fields[name.decode()] = int(value)
    finally:
        work.cleanup()
    if len(fields) != 2:
        raise RuntimeError("READY=1 came without the counts (sitecustomize not run?)")
    return {"modules_at_ready": fields["X_BENCH_MODULES"],
            "calls_to_ready": fields["X_BENCH_CALLS"]}


def count_all() -> dict[str, dict[str, Any]]:
    """Every counted figure, in this process (see measure() for a fresh one)."""
    out: dict[str, dict[str, Any]] = {}
    for name, variant, players in ENGINE_CONFIGS:
        out[f"engine/{name}/{variant}/{players}p"] = count_engine(name, variant, players,
                                                                  ENGINE_GAMES)
    for name, players in INPUT_GAMES:
        out[f"input/{name}/{players}p"] = count_inputs(name, players, INPUT_SEEDS)
    out["ready"] = count_ready()
    return out


def measure() -> dict[str, dict[str, Any]]:
    """Every counted figure, counted in a fresh interpreter with a fixed hash seed."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    result = subprocess.run([sys.executable, "-m", "bench.counted", "--raw"], cwd=HERE,
                            env=env, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"counting failed:\n{result.stderr}")
    counts: dict[str, dict[str, Any]] = json.loads(result.stdout)
    return counts


UNITS = ("steps", "inputs")
"""Keys that say how much was counted, not figures."""


def python_version() -> str:
    return f"{sys.version_info.major}.{sys.version_info.minor}"


def load_budgets(path: Path = BUDGETS) -> dict[str, Any]:
    """The budgets for this Python: {figure path: {"budget": n, "headroom": h}}."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    version = python_version()
    budgets = data.get("python", {}).get(version)
    if budgets is None:
        raise LookupError(f"{path.name} has no budgets for Python {version} (bytecode "
                          "differs between versions): record them with "
                          "`python -m bench.counted --record`")
    headroom = float(data.get("headroom", DEFAULT_HEADROOM))
    out: dict[str, Any] = {}
    for section, figures in budgets.items():
        for figure, value in figures.items():
            if isinstance(value, dict):
                out[f"{section}.{figure}"] = {"budget": float(value["budget"]),
                                              "headroom": float(value.get("headroom",
                                                                          headroom))}
            else:
                out[f"{section}.{figure}"] = {"budget": float(value), "headroom": headroom}
    return out


def judge(counts: dict[str, dict[str, Any]], budgets: dict[str, Any]) -> dict[str, Any]:
    """Each budgeted figure: its count, budget, limit and verdict; a counted figure with
    no budget and a budget with no figure are misses too (the file must follow the
    code)."""
    figures = {f"{section}.{key}": value for section, block in counts.items()
               for key, value in block.items() if key not in UNITS}
    checks: dict[str, Any] = {}
    for key, value in figures.items():
        budget = budgets.get(key)
        if budget is None:
            checks[key] = {"value": value, "met": False, "why": "no budget"}
            continue
        limit = budget["budget"] * (1 + budget["headroom"])
        checks[key] = {"value": value, "budget": budget["budget"],
                       "headroom": budget["headroom"], "limit": round(limit, 2),
                       "of_budget": round(value / budget["budget"], 4) if budget["budget"]
                       else None, "met": value <= limit}
    for key in budgets.keys() - figures.keys():
        checks[key] = {"value": None, "met": False, "why": "budgeted but not counted"}
    missed = sorted(k for k, c in checks.items() if not c["met"])
    return {"python": python_version(), "figures": checks, "missed": missed,
            "exit_code": 1 if missed else 0}


def record(counts: dict[str, dict[str, Any]], path: Path = BUDGETS) -> None:
    """Write `counts` as this Python's budgets, keeping other versions' and the notes."""
    old = tomllib.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    versions = dict(old.get("python", {}))
    versions[python_version()] = {
        section: {k: v for k, v in block.items() if k not in UNITS}
        for section, block in counts.items()}
    lines = [HEADER.rstrip(), "", f"headroom = {old.get('headroom', DEFAULT_HEADROOM)}", ""]
    for version in sorted(versions):
        for section, figures in versions[version].items():
            lines.append(f'[python."{version}"."{section}"]')
            for key, value in figures.items():
                if isinstance(value, dict):
                    inner = ", ".join(f"{k} = {v}" for k, v in value.items())
                    lines.append(f"{key} = {{ {inner} }}")
                else:
                    lines.append(f"{key} = {value}")
            lines.append("")
    path.write_text("\n".join(lines), encoding="utf-8")


HEADER = """\
# Counted budgets (issue 46): work per unit that no load can move, counted by
# bench/counted.py (its docstring says how) and gated by tests/bench/test_counted_budgets.py
# and `cbrig bench --counted`. A figure fails above budget x (1 + headroom); `headroom`
# below is the default (a figure may carry its own: { budget = n, headroom = h }).
# The counts repeat exactly on one Python version, so the headroom absorbs nothing but
# is kept under 10 %: 10 % more work per unit fails on any machine at any load.
# After a change that deliberately does more (or less) work: `python -m bench.counted
# --record`, and say in the commit what the work bought. Budgets are per Python version
# (each has its own bytecode). The allocation figures (alloc_peak_bytes_*,
# retained_bytes_per_input) are tracemalloc high-water marks: the engine's repeat
# exactly, the inputs' peaks vary a little (0.03-0.15 % over runs on 2026-12-06): their
# budgets are the highest of several runs. Retained bytes repeat (to 0.07 %) since they
# are taken after the collector and with CPython's method cache emptied, from input 30
# on (docs/PERFORMANCE.md, "Retained bytes").
"""


def summary_lines(verdict: dict[str, Any]) -> list[str]:
    lines = [f"counted budgets (Python {verdict['python']}), bench/budgets.toml:"]
    for key, check in sorted(verdict["figures"].items()):
        if "why" in check:
            lines.append(f"  [MISS] {key}: {check['why']}")
            continue
        mark = "met " if check["met"] else "MISS"
        lines.append(f"  [{mark}] {key} = {check['value']:g} (budget {check['budget']:g}, "
                     f"limit {check['limit']:g}, {check['of_budget']:.1%} of budget)")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.counted", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--record", action="store_true",
                        help="write today's counts as the budgets for this Python")
    parser.add_argument("--raw", action="store_true",
                        help="count in this process and print the counts only")
    args = parser.parse_args()
    sys.meta_path[:] = [f for f in sys.meta_path if "__editable__" not in repr(f)]
    if args.raw:
        print(json.dumps(count_all()))
        return 0
    counts = measure()
    if args.record:
        record(counts)
        print(f"recorded {BUDGETS}")
        return 0
    verdict = judge(counts, load_budgets())
    print(json.dumps({"counts": counts, "verdict": verdict}, indent=2))
    return int(verdict["exit_code"])


if __name__ == "__main__":
    raise SystemExit(main())
