"""`cbrig board check FILE` and `cbrig board show FILE --png OUT`: check or draw a board.

An owner edits a board file to match the physical board; `check` lists every located
mistake, `show` draws the file so it can be held against the real thing. FILE may be
"default" for the shipped board. Each game plugs in through `BoardTools` below.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.errors import DataError
from rig.datafiles import read_data
from rig.safetext import safe_print

GAMES = ("tenfour", "bumpem")


@dataclass(frozen=True)
class BoardTools:
    """What `cbrig board` needs from a game: load a file, summarise it, draw it."""

    default_file: str
    load: Callable[[str, str], Any]
    summary: Callable[[Any], list[str]]
    game: str
    """The game name `rig.boardart.board_geometry` draws the board of."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    check = sub.add_parser("check", help="validate a board file, listing every mistake")
    check.add_argument("file", help='the board file, or "default" for the shipped board')
    check.add_argument("--game", choices=GAMES, default="tenfour",
                       help="tenfour (10-Four, Good Buddy, the default) or bumpem (Bump 'Em)")
    show = sub.add_parser("show", help="draw a board file as a PNG image")
    show.add_argument("file", help='the board file, or "default" for the shipped board')
    show.add_argument("--png", required=True, help="where to write the picture")
    show.add_argument("--game", choices=GAMES, default="tenfour",
                      help="tenfour (10-Four, Good Buddy, the default) or bumpem (Bump 'Em)")
    show.add_argument("--scale", type=float, default=4.0, metavar="PX_PER_MM",
                      help="pixels per millimetre of the printed board (default 4)")


def run(args: argparse.Namespace) -> int:
    try:
        tools = tools_for(args.game)
    except (ImportError, AttributeError) as exc:
        safe_print(f"cbrig board: {args.game} boards are not available in this build: {exc}",
              file=sys.stderr)
        return 2
    ref = f"default:{tools.default_file}" if args.file == "default" else args.file
    try:
        text, source = read_data(ref)
    except OSError as exc:
        safe_print(f"cbrig board: cannot read {args.file}: {exc}", file=sys.stderr)
        return 2
    try:
        board = tools.load(text, source)
    except DataError as exc:
        for problem in exc.problems:
            safe_print(problem)
        count = len(exc.problems)
        safe_print(f"{source}: {count} problem{'' if count == 1 else 's'}", file=sys.stderr)
        return 1
    if args.action == "check":
        safe_print(f"{source}: OK")
        for line in tools.summary(board):
            safe_print(f"  {line}")
        return 0
    image = draw_png(tools.game, board, args.scale)
    try:
        image.save(args.png, format="PNG")
    except OSError as exc:
        safe_print(f"cbrig board: cannot write {args.png}: {exc}", file=sys.stderr)
        return 2
    safe_print(f"{source}: drawn to {args.png} ({image.width}x{image.height})")
    return 0


def tools_for(game: str) -> BoardTools:
    """The board tools of `game`."""
    if game == "tenfour":
        from engine.tenfour import DATA_ROLES, load_board

        return BoardTools(DATA_ROLES["board"], load_board, tenfour_summary, game)
    if game == "bumpem":
        module = importlib.import_module("engine.bumpem")
        return BoardTools(module.DATA_ROLES["board"], module.load_board, _generic_summary, game)
    raise ValueError(f"unknown game {game!r}")


def draw_png(game: str, board: Any, scale: float = 4.0) -> Any:
    """The board as a picture: the same drawing `cbrig print` and the browser use."""
    from rig.boardart import board_geometry
    from rig.boardart.pillow import render_png

    return render_png(board_geometry(game, board), scale)


# -- summaries -------------------------------------------------------------------------------


def _generic_summary(board: Any) -> list[str]:
    lines = []
    for name in ("name", "track_length", "home_length", "cars_per_player", "colours"):
        value = getattr(board, name, None)
        if value not in (None, ""):
            lines.append(f"{name.replace('_', ' ')}: {value}")
    for name in ("oil", "turbo"):
        value = getattr(board, name, None)
        if value is not None:
            lines.append(f"{name}: {len(value)}")
    return lines


def tenfour_summary(board: Any) -> list[str]:
    routes = ", ".join(f"{r.colour} {len(r.spaces)} (start {r.spaces[0]})" for r in board.routes)
    return [
        f"{board.name}",
        f"{board.size} spaces in {len(board.routes)} routes: {routes}",
        f"{len(board.traps)} Bear Traps: " + ", ".join(
            f"{t.id} {'-'.join(t.spaces)} exit {t.exit}" for t in board.traps),
        f"{len(board.shortcuts)} short cuts: " + ", ".join(
            f"{c.id} {c.entry}->{c.exit}" for c in board.shortcuts),
        f"{len(board.curves)} Hammer Up curves: " + ", ".join(
            f"{c.id} {'-'.join(c.spaces)}" for c in board.curves),
        f"{len(board.bears)} Bear spaces: " + ", ".join(
            f"{b.id} watches {b.route}" for b in board.bears),
        f"police start in {board.park}",
    ]
