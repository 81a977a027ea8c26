"""Paired before/after figures on a shared machine: two trees measured turn about, the
same way, so both see the same load and the same measuring code.

``before`` is another tree's exported source (``git archive <commit> engine hardware rig
bench | tar -x -C DIR``); ``after`` is this checkout. Every child runs with a small
``sitecustomize`` of ours first on ``PYTHONPATH`` (then the tree's source), which

* drops an editable install's import hook, so a module the old tree lacks is not
  quietly taken from this checkout (it would be, since that hook is the last finder
  tried);
* appends ``X_BENCH_START_CPU=<process CPU seconds>`` to the READY=1 datagram a daemon
  sends, whatever the tree's own READY message holds: both trees' start CPU is the same
  clock read at the same moment.

Rounds alternate the order (before/after, then after/before, ...), so neither tree
always runs first or second. Three figures:

* ``engine``: random self-play steps per CPU second of every configuration of the
  registry (the loop of :func:`bench.engine_speed.measure_config`, this tree's code,
  run against each tree's engine), ``--rounds`` rounds, median, min and max per tree
  and the after/before ratio of the medians;
* ``start``: CPU of the daemon at READY=1 (setup menu, the bench's mock config, cached
  bytecode), ``--runs`` starts of each tree, median and min;
* ``latency``: input to frame of 3 x 10-Four 4p and 3 x Bump 'Em 4p seeded games through
  :func:`bench.latency.play_game` (journal fsynced on ``--journal-dir``), wall, loop
  thread CPU, the display after the fsync and the fsync itself, p50 / p99, ``--rounds``
  runs of each tree; the load average is printed beside each.

    git archive 3f32092 engine hardware rig bench | tar -x -C /tmp/before
    python -m bench.paired engine --before /tmp/before --rounds 6 --budget 1.5
    python -m bench.paired start --before /tmp/before --runs 9
    python -m bench.paired latency --before /tmp/before

Progress goes to stderr on a terminal (``bench.progress``); the JSON to stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from statistics import median
from typing import Any

from bench import progress

SITECUSTOMIZE = '''
import os, sys, time
sys.meta_path[:] = [f for f in sys.meta_path
                    if "__editable__" not in getattr(f, "__module__", "")
                    and "__editable__" not in repr(f)]
import _socket
class _Stamped(_socket.socket):
    """The daemons send READY=1 through _socket.socket (both trees): the stamp is
    added there, as the datagram goes out."""
    __slots__ = ()
    def sendto(self, data, *rest):
        if isinstance(data, bytes) and b"READY=1" in data.split(b"\\n"):
            data += b"\\nX_BENCH_START_CPU=%.6f" % time.process_time()
        return super().sendto(data, *rest)
_socket.socket = _Stamped
'''
"""What every child imports first (see the module docstring)."""

ENGINE_CHILD = """
import json, random, sys, time
try:
    from rig.gamebuild import build_game
except ImportError:  # trees before issue 39 built games in rig.games
    from rig.games import build_game
from engine.selfplay import play
game_name, variant, players, budget = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
game = build_game(game_name, players=players, variant=variant)
play(game, random.Random("bench:warm-up"), keep_events=False)
steps = games = 0
cpu_started = time.process_time()
cpu = 0.0
while cpu < budget or games < 2:
    steps += play(game, random.Random(f"bench:{games}"), keep_events=False).steps
    games += 1
    cpu = time.process_time() - cpu_started
import engine
print(json.dumps({"steps": steps, "games": games, "cpu_s": cpu,
                  "steps_per_cpu_second": steps / cpu, "engine": engine.__file__}))
"""

LATENCY_CHILD = """
import json, os, sys, tempfile
from collections import defaultdict
from pathlib import Path
from bench.latency import play_game
d = Path(tempfile.mkdtemp(prefix="cbrig-pair-", dir=sys.argv[1] or None))
samples = defaultdict(list)
try:
    for seed in range(3):
        play_game("tenfour", "standard", 4, seed, d, samples)
        play_game("bumpem", None, 4, seed, d, samples)
finally:
    for f in d.iterdir():
        f.unlink()
    d.rmdir()
rows = samples["input"]
def q(xs, p):
    xs = sorted(xs)
    return round(xs[min(len(xs) - 1, int(len(xs) * p / 100))] * 1e3, 3)
parts = {"wall": [r[1] for r in rows], "cpu": [r[2].get("cpu", 0.0) for r in rows],
         "display": [r[2].get("display", 0.0) for r in rows],
         "fsync": [r[2]["fsync"] for r in rows if r[2].get("fsync")]}
print(json.dumps({"n": len(rows), "load": round(os.getloadavg()[0], 1),
                  **{k: [q(v, 50), q(v, 99)] for k, v in parts.items()}}))
