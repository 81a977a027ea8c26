"""The engine's speed judged as a ratio, turn about, against a baseline (issue 46).

A rate measured on a shared machine moves with its load (issue 46: an unmodified tree
and a 30 %-slower copy failed the same raw-rate gate, a 15 %-slower one passed it). A
ratio of two trees measured side by side in one run does not: both see the same load.

``cbrig bench --paired [--against REF]`` exports the baseline (REF, a commit or tag;
by default the last release: the newest tag, else the commit that set
``pyproject.toml``'s version) with ``git archive`` into a temporary directory, then
runs the baseline and this tree **turn about** (A B, B A, A B, ...: each pair in
alternating order), each turn a fresh interpreter pinned to the same CPU, with an
import hook that stops an editable install from lending the baseline this checkout's
modules. Each turn plays the same fixed work (``games`` seeded random games of every
configuration, ``engine.selfplay.play``, ``keep_events=False``, one warm-up game) several
times (``repeats``) and keeps each configuration's fastest repetition on the process's
CPU clock (load only ever adds to a repetition's time: cache misses, migrations, a busy
sibling hyperthread, the other sessions' interrupts). Each pair gives a ratio, this
tree's steps per CPU second over the baseline's.

The verdict: the median of the pair ratios with a 95 % bootstrap interval (2,000
resamples of the pairs, seeded) and the min-max range. It **fails (exit 1) only when
the whole interval lies below 1 - threshold**: this tree is slower than the threshold
beyond the run's own spread. The absolute rates of both trees are reported beside it,
with the load average they were taken under: for information, never judged.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median
from typing import Any

from bench import progress
from bench.paired import SITECUSTOMIZE

HERE = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "hardware", "rig", "valueclass", "cbrig", "bench")
"""What a baseline needs of its tree (those of them it has)."""
CONFIGS: tuple[tuple[str, str, int], ...] = (
    ("tenfour", "standard", 3), ("tenfour", "standard", 4), ("tenfour", "two-player", 2),
    ("bumpem", "standard", 2), ("bumpem", "standard", 4))
DEFAULT_THRESHOLD = 0.05
QUICK = {"pairs": 10, "games": 2, "repeats": 5}
FULL = {"pairs": 16, "games": 4, "repeats": 7}
BOOTSTRAP = 2000

CHILD = """
import json, random, sys, time
try:
    from rig.gamebuild import build_game
except ImportError:  # trees before issue 39 built games in rig.games
    from rig.games import build_game
from engine.selfplay import play
games, repeats = int(sys.argv[1]), int(sys.argv[2])
configs = [(c.split("/")[0], c.split("/")[1], int(c.split("/")[2])) for c in sys.argv[3:]]
built = [build_game(n, players=p, variant=v) for n, v, p in configs]
for game in built:
    play(game, random.Random("bench:warm-up"), keep_events=False)
best = [float("inf")] * len(built)
wall_best = [float("inf")] * len(built)
steps = [0] * len(built)
for _ in range(repeats):
    for number, game in enumerate(built):
        cpu, wall, count = time.process_time(), time.perf_counter(), 0
        for seed in range(games):
            count += play(game, random.Random(f"bench:{seed}"), keep_events=False).steps
        best[number] = min(best[number], time.process_time() - cpu)
        wall_best[number] = min(wall_best[number], time.perf_counter() - wall)
        steps[number] = count
import engine
print(json.dumps({"steps": sum(steps), "cpu_s": sum(best), "wall_s": sum(wall_best),
                  "engine": engine.__file__}))
