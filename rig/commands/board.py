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

GAMES = ("tenfour", "bumpem")


@dataclass(frozen=True)
class BoardTools:
    """What `cbrig board` needs from a game: load a file, summarise it, draw it."""

    default_file: str
    load: Callable[[str, str], Any]
    summary: Callable[[Any], list[str]]
    draw: Callable[[Any], Any] | None
    """board -> PIL.Image.Image, or None when the game has no drawing."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    check = sub.add_parser("check", help="validate a board file, listing every mistake")
    check.add_argument("file", help='the board file, or "default" for the shipped board')
    check.add_argument("--game", choices=GAMES, default="tenfour")
    show = sub.add_parser("show", help="draw a board file as a PNG image")
    show.add_argument("file", help='the board file, or "default" for the shipped board')
    show.add_argument("--png", required=True, help="where to write the picture")
    show.add_argument("--game", choices=GAMES, default="tenfour")


def run(args: argparse.Namespace) -> int:
    try:
        tools = tools_for(args.game)
    except (ImportError, AttributeError) as exc:
        print(f"cbrig board: {args.game} boards are not available in this build: {exc}",
              file=sys.stderr)
        return 2
    ref = f"default:{tools.default_file}" if args.file == "default" else args.file
    try:
        text, source = read_data(ref)
    except OSError as exc:
        print(f"cbrig board: cannot read {args.file}: {exc}", file=sys.stderr)
        return 2
    try:
        board = tools.load(text, source)
    except DataError as exc:
        for problem in exc.problems:
            print(problem)
        print(f"{source}: {len(exc.problems)} problem(s)", file=sys.stderr)
        return 1
    if args.action == "check":
        print(f"{source}: OK")
        for line in tools.summary(board):
            print(f"  {line}")
        return 0
    if tools.draw is None:
        print(f"cbrig board: no drawing for {args.game} boards yet", file=sys.stderr)
        return 2
    image = tools.draw(board)
    try:
        image.save(args.png, format="PNG")
    except OSError as exc:
        print(f"cbrig board: cannot write {args.png}: {exc}", file=sys.stderr)
        return 2
    print(f"{source}: drawn to {args.png} ({image.width}x{image.height})")
    return 0


def tools_for(game: str) -> BoardTools:
    """The board tools of `game`. Bump 'Em plugs in here (see `_bumpem_tools`)."""
    if game == "tenfour":
        from engine.tenfour import DATA_ROLES, load_board

        return BoardTools(DATA_ROLES["board"], load_board, tenfour_summary, draw_tenfour)
    if game == "bumpem":
        return _bumpem_tools()
    raise ValueError(f"unknown game {game!r}")


# -- Bump 'Em ------------------------------------------------------------------------------


def _bumpem_tools() -> BoardTools:
    """Use engine.bumpem's own `draw_board(board) -> Image` if it has one; otherwise draw
    the positions its `layout(board)` lists (id, x, y, label, kind, colour)."""
    module = importlib.import_module("engine.bumpem")
    draw = getattr(module, "draw_board", None)
    if draw is None and hasattr(module, "layout"):
        layout = module.layout

        def draw(board: Any) -> Any:
            return draw_spots(layout(board), getattr(board, "name", "") or "Bump 'Em board")

    return BoardTools(module.DATA_ROLES["board"], module.load_board, _generic_summary, draw)


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


# -- 10-Four ---------------------------------------------------------------------------------


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


ROUTE_FILL = {"red": (244, 170, 170), "green": (170, 222, 170), "blue": (170, 190, 244),
              "yellow": (244, 230, 150)}
ROUTE_INK = {"red": (190, 30, 30), "green": (30, 130, 30), "blue": (30, 60, 190),
             "yellow": (170, 140, 0)}
SIZE = 1400


def _font(size: int) -> Any:
    from PIL import ImageFont

    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow before 10.1 has one bitmap size
        return ImageFont.load_default()


class _Canvas:
    """Maps the board's unit square (with room round it) onto the picture."""

    def __init__(self, title: str) -> None:
        from PIL import Image, ImageDraw

        self.image = Image.new("RGB", (SIZE, SIZE), "white")
        self.draw = ImageDraw.Draw(self.image)
        self.small = _font(13)
        self.big = _font(22)
        self.draw.text((20, 12), title, fill="black", font=self.big)

    def at(self, xy: tuple[float, float]) -> tuple[float, float]:
        x, y = xy
        return (SIZE * (0.1 + x * 0.8), SIZE * (0.1 + y * 0.8))

    def label(self, xy: tuple[float, float], text: str, fill: Any = "black",
              big: bool = False) -> None:
        self.draw.text(xy, text, fill=fill, font=self.big if big else self.small, anchor="mm")