"""

HERE = str(Path(__file__).resolve().parent.parent)
"""This checkout (the ``after`` tree)."""

START_CPU_FIELD = b"X_BENCH_START_CPU="


class Trees:
    """The two trees' environments, with our ``sitecustomize`` put first."""

    def __init__(self, before: str) -> None:
        self.site = Path(tempfile.mkdtemp(prefix="cbrig-paired-"))
        (self.site / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
        self.paths = {"before": str(Path(before).resolve()), "after": HERE}

    def env(self, name: str) -> dict[str, str]:
        return {"PYTHONPATH": os.pathsep.join((str(self.site), self.paths[name]))}

    def order(self, rounds: int) -> Iterator[tuple[int, str]]:
        """(round, tree) turn about: before/after, after/before, ..."""
        for number in range(rounds):
            pair = ("before", "after") if number % 2 == 0 else ("after", "before")
            for name in pair:
                yield number, name

    def cleanup(self) -> None:
        shutil.rmtree(self.site, ignore_errors=True)


def _child(trees: Trees, name: str, code: str, *args: str) -> dict[str, Any]:
    # cwd: "python -c" puts the working directory first on sys.path, which would
    # shadow the other tree
    result = subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                            text=True, check=True, cwd=tempfile.gettempdir(),
                            env={**os.environ, **trees.env(name)})
    out: dict[str, Any] = json.loads(result.stdout)
    return out


def _spread(xs: list[float]) -> dict[str, Any]:
    return {"median": round(median(xs)), "min": round(min(xs)), "max": round(max(xs)),
            "runs": [round(x) for x in xs]}


def paired_engine(before: str, rounds: int, budget: float) -> dict[str, Any]:
    from bench.engine_speed import CONFIGS, config_key

    trees = Trees(before)
    rates: dict[str, dict[str, list[float]]] = {
        config_key(*c): {"before": [], "after": []} for c in CONFIGS}
    try:
        for number, name in trees.order(rounds):
            progress.say(f"engine round {number + 1}/{rounds}: {name}")
            for config in CONFIGS:
                out = _child(trees, name, ENGINE_CHILD, *map(str, config), str(budget))
                if not out["engine"].startswith(trees.paths[name]):
                    raise RuntimeError(f"the {name} child imported {out['engine']}")
                rates[config_key(*config)][name].append(out["steps_per_cpu_second"])
    finally:
        trees.cleanup()
    report: dict[str, Any] = {}
    for key, both in rates.items():
        entry: dict[str, Any] = {name: _spread(xs) for name, xs in both.items()}
        entry["after_over_before"] = round(median(both["after"]) / median(both["before"]), 3)
        report[key] = entry
    return {"figure": "steps per CPU second (time.process_time of the child), random "
                      f"self-play, {budget:g} CPU s per configuration per run",
            "configs": report}


def paired_start(before: str, runs: int) -> dict[str, Any]:
    from bench.daemon import Workdir, start_daemon

    trees = Trees(before)
    work = Workdir()
    cpu: dict[str, list[float]] = {"before": [], "after": []}
    try:
        for name in cpu:  # warm-up: compiles each tree into the prefix
            work.reset_state()
            start_daemon(work, trees.env(name)).stop()
        for number, name in trees.order(runs):
            progress.say(f"start {number + 1}/{runs}: {name}")
            work.reset_state()
            daemon = start_daemon(work, trees.env(name))
            cpu[name].append(_stamped_cpu(daemon.message))
            daemon.stop()
    finally:
        work.cleanup()
        trees.cleanup()
    return {"figure": "CPU seconds of the daemon process at READY=1 (time.process_time, "
                      "read by the same sitecustomize in both trees as READY=1 is sent)",
            **{name: {"median_s": round(median(xs), 4), "min_s": round(min(xs), 4),
                      "runs_s": [round(x, 3) for x in xs]} for name, xs in cpu.items()}}


def _stamped_cpu(message: bytes) -> float:
    for line in message.split(b"\n"):
        if line.startswith(START_CPU_FIELD):
            return float(line[len(START_CPU_FIELD):])
    raise RuntimeError("READY=1 came without the bench's CPU stamp (sitecustomize not run?)")


def paired_latency(before: str, journal_dir: str, rounds: int) -> dict[str, Any]:
    trees = Trees(before)
    out: dict[str, list[Any]] = {"before": [], "after": []}
    try:
        for number, name in trees.order(rounds):
            progress.say(f"latency round {number + 1}/{rounds}: {name}")
            out[name].append(_child(trees, name, LATENCY_CHILD, journal_dir))
    finally:
        trees.cleanup()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.paired", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("figure", choices=("engine", "start", "latency"))
    parser.add_argument("--before", required=True, help="the other tree's exported source")
    parser.add_argument("--runs", type=int, default=9, help="starts of each tree")
    parser.add_argument("--rounds", type=int, default=4,
                        help="engine or latency runs of each tree")
    parser.add_argument("--budget", type=float, default=1.0,
                        help="engine: CPU seconds per configuration per run")
    parser.add_argument("--journal-dir", default="", help="where the journals go")
    args = parser.parse_args()
    if sys.stderr.isatty():
        progress.start()
    if args.figure == "engine":
        report = paired_engine(args.before, args.rounds, args.budget)
    elif args.figure == "start":
        report = paired_start(args.before, args.runs)
    else:
        report = paired_latency(args.before, args.journal_dir, args.rounds)
    print(json.dumps({"load_average": os.getloadavg(), **report}, indent=2))


if __name__ == "__main__":
    main()
