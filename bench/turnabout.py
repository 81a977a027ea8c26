"""The engine's speed judged as a ratio, turn about, against a baseline (issue 46).

A rate measured on a shared machine moves with its load (issue 46: an unmodified tree
and a 30 %-slower copy failed the same raw-rate gate, a 15 %-slower one passed it). A
ratio of two trees measured side by side in one run does not: both see the same load.

``cbrig bench --paired [--against REF]`` exports the baseline (REF, a commit or tag;
by default the last release: the newest tag, else the commit that set
``pyproject.toml``'s version) with ``git archive`` into a temporary directory. Then,
``pairs`` times, it starts a **fresh pair of interpreters**, one on each tree (pinned to
the same CPU, with an import hook that stops an editable install from lending the
baseline this checkout's modules), and plays them **turn about in lockstep**: each
configuration's fixed games (``games`` seeded random games, ``engine.selfplay.play``,
``keep_events=False``, after one warm-up game) on one side, then at once on the other
(A B, then B A for the next configuration, ...), ``repeats`` times over. The two
measurements of a configuration are milliseconds apart, so whatever the machine's load
does to one it does to the other (issue 46 first tried one tree per process, turn after
turn: a stretch of seconds at load 20 slowed one turn of a pair and not the other, and a
15 %-slower copy passed 3 runs in 14; with 5 pairs, whose bootstrap interval is their
min-max, one odd pair let it pass once in 5). A repetition gives a ratio, this tree's steps per
CPU second over the baseline's on every configuration; a pair's ratio is the median of
its repetitions'.

The verdict: the median of the pairs' ratios with a 95 % bootstrap interval (2,000
resamples of the pairs, seeded) and the min-max range. It **fails (exit 1) only when
the whole interval lies below 1 - threshold**: this tree is slower than the threshold
beyond the run's own spread. The absolute rates of both trees are reported beside it,
with the load average they were taken under: for information, never judged.
"""

from __future__ import annotations

import json
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
QUICK = {"pairs": 8, "games": 3, "repeats": 5}
FULL = {"pairs": 14, "games": 4, "repeats": 11}
BOOTSTRAP = 2000

CHILD = """
import json, random, sys, time
try:
    from rig.gamebuild import build_game
except ImportError:  # trees before issue 39 built games in rig.games
    from rig.games import build_game
from engine.selfplay import play
import engine
games = int(sys.argv[1])
configs = [(c.split("/")[0], c.split("/")[1], int(c.split("/")[2])) for c in sys.argv[2:]]
built = [build_game(n, players=p, variant=v) for n, v, p in configs]
for game in built:
    play(game, random.Random("bench:warm-up"), keep_events=False)
print(json.dumps({"engine": engine.__file__}), flush=True)
for line in sys.stdin:
    game = built[int(line)]
    steps, cpu, wall = 0, time.process_time(), time.perf_counter()
    for seed in range(games):
        steps += play(game, random.Random(f"bench:{seed}"), keep_events=False).steps
    print(json.dumps([steps, time.process_time() - cpu, time.perf_counter() - wall]),
          flush=True)
"""
"""A tree's side of a pair: builds the games, plays one warm-up game each, then plays a
configuration's fixed games each time the parent names it, and answers with the steps
and the CPU and wall seconds they took."""


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


class _Side:
    """One tree's child of a pair (see CHILD), fed one configuration at a time."""

    def __init__(self, site: Path, tree: Path, games: int) -> None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(site), str(tree))),
               "PYTHONHASHSEED": "0"}
        args = [f"{n}/{v}/{p}" for n, v, p in CONFIGS]
        # cwd: "python -c" puts the working directory first on sys.path
        self.proc = subprocess.Popen([sys.executable, "-c", CHILD, str(games), *args],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, cwd=tempfile.gettempdir(), env=env)
        self.tree = tree
        engine = self._read()["engine"]
        if not engine.startswith(str(tree)):
            self.close()
            raise RuntimeError(f"the side in {tree} imported {engine}")

    def _read(self) -> Any:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            self.close()
            raise RuntimeError(f"the side in {self.tree} ended (exit {self.proc.returncode})")
        return json.loads(line)

    def play(self, number: int) -> tuple[int, float, float]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{number}\n")
        self.proc.stdin.flush()
        steps, cpu, wall = self._read()
        return int(steps), float(cpu), float(wall)

    def close(self) -> None:
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            self.proc.stdin.close()
        try:
            self.proc.wait(300)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def _pair(site: Path, trees: dict[str, Path], games: int, repeats: int,
          number: int) -> dict[str, Any]:
    """A pair of fresh children, one a tree, played in lockstep: every configuration
    `repeats` times, the two sides back to back each time (the order alternating), so
    both measurements of a configuration are milliseconds apart, under the same load.
    The pair's ratio: the median over repetitions of this tree's steps per CPU s over
    the baseline's on all configurations, measured back to back."""
    sides = {name: _Side(site, tree, games) for name, tree in trees.items()}
    cpu: dict[str, list[float]] = {"baseline": [], "tree": []}
    wall: dict[str, float] = {"baseline": 0.0, "tree": 0.0}
    steps: dict[str, int] = {"baseline": 0, "tree": 0}
    ratios = []
    try:
        for repeat in range(repeats):
            spent = {"baseline": 0.0, "tree": 0.0}
            done = {"baseline": 0, "tree": 0}
            for config in range(len(CONFIGS)):
                first = (number + repeat + config) % 2 == 0
                for name in (("baseline", "tree") if first else ("tree", "baseline")):
                    n, c, w = sides[name].play(config)
                    spent[name] += c
                    done[name] += n
                    wall[name] += w
            ratios.append((done["tree"] / spent["tree"]) / (done["baseline"] / spent["baseline"]))
            for name in cpu:
                cpu[name].append(spent[name])
                steps[name] = done[name]
    finally:
        for side in sides.values():
            side.close()
    return {"ratio": median(ratios),
            "rate": {name: steps[name] / min(cpu[name]) for name in cpu},
            "wall_rate": {name: steps[name] * repeats / wall[name] for name in cpu}}


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
        measured: list[dict[str, Any]] = []
        loads: list[float] = []
        for number in range(plan["pairs"]):
            progress.say(f"pair {number + 1}/{plan['pairs']}")
            measured.append(_pair(site, trees, plan["games"], plan["repeats"], number))
            loads.append(round(os.getloadavg()[0], 2))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    rates = {name: [p["rate"][name] for p in measured] for name in trees}
    walls = {name: [p["wall_rate"][name] for p in measured] for name in trees}
    ratios = [p["ratio"] for p in measured]
    verdict = judge(ratios, threshold)
    return {
        "cbrig_bench_paired": 1,
        "figure": "random self-play steps per CPU second, this tree over the baseline, "
                  "one ratio per pair of fresh children played in lockstep",
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