"""
"""One turn: each configuration's fixed games REPEATS times, each configuration's
fastest repetition kept (a configuration takes a few milliseconds: a short stretch of
the machine's time is less likely to be disturbed)."""


class BaselineError(RuntimeError):
    """No baseline could be named or exported (not a git checkout, no such commit)."""


def _git(*args: str, repo: Path = HERE) -> str:
    try:
        result = subprocess.run(["git", "-C", str(repo), *args], capture_output=True,
                                text=True, check=False)
    except FileNotFoundError:
        raise BaselineError("git is not installed: the paired bench needs a git "
                            "checkout (apt-get install git)") from None
    if result.returncode != 0:
        raise BaselineError(f"git {' '.join(args)}: {result.stderr.strip()}")
    return result.stdout.strip()


def resolve_baseline(ref: str | None, repo: Path = HERE) -> tuple[str, str]:
    """(label, commit) of the baseline in `repo`: `ref`, else the last release (the
    newest tag reachable from HEAD, else the commit that last set pyproject.toml's
    version)."""
    if not (repo / ".git").exists():
        raise BaselineError(f"{repo} is not a git checkout: the paired bench compares "
                            "two trees of one (run it from a clone)")
    if ref is not None:
        return ref, _git("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}", repo=repo)
    try:
        tag = _git("describe", "--tags", "--abbrev=0", repo=repo)
        return f"release {tag}", _git("rev-parse", f"{tag}^{{commit}}", repo=repo)
    except BaselineError:
        pass
    commit = _git("log", "-1", "--format=%H", "-G", "^version = ", "--", "pyproject.toml",
                  repo=repo)
    if not commit:
        raise BaselineError("no release to compare with: name one with --against REF")
    version = _git("show", f"{commit}:pyproject.toml", repo=repo).split('version = "', 1)[1]
    return f"release {version.split(chr(34), 1)[0]} (the commit that set it)", commit


def export(commit: str, into: Path, repo: Path = HERE) -> None:
    """The baseline's packages as of `commit`, written under `into`."""
    names = set(_git("ls-tree", "--name-only", commit, repo=repo).split())
    wanted = [name for name in PACKAGES if name in names]
    archive = subprocess.run(["git", "-C", str(repo), "archive", "--format=tar", commit,
                              "--", *wanted], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)


def _turn(site: Path, tree: Path, games: int, repeats: int) -> dict[str, Any]:
    import json

    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(site), str(tree))),
           "PYTHONHASHSEED": "0"}
    args = [f"{n}/{v}/{p}" for n, v, p in CONFIGS]
    # cwd: "python -c" puts the working directory first on sys.path
    result = subprocess.run([sys.executable, "-c", CHILD, str(games), str(repeats), *args],
                            capture_output=True, text=True, check=False,
                            cwd=tempfile.gettempdir(), env=env)
    if result.returncode != 0:
        raise RuntimeError(f"the turn in {tree} failed:\n{result.stderr}")
    out: dict[str, Any] = json.loads(result.stdout)
    if not out["engine"].startswith(str(tree)):
        raise RuntimeError(f"the turn in {tree} imported {out['engine']}")
    return out


def interval(ratios: list[float], resamples: int = BOOTSTRAP) -> tuple[float, float]:
    """A 95 % bootstrap interval of the median of `ratios` (seeded: one run's verdict
    does not depend on a random draw)."""
    rng = random.Random(46)
    n = len(ratios)
    medians = sorted(median(rng.choices(ratios, k=n)) for _ in range(resamples))
    return medians[int(0.025 * resamples)], medians[int(0.975 * resamples) - 1]


def judge(ratios: list[float], threshold: float) -> dict[str, Any]:
    low, high = interval(ratios)
    slower = high < 1 - threshold
    faster = low > 1 + threshold
    return {
        "ratio_median": round(median(ratios), 4),
        "ratio_interval_95": [round(low, 4), round(high, 4)],
        "ratio_min_max": [round(min(ratios), 4), round(max(ratios), 4)],
        "pair_ratios": [round(r, 4) for r in ratios],
        "threshold": threshold,
        "verdict": "slower" if slower else "faster" if faster else "level",
        "exit_code": 1 if slower else 0,
    }


