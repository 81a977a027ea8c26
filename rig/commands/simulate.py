"""`cbrig simulate`: self-play many games with seeded chance and report statistics."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from engine.players import canonical_level
from engine.selfplay import play
from rig import gametype, registry
from rig.commands._gameargs import options_for
from rig.core.computer import calibrated_budget
from rig.gamebuild import GameSetupError, build_game, game_entry

GAME_OPTIONS = True
"""rig.cli adds the chosen game's rule option flags."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", choices=sorted(registry.names()), default=registry.DEFAULT_GAME,
                        help=registry.game_help())
    parser.add_argument("--players", type=int, default=3,
                        help=f"how many play, {gametype.count_words(registry.all_player_counts())}"
                             " (default 3, as everywhere)")
    parser.add_argument("--variant", default=None,
                        help="the game's variant (default: the first that fits the players)")
    parser.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    parser.add_argument("--seed", type=int, default=1,
                        help="seed of the chance source: the same seed plays the same games")
    parser.add_argument("--seats", default=None,
                        help="computer level per seat: easy, medium or hard, comma separated "
                             "(default: all easy)")
    parser.add_argument("--budget", type=int, default=None, metavar="MS",
                        help="CPU milliseconds a hard seat thinks per decision, turned into "
                             "search samples by timing the search on this machine as the "
                             "rig does ([game] think_ms); default: the game's fixed sample "
                             "count, the same on every machine")
    parser.add_argument("--board", default=None, help="board file instead of the shipped one")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    options = options_for(args)
    try:
        game = build_game(args.game, players=args.players, variant=args.variant,
                          data={"board": args.board} if args.board else None, options=options)
        samples = _hard_samples(args.budget, args.seats, game)
        choosers = _choosers(args.seats, args.game, args.players, samples)
    except (GameSetupError, ValueError) as exc:
        print(f"cbrig simulate: {exc}", file=sys.stderr)
        return 2
    # a bar on a terminal only, and not under --json (a script reads that output)
    shown = sys.stderr.isatty() and not args.json
    report = simulate(game, args.game, args.games, args.seed, choosers,
                      progress=Progress(args.games, sys.stderr.write) if shown else None)
    if args.seats:
        report["seats"] = args.seats.split(",")
    if samples is not None:
        report["hard_budget_ms"] = args.budget
        report["hard_samples"] = samples
    if args.json:
        print(json.dumps(report, sort_keys=True))
    else:
        _print_summary(report)
    return 0


def _hard_samples(budget_ms: int | None, spec: str | None, game: Any) -> int | None:
    """The sample budget `--budget MS` stands for on this machine (None: not given).

    Why a probe: the search counts samples, not time (so a seed replays), and how many
    fit in MS depends on the machine; `rig.core.computer.calibrated_budget` is the rig's own
    mapping from `[game] think_ms`, so simulate plays what the rig would."""
    if budget_ms is None:
        return None
    if budget_ms < 1:
        raise ValueError("--budget: give the milliseconds a hard seat thinks, 1 or more")

    levels = [s.strip() for s in (spec or "").split(",") if s.strip()]
    if "hard" not in {canonical_level(level) for level in levels if level != "human"}:
        raise ValueError("--budget sets how long a hard seat thinks: name one in --seats")

    return calibrated_budget(game, budget_ms)


def _choosers(spec: str | None, game_name: str, players: int,
              hard_samples: int | None = None) -> list[Any] | None:
    if not spec:
        return None
    levels = [s.strip() for s in spec.split(",")]
    if "human" in levels:
        raise ValueError("--seats: simulate plays every seat itself, so no seat can be "
                         "human; give each a computer level (easy, medium or hard)")
    if len(levels) != players:
        raise ValueError(f"--seats names {len(levels)} levels for {players} players")

    entry = registry.entry(game_name)
    return [entry.chooser(level, hard_samples) for level in levels]


