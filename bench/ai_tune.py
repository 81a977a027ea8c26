"""Tune an evaluation's `Weights` against `medium` seats, with paired seeded games.

    python -m bench.ai_tune --game tenfour --players 2 --screen 800 --confirm 1600 \
        --rounds 1 --holdout 4000 --seed 1 --out tune-tenfour-2.jsonl

A candidate `Weights` plays the game's `medium` policy (`engine.<game>.ai.choose` with
those weights) in one seat against `medium` in the others; game g of a seed block puts
the candidate in seat g mod players and is seeded `random.Random(f"tune:{seed}:{g}")`.
Every candidate plays the SAME games (same seeds, same seats), so two candidates are
compared game by game: where their decisions agree the games are identical, and only
the games where they differ add noise (a paired difference, its standard error from the
per-game differences).

Why games of the policy and not of `hard`: a game of `medium` costs a few hundredths of
a second, a game of `hard` seconds, so thousands of games of each candidate fit in a
minute; and `hard` searches with the tuned weights (policy, prior, kept choice), so a
gain of the policy carries into it.

The search is coordinate steps with multiplicative factors (a weight times `--factor`
or divided by it; shares in [0, 1] clipped; whole numbers +-1). A step is screened on a
fixed block of `--screen` games (the incumbent's results on it are kept) and accepted
only when it also beats the incumbent on a FRESH block of `--confirm` games, each by
`--z` standard errors: the screen picks, the fresh block judges, so a step accepted is
not a fit to the screen's luck. At the end the tuned weights play `--holdout` games on
seeds no step saw, beside `medium` on the same games (the control; `--against` names
other weights, to judge a new pass against the shipped one): the figure a doc may cite,
with its Wilson interval and the fair share.

Each step, the final check and the command line go to stdout (and `--out`) as JSON
lines.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import valueclass
from bench.ai_match import wilson
from bench.stats import paired_difference
from engine.api import Game
from engine.selfplay import Chooser, play
from valueclass import Frozen

Evaluate = Callable[[Any, Sequence[int]], list[float]]
"""(weights, game numbers) -> the candidate seat's result in each game (1 won, 0 lost)."""


class Param(Frozen):
    """One tunable weight: how a step moves it."""

    name: str
    kind: str = "scale"
    """"scale": times or over the factor; "share": the same, clipped to [0, 1];
    "count": a whole number, +-1, at least 1."""


PARAMS: dict[str, tuple[Param, ...]] = {
    "tenfour": (Param("turn_value"), Param("hammer"), Param("landing"),
                Param("police_risk"), Param("alpha", "share"), Param("leader", "share"),
                Param("future"), Param("horizon", "count"), Param("persist", "share"),
                Param("bear"), Param("b19_bonus")),
    "bumpem": (Param("pit_penalty"), Param("finish_bonus"), Param("home_bonus"),
               Param("home_need"), Param("turbo_bonus"), Param("back_option"),
               Param("attack", "share"), Param("bump_ticket", "share"),
               Param("danger"), Param("leader", "share")),
}
"""The weights tuned per game (Bump 'Em's `opp_danger` stays 0: most of the work)."""


def ai_module(game_name: str) -> Any:
    return importlib.import_module(f"engine.{game_name}.ai")


def start_weights(game_name: str, game: Game) -> Any:
    """`medium`'s weights with 10-Four's "0: from the deck" defaults resolved to the
    numbers they stand for, so multiplicative steps have a value to scale (the same
    play as `medium`)."""
    module = ai_module(game_name)
    weights = module.DEFAULT_WEIGHTS
    if game_name == "tenfour":
        tables = module._tables(game)
        turn = weights.turn_value if weights.turn_value > 0 else tables.card_mean
        hammer = weights.hammer if weights.hammer >= 0 else max(
            0.0, tables.card_mean - tables.hammer_mean)
        weights = valueclass.replace(weights, turn_value=turn, hammer=hammer)
    return weights


def policy(game_name: str, weights: Any) -> Chooser:
    """The game's `medium` policy playing with `weights`."""
    module = ai_module(game_name)

    def choose(state: Any, legal: Any, rng: Any) -> Any:
        return module.choose(state, legal, rng, weights)

    return choose


def game_rng(seed: int, g: int) -> random.Random:
    return random.Random(f"tune:{seed}:{g}")


def paired_games(game_name: str, game: Game, seed: int) -> Evaluate:
    """The evaluator: `weights` in seat g mod players against `medium`, game g seeded
    `game_rng(seed, g)`; the same games for every candidate (paired)."""
    medium = policy(game_name, ai_module(game_name).DEFAULT_WEIGHTS)
    players = game.num_players

    def evaluate(weights: Any, games: Sequence[int]) -> list[float]:
        candidate = policy(game_name, weights)
        results = []
        for g in games:
            seat = g % players
            choosers = [candidate if s == seat else medium for s in range(players)]
            result = play(game, game_rng(seed, g), choosers, keep_events=False)
            results.append(1.0 if seat in result.state.winners() else 0.0)
        return results

    return evaluate


def steps(weights: Any, param: Param, factor: float) -> Iterator[Any]:
    """The neighbours of `weights` along one weight (those that differ from it)."""
    value = getattr(weights, param.name)
    if param.kind == "count":
        moved = [value + 1, value - 1] if value > 1 else [value + 1]
    else:
        moved = [value * factor, value / factor]
        if param.kind == "share":
            moved = [min(1.0, max(0.0, v)) for v in moved]
    for v in moved:
        if v != value:
            yield valueclass.replace(weights, **{param.name: round(v, 6) if
                                                  isinstance(v, float) else v})


