"""`cbrig demo`: a whole game played by scripted gestures through the emulated rig."""

from __future__ import annotations

import argparse
import random
import sys
import time

from rig.commands._gameargs import add_game_arguments, options_for, seats_for, variant_for


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_game_arguments(parser)
    parser.add_argument("--delay", type=float, default=None,
                        help="seconds between screens (default: a little on a terminal)")
    parser.add_argument("--oled", action="store_true",
                        help="draw every screen as the OLED's pixels, not as text")


def run(args: argparse.Namespace) -> int:
    from rig.autopilot import play_out
    from rig.emulated import new_emulated_rig
    from rig.games import GAME_TITLES, GameSetupError
    from rig.script import _boxed

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    delay = args.delay if args.delay is not None else (0.02 if sys.stdout.isatty() else 0.0)

    def show(screen) -> None:
        if args.oled:
            from rig.render import render_terminal

            print(render_terminal(screen))
        else:
            print(_boxed(screen.text()))
        if delay:
            time.sleep(delay)

    try:
        seats = seats_for(args, seed)
        rig = new_emulated_rig(args.game, args.players, variant=variant_for(args), seed=seed,
                               seats=seats, options=options_for(args), draw=show)
    except (GameSetupError, ValueError) as exc:
        print(f"cbrig demo: {exc}", file=sys.stderr)
        return 2
    print(f"{GAME_TITLES[args.game]}: {args.players} players, seed {seed}")
    gestures = play_out(rig, random.Random(seed), on_gesture=lambda g: print(f"$ {g}"))
    state = rig.session.state
    names = ", ".join(rig.session.game.seat_name(s) for s in state.winners())
    print(f"Game over after {gestures} gestures and {rig.session.steps} inputs: {names} won.")
    print("ADIOS, good buddy.")
    return 0
