"""Fit `hard`'s leaf to game outcomes: a logistic model of the score's parts.

    python -m bench.ai_fit --game tenfour --players 2 --games 3000 --seed 1 \
        --out engine/tenfour/leaf.py

Plays `medium` self-play games; at the start of every turn (where `hard`'s search scores
its leaves) it records `engine.<game>.ai.leaf_features` for the seat about to play and
whether that seat went on to win. A logistic regression (Newton's method, a little L2)
turns those into weights; the log loss on held-out games (every fifth game) is printed
beside that of the old leaf (`medium`'s score at `hard`'s former fixed scale), so a fit
that does not predict better than the old leaf shows it. `--out` writes the weights as a
Python module (the engine reads no files), checked when first used by the game's ai.
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


def collect(game_name: str, players: int, games: int, seed: int) -> list[list[Row]]:
    """Rows of every turn start of `games` medium self-play games, game by game."""
    from rig.gamebuild import build_game

    game = build_game(game_name, players=players)
    medium = chooser_for(game_name, "medium")
    out: list[list[Row]] = []
    for g in range(games):
        recorder = _TurnStarts(game_name, f"{seed}:{g}")
        result = play(game, random.Random(f"{seed}:{g}"), [medium] * players,
                      keep_events=False, on_step=recorder.record)
        winners = result.state.winners()
        out.append([(x, score, 1.0 if me in winners else 0.0)
                    for x, score, me in recorder.seen])
    return out


class _TurnStarts:
    """Features, the old leaf's score and the seat, at the start of every turn of one
    game (where `hard`'s search scores its leaves)."""

    def __init__(self, game_name: str, seed: str) -> None:
        self.game_name = game_name
        self.seed = seed
        self.seen: list[tuple[list[float], float, int]] = []
        self.turns = 0

    def record(self, state: State, action: Action, events: list[Event]) -> None:
        if state.is_terminal():
            return
        if self.game_name == "tenfour":
            self._tenfour(state)
        else:
            self._bumpem(state)

    def _tenfour(self, state: State) -> None:
        from engine.tenfour.ai import DEFAULT_WEIGHTS, _Eval, leaf_features
        from engine.tenfour.state import TenFourState

        assert isinstance(state, TenFourState)
        if state.turns != self.turns:
            self.turns = state.turns
            me = state.turn
            score = _Eval(state, DEFAULT_WEIGHTS).score(state, me, ())
            self.seen.append(([1.0, *leaf_features(state, me)], score, me))

    def _bumpem(self, state: State) -> None:
        from engine.bumpem.ai import WIN, leaf_features, leaf_score
        from engine.bumpem.state import BumpemState

        assert isinstance(state, BumpemState)
        if state.is_chance_node() and not state.extra:
            self.turns += 1
            me = state.turn
            score = leaf_score(state, me, random.Random(f"{self.seed}:{self.turns}"))
            if abs(score) < WIN:  # a ticket that decides the game needs no weights
                self.seen.append(([1.0, *leaf_features(state, me, score)], score, me))


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


TITLES = {"tenfour": "10-Four", "bumpem": "Bump 'Em"}


def module_text(game_name: str, weights: dict[int, Sequence[float]],
                commands: dict[int, str]) -> str:
    """The weights module `engine.<game>.ai` imports: player count -> weights, each with
    the command that fitted it."""
    rows = []
    for players in sorted(weights):
        numbers = "".join(f"        {w!r},\n" for w in weights[players])
        rows.append(f"    {players}: (\n{numbers}    ),\n")
    notes = "".join(f"    {players}: (\n{_wrapped(commands[players])}    ),\n"
                    for players in sorted(commands))
    return (f'"""The fitted leaf of {TITLES[game_name]} `hard` (generated by bench.ai_fit, do '
            f"not edit):\nlogistic weights of `engine.{game_name}.ai.leaf_features` per "
            f"player count, the tempo\n(the mover is about to play) first; fitted to "
            f"`medium` self-play outcomes by COMMANDS.\n\"\"\"\n\n"
            f"WEIGHTS: dict[int, tuple[float, ...]] = {{\n{''.join(rows)}}}\n\n"
            f"COMMANDS: dict[int, str] = {{\n{notes}}}\n")


def _wrapped(text: str, width: int = 60) -> str:
    """A long string as adjacent literals, one a line (the module stays ruff clean),
    broken after a space so a reader sees whole words: the pieces join to `text`."""
    import textwrap

    pieces = textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False,
                           drop_whitespace=False, replace_whitespace=False) or [text]
    assert "".join(pieces) == text
    return "".join(f"        {piece!r}\n" for piece in pieces)


def write_module(game_name: str, players: int, weights: Sequence[float], command: str,
                 path: str) -> None:
    """Add (or replace) one player count's weights in the game's leaf module at `path`,
    keeping the other counts'."""
    import importlib

    leaf = importlib.import_module(f"engine.{game_name}.leaf")
    table: dict[int, Sequence[float]] = dict(leaf.WEIGHTS)
    commands: dict[int, str] = dict(getattr(leaf, "COMMANDS", {}))
    table[players] = weights
    commands[players] = command
    with open(path, "w", encoding="utf-8") as f:
        f.write(module_text(game_name, table, commands))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=("tenfour", "bumpem"), default="tenfour")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--l2", type=float, default=1.0)
    parser.add_argument("--out", help="write the weights module here")
    args = parser.parse_args(argv)
    games = collect(args.game, args.players, args.games, args.seed)
    old_scale = 10.0 if args.game == "tenfour" else 25.0
    train = [row for g, rows in enumerate(games) if g % 5 for row in rows]
    test = [row for g, rows in enumerate(games) if not g % 5 for row in rows]
    weights = fit(train, args.l2)
    share = sum(y for _, _, y in train) / len(train)  # 1/players: the know-nothing guess
    print(f"rows: {len(train)} train, {len(test)} held out")
    print(f"held-out log loss: fitted {log_loss(test, lambda r: _sigmoid(_dot(weights, r[0]))):.4f}"
          f", the old leaf {log_loss(test, lambda r: win_chance(r[1], old_scale)):.4f}"
          f", the base rate {log_loss(test, lambda r: share):.4f}")
    print("weights:", [round(w, 4) for w in weights])
    if args.out:
        command = "python -m bench.ai_fit " + " ".join(argv if argv is not None else sys.argv[1:])
        write_module(args.game, args.players, weights, command, args.out)
    return 0


def _dot(w: Sequence[float], x: Sequence[float]) -> float:
    return sum(a * b for a, b in zip(w, x, strict=True))


if __name__ == "__main__":
    raise SystemExit(main())