class Blocks:
    """Fresh blocks of game numbers: block k is games k*size.. of the seed; no two
    requests share a game."""

    def __init__(self, first: int = 0) -> None:
        self.next = first

    def take(self, size: int) -> list[int]:
        games = list(range(self.next, self.next + size))
        self.next += size
        return games


def tune(evaluate: Evaluate, start: Any, params: Sequence[Param], *, factor: float,
         screen: int, confirm: int, rounds: int, z: float,
         log: Callable[[dict[str, Any]], None]) -> Any:
    """Coordinate steps from `start`; the incumbent at the end. A step must beat the
    incumbent by `z` standard errors on the screen block AND on a fresh block."""
    blocks = Blocks()
    screen_games = blocks.take(screen)
    incumbent = start
    base = evaluate(incumbent, screen_games)
    for r in range(rounds):
        improved = False
        for param in params:
            for candidate in steps(incumbent, param, factor):
                started = time.process_time()
                mine = evaluate(candidate, screen_games)
                diff, se = paired_difference(mine, base)
                record: dict[str, Any] = {
                    "round": r, "param": param.name,
                    "value": getattr(candidate, param.name),
                    "from": getattr(incumbent, param.name),
                    "screen": [round(diff, 4), round(se, 4)]}
                if diff > z * se:
                    fresh = blocks.take(confirm)
                    d2, se2 = paired_difference(evaluate(candidate, fresh),
                                                evaluate(incumbent, fresh))
                    record["confirm"] = [round(d2, 4), round(se2, 4)]
                    if d2 > z * se2:
                        record["accepted"] = True
                        incumbent = candidate
                        base = mine
                        improved = True
                record["cpu_s"] = round(time.process_time() - started, 1)
                log(record)
                if record.get("accepted"):
                    break
        if not improved:
            break
    return incumbent


HOLDOUT_FIRST = 10_000_000
"""Game numbers of the held-out check start here: no tuning block reaches them."""


def holdout(evaluate: Evaluate, tuned: Any, control: Any, games: int,
            players: int) -> dict[str, Any]:
    """The tuned weights and `medium` on the same held-out games."""
    numbers = Blocks(HOLDOUT_FIRST).take(games)
    mine = evaluate(tuned, numbers)
    theirs = evaluate(control, numbers)
    wins = int(sum(mine))
    low, high = wilson(wins, games)
    diff, se = paired_difference(mine, theirs)
    return {"holdout_games": games, "wins": wins, "rate": round(wins / games, 4),
            "wilson95": [round(low, 4), round(high, 4)],
            "fair_share": round(1 / players, 4),
            "medium_same_games": round(sum(theirs) / games, 4),
            "paired_gain": [round(diff, 4), round(se, 4)]}


def as_dict(weights: Any) -> dict[str, Any]:
    return valueclass.asdict(weights)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ai_tune", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=sorted(PARAMS), default="tenfour")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--variant", default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--screen", type=int, default=800, help="games of the screen block")
    parser.add_argument("--confirm", type=int, default=1600,
                        help="games of each fresh confirming block")
    parser.add_argument("--rounds", type=int, default=1,
                        help="passes over the weights (stops early when one finds nothing)")
    parser.add_argument("--factor", type=float, default=1.5)
    parser.add_argument("--z", type=float, default=1.0,
                        help="standard errors a step must win by, on each block")
    parser.add_argument("--only", default=None,
                        help="comma-separated weights to tune (default: all of the game's)")
    parser.add_argument("--holdout", type=int, default=4000,
                        help="held-out games of the final check (0: none)")
    parser.add_argument("--check", default=None, metavar="JSON",
                        help="skip tuning: hold out these weights (a JSON object of "
                             "fields over medium's)")
    parser.add_argument("--start", default=None, metavar="JSON",
                        help="tune from these weights (a JSON object of fields over "
                             "medium's; e.g. an earlier run's result) instead of medium's")
    parser.add_argument("--against", default=None, metavar="JSON",
                        help="the held-out check's control: these weights (fields over "
                             "medium's) instead of medium's own, e.g. the shipped ones")
    parser.add_argument("--out", default=None, help="append the JSON lines here too")
    args = parser.parse_args(argv)
    from rig.gamebuild import build_game

    game = build_game(args.game, players=args.players, variant=args.variant)
    evaluate = paired_games(args.game, game, args.seed)
    control = start_weights(args.game, game)
    start = valueclass.replace(control, **json.loads(args.start)) if args.start else control

    def log(record: dict[str, Any]) -> None:
        line = json.dumps(record, sort_keys=True)
        print(line, flush=True)
        if args.out:
            with open(args.out, "a", encoding="utf-8") as out:
                out.write(line + "\n")

    log({"command": "python -m bench.ai_tune " + " ".join(
        sys.argv[1:] if argv is None else argv)})
    if args.check:
        tuned = valueclass.replace(control, **json.loads(args.check))
    else:
        params = PARAMS[args.game]
        if args.only:
            wanted = args.only.split(",")
            params = tuple(p for p in params if p.name in wanted)
        tuned = tune(evaluate, start, params, factor=args.factor, screen=args.screen,
                     confirm=args.confirm, rounds=args.rounds, z=args.z, log=log)
    log({"tuned": as_dict(tuned)})
    if args.holdout:
        against = (valueclass.replace(control, **json.loads(args.against)) if args.against
                   else control)
        log(holdout(evaluate, tuned, against, args.holdout, args.players))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
