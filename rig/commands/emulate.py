"""`cbrig emulate`: the whole rig on a desktop, or a hardware script run headlessly."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from rig.commands._gameargs import add_game_arguments, options_for, seats_for, variant_for

if TYPE_CHECKING:
    from rig.emulated import EmulatedRig

KEYS_HELP = """keys: Hi knob  a/d turn  w flick-spin  s press  S long press
      Lo knob  j/l turn  i flick-spin  k press  K long press
      c tap a card (type its id)   n tap a random undrawn card   q quit"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_game_arguments(parser)
    parser.add_argument("--script", type=Path, help="run a hardware event script headlessly")
    parser.add_argument("--journal", type=Path, default=None,
                        help="journal file for the game (default: none)")


def run(args: argparse.Namespace) -> int:
    from rig.emulated import new_emulated_rig
    from rig.games import GameSetupError

    try:
        seats = seats_for(args, args.seed)
        rig = new_emulated_rig(args.game, args.players, variant=variant_for(args),
                               seed=args.seed, journal=args.journal, seats=seats,
                               options=options_for(args))
    except (GameSetupError, ValueError, OSError) as exc:
        print(f"cbrig emulate: {exc}", file=sys.stderr)
        return 2
    if args.script is not None:
        return _run_script(rig, args.script)
    from rig.terminal import interactive

    return interactive(rig, KEYS_HELP)


def _run_script(rig: EmulatedRig, path: Path) -> int:
    from rig.script import ScriptError, execute, parse

    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        print(f"cbrig emulate: cannot read the script: {exc}", file=sys.stderr)
        return 2
    try:
        print(rig.screen.text())
        execute(rig, parse(text))
    except ScriptError as exc:
        print(f"cbrig emulate: {path}:{exc}", file=sys.stderr)
        return 1
    return 0
