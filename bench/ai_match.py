"""Computer levels against each other, and against the flat Monte Carlo reference.

    python -m bench.ai_match --game tenfour --players 2 --seats hard,flatmc --games 400 \
        --seed 17 --out hard-flatmc.jsonl
    python -m bench.ai_match --summary hard-flatmc.jsonl

`--seats` names one level per seat (`easy`, `medium`, `hard`, the aliases, `flatmc`, or
`control`: `medium` counted apart, for the baseline of a seat on the same seeds;
`tuned`: `hard`'s policy alone, `medium`'s choice with `hard`'s weights, no search);
game g seats them rotated by g places, so every level sits in every seat equally often
(alternated, with two players). Each game is seeded `random.Random(f"{seed}:{g}")` and
appends one JSON line to `--out` (winners by level, CPU time of each real decision), so a
long run can be stopped at any time and summarised from what it has: the first level
named is the subject, its win rate gets a Wilson 95% interval against its fair share.

`flatmc` is the reference of issue 17, built here and not offered to users: each legal
action is tried with `--playouts` (50) playouts to the end of the game, every decision
in them random and every chance outcome drawn from `chance_outcomes()`, and the action
with the best win rate is played (ties by the game's rng). Actions that lead to the same
position share their playouts (their playouts have the same distribution, so this only
saves time); forced decisions (one legal action) cost nothing.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.stats import paired_difference, percentile
from engine.api import Action, State
from engine.selfplay import Chooser, Rng, pick_best, random_playout, sample_chance

MAX_PLAYOUT_STEPS = 100_000


def flat_mc_chooser(playouts: int = 50) -> Chooser:
    """The flat Monte Carlo reference with `playouts` random playouts per action."""

    def choose(state: State, legal: Sequence[Action], rng: Rng) -> Action:
        if len(legal) == 1:
            return legal[0]
        me = state.current_player()
        groups: dict[str, tuple[State, list[Action]]] = {}
        for action in legal:
            child = state.clone()
            child.apply(action)
            key = json.dumps(child.to_json(), sort_keys=True)
            groups.setdefault(key, (child, []))[1].append(action)
        firsts: list[Action] = []
        rates: list[float] = []
        for child, actions in groups.values():
            wins = sum(_random_playout(child, me, rng) for _ in range(playouts))
            firsts.append(actions[0])
            rates.append(wins / playouts)
        return pick_best(firsts, rates, rng)

    return choose


def _random_playout(start: State, me: int, rng: Rng) -> int:
    """1 if `me` wins a game played on from `start` with random decisions: the same
    game, draw for draw, as `playout(start, me, random_choice, rng)`, played by
    `engine.selfplay.random_playout` (which skips the actions, previews and events a
    playout throws away where a game knows how)."""
    s = start.clone()
    random_playout(s, rng, MAX_PLAYOUT_STEPS)
    return 1 if me in s.winners() else 0


def playout(start: State, me: int, choose: Chooser, rng: Rng) -> int:
    """1 if `me` wins the game played on from `start` (a clone) with `choose` deciding
    for every seat and chance drawn from `chance_outcomes()`."""
    s = start.clone()
    for _ in range(MAX_PLAYOUT_STEPS):
        if s.is_terminal():
            break
        if s.is_chance_node():
            s.apply(sample_chance(s.chance_outcomes(), rng))
        else:
            s.apply(choose(s, s.legal_actions(), rng))
    return 1 if me in s.winners() else 0


def chooser(game: str, level: str, budget: int | None, playouts: int,
            rounds: int | None = None, players: int = 2) -> Chooser:
    if level == "hard" and rounds is not None:  # hard's search with another horizon
        from bench.ai_deviations import search_variant

        return search_variant(game, budget, rounds, players, None)
    if level == "flatmc":
        return flat_mc_chooser(playouts)
    if level == "tuned":  # hard's own policy (medium's choice with hard's weights),
        # without the search: what the search adds on top of it
        import importlib

        tuned: Chooser = importlib.import_module(f"engine.{game}.ai").hard_policy
        return tuned
    if level == "control":
        level = "medium"  # medium under another name: the same seats and seeds with
        # medium in the subject's place give the baseline a subject's rate compares with
    from engine.players import chooser_for

    return chooser_for(game, level) if budget is None else chooser_for(game, level, budget)


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% for z = 1.96)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    d = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / d
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / d
    return centre - half, centre + half


def play_match(args: argparse.Namespace) -> None:
    from rig.gamebuild import build_game

    levels = [s.strip() for s in args.seats.split(",")]
    if len(levels) != args.players:
        raise SystemExit(f"--seats names {len(levels)} levels for {args.players} players")
    game = build_game(args.game, players=args.players, variant=args.variant)
    choosers = {level: chooser(args.game, level, args.budget, args.playouts, args.rounds,
                               args.players)
                for level in set(levels)}
    with (Path(args.out).open("a", encoding="utf-8") if args.out
          else open(sys.stdout.fileno(), "w", closefd=False)) as out:
        for g in range(args.start, args.games):
            out.write(json.dumps(_one_game(args, game, levels, choosers, g), sort_keys=True)
                      + "\n")
            out.flush()


def _timed(inner: Chooser, times: list[float]) -> Chooser:
    """`inner`, with the CPU time of each real decision (more than one action) kept."""

    def choose(state: State, legal: Sequence[Action], rng: Rng) -> Action:
        started = time.process_time()
        action = inner(state, legal, rng)
        if len(legal) > 1:
            times.append(round((time.process_time() - started) * 1000, 3))
        return action

    return choose


def _one_game(args: argparse.Namespace, game: Any, levels: list[str],
              choosers: dict[str, Chooser], g: int) -> dict[str, Any]:
    from engine.selfplay import play

    shift = g % args.players
    seating = levels[-shift:] + levels[:-shift] if shift else list(levels)
    times: dict[str, list[float]] = {level: [] for level in set(levels)}
    started = time.process_time()
    result = play(game, random.Random(f"{args.seed}:{g}"),
                  [_timed(choosers[level], times[level]) for level in seating],
                  keep_events=False)
    return {"game": args.game, "players": args.players, "variant": game.variant,
            "seed": args.seed, "g": g, "levels": levels, "seating": seating,
            "winners": [seating[w] for w in result.state.winners()],
            "finished": result.finished, "cpu_s": round(time.process_time() - started, 3),
            "decision_ms": times, "budget": args.budget, "rounds": args.rounds,
            "playouts": args.playouts}


def summarise(paths: Sequence[str], below: int | None = None) -> dict[str, Any]:
    """Wins of the first-named level with a Wilson interval, and decision times.

    `below` keeps only the games numbered below it: a run carried on past the count it
    was planned for can still be reported at that count, as well as in full."""
    records: list[dict[str, Any]] = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            records.extend(json.loads(line) for line in f if line.strip())
    if below is not None:
        records = [r for r in records if r["g"] < below]
    if not records:
        raise SystemExit("no games in " + ", ".join(paths)
                         + ("" if below is None else f" numbered below {below}"))
    first = records[0]
    levels = first["levels"]
    subject = levels[0]
    games = len(records)
    wins = sum(subject in r["winners"] for r in records)
    low, high = wilson(wins, games)
    times: dict[str, list[float]] = {}
    for r in records:
        for level, ms in r["decision_ms"].items():
            times.setdefault(level, []).extend(ms)
    return {
        "game": first["game"], "players": first["players"], "variant": first["variant"],
        "levels": levels, "subject": subject, "games": games, "wins": wins,
        "rate": round(wins / games, 3), "wilson95": [round(low, 3), round(high, 3)],
        "fair_share": round(1 / first["players"], 3),
        "cpu_s_per_game": round(sum(r["cpu_s"] for r in records) / games, 2),
        "decision_ms": {level: {"n": len(ms), "median": round(percentile(ms, 50), 2),
                                "p99": round(percentile(ms, 99), 2),
                                "max": round(max(ms), 2) if ms else None}
                        for level, ms in sorted(times.items())},
    }


def paired(path: str, against: str, below: int | None = None) -> dict[str, Any]:
    """The subject of `path` against the subject of `against` game by game, on the game
    numbers both files hold (the same seeds and seats): the mean difference of their
    results with its standard error. Where two levels agree on most decisions their
    games coincide, so this sees a difference far smaller than two separate Wilson
    intervals can (how much `hard`'s search adds to its policy alone, say)."""
    def results(file: str) -> tuple[str, dict[int, float]]:
        with open(file, encoding="utf-8") as f:
            records = [json.loads(line) for line in f if line.strip()]
        if not records:
            raise SystemExit(f"no games in {file}")
        subject = records[0]["levels"][0]
        return subject, {r["g"]: float(subject in r["winners"]) for r in records
                         if below is None or r["g"] < below}

    mine, a = results(path)
    theirs, b = results(against)
    common = sorted(a.keys() & b.keys())
    if len(common) < 2:
        raise SystemExit(f"{path} and {against} share {len(common)} game numbers; "
                         f"a paired difference needs 2")
    gain, se = paired_difference([a[g] for g in common], [b[g] for g in common])
    return {"subject": mine, "against": theirs, "games": len(common),
            "differ": sum(a[g] != b[g] for g in common), "gain": round(gain, 4),
            "se": round(se, 4)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ai_match", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=("tenfour", "bumpem"), default="tenfour")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--variant", default=None)
    parser.add_argument("--seats", default="hard,flatmc")
    parser.add_argument("--games", type=int, default=400,
                        help="play the games numbered below this (a count only from 0)")
    parser.add_argument("--start", type=int, default=0,
                        help="first game number, to continue or split a run: --start 700 "
                             "--games 1000 plays games 700-999")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--budget", type=int, default=None,
                        help="hard's samples per decision (default: the level's own)")
    parser.add_argument("--rounds", type=int, default=None,
                        help="hard's search horizon in rounds (default: one, as shipped)")
    parser.add_argument("--playouts", type=int, default=50, help="flatmc playouts per action")
    parser.add_argument("--out", default=None, help="append one JSON line per game here")
    parser.add_argument("--summary", nargs="+", default=None,
                        help="summarise these JSON-lines files instead of playing")
    parser.add_argument("--below", type=int, default=None, metavar="N",
                        help="with --summary: only the games numbered below N")
    parser.add_argument("--against", default=None, metavar="FILE",
                        help="with --summary FILE: its subject against FILE's subject, "
                             "game by game on the same game numbers")
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="cProfile the first --seats level on N decisions of a seeded "
                             "medium game instead of playing (top functions by own time)")
    parser.add_argument("--mix", nargs="+", default=None, metavar="GAME:PLAYERS:SEATS[:N]",
                        help="round robin: N (1) games of each pairing in turn, each "
                             "appended to DIR/GAME-PLAYERS-SEATS.jsonl (--out is DIR); "
                             "game g is the same game as in a single-pairing run")
    args = parser.parse_args(argv)
    if not args.summary and not args.profile and args.start >= args.games:
        parser.error(f"--start {args.start} plays nothing: --games {args.games} is the game "
                     f"number to stop before, not a count")
    if args.summary and args.against:
        print(json.dumps(paired(args.summary[0], args.against, args.below), indent=2))
        return 0
    if args.summary:
        print(json.dumps(summarise(args.summary, args.below), indent=2))
        return 0
    if args.profile:
        profile_decisions(args)
        return 0
    if args.mix:
        play_mix(args)
        return 0
    play_match(args)
    return 0


