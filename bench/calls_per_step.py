"""Calls per engine step: a count that load cannot move, for comparing trees.

``python -m bench.calls_per_step [GAMES]`` plays GAMES seeded random games (the engine
bench's seeds, ``keep_events=False``) of every configuration and counts, with
``sys.setprofile``, every Python call (a function, a method, a generator resumed) and
every call of a C function, per step. cProfile's counts are not used: it files
functions by file, line and name, so the methods ``dataclasses`` generates (all
``<string>:2``) collapse into one entry and most of their calls vanish, which makes a
tree of dataclasses look leaner than it is.

Another tree: ``PYTHONPATH=/tmp/before python -m bench.calls_per_step`` from outside
any checkout (an editable install's hook would lend it this checkout's modules: it is
dropped here).
"""

from __future__ import annotations

import importlib
import json
import random
import sys
from types import FrameType
from typing import Any

CONFIGS = (("tenfour", "standard", 3), ("tenfour", "standard", 4),
           ("tenfour", "two-player", 2), ("bumpem", "standard", 2), ("bumpem", "standard", 4))


class _Counter:
    def __init__(self) -> None:
        self.python = self.c = 0

    def count(self, frame: FrameType, event: str, arg: object) -> None:
        if event == "call":
            self.python += 1
        elif event == "c_call":
            self.c += 1


def count(games: int) -> dict[str, Any]:
    from engine.selfplay import play

    try:
        builder = importlib.import_module("rig.gamebuild")
    except ImportError:  # trees before issue 39 built games in rig.games
        builder = importlib.import_module("rig.games")
    build_game: Any = builder.build_game
    out: dict[str, Any] = {}
    for name, variant, players in CONFIGS:
        game = build_game(name, players=players, variant=variant)
        play(game, random.Random("bench:warm-up"), keep_events=False)
        calls = _Counter()
        steps = 0
        sys.setprofile(calls.count)
        try:
            for seed in range(games):
                steps += play(game, random.Random(f"bench:{seed}"), keep_events=False).steps
        finally:
            sys.setprofile(None)
        out[f"{name}/{variant}/{players}p"] = {
            "steps": steps, "python_calls_per_step": round(calls.python / steps, 2),
            "c_calls_per_step": round(calls.c / steps, 2),
            "calls_per_step": round((calls.python + calls.c) / steps, 2)}
    return out


def main() -> None:
    sys.meta_path[:] = [f for f in sys.meta_path if "__editable__" not in repr(f)]
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    print(json.dumps(count(games), indent=2))


if __name__ == "__main__":
    main()
