"""`cbrig`: the command line. Subcommands load lazily to keep start-up lean."""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rig.commands._out import cbrig_command
from rig.core import collector
from rig.extras import pip_command

if TYPE_CHECKING:
    from types import ModuleType

USAGE = """cbrig: the electronic CB rig for board games: {games}.

On a Raspberry Pi the rig runs by itself as a service (systemd starts `cbrig run`; see
docs/INSTALL.md in the source). On any computer you can play it in a terminal, with no
hardware."""
"""The help's description; ``{games}`` is every installed game's title (the registry)."""

EPILOG = """Play it without hardware:  emulate, demo, simulate
Set up a rig:              config, rfid, cards, selftest, run, update
After a game, or to print: replay, board, print, case
For developers:            bench

Games installed: {installed}.
Add a game: install its package with this cbrig's own pip (the package names itself in
the cbrig.games entry point group):
  {pip} install PACKAGE
Writing one: the game API's own documentation, python -m pydoc cbrig.game, and its
battery, python -m pydoc cbrig.conformance (the guide with an example game is
docs/ENGINE_CONTRACT.md and examples/mygame/ in the source).

Each command has its own help: {cbrig} COMMAND --help.
Exit status: 0 done, 1 failed (the message says why), 2 bad command line,
78 a config with mistakes (every command that reads the config); cbrig run also:
69 the pins, knobs or reader could not be set up, 73 the state cannot be written (fix
what it names), 75 another cbrig runs there."""

# name -> (module under rig.commands, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("demo", "watch a whole game played by itself on the emulated rig"),
    "emulate": ("emulate", "play on the rig emulated in a terminal (knobs on keys, cards "
                "typed), or in a browser with --web"),
    "run": ("run", "the rig itself: the service on the Pi (hardware from the config)"),
    "simulate": ("simulate", "play many games computer against computer and print statistics"),
    "replay": ("replay", "show where a saved game (a journal file) stands"),
    "board": ("board", "check or draw a board file (your own board's layout)"),
    "print": ("printing", "print-ready PDFs: board, cards, pieces, quick reference"),
    "config": ("config", "check or show the rig config"),
    "cards": ("cards", "enrol the RFID tags of a game's cards, or list them"),
    "rfid": ("rfid", "the reader wiring check: print each card held on it"),
    "selftest": ("selftest", "walk through every knob, button, the reader, screen and buzzer"),
    "update": ("update", "install a newer version that rolls back if it fails (the Pi "
               "image)"),
    "bench": ("bench", "measure the performance budget (for developers)"),
    "case": ("case", "build the printable enclosure: parts, bill of materials, pictures"),
    "image": ("image", "build the Raspberry Pi card image (Debian arm64, the rig inside)"),
}


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help formatter, told the terminal's width up front: left to itself it
    imports ``shutil`` for that one number (with ``bz2``, ``lzma`` and ``zlib``, ~3 ms
    before READY, since ``add_argument`` builds a formatter)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position,
                         terminal_columns() - 2 if width is None else width)


def terminal_columns() -> int:
    """The width ``shutil.get_terminal_size()`` reports: ``$COLUMNS``, else the width of
    the terminal on stdout, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0 and sys.__stdout__ is not None:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser (only for ``--help`` and a wrong command: it lists the
    installed games, which reads the registry and the installed packages' entry points)."""
    from rig import registry

    installed = ", ".join(f"{game.name} ({game.title})" for game in registry.entries())
    parser = argparse.ArgumentParser(prog="cbrig", description=USAGE.format(
        games=registry.titles()), epilog=EPILOG.format(
            installed=installed, pip=pip_command(), cbrig=cbrig_command()),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="store_true",
                        help="print the version of cbrig and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (_, help_text) in COMMANDS.items():
        sub.add_parser(name, help=help_text, add_help=False)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["--version"]:
        from rig import version

        print(f"cbrig {version()}")
        return 0
    if not args or args[0] in {"-h", "--help"} or args[0] not in COMMANDS:
        build_parser().parse_args(args)  # prints help or the error, then exits
        return 2
    name = args[0]
    # `cbrig run` starts without collecting garbage; the daemon resumes it after READY
    # (rig.core.collector), and this does if the start fails first.
    paused = name == "run" and collector.pause()
    try:
        return _command(name, args)
    finally:
        if paused:
            gc.enable()


def parse_command(args: list[str]) -> tuple[ModuleType, argparse.Namespace]:
    """The command module and its parsed arguments, checked as far as the command can
    without running: raises SystemExit(2) with argparse's message, or ValueError with the
    command's own. The docs' walk test reads every documented command line through it."""
    name = args[0]
    module_name, help_text = COMMANDS[name]
    module = importlib.import_module(f"rig.commands.{module_name}")
    parser = argparse.ArgumentParser(prog=f"cbrig {name}", description=help_text,
                                     formatter_class=HelpFormatter)
    module.add_arguments(parser)
    if getattr(module, "GAME_OPTIONS", False):  # the chosen game's rule options only
        from rig.commands._gameargs import add_option_flags, chosen_game

        add_option_flags(parser, chosen_game(args[1:]))
    parsed = parser.parse_args(args[1:])
    check = getattr(module, "check_arguments", None)
    if check is not None:  # what argparse cannot see alone (a count for the chosen game)
        check(parsed)
    return module, parsed


def _command(name: str, args: list[str]) -> int:
    try:
        module, parsed = parse_command(args)
    except ModuleNotFoundError as exc:
        if exc.name == f"rig.commands.{COMMANDS[name][0]}":
            print(f"cbrig {name}: not available in this build", file=sys.stderr)
            return 2
        raise
    except ValueError as exc:
        print(f"cbrig {name}: {exc}", file=sys.stderr)
        return 2
    from rig.commands import EXIT_CONFIG, ConfigRefused

    try:
        return int(module.run(parsed) or 0)
    except ConfigRefused:  # the command has said what is wrong with the config
        return EXIT_CONFIG
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
