"""The Bump 'Em board as geometry: track, pit rows, home stretches and finish areas.

Track positions come from the engine's `layout(board)` (a unit square), scaled so
neighbouring track spaces sit `pitch` mm apart. Each home stretch leaves the track at
its entrance space and runs straight into the board, joined to the track, one pitch a
step, ending in a finish area big enough for every car of the colour; each pit row sits
just outside its colour's start.
"""

from __future__ import annotations

import math
import statistics
from typing import TYPE_CHECKING

from cbrig.game import (
    BLACK,
    FILL,
    GAP,
    GREY,
    INK,
    RGB,
    WHITE,
    BoardGeometry,
    BoardTools,
    Label,
    LegendEntry,
    Line,
    Point,
    Space,
    along,
    clearance,
    finish,
    fit_label,
    grid_slots,
    legend_size,
    outward,
    piece_mm,
    upright,
)
from engine.bumpem import load_board
from engine.bumpem.board import Board, layout
from engine.bumpem.names import position_label

if TYPE_CHECKING:
    from engine.bumpem.board import Spot

PITCH_MM = 16.0
TRACK_FILL: RGB = (236, 236, 236)
OIL_FILL: RGB = (60, 60, 60)
TURBO_FILL: RGB = (255, 205, 90)
TURBO_INK: RGB = (200, 90, 0)


def bumpem_geometry(board: Board, pitch: float = PITCH_MM) -> BoardGeometry:
    """Every position of a Bump 'Em board in mm, labelled as the rig names it."""

    track = [spot for spot in layout(board) if spot.position_id.startswith("T")]
    n = len(track)
    unit = [(spot.x, spot.y) for spot in track]
    steps = [math.dist(unit[i], unit[(i + 1) % n]) for i in range(n)]
    scale = pitch / (statistics.median(steps) or 1.0)
    at = [(x * scale, y * scale) for x, y in unit]
    centre = (statistics.fmean(p[0] for p in at), statistics.fmean(p[1] for p in at))
    normal = [outward(at[i - 1], at[i], at[(i + 1) % n], centre) for i in range(n)]
    side = pitch * 0.94
    spaces = [_track_space(spot, at[i], side) for i, spot in enumerate(track)]
    lines = [Line((*at, at[0]), GREY, 0.8)]
    for colour in board.colours:
        entrance = board.entrance[colour]
        inward = (-normal[entrance][0], -normal[entrance][1])
        steps_in = [along(at[entrance], inward, pitch * j)
                    for j in range(1, board.home_length + 1)]
        for j, xy in enumerate(steps_in, 1):
            spaces.append(_home_space(colour, j, xy, side))
        goal = _finish_area(colour, at[entrance], inward, pitch, board)
        spaces.append(goal)
        lines.append(Line((at[entrance], *steps_in, (goal.x, goal.y)), INK[colour], 2.0))
        start = board.start[colour]
        spaces.append(_pit(colour, at[start], normal[start], side, board.cars_per_player))
    title_y = centre[1] - pitch * 2.2
    labels = [fit_label(board.name or "Bump 'Em board", centre[0], title_y, 4.5, pitch * 8,
                        BLACK, bold=True),
              fit_label(f"Spaces {side:.0f} mm, {pitch:.0f} mm apart: cars up to "
                        f"{piece_mm(side):.0f} mm across", centre[0], title_y + 7, 3.0,
                        pitch * 8)]
    legend = _legend(board)
    width, _ = legend_size(legend, 2)
    return finish("bumpem", board.name, side, piece_mm(side), spaces, lines, labels, legend,
                  (centre[0] - width / 2, title_y + 12), legend_columns=2)


def _track_space(spot: Spot, xy: Point, side: float) -> Space:
    x, y = xy
    colour = spot.colour
    fill, ink, stroke, caption, text = TRACK_FILL, GREY, 0.4, "", BLACK
    if spot.kind == "start":
        fill, ink, stroke, caption = FILL[colour], INK[colour], 1.4, "START"
    elif spot.kind == "oil":
        fill, ink, stroke, caption, text = OIL_FILL, INK[colour], 1.4, "OIL", WHITE
    elif spot.kind == "turbo":
        fill, ink, stroke, caption = TURBO_FILL, TURBO_INK, 1.0, "TURBO"
    labels = [fit_label(spot.position_id, x, y - 2.6, 3.2, side * 0.7, text, bold=True)]
    if caption:
        labels.append(fit_label(caption, x, y + 3.4, 2.4, side * 0.7,
                                WHITE if spot.kind == "oil" else ink, bold=True))
    return Space(spot.position_id, spot.kind, colour, "circle", x, y, side, side, fill, ink,
                 stroke, labels=tuple(labels), slots=((x, y + 0.5),))


