"""Random legal self-play speed of every game, variant and player count."""

from __future__ import annotations

import random
import time
from typing import Any

from bench import progress
from bench.stats import rnd
from rig.registry import entries

CONFIGS: tuple[tuple[str, str, int], ...] = tuple(
    (game.name, variant, players) for game in entries()
    for variant, players in game.bench.engine_speed)
"""(game, variant, players): every configuration the rig offers (the registry's
engine_speed cases)."""

METHOD = (
    "engine.selfplay.play with random legal choices and chance drawn from "
    "random.Random(f'bench:{game}'), keep_events=False, games played back to back for a "
    "fixed time budget after one warm-up game; steps = applied actions (chance + decisions). "
    "The rates are per CPU second of the (pinned, single-threaded) benchmark process "
    "(time.process_time), so other load on the machine does not count against them; "
    "the wall-clock rates are in engine_detail"
)


def config_key(game: str, variant: str, players: int) -> str:
    return f"{game}/{variant}/{players}p"


def measure_config(game_name: str, variant: str, players: int,
                   budget: float) -> dict[str, Any]:
    from engine.selfplay import play
    from rig.gamebuild import build_game

    game = build_game(game_name, players=players, variant=variant)
    play(game, random.Random("bench:warm-up"), keep_events=False)
    steps = games = unfinished = 0
    started = time.perf_counter()
    cpu_started = time.process_time()
    cpu = 0.0
    key = config_key(game_name, variant, players)
    progress.say(f"  engine: {key}, {budget:g} CPU s")
    while cpu < budget or games < 2:
        progress.tick("  engine: %s, %d games", key, games)
        result = play(game, random.Random(f"bench:{games}"), keep_events=False)
        steps += result.steps
        games += 1
        unfinished += not result.finished
        cpu = time.process_time() - cpu_started
    wall = time.perf_counter() - started
    return {
        "steps_per_second": rnd(steps / cpu),
        "games_per_second": rnd(games / cpu),
        "steps_per_wall_second": rnd(steps / wall),
        "games_per_wall_second": rnd(games / wall),
        "games": games,
        "steps": steps,
        "steps_per_game": rnd(steps / games),
        "unfinished_games": unfinished,
        "cpu_seconds": rnd(cpu),
        "wall_seconds": rnd(wall),
    }


def measure(quick: bool) -> dict[str, Any]:
    budget = 0.4 if quick else 3.0
    detail = {config_key(*c): measure_config(*c, budget=budget) for c in CONFIGS}
    return {
        "engine_steps_per_second": {k: v["steps_per_second"] for k, v in detail.items()},
        "engine_games_per_second": {k: v["games_per_second"] for k, v in detail.items()},
        "engine_detail": detail,
    }
