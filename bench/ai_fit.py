"""Fit `hard`'s leaf in 10-Four to game outcomes: a logistic model of the score's parts.

    python -m bench.ai_fit --players 2 --games 3000 --seed 1 --out engine/tenfour/leaf.py

Plays `medium` self-play games; at the start of every turn (where `hard`'s search scores
its leaves) it records `engine.tenfour.ai.leaf_features` for the seat about to play and
whether that seat went on to win. A logistic regression (Newton's method, a little L2)
turns those into weights; the log loss on held-out games (every fifth game) is printed
beside that of the logistic of `medium`'s own score at `hard`'s former scale, so a fit
that does not predict better than the old leaf shows it. `--out` writes the weights as a
Python module (the engine reads no files), checked on import by `engine.tenfour.ai`.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Sequence

from engine.api import Action, Event, State
from engine.players import chooser_for
from engine.search import win_chance
from engine.selfplay import play

Row = tuple[list[float], float, float]
"""(features with a leading 1 for the tempo of the seat about to play, medium's score,
1.0 if that seat won)."""


def collect(players: int, games: int, seed: int) -> list[list[Row]]:
    """Rows of every turn start of `games` medium self-play games, game by game."""
    from rig.games import build_game

    game = build_game("tenfour", players=players)
    medium = chooser_for("tenfour", "medium")
    out: list[list[Row]] = []
    for g in range(games):
        recorder = _TurnStarts()
        result = play(game, random.Random(f"{seed}:{g}"), [medium] * players,
                      keep_events=False, on_step=recorder.record)
        winners = result.state.winners()
        out.append([(x, score, 1.0 if me in winners else 0.0)
                    for x, score, me in recorder.seen])
    return out


class _TurnStarts:
    """Features, medium's score and the seat, at the start of every turn of one game."""

    def __init__(self) -> None:
        self.seen: list[tuple[list[float], float, int]] = []
        self.turns = 0

    def record(self, state: State, action: Action, events: list[Event]) -> None:
        from engine.tenfour.ai import DEFAULT_WEIGHTS, _Eval, leaf_features
        from engine.tenfour.state import TenFourState

        assert isinstance(state, TenFourState)
        if state.turns != self.turns and not state.is_terminal():
            self.turns = state.turns
            me = state.turn
            score = _Eval(state, DEFAULT_WEIGHTS).score(state, me, ())
            self.seen.append(([1.0, *leaf_features(state, me)], score, me))


def fit(rows: Sequence[Row], l2: float = 1.0, iterations: int = 12) -> list[float]:
    """Logistic regression weights by Newton's method (L2 `l2` on all but the tempo)."""
    k = len(rows[0][0])
    w = [0.0] * k
    for _ in range(iterations):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for x, _, y in rows:
            p = _sigmoid(sum(a * b for a, b in zip(w, x, strict=True)))
            q = p * (1.0 - p)
            for i in range(k):
                grad[i] += (y - p) * x[i]
                xi = q * x[i]
                row = hess[i]
                for j in range(i + 1):
                    row[j] += xi * x[j]
        for i in range(k):
            for j in range(i):
                hess[j][i] = hess[i][j]
            if i:
                grad[i] -= l2 * w[i]
                hess[i][i] += l2
        w = [a + b for a, b in zip(w, _solve(hess, grad), strict=True)]
    return w


def _sigmoid(z: float) -> float:
    return win_chance(z, 1.0)


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a x = b (Gaussian elimination with partial pivoting; a is small)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[pivot] = m[pivot], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for j in range(c, n + 1):
                m[r][j] -= f * m[c][j]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][j] * x[j] for j in range(r + 1, n))) / m[r][r]
    return x


def log_loss(rows: Sequence[Row], predict: object) -> float:
    """Mean log loss of `predict(row) -> win chance` over `rows`."""
    assert callable(predict)
    total = 0.0
    for row in rows:
        p = min(1 - 1e-9, max(1e-9, predict(row)))
        total -= math.log(p) if row[2] else math.log(1 - p)
    return total / len(rows)


def module_text(players: int, weights: Sequence[float], command: str) -> str:
    """The weights as the Python module `engine.tenfour.ai` imports."""
    lines = ",\n".join(f"    {w!r}" for w in weights)
    return (f'"""The fitted leaf of 10-Four `hard` (generated, do not edit): logistic weights of\n'
            f"`engine.tenfour.ai.leaf_features`, the tempo first, fitted to {players}-player\n"
            f"`medium` self-play outcomes by\n\n    {command}\n\"\"\"\n\n"
            f"WEIGHTS: dict[int, tuple[float, ...]] = {{\n  {players}: (\n{lines},\n  ),\n}}\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--l2", type=float, default=1.0)
    parser.add_argument("--out", help="write the weights module here")
    args = parser.parse_args(argv)
    games = collect(args.players, args.games, args.seed)
    train = [row for g, rows in enumerate(games) if g % 5 for row in rows]
    test = [row for g, rows in enumerate(games) if not g % 5 for row in rows]
    weights = fit(train, args.l2)
    print(f"rows: {len(train)} train, {len(test)} held out")
    print(f"held-out log loss: fitted {log_loss(test, lambda r: _sigmoid(_dot(weights, r[0]))):.4f}"
          f", medium's score at scale 10 {log_loss(test, lambda r: win_chance(r[1], 10.0)):.4f}"
          f", coin {log_loss(test, lambda r: 0.5):.4f}")
    print("weights:", [round(w, 4) for w in weights])
    if args.out:
        command = "python -m bench.ai_fit " + " ".join(argv if argv is not None else sys.argv[1:])
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(module_text(args.players, weights, command))
    return 0


def _dot(w: Sequence[float], x: Sequence[float]) -> float:
    return sum(a * b for a, b in zip(w, x, strict=True))


if __name__ == "__main__":
    raise SystemExit(main())