def _home_space(colour: str, step: int, xy: Point, side: float) -> Space:
    x, y = xy
    ident = f"home:{colour}:{step}"
    # read top to bottom, the square says what the screen says: "home stretch 3"
    words = [fit_label(word, x, y - side / 2 + 2.2 + 2.3 * i, 2.0, side - 2, INK[colour],
                       bold=True) for i, word in enumerate(("HOME", "STRETCH"))]
    number = fit_label(position_label(ident), x, y + 2.0, 4.2, side - 2, INK[colour],
                       bold=True)
    return Space(ident, "home", colour, "round", x, y, side, side, FILL[colour], INK[colour],
                 0.8, labels=(*words, number), slots=((x, y + 1.5),))


def _finish_area(colour: str, entrance: Point, inward: Point, pitch: float,
                 board: Board) -> Space:
    """A round finish area with one place per car; its label always fits inside."""
    ident = f"finish:{colour}"
    text = position_label(ident)
    cars = board.cars_per_player
    columns = math.ceil(math.sqrt(cars))
    rows = math.ceil(cars / columns)
    label = Label(text, 0, 0, 3.0, INK[colour], bold=True)
    size = max(pitch * (columns + 0.3), pitch * (rows + 0.6), label.width / 0.8)
    distance = pitch * board.home_length + pitch / 2 + GAP + size / 2
    x, y = along(entrance, inward, distance)
    placed = Label(text, x, y - size * 0.32, 3.0, INK[colour], bold=True)
    slots = grid_slots(x, y + pitch * 0.2, pitch * columns * 0.75, pitch * rows * 0.75,
                       columns, rows)
    return Space(ident, "finish", colour, "circle", x, y, size, size, FILL[colour],
                 INK[colour], 1.2, labels=(placed,), slots=slots)


def _pit(colour: str, start: Point, normal: Point, side: float, cars: int) -> Space:
    """The pit row beside a colour's start: every car of the colour fits in a row."""
    ident = f"pit:{colour}"
    long, short = max(side * 2.2, cars * side * 0.6 + 2), side * 1.2
    w, h = (long, short) if upright(normal) else (max(short, side * 1.4), long)
    x, y = along(start, normal, clearance(normal, side / 2 + GAP * 2, w, h))
    label = fit_label(position_label(ident), x, y - h / 2 + 2.4, 2.6, w - 2, INK[colour],
                      bold=True)
    columns, rows = (cars, 1) if upright(normal) else (1, cars)
    slots = grid_slots(x, y + 1.6, w - 3, h - 6, columns, rows)
    return Space(ident, "pit", colour, "round", x, y, w, h, FILL[colour], INK[colour], 0.8,
                 labels=(label,), slots=slots)


def _legend(board: Board) -> list[LegendEntry]:
    entries = [
        LegendEntry("circle", TRACK_FILL, GREY, "Track space (cars move clockwise)"),
        LegendEntry("circle", FILL["red"], INK["red"], "Start space of a colour", 1.4),
        LegendEntry("round", FILL["blue"], INK["blue"], "Pit row: cars wait to enter", 0.8),
        LegendEntry("round", FILL["green"], INK["green"], "Home stretch (exact count)", 0.8),
        LegendEntry("circle", FILL["yellow"], INK["yellow"], "Finish area", 1.2),
    ]
    if board.oil:
        entries.append(LegendEntry("circle", OIL_FILL, INK["red"],
                                   "Oil slick: others slide 6", 1.4))
    if board.turbo:
        entries.append(LegendEntry("circle", TURBO_FILL, TURBO_INK,
                                   "Turbo: a car sat on zooms on", 1.0))
    return entries


def summary(board: Board) -> list[str]:
    facts: tuple[tuple[str, object], ...] = (
        ("name", board.name), ("track length", board.track_length),
        ("home length", board.home_length), ("cars per player", board.cars_per_player),
        ("colours", board.colours))
    lines = [f"{name}: {value}" for name, value in facts if value != ""]
    return [*lines, f"oil: {len(board.oil)}", f"turbo: {len(board.turbo)}"]


TOOLS = BoardTools(Board, load_board, summary, bumpem_geometry)
"""What ``cbrig board``, ``cbrig print`` and the live board use (rig.gametype.folder_parts)."""
