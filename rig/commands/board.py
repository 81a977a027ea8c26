"""`cbrig board check FILE`, `cbrig board show FILE --png OUT` and `cbrig board copy FILE
DEST`: check, draw or copy a board.

An owner edits a board file to match the physical board; `check` lists every located
mistake, `show` draws the file so it can be held against the real thing. FILE may be
"default" for the shipped board. Each game plugs in through its registry entry's
`BoardTools` (`rig.registry`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import DataError
from rig import gametype, registry
from rig.commands._out import OUT_DIR, cbrig_command
from rig.datafiles import read_data
from rig.maker.boardart.pillow import render_png
from rig.safetext import safe_print

if TYPE_CHECKING:
    from rig.maker.boardart.geometry import BoardGeometry


def add_arguments(parser: argparse.ArgumentParser) -> None:
    games = list(registry.names())  # a game without a board file is told so by run
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    check = sub.add_parser("check", help="validate a board file, listing every mistake")
    check.add_argument("file", help='the board file, or "default" for the shipped board')
    check.add_argument("--game", choices=games, default=registry.DEFAULT_GAME,
                       help=registry.game_help())
    show = sub.add_parser("show", help="draw a board file as a PNG image")
    show.add_argument("file", help='the board file, or "default" for the shipped board')
    show.add_argument("--png", default=None,
                      help=f"where to write the picture (default: ./{OUT_DIR}/GAME-board.png)")
    show.add_argument("--game", choices=games, default=registry.DEFAULT_GAME,
                      help=registry.game_help())
    show.add_argument("--scale", type=float, default=4.0, metavar="PX_PER_MM",
                      help="pixels per millimetre of the printed board (default 4)")
    copy = sub.add_parser("copy", help="copy a board file (\"default\": the shipped one) "
                                       "to edit it for your own board")
    copy.add_argument("file", help='the board file, or "default" for the shipped board')
    copy.add_argument("dest", nargs="?", default=None,
                      help=f"the new file, never overwritten (default: "
                           f"./{OUT_DIR}/GAME-board.toml)")
    copy.add_argument("--game", choices=games, default=registry.DEFAULT_GAME,
                      help=registry.game_help())


def run(args: argparse.Namespace) -> int:
    game = registry.entry(args.game)
    if game.board is None:
        safe_print(f"cbrig board: {game.title} has no board file to check or draw",
                   file=sys.stderr)
        return 2
    try:
        tools = _tools(game)
    except (ImportError, AttributeError) as exc:
        safe_print(f"cbrig board: {args.game} boards are not available in this build: {exc}",
              file=sys.stderr)
        return 2
    default_file = game.facts.data_roles["board"]
    ref = f"default:{default_file}" if args.file == "default" else args.file
    try:
        text, source = read_data(ref, game.facts.data_package)
    except OSError as exc:
        safe_print(f"cbrig board: cannot read {args.file}: {exc}", file=sys.stderr)
        return 2
    if args.action == "copy":
        return _copy(text, source, args.dest or str(OUT_DIR / f"{args.game}-board.toml"))
    try:
        board = tools.read(text, source)
    except DataError as exc:
        for problem in exc.problems:
            safe_print(problem)
        count = len(exc.problems)
        safe_print(f"{source}: {count} problem{'' if count == 1 else 's'}", file=sys.stderr)
        return 1
    if args.action == "check":
        safe_print(f"{source}: OK")
        for line in board.summary():
            safe_print(f"  {line}")
        return 0
    image = draw_png(board.geometry(), args.scale)
    if args.png is None:
        OUT_DIR.mkdir(exist_ok=True)
        args.png = str(OUT_DIR / f"{args.game}-board.png")
    try:
        image.save(args.png, format="PNG")
    except OSError as exc:
        safe_print(f"cbrig board: cannot write {args.png}: {exc}", file=sys.stderr)
        return 2
    safe_print(f"{source}: drawn to {args.png} ({image.width}x{image.height})")
    return 0


def _tools(game: gametype.GameEntry) -> gametype.GameBoards:
    if game.board is None:
        raise AttributeError(f"{game.name} has no board tools")
    return game.board()


def draw_png(geometry: BoardGeometry, scale: float = 4.0) -> Any:
    """The board as a picture: the same drawing `cbrig print` and the browser use."""

    return render_png(geometry, scale)


def _copy(text: str, source: str, dest: str) -> int:
    """Write the board's text to `dest`: the shipped board lives inside the installed
    package, where an owner should neither look for it nor edit it."""
    try:
        Path(dest).parent.mkdir(parents=True, exist_ok=True)
        with open(dest, "x", encoding="utf-8") as out:
            out.write(text)
    except FileExistsError:
        safe_print(f"cbrig board: {dest} exists; not overwritten", file=sys.stderr)
        return 2
    except OSError as exc:
        safe_print(f"cbrig board: cannot write {dest}: {exc}", file=sys.stderr)
        return 2
    safe_print(f"{source}: copied to {dest}; edit it, then: {cbrig_command()} board check "
               f"{dest}")
    return 0
