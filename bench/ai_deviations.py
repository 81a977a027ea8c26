"""Are `hard`'s departures from `medium` good moves? A paired judgement by full playouts.

    python -m bench.ai_deviations --game tenfour --players 2 --games 6 --rollouts 60

Plays `hard` (its seat rotated game by game) against `medium` seats. At every real
decision of `hard` whose choice leads to another position than `medium`'s choice would,
both positions are played on to the END of the game `--rollouts` times with `medium` in
every seat, rollout k of both from the same seed (common random numbers), and the
mover's win rates are compared. The mean of those paired differences over all
departures, with its standard error, says whether the search's departures win games
against `medium` play, far more cheaply than counting won games: a game holds only a
handful of departures, and its winner is mostly decided by the cards and spins.

`--budget`, `--rounds` and `--confidence` try the search with more samples, a horizon
of several rounds or another threshold, to tell noise from horizon (docs/AI_TENFOUR.md,
"Why hard does not beat medium"). A 10-Four leaf then comes at a later turn of the
mover's; a Bump 'Em leaf (its states do not count turns) plays the rounds beyond the
first with `hard`'s policy in every seat before scoring (`engine.bumpem.ai.hard_leaf`).
"""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import math
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

import valueclass
from bench.ai_match import playout
from engine.api import Action, State
from engine.players import chooser_for
from engine.search import SearchHooks, search_choice
from engine.selfplay import Chooser, Rng, play


def medium_rollout(start: State, me: int, medium: Chooser, rng: Rng) -> float:
    """1.0 if `me` wins the game played on from `start` by `medium` in every seat."""
    return float(playout(start, me, medium, rng))


def paired_gain(state: State, mine: Action, theirs: Action, medium: Chooser,
                rollouts: int) -> float | None:
    """Mean win-rate gain of `mine` over `theirs` for the mover (None: same position)."""
    a, b = state.clone(), state.clone()
    a.apply(mine)
    b.apply(theirs)
    if json.dumps(a.to_json(), sort_keys=True) == json.dumps(b.to_json(), sort_keys=True):
        return None
    me = state.current_player()
    total = sum(medium_rollout(a, me, medium, random.Random(k))
                - medium_rollout(b, me, medium, random.Random(k)) for k in range(rollouts))
    return total / rollouts


def search_variant(game: str, budget: int | None, rounds: int | None, players: int,
                   confidence: float | None) -> Chooser:
    """`hard`'s search with another budget, horizon (rounds) or confidence."""
    module = importlib.import_module(f"engine.{game}.ai")
    hooks: SearchHooks = module.HARD_HOOKS
    samples: int = module.HARD_BUDGET if budget is None else budget
    if confidence is not None:
        hooks = valueclass.replace(hooks, confidence=confidence)
    if rounds is not None and game == "tenfour":

        def later_turn(s: State, root: State, me: int) -> bool:
            return bool(s.turn == me  # type: ignore[attr-defined]
                        and s.turns > root.turns + (rounds - 1) * players)  # type: ignore[attr-defined]

        hooks = valueclass.replace(hooks, is_leaf=later_turn)
    elif rounds is not None:
        hooks = valueclass.replace(hooks, leaf=functools.partial(module.hard_leaf,
                                                                  rounds=rounds))

    def choose(state: State, legal: Sequence[Action], rng: Rng) -> Action:
        return search_choice(state, legal, rng, samples, hooks)

    return choose


def judge(args: argparse.Namespace) -> dict[str, Any]:
    from rig.gamebuild import build_game

    game = build_game(args.game, players=args.players, variant=None)
    medium = chooser_for(args.game, "medium")
    default = args.budget is None and args.rounds is None and args.confidence is None
    hard = (chooser_for(args.game, "hard") if default else
            search_variant(args.game, args.budget, args.rounds, args.players, args.confidence))
    gains: list[float] = []
    decisions = 0
    started = time.process_time()
    for g in range(args.start, args.start + args.games):

        def judged(state: State, legal: Sequence[Action], rng: Rng) -> Action:
            nonlocal decisions
            action = hard(state, legal, rng)
            if len(legal) > 1:
                decisions += 1
                usual = medium(state, legal, random.Random(0))
                gain = paired_gain(state, action, usual, medium, args.rollouts)
                if gain is not None:
                    gains.append(gain)
            return action

        seats: list[Chooser] = [medium] * args.players
        seats[g % args.players] = judged
        play(game, random.Random(f"{args.seed}:{g}"), seats, keep_events=False)
    n = len(gains)
    mean = sum(gains) / n if n else 0.0
    se = (math.sqrt(sum((x - mean) ** 2 for x in gains) / (n - 1) / n) if n > 1
          else float("nan"))
    return {"game": args.game, "players": args.players, "games": args.games,
            "seed": args.seed, "start": args.start, "budget": args.budget,
            "rounds": args.rounds, "confidence": args.confidence,
            "rollouts": args.rollouts, "decisions": decisions, "departures": n,
            "gain_per_departure": round(mean, 4), "se": round(se, 4),
            "gain_per_game": round(mean * n / args.games, 4),
            "se_per_game": round(se * n / args.games, 4),
            "cpu_s": round(time.process_time() - started, 1)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ai_deviations", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=("tenfour", "bumpem"), default="tenfour")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--start", type=int, default=0, help="first game number")
    parser.add_argument("--seed", default="dev")
    parser.add_argument("--rollouts", type=int, default=60,
                        help="paired medium playouts per departure")
    parser.add_argument("--budget", type=int, default=None, help="hard's samples")
    parser.add_argument("--rounds", type=int, default=None,
                        help="search horizon in rounds (default: one, as `hard`)")
    parser.add_argument("--confidence", type=float, default=None)
    args = parser.parse_args(argv)
    print(json.dumps(judge(args)))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
