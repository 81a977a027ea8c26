"""`cbrig`: the command line. Subcommands load lazily to keep start-up lean."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# name -> (module under rig.commands, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("demo", "play a whole scripted game on emulated hardware"),
    "emulate": ("emulate", "the whole rig in a terminal, or a hardware script headlessly"),
    "run": ("run", "the daemon (real or mock hardware, from the config)"),
    "simulate": ("simulate", "self-play many games and print statistics"),
    "replay": ("replay", "print the game state a journal leads to"),
    "board": ("board", "check or draw a board file"),
    "print": ("printing", "print-ready PDFs: board, cards, pieces, quick reference"),
    "config": ("config", "check a rig config file"),
    "cards": ("cards", "enrol RFID tags to the Mike cards"),
    "rfid": ("rfid", "listen to a card reader (the wiring check)"),
    "selftest": ("selftest", "walk through every part of a real rig"),
    "bench": ("bench", "measure the performance budget"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cbrig", description=__doc__)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (_, help_text) in COMMANDS.items():
        sub.add_parser(name, help=help_text, add_help=False)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in {"-h", "--help"} or args[0] not in COMMANDS:
        build_parser().parse_args(args)  # prints help or the error, then exits
        return 2
    name = args[0]
    module_name, help_text = COMMANDS[name]
    try:
        module = importlib.import_module(f"rig.commands.{module_name}")
    except ModuleNotFoundError as exc:
        if exc.name == f"rig.commands.{module_name}":
            print(f"cbrig {name}: not available in this build", file=sys.stderr)
            return 2
        raise
    parser = argparse.ArgumentParser(prog=f"cbrig {name}", description=help_text)
    module.add_arguments(parser)
    parsed = parser.parse_args(args[1:])
    try:
        return int(module.run(parsed) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
