"""How long a watched `cbrig demo` lasts at its default pace, computed, not waited for.

`python -m bench.demo_length [--game bumpem] [--seeds 40]` plays each seeded demo with
the pause recorded instead of slept (`rig.commands.demo.run(..., pause=..., watched=True)`)
and sums the pauses: the pace after every gesture plus the spin animations. It prints the
minutes at the default pace and at the old fixed pace (PACE after every gesture).
"""

from __future__ import annotations

import argparse
import contextlib
import io

from bench.stats import median
from rig import registry
from rig.commands import demo


def demo_minutes(argv: list[str]) -> tuple[float, int]:
    """(minutes, gestures) of one watched demo with `argv`."""
    parser = argparse.ArgumentParser()
    demo.add_arguments(parser)
    pauses: list[float] = []
    shown = io.StringIO()
    with contextlib.redirect_stdout(shown):
        demo.run(parser.parse_args(argv), pause=pauses.append, watched=True)
    gestures = int(shown.getvalue().split("Game over after ")[1].split()[0])
    return sum(pauses) / 60, gestures


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.demo_length", description=__doc__)
    parser.add_argument("--game", default="bumpem")
    parser.add_argument("--seeds", type=int, default=40)
    args = parser.parse_args()
    base = ["--game", args.game]
    now = [demo_minutes([*base, "--seed", str(seed)]) for seed in range(args.seeds)]
    old = [demo_minutes([*base, "--seed", str(seed), "--delay", str(demo.PACE)])[0]
           for seed in range(args.seeds)]
    minutes = sorted(m for m, _ in now)
    print(f"{args.game}, {registry.DEFAULT_PLAYERS} players, seeds 0-{args.seeds - 1}: "
          f"gestures median {median([g for _, g in now]):.0f}, max {max(g for _, g in now)}")
    budget = demo.DEMO_SECONDS / 60
    over = sum(m > budget + 1e-9 for m in minutes)
    print(f"  default pace: median {median(minutes):.1f} min, max {minutes[-1]:.1f}, "
          f"over {budget:.0f} min: {over}")
    print(f"  {demo.PACE} s a gesture (the old default): median {median(old):.1f} min, "
          f"max {max(old):.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