def run(against: str | None = None, quick: bool = False, pairs: int | None = None,
        threshold: float = DEFAULT_THRESHOLD, repo: Path = HERE) -> dict[str, Any]:
    """Turn about against `against` (see the module docstring); `repo` is the git
    repository the baseline comes from (this checkout's)."""
    plan = dict(QUICK if quick else FULL)
    if pairs is not None:
        plan["pairs"] = pairs
    label, commit = resolve_baseline(against, repo)
    scratch = Path(tempfile.mkdtemp(prefix="cbrig-turnabout-"))
    load_before = [round(x, 2) for x in os.getloadavg()]
    started = time.perf_counter()
    cpu = None
    if hasattr(os, "sched_setaffinity"):
        cpu = sorted(os.sched_getaffinity(0))[-1]
        os.sched_setaffinity(0, {cpu})  # every turn on the same core
    try:
        baseline = scratch / "baseline"
        baseline.mkdir()
        export(commit, baseline, repo)
        site = scratch / "site"
        site.mkdir()
        (site / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
        trees = {"baseline": baseline, "tree": HERE}
        turns: dict[str, list[dict[str, Any]]] = {"baseline": [], "tree": []}
        loads: list[float] = []
        for number in range(plan["pairs"]):
            order = ("baseline", "tree") if number % 2 == 0 else ("tree", "baseline")
            for name in order:
                progress.say(f"pair {number + 1}/{plan['pairs']}: {name}")
                turns[name].append(_turn(site, trees[name], plan["games"], plan["repeats"]))
            loads.append(round(os.getloadavg()[0], 2))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    rates = {name: [t["steps"] / t["cpu_s"] for t in ts] for name, ts in turns.items()}
    walls = {name: [t["steps"] / t["wall_s"] for t in ts] for name, ts in turns.items()}
    ratios = [a / b for a, b in zip(rates["tree"], rates["baseline"], strict=True)]
    verdict = judge(ratios, threshold)
    return {
        "cbrig_bench_paired": 1,
        "figure": "random self-play steps per CPU second, this tree over the baseline, "
                  "one ratio per pair of turns",
        "baseline": {"label": label, "commit": commit},
        "tree": str(HERE),
        "plan": {**plan, "configs": [f"{n}/{v}/{p}p" for n, v, p in CONFIGS],
                 "pinned_cpu": cpu},
        **verdict,
        "rates_not_judged": {
            name: {"steps_per_cpu_s_median": round(median(xs)),
                   "steps_per_cpu_s_min_max": [round(min(xs)), round(max(xs))],
                   "steps_per_wall_s_median": round(median(walls[name]))}
            for name, xs in rates.items()},
        "load_average_before": load_before,
        "load_average_after_each_pair": loads,
        "seconds": round(time.perf_counter() - started, 1),
        "method": " ".join((__doc__ or "").split()),
    }


def summary_lines(report: dict[str, Any]) -> list[str]:
    low, high = report["ratio_interval_95"]
    rates = report["rates_not_judged"]
    loads = report["load_average_after_each_pair"]
    verdict = {"slower": "SLOWER", "faster": "faster", "level": "level"}[report["verdict"]]
    return [
        f"paired engine bench against {report['baseline']['label']} "
        f"({report['baseline']['commit'][:10]}), {report['plan']['pairs']} pairs turn about:",
        f"  this tree / baseline: median {report['ratio_median']:.3f}, 95 % interval "
        f"{low:.3f}-{high:.3f}, min-max {report['ratio_min_max'][0]:.3f}-"
        f"{report['ratio_min_max'][1]:.3f}",
        f"  [{'MISS' if report['exit_code'] else 'met '}] {verdict}: fails only when the "
        f"whole interval is below {1 - report['threshold']:.2f}",
        f"  rates, not judged: tree {rates['tree']['steps_per_cpu_s_median']:,} and baseline "
        f"{rates['baseline']['steps_per_cpu_s_median']:,} steps per CPU s (median), "
        f"taken at load {report['load_average_before'][0]}-{max(loads or [0])}, "
        f"in {report['seconds']} s",
    ]