def draw_tenfour(board: Any) -> Any:
    """Draw a 10-Four board: routes in their colours with space ids, starts, Hammer Up
    curves, Bear Traps, short cuts, Bear spaces and Yellowstone Park."""
    canvas = _Canvas(board.name)
    draw = canvas.draw
    cell = SIZE * 0.8 / max(board.size / 4, 1)
    radius = max(min(cell * 0.45, 30), 8)
    xy = board.xy
    centre = canvas.at((0.5, 0.5))
    draw.rectangle([centre[0] - 150, centre[1] - 60, centre[0] + 150, centre[1] + 60],
                   fill=(210, 235, 200), outline=(40, 100, 40), width=3)
    canvas.label(centre, board.park, big=True)
    for trap in board.traps:
        here = canvas.at(xy[trap.id])
        for space in trap.spaces:
            draw.line([here, canvas.at(xy[space])], fill=(120, 120, 120), width=2)
        draw.rectangle([here[0] - 34, here[1] - 16, here[0] + 34, here[1] + 16],
                       fill=(60, 60, 60), outline="black")
        canvas.label(here, f"TRAP {trap.id}", fill="white")
    for cut in board.shortcuts:
        here = canvas.at(xy[cut.id])
        draw.line([canvas.at(xy[cut.entry]), here, canvas.at(xy[cut.exit])],
                  fill=(90, 90, 90), width=4)
        draw.regular_polygon((here[0], here[1], 24), 4, fill=(255, 255, 255), outline="black")
        canvas.label(here, cut.id)
        canvas.label((here[0], here[1] + 34), "FOR OFFICIAL USE ONLY")
    for bear in board.bears:
        here = canvas.at(xy[bear.id])
        draw.line([here, canvas.at(xy[bear.beside])], fill=ROUTE_INK[bear.route], width=2)
        draw.regular_polygon((here[0], here[1], 26), 3, fill=ROUTE_FILL[bear.route],
                             outline=ROUTE_INK[bear.route])
        canvas.label((here[0], here[1] + 4), bear.id)
        canvas.label((here[0], here[1] + 34), f"BEAR ({bear.route})", fill=ROUTE_INK[bear.route])
    starts = {route.spaces[0]: route.colour for route in board.routes}
    for i, space in enumerate(board.loop):
        here = canvas.at(xy[space])
        colour = board.route_of[i]
        box = [here[0] - radius, here[1] - radius, here[0] + radius, here[1] + radius]
        outline = (230, 110, 0) if board.on_curve[i] else ROUTE_INK[colour]
        draw.rectangle(box, fill=ROUTE_FILL[colour], outline=outline,
                       width=5 if board.on_curve[i] or space in starts else 2)
        canvas.label(here, space)
        if space in starts:
            canvas.label(_outward(here, centre, radius + 24), "START", fill=ROUTE_INK[colour])
    for curve in board.curves:
        middle = canvas.at(xy[curve.spaces[1]])
        canvas.label(_outward(middle, centre, radius + 44), f"HAMMER UP {curve.id}",
                     fill=(230, 110, 0))
    return canvas.image


def _outward(point: tuple[float, float], centre: tuple[float, float],
             distance: float) -> tuple[float, float]:
    """A point `distance` further from the centre of the board (outside the loop)."""
    dx, dy = point[0] - centre[0], point[1] - centre[1]
    norm = max(abs(dx), abs(dy)) or 1.0
    return (point[0] + dx / norm * distance, point[1] + dy / norm * distance)


def draw_spots(spots: list[Any], title: str) -> Any:
    """A plain drawing of any game's positions (id, x, y, label, kind, colour)."""
    canvas = _Canvas(title)
    for spot in spots:
        here = canvas.at((spot.x, spot.y))
        fill = ROUTE_FILL.get(spot.colour, (235, 235, 235))
        ink = ROUTE_INK.get(spot.colour, (60, 60, 60))
        r = 16
        canvas.draw.ellipse([here[0] - r, here[1] - r, here[0] + r, here[1] + r], fill=fill,
                            outline=ink, width=3 if spot.kind != "track" else 1)
        canvas.label(here, spot.label)
        if spot.kind not in ("track", "home"):
            canvas.label((here[0], here[1] + r + 8), spot.kind.upper(), fill=ink)
    return canvas.image
