"""`cbrig emulate`: the whole rig on a desktop (terminal or browser), or a script run
headlessly.

The interactive rig is the daemon on emulated devices (rig.desktop.desk): it starts at the setup
menu, and the game it plays is journalled in the emulator's state directory, so the
same command after a quit, a crash or a kill picks the unfinished game up where it was.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

from rig.commands._gameargs import (
    add_game_arguments,
    check_game_arguments,
    options_for,
    seat_levels,
    variant_for,
)
from rig.config import GameConfig
from rig.core.journalread import JournalError
from rig.desktop.browserdesk import serve_desk
from rig.desktop.desk import DeskRig, default_state_dir, desk_config, start_desk
from rig.desktop.emulated import new_emulated_rig
from rig.desktop.script import ScriptError, execute, parse
from rig.desktop.terminal import TerminalScreen, interactive
from rig.gamebuild import GameSetupError

if TYPE_CHECKING:
    from rig.config import GameConfig
    from rig.desktop.desk import DeskRig
    from rig.desktop.emulated import EmulatedRig


check_arguments = check_game_arguments
"""Run by rig.cli right after parsing: bad --players, --variant or --seats are refused
before anything starts."""


GAME_OPTIONS = True
"""rig.cli adds the chosen game's rule option flags."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_game_arguments(parser)
    parser.add_argument("--hints", action="store_true",
                        help="start the setup menu with hints on (as the Pi's config can)")
    parser.add_argument("--new", action="store_true",
                        help="put the unfinished game aside (in games/) and start over")
    parser.add_argument("--state", type=Path, default=None, metavar="DIR",
                        help="where games are kept (default $XDG_STATE_HOME/cbrig/emulator)")
    parser.add_argument("--web", action="store_true",
                        help="serve the rig as a web page (knobs, cards, OLED, live board)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address the page is served on with --web (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8411,
                        help="port for --web (default 8411; 0 picks a free one)")
    parser.add_argument("--script", type=Path, help="run a hardware event script headlessly")
    parser.add_argument("--journal", type=Path, default=None,
                        help="with --script: a new journal file for the scripted game")


def run(args: argparse.Namespace) -> int:
    if args.script is not None:
        return _run_script(args)
    if args.journal is not None:
        print("cbrig emulate: --journal goes with --script; the interactive rig keeps its "
              "games in --state DIR (default $XDG_STATE_HOME/cbrig/emulator)", file=sys.stderr)
        return 2

    try:
        rig = _desk_rig(args)
    except (GameSetupError, ValueError) as exc:
        print(f"cbrig emulate: {exc}", file=sys.stderr)
        return 2
    if args.web:
        return serve_desk(rig, args.host, args.port, new=args.new)
    return _run_terminal(rig, new=args.new)


def game_config(args: argparse.Namespace) -> GameConfig:
    """The setup menu's defaults from the command line (like [game] in the Pi's config)."""


    check_game_arguments(args)
    levels = seat_levels(args)
    return GameConfig(name=args.game, players=args.players, variant=variant_for(args) or "",
                      levels=levels or ("human",) * args.players, hints=args.hints,
                      options=MappingProxyType(options_for(args)))


def _desk_rig(args: argparse.Namespace) -> DeskRig:
    state_dir = args.state or default_state_dir()
    return DeskRig(config=desk_config(game_config(args), state_dir), seed=args.seed,
                   signals=bool(args.web))


def _run_terminal(rig: DeskRig, new: bool) -> int:
    if not sys.stdin.isatty():
        print("cbrig emulate: needs a terminal (or use --web, or --script FILE)",
              file=sys.stderr)
        return 2
    term = TerminalScreen(rig.screen_now)
    rig.devices.display = term
    try:
        greeting = start_desk(rig, new)
    except Exception as exc:  # a broken state directory must not end in a traceback
        print(f"cbrig emulate: cannot start: {exc}", file=sys.stderr)
        return 1
    try:
        return interactive(rig, term, greeting)
    except KeyboardInterrupt:
        return 130
    finally:
        rig.stop()
        _farewell(rig)


def _farewell(rig: DeskRig) -> None:
    controller = rig.controller
    if controller is not None and not controller.session.state.is_terminal():
        print(f"The game is saved in {rig.config.state.current}; "
              "`cbrig emulate` picks it up again.")


def _run_script(args: argparse.Namespace) -> int:
    if args.journal is not None and args.journal.exists():
        print(f"cbrig emulate: {args.journal} exists; a script starts a new game, so give a "
              "new journal file", file=sys.stderr)
        return 2
    try:
        from rig.commands._gameargs import seats_for

        rig = new_emulated_rig(args.game, args.players, variant=variant_for(args),
                               seed=args.seed, journal=args.journal,
                               seats=seats_for(args, args.seed), options=options_for(args))
    except (GameSetupError, JournalError, ValueError, OSError) as exc:
        print(f"cbrig emulate: {exc}", file=sys.stderr)
        return 2
    return _execute_script(rig, args.script)


def _execute_script(rig: EmulatedRig, path: Path) -> int:
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
