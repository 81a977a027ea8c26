"""Paired before/after figures on a shared machine: two trees measured turn about, so
both see the same load.

``before`` is another tree's exported source (``git archive <commit> engine hardware rig
bench | tar -x -C DIR``), put first on ``PYTHONPATH`` of the children; ``after`` is this
checkout. Two figures:

* ``start``: CPU of the daemon's threads at READY=1 (setup menu, the bench's mock
  config, cached bytecode), ``runs`` starts of each tree alternating, median and min;
* ``latency``: input to frame of 3 x 10-Four 4p and 3 x Bump 'Em 4p seeded games through
  :func:`bench.latency.play_game` (journal fsynced on ``--journal-dir``), wall, loop
  thread CPU, the display after the fsync and the fsync itself, p50 / p99, twice each
  tree alternating; the load average is printed beside each.

    python -m bench.paired start --before /tmp/before --runs 9
    python -m bench.paired latency --before /tmp/before
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from statistics import median
from typing import Any

from bench.daemon import Workdir, start_daemon

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


def _env(before: str | None) -> dict[str, str]:
    return {"PYTHONPATH": before} if before else {}


def paired_start(before: str, runs: int) -> dict[str, Any]:
    work = Workdir()
    trees = {"before": _env(before), "after": _env(None)}
    cpu: dict[str, list[float]] = {name: [] for name in trees}
    try:
        for env in trees.values():  # warm-up: compiles each tree into the prefix
            work.reset_state()
            start_daemon(work, env).stop()
        for _ in range(runs):
            for name, env in trees.items():
                work.reset_state()
                daemon = start_daemon(work, env)
                cpu[name].append(daemon.cpu_seconds)
                daemon.stop()
    finally:
        work.cleanup()
    return {name: {"median_s": round(median(xs), 4), "min_s": round(min(xs), 4),
                   "runs_s": [round(x, 3) for x in xs]} for name, xs in cpu.items()}


def paired_latency(before: str, journal_dir: str, rounds: int) -> dict[str, Any]:
    out: dict[str, list[Any]] = {"before": [], "after": []}
    for _ in range(rounds):
        for name in out:
            env = {**os.environ, **_env(before if name == "before" else None)}
            # cwd: "python -c" puts the working directory first on sys.path, which
            # would shadow the other tree
            result = subprocess.run([sys.executable, "-c", LATENCY_CHILD, journal_dir],
                                    capture_output=True, text=True, check=True, env=env,
                                    cwd=tempfile.gettempdir())
            out[name].append(json.loads(result.stdout))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.paired", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("figure", choices=("start", "latency"))
    parser.add_argument("--before", required=True, help="the other tree's exported source")
    parser.add_argument("--runs", type=int, default=9, help="starts of each tree")
    parser.add_argument("--rounds", type=int, default=2, help="latency runs of each tree")
    parser.add_argument("--journal-dir", default="", help="where the journals go")
    args = parser.parse_args()
    if args.figure == "start":
        report = paired_start(args.before, args.runs)
    else:
        report = paired_latency(args.before, args.journal_dir, args.rounds)
    print(json.dumps({"load_average": os.getloadavg(), **report}, indent=2))


if __name__ == "__main__":
    main()
