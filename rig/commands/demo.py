"""`cbrig demo`: a whole game played by scripted gestures through the emulated rig."""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import TYPE_CHECKING

from rig.commands._gameargs import add_game_arguments, options_for, seats_for, variant_for

if TYPE_CHECKING:
    from rig.emulated import EmulatedRig
    from rig.screen import Screen


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_game_arguments(parser, default_players=3)
    parser.add_argument("--delay", type=float, default=None,
                        help="seconds between screens (default: a little on a terminal)")
    parser.add_argument("--oled", action="store_true",
                        help="draw every screen as the OLED's pixels, not as text")
    parser.add_argument("--frames", action="store_true",
                        help="also show every frame of the spin animations")


def run(args: argparse.Namespace) -> int:
    from rig.autopilot import describe, gestures_for
    from rig.emulated import new_emulated_rig
    from rig.games import GAME_TITLES, GameSetupError
    from rig.render import boxed, render_terminal

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    delay = args.delay if args.delay is not None else (0.02 if sys.stdout.isatty() else 0.0)
    holder: list[EmulatedRig] = []

    def show(screen: Screen) -> None:
        animating = holder and holder[0].controller.animation is not None
        if animating and not args.frames:
            return
        print(render_terminal(screen) if args.oled else boxed(screen))
        if delay:
            time.sleep(delay)

    try:
        seats = seats_for(args, seed)
        print(f"{GAME_TITLES[args.game]}: {args.players} players, seed {seed}")
        rig = new_emulated_rig(args.game, args.players, variant=variant_for(args), seed=seed,
                               seats=seats, options=options_for(args), draw=show)
    except (GameSetupError, ValueError) as exc:
        print(f"cbrig demo: {exc}", file=sys.stderr)
        return 2
    holder.append(rig)
    rng = random.Random(seed)
    gestures = 0
    while not rig.session.state.is_terminal():
        for gesture in gestures_for(rig.controller, rng):
            text = describe(gesture)
            if text:
                print(f"$ {text}")
            rig.loop.step(gesture)
            rig.settle()
            gestures += 1
    state = rig.session.state
    names = ", ".join(rig.session.game.seat_name(s) for s in state.winners())
    print(f"Game over after {gestures} gestures and {rig.session.steps} inputs: {names} won.")
    print("ADIOS, good buddies.")
    return 0