def profile_decisions(args: argparse.Namespace) -> None:
    """Where a level's decision time goes: N real decisions spread over one seeded
    `medium` game, each on a fresh copy of its position, under cProfile."""
    import cProfile
    import pstats

    from engine.players import chooser_for
    from engine.selfplay import play
    from rig.gamebuild import build_game

    game = build_game(args.game, players=args.players, variant=args.variant)
    medium = chooser_for(args.game, "medium")
    spots: list[State] = []

    def keep(state: State, action: Action, events: object) -> None:
        if not state.is_terminal() and not state.is_chance_node() and len(
                state.legal_actions()) > 1:
            spots.append(state.clone())

    play(game, random.Random(f"{args.seed}:profile"), [medium] * args.players,
         keep_events=False, on_step=keep)
    spots = spots[::max(1, len(spots) // args.profile)][:args.profile]
    level = args.seats.split(",")[0].strip()
    choose = chooser(args.game, level, args.budget, args.playouts, args.rounds, args.players)
    profiler = cProfile.Profile()
    started = time.process_time()
    profiler.enable()
    for i, spot in enumerate(spots):
        choose(spot, spot.legal_actions(), random.Random(i))
    profiler.disable()
    each = (time.process_time() - started) / len(spots) * 1000
    print(f"{level}: {len(spots)} decisions, {each:.0f} ms CPU each under the profiler")
    pstats.Stats(profiler).sort_stats("tottime").print_stats(15)


def play_mix(args: argparse.Namespace) -> None:
    """Round-robin over pairings, so a run stopped at any time has all of them."""
    from rig.gamebuild import build_game

    directory = Path(args.out or ".")
    directory.mkdir(parents=True, exist_ok=True)
    plans = []
    for spec in args.mix:
        game_name, players, seats, *weight = spec.split(":")
        per_round = int(weight[0]) if weight else 1
        levels = seats.split(",")
        path = directory / f"{game_name}-{players}-{seats.replace(',', '-')}.jsonl"
        done = len(path.read_text(encoding="utf-8").splitlines()) if path.exists() else 0
        sub = argparse.Namespace(**{**vars(args), "game": game_name, "players": int(players),
                                    "seats": seats})
        game = build_game(game_name, players=int(players), variant=None)
        choosers = {level: chooser(game_name, level, args.budget, args.playouts, args.rounds,
                                   int(players))
                    for level in set(levels)}
        plans.append([sub, game, levels, choosers, path, max(done, args.start), per_round])
    while any(plan[5] < args.games for plan in plans):
        for plan in plans:
            sub, game, levels, choosers, path, _, per_round = plan
            for _ in range(per_round):
                g = plan[5]
                if g >= args.games:
                    break
                record = _one_game(sub, game, levels, choosers, g)
                with path.open("a", encoding="utf-8") as out:
                    out.write(json.dumps(record, sort_keys=True) + "\n")
                plan[5] = g + 1


if __name__ == "__main__":
    raise SystemExit(main())
