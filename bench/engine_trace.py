"""Do two engine trees play the same games? Digests of seeded games, and a fixed workload.

    python -m bench.engine_trace digest --games 200 --levels easy,medium
    PYTHONPATH=/tmp/before python bench/engine_trace.py digest --games 200 --levels easy,medium
    python -m bench.engine_trace play --game bumpem --players 2 --games 6
    python -m bench.engine_trace playouts --game bumpem --players 2 --playouts 20

`digest` prints one line per shipped configuration, level and option set (the defaults,
then every boolean option the other way with a quarter of the games): a digest of
everything the rig or a player can observe along the seeded games (`fingerprint`), so
the old tree (`git archive <commit> engine | tar -x -C /tmp/before`, put first on
`PYTHONPATH`) and the new one can be compared line by line. `medium` games also go
through the `ai.py` files of the tree that is run: compare `medium` lines only between
trees with the same ones. `play` plays seeded random games and prints the step count:
a fixed amount of work for an instruction counter (`valgrind --tool=callgrind`, less the
same command with `--games 0`), which the load on the machine does not move;
`playouts` is the same for the flat Monte Carlo reference's random playouts.

Run the old tree as a file (`python bench/engine_trace.py ...`), not with `-m` from the
worktree: `-m` puts the working directory before `PYTHONPATH` on the path, so the new
tree would be imported (the line "engine from ..." on stderr says which one ran).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections.abc import Sequence

from engine.api import Game
from engine.selfplay import Chooser, play, random_choice, sample_chance


def flipped_options() -> dict[str, dict[str, object]]:
    """Each shipped game's boolean rule options the other way from their defaults, read
    from the games' facts (rig.registry), not restated here."""
    from rig.registry import built_in_names, entry

    return {name: {key: not value for key, value in entry(name).facts.options.items()
                   if isinstance(value, bool)} for name in built_in_names()}


FLIPPED: dict[str, dict[str, object]] = flipped_options()
"""Every boolean rule option of the shipped games the other way from its default."""


def fingerprint(game: Game, games: int, choose: Chooser = random_choice) -> str:
    """A digest of everything observable along `games` seeded games: each state's JSON
    and prompt, the chance outcomes, the legal actions with their previews, keys and
    `describe`, every event's kind, text and data, and the winners."""
    digest = hashlib.sha256()

    def see(value: object) -> None:
        digest.update(repr(value).encode("utf-8"))

    for seed in range(games):
        rng = random.Random(f"trace:{seed}")
        state = game.new_initial_state()
        while not state.is_terminal():
            see(json.dumps(state.to_json(), sort_keys=True))
            see(state.prompt())
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                see([(action, str(p)) for action, p in outcomes])
                action = sample_chance(outcomes, rng)
            else:
                legal = state.legal_actions()
                see([(a, a.key(), state.describe(a)) for a in legal])
                action = choose(state, legal, rng)
            see(state.describe(action))
            for event in state.apply(action):
                see((event.kind, event.text, json.dumps(event.data, sort_keys=True)))
        see(state.winners())
    return digest.hexdigest()[:20]


def flatmc_fingerprint(game: Game, games: int, steps: int, playouts: int = 6) -> str:
    """A digest of the flat Monte Carlo reference's play (bench/ai_match.py): seeded
    games of `flatmc` (`playouts` per action, in seat `seed % players`) against
    `random`, their first `steps`
    steps: every action chosen, every chance outcome, then where the rng stands. The
    reference's random playouts share the game's rng, so any change in how they draw
    or play shows here."""
    from bench.ai_match import flat_mc_chooser

    digest = hashlib.sha256()
    reference = flat_mc_chooser(playouts)
    for seed in range(games):
        rng = random.Random(f"flatmc:{seed}")
        state = game.new_initial_state()
        seats: list[Chooser] = [random_choice] * game.num_players
        seats[seed % game.num_players] = reference
        for _ in range(steps):
            if state.is_terminal():
                break
            if state.is_chance_node():
                action = sample_chance(state.chance_outcomes(), rng)
            else:
                action = seats[state.current_player()](state, state.legal_actions(), rng)
            digest.update(action.key().encode("utf-8"))
            state.apply(action)
        digest.update(repr((state.winners(), rng.random())).encode("utf-8"))
    return digest.hexdigest()[:20]


def configurations() -> list[tuple[str, str, int]]:
    """(game, variant, players) of every shipped game with its options listed here."""
    from rig.registry import entries

    return [(entry.name, variant.name, players) for entry in entries() if entry.name in FLIPPED
            for variant in entry.facts.variants for players in variant.players]


def digest_lines(games: int, levels: Sequence[str]) -> list[str]:
    from engine.players import chooser_for
    from rig.gamebuild import build_game

    lines = []
    for name, variant, players in configurations():
        for level in levels:
            choose = chooser_for(name, level)
            for flipped in (False, True):
                game = build_game(name, players=players, variant=variant,
                                  options=FLIPPED[name] if flipped else None)
                count = max(1, games // 4) if flipped else games
                options = "flipped" if flipped else "default"
                lines.append(f"{name} {variant} {players}p {level} {options} x{count}: "
                             f"{fingerprint(game, count, choose)}")
                print(lines[-1], flush=True)
    return lines


def play_fixed(name: str, players: int, games: int) -> int:
    from rig.gamebuild import build_game

    game = build_game(name, players=players)
    return sum(play(game, random.Random(f"bench:{i}"), keep_events=False).steps
               for i in range(games))


def playouts_fixed(name: str, players: int, count: int) -> int:
    """`count` of the flat Monte Carlo reference's random playouts from the start of a
    game (bench/ai_match.py), one rng for all: a fixed workload; returns seat 0's wins."""
    from bench.ai_match import _random_playout
    from rig.gamebuild import build_game

    start = build_game(name, players=players).new_initial_state()
    rng = random.Random("bench:playouts")
    return sum(_random_playout(start, 0, rng) for _ in range(count))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.engine_trace",
                                     description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    digest = sub.add_parser("digest", help="digests of seeded games, one line per case")
    digest.add_argument("--games", type=int, default=200)
    digest.add_argument("--levels", default="easy,medium")
    fixed = sub.add_parser("play", help="a fixed workload of seeded random games")
    fixed.add_argument("--game", default="bumpem")
    fixed.add_argument("--players", type=int, default=2)
    fixed.add_argument("--games", type=int, default=6)
    playouts = sub.add_parser("playouts", help="a fixed number of flatmc random playouts")
    playouts.add_argument("--game", default="bumpem")
    playouts.add_argument("--players", type=int, default=2)
    playouts.add_argument("--playouts", type=int, default=20)
    args = parser.parse_args(argv)
    import engine

    print(f"engine from {engine.__file__}", file=sys.stderr)
    if args.command == "digest":
        digest_lines(args.games, [level.strip() for level in args.levels.split(",")])
    elif args.command == "playouts":
        print(playouts_fixed(args.game, args.players, args.playouts))
    else:
        print(play_fixed(args.game, args.players, args.games))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