def simulate(game: Any, game_name: str, games: int, seed: int, choosers: list[Any] | None,
             progress: Progress | None = None) -> dict[str, Any]:
    """Play `games` games; each game g uses random.Random(f"{seed}:{g}") for everything."""

    counters_of = game_entry(game_name).facts.sim_counters
    events: Counter[str] = Counter({name: 0 for name in counters_of.values()})
    wins = [0] * game.num_players
    turns: list[int] = []
    finished = 0
    steps = 0
    started = time.perf_counter()
    for g in range(games):
        rng = random.Random(f"{seed}:{g}")
        # computer seats can think for seconds a game: the bar moves with their steps
        on_step = progress.stepper(g) if progress is not None and choosers else None
        result = play(game, rng, choosers, on_step=on_step)
        steps += result.steps
        game_turns = 0
        for event in result.events:
            counter = counters_of.get(event.kind)
            if counter is not None:
                events[counter] += 1
            if event.kind == "turn":
                game_turns += 1
        turns.append(game_turns)
        if result.finished:
            finished += 1
            for seat in result.state.winners():
                wins[seat] += 1
        if progress is not None:
            progress.update(g + 1)
    seconds = time.perf_counter() - started
    if progress is not None:
        progress.finish()
    return {
        "game": game_name,
        "variant": game.variant,
        "players": game.num_players,
        "seed": seed,
        "games": games,
        "finished": finished,
        "turns_mean": round(sum(turns) / len(turns), 3) if turns else 0.0,
        "turns_per_player_mean": round(sum(turns) / len(turns) / game.num_players, 3)
        if turns else 0.0,
        "turns_max": max(turns, default=0),
        "wins_by_seat": wins,
        "events": dict(sorted(events.items())),
        "steps": steps,
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 1) if seconds else None,
    }


class Progress:
    """A one-line progress bar with the rate and the time left, redrawn at most
    ``per_second`` times a second (and once at the end), whatever the game rate."""

    def __init__(self, total: int, write: Callable[[str], object],
                 clock: Callable[[], float] = time.monotonic, per_second: float = 4.0,
                 width: int = 30) -> None:
        self.total = max(total, 1)
        self.write = write
        self.clock = clock
        self.interval = 1.0 / per_second
        self.width = width
        self.started = clock()
        self.drawn_at: float | None = None
        self.draws = 0

    def update(self, done: int, steps: int | None = None) -> None:
        """`done` games finished; `steps`: steps into the game being played."""
        now = self.clock()
        due = self.drawn_at is None or now - self.drawn_at >= self.interval
        if not due and (done < self.total or steps is not None):
            return
        self.drawn_at = now
        self.draws += 1
        self.write("\r" + self.line(done, now - self.started, steps) + "\x1b[K")

    def stepper(self, done: int) -> Callable[..., None]:
        """An `on_step` for the game after `done` finished ones: the bar shows its steps
        (computer seats may take seconds over a game; the bar must not stand still)."""
        steps = [0]

        def on_step(*_: object) -> None:
            steps[0] += 1
            self.update(done, steps[0])

        return on_step

    def line(self, done: int, elapsed: float, steps: int | None = None) -> str:
        filled = self.width * done // self.total
        bar = f"[{'#' * filled}{'.' * (self.width - filled)}] {done}/{self.total}"
        if steps is not None:
            bar += f", game {done + 1} at step {steps}"
        if elapsed <= 0 or done == 0:
            return bar
        rate = done / elapsed
        left = (self.total - done) / rate
        return f"{bar}  {rate:.1f} games/s  {_clock_time(left)} left"

    def finish(self) -> None:
        self.write("\n")


def _clock_time(seconds: float) -> str:
    """3725.2 -> "1:02:05", 65 -> "1:05"."""
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def _print_summary(report: dict[str, Any]) -> None:
    print(f"{report['game']} ({report['variant']}), {report['players']} players, "
          f"seed {report['seed']}")
    print(f"  games {report['games']}, finished {report['finished']}, "
          f"turns mean {report['turns_mean']} (per player {report['turns_per_player_mean']}), "
          f"max {report['turns_max']}")
    print(f"  wins by seat {report['wins_by_seat']}")
    if "hard_samples" in report:
        print(f"  hard thinks {report['hard_budget_ms']} ms: {report['hard_samples']} "
              f"samples a decision here")
    for name, count in report["events"].items():
        print(f"  {name:<22} {count}")
    print(f"  {report['seconds']} s, {report['games_per_second']} games/s")
