"""The 10-Four board as geometry: the loop, its shoulders and every special place.

Every place is labelled as the rig names it on screen (engine.tenfour.names): highway
spaces by their board-data id ("R13"), traps, short cuts and Bear spaces by where they
stand ("Bear Trap on Blue").

Positions come from the board file (`Board.xy`, a unit square the owner may override
with [layout.at]); they are scaled so consecutive highway spaces sit `pitch` mm apart.
Bear Traps are placed here in millimetres beside their three spaces, outside the
shoulder, unless the owner placed them by hand.
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
from engine.tenfour import load_board, names, square_layout
from engine.tenfour.board import Board

if TYPE_CHECKING:
    from engine.tenfour.board import BearSpace, Trap

PITCH_MM = 16.0
"""Default distance between neighbouring highway spaces; A2 holds the default board."""
CURVE_INK: RGB = (230, 110, 0)
TRAP_FILL: RGB = (60, 60, 60)
SHOULDER_FILL: RGB = (236, 236, 236)
PARK_FILL: RGB = (210, 235, 200)
PARK_INK: RGB = (40, 100, 40)
HOME_FILL: RGB = (250, 245, 225)
SHORTCUT_INK: RGB = (70, 70, 70)
SHOULDER_DEPTH = 6.0


def _hand_placed(board: Board) -> set[str]:
    """Ids the owner placed with [layout.at] (they keep the owner's place)."""

    default = square_layout(board)
    return {ident for ident, xy in board.xy.items() if default.get(ident) != xy}


def tenfour_geometry(board: Board, pitch: float = PITCH_MM) -> BoardGeometry:
    """Every place of a 10-Four board in mm, labelled with its board-data id."""
    loop = board.loop
    n = len(loop)
    unit = board.xy
    steps = [math.dist(unit[loop[i]], unit[loop[(i + 1) % n]]) for i in range(n)]
    scale = pitch / (statistics.median(steps) or 1.0)
    at = {ident: (x * scale, y * scale) for ident, (x, y) in unit.items()}
    centre = (statistics.fmean(at[s][0] for s in loop), statistics.fmean(at[s][1] for s in loop))
    side = pitch * 0.94
    normal = {s: outward(at[loop[i - 1]], at[s], at[loop[(i + 1) % n]], centre)
              for i, s in enumerate(loop)}
    spaces: list[Space] = []
    lines: list[Line] = [Line(tuple(at[s] for s in (*loop, loop[0])), GREY, 0.6)]
    labels: list[Label] = []
    starts = {route.spaces[0]: route.colour for route in board.routes}
    for i, ident in enumerate(loop):
        spaces.append(_highway(ident, at[ident], side, board.route_of[i], board.on_curve[i],
                               starts.get(ident)))
        spaces.append(_shoulder(ident, at[ident], normal[ident], side))
    shoulder_out = side / 2 + GAP + SHOULDER_DEPTH
    for curve in board.curves:
        middle = curve.spaces[1]
        text = "HAMMER UP"
        label = Label(text, 0, 0, 3.0, CURVE_INK, bold=True)
        out = clearance(normal[middle], shoulder_out + GAP, label.width, label.size)
        x, y = along(at[middle], normal[middle], out)
        labels.append(Label(text, x, y, 3.0, CURVE_INK, bold=True))
    hand = _hand_placed(board)
    for trap in board.traps:
        billboard = _trap(trap, names.trap_name(board, trap.id), at, normal, side,
                          shoulder_out, trap.id in hand)
        spaces.append(billboard)
        lines.extend(Line(((billboard.x, billboard.y), at[s]), GREY, 0.3) for s in trap.spaces)
    for cut in board.shortcuts:
        spaces.append(_shortcut(cut.id, names.shortcut_name(board, cut.id), at[cut.id], pitch))
        lines.append(Line((at[cut.entry], at[cut.id], at[cut.exit]), SHORTCUT_INK, 1.0,
                          dashed=True))
    for bear in board.bears:
        spaces.append(_bear(bear, names.bear_space_name(board, bear.id), at[bear.id], pitch))
        lines.append(Line((at[bear.id], at[bear.beside]), INK[bear.route], 0.5, dashed=True))
    park, home = _park_and_home(board.park, centre, pitch)
    spaces.extend([park, home])
    top = park.box[1]
    interior = _interior_width(at, loop, pitch)
    labels.append(fit_label(board.name, centre[0], top - 15, 4.5, interior, BLACK, bold=True))
    labels.append(fit_label(_size_note(side, pitch), centre[0], top - 8, 3.0, interior))
    legend = _legend(board)
    width, _ = legend_size(legend, 2)
    legend_at = (centre[0] - width / 2, home.box[3] + 5)
    return finish("tenfour", board.name, side, piece_mm(side), spaces, lines, labels, legend,
                  legend_at, legend_columns=2)


def _size_note(side: float, pitch: float) -> str:
    return (f"Spaces {side:.0f} mm, {pitch:.0f} mm apart: pieces up to "
            f"{piece_mm(side):.0f} mm across")


def _interior_width(at: dict[str, Point], loop: tuple[str, ...], pitch: float) -> float:
    """Room for the title inside the loop, clear of the Bear spaces along the sides."""
    xs = [at[s][0] for s in loop]
    return max(pitch * 4, (max(xs) - min(xs)) - 6 * pitch)


def _highway(ident: str, xy: Point, side: float, colour: str, on_curve: bool,
             start_of: str | None) -> Space:
    x, y = xy
    labels = [fit_label(ident, x, y - side / 2 + 2.4, 3.2, side - 1.5, BLACK, bold=True)]
    if start_of is not None:
        labels.append(fit_label("START", x, y + side / 2 - 2.0, 2.4, side - 1.5,
                                INK[colour], bold=True))
    stroke = 1.2 if start_of is not None else 1.0 if on_curve else 0.4
    return Space(ident, "start" if start_of else "curve" if on_curve else "space", colour,
                 "rect", x, y, side, side, FILL[colour],
                 CURVE_INK if on_curve else INK[colour], stroke, labels=tuple(labels),
                 slots=grid_slots(x, y + 1.2, side - 5, side - 7, 2, 2))


def _shoulder(ident: str, xy: Point, normal: Point, side: float) -> Space:
    """The side of the road beside a space: where a caught truck waits (T7)."""
    length = side * 0.86
    diagonal = abs(abs(normal[0]) - abs(normal[1])) < 0.3
    if diagonal:
        w = h = SHOULDER_DEPTH + 1
    elif upright(normal):
        w, h = length, SHOULDER_DEPTH
    else:
        w, h = SHOULDER_DEPTH, length
    x, y = along(xy, normal, clearance(normal, side / 2 + GAP, w, h))
    return Space(f"side:{ident}", "side", "", "rect", x, y, w, h, SHOULDER_FILL, GREY, 0.3,
                 dashed=True, slots=((x, y),))


def _trap(trap: Trap, name: str, at: dict[str, Point], normal: dict[str, Point], side: float,
          shoulder_out: float, hand: bool) -> Space:
    """A Bear Trap billboard beside its three spaces (T6), room for both Smokeys, named
    as the rig names it ("Bear Trap on Red"), on two lines ("Bear Trap" / "on Red")."""
    head, _, tail = name.partition(" on ")
    lines = (head, f"on {tail}") if tail else (head,)
    first, last = at[trap.spaces[0]], at[trap.spaces[2]]
    span = math.dist(first, last) + side
    n = normal[trap.spaces[1]]
    text_w = max(Label(line, 0, 0, 3.0, bold=True).width for line in lines) + 3
    if upright(n):
        w, h = span, 11.0
    else:
        w, h = max(text_w, 13.0), span
    if hand:
        x, y = at[trap.id]
    else:
        mid = ((first[0] + last[0]) / 2, (first[1] + last[1]) / 2)
        x, y = along(mid, n, clearance(n, shoulder_out + GAP, w, h))
    labels = tuple(Label(line, x, y + 3.4 * (i - (len(lines) - 1) / 2), 3.0, WHITE, bold=True)
                   for i, line in enumerate(lines))
    slots = grid_slots(x, y, w - 4, h - 4, 2, 1) if upright(n) else \
        grid_slots(x, y, w - 4, h - 4, 1, 2)
    return Space(trap.id, "trap", "", "rect", x, y, w, h, TRAP_FILL, BLACK, 0.5,
                 labels=labels, slots=slots)


def _shortcut(ident: str, name: str, xy: Point, pitch: float) -> Space:
    """A "For Official Use Only" short cut: one space only Smokeys use (T11), named as
    the rig names it ("short cut R16-G2") under the diamond."""
    x, y = xy
    size = pitch * 1.15
    labels = (Label(name, x, y + size / 2 + 2.2, 2.8, BLACK, bold=True),
              Label("FOR OFFICIAL USE ONLY", x, y + size / 2 + 5.2, 2.2, SHORTCUT_INK,
                    bold=True))
    return Space(ident, "shortcut", "", "diamond", x, y, size, size, WHITE, SHORTCUT_INK, 0.8,
                 labels=labels, slots=((x, y),))


def _bear(bear: BearSpace, name: str, xy: Point, pitch: float) -> Space:
    """A Bear In The Air space; the Bear on it watches its route (T8). Named as the rig
    names it ("Bear space on Red") under the triangle."""
    x, y = xy
    size = pitch * 1.25
    labels = (Label(name, x, y + size / 2 + 2.2, 2.8, INK[bear.route], bold=True),
              Label(f"the Bear here watches {bear.route}", x, y + size / 2 + 5.2, 2.2,
                    INK[bear.route]))
    return Space(bear.id, "bear", bear.route, "triangle", x, y, size, size, FILL[bear.route],
                 INK[bear.route], 0.8, labels=labels, slots=((x, y + size * 0.12),))


def _park_and_home(name: str, centre: Point, pitch: float) -> tuple[Space, Space]:
    """Yellowstone Park (where the police start, T10) and Home for finished trucks."""
    x, y = centre
    w, h = pitch * 6.5, pitch * 2.6
    park = Space("park", "park", "", "round", x, y, w, h, PARK_FILL, PARK_INK, 0.8,
                 labels=(fit_label(name, x, y - h / 2 + 5, 4.2, w - 4, PARK_INK, bold=True),
                         Label("the police start here", x, y - h / 2 + 10, 2.6, PARK_INK)),
                 slots=grid_slots(x, y + 5, w * 0.6, 8, 3, 1))
    hw, hh = pitch * 5, pitch * 1.6
    hy = y + h / 2 + 4 + hh / 2
    home = Space("home", "home", "", "round", x, hy, hw, hh, HOME_FILL, GREY, 0.5,
                 labels=(Label("HOME: trucks that made it", x, hy - hh / 2 + 3.5, 2.6, BLACK,
                               bold=True),),
                 slots=grid_slots(x, hy + 2.5, hw - 6, hh - 9, 4, 1))
    return park, home


def _legend(board: Board) -> list[LegendEntry]:
    entries = [
        LegendEntry("rect", FILL["red"], INK["red"], "Highway space, in its route's colour"),
        LegendEntry("rect", FILL["blue"], INK["blue"], "Start (and finish) of a colour", 1.2),
        LegendEntry("rect", SHOULDER_FILL, GREY, "Side of the road: a caught truck", 0.3,
                    dashed=True),
        LegendEntry("rect", PARK_FILL, PARK_INK, "Yellowstone Park: police start", 0.8),
        LegendEntry("rect", HOME_FILL, GREY, "Home: trucks that made it", 0.5),
    ]
    if board.curves:
        entries.insert(2, LegendEntry("rect", FILL["green"], CURVE_INK,
                                      "Hammer Up curve: next turn Lo-Band", 1.0))
    if board.traps:
        entries.append(LegendEntry("rect", TRAP_FILL, BLACK, "Bear Trap beside its 3 spaces"))
    if board.shortcuts:
        entries.append(LegendEntry("diamond", WHITE, SHORTCUT_INK,
                                   "Short cut: For Official Use Only", 0.8))
    if board.bears:
        entries.append(LegendEntry("triangle", FILL["yellow"], INK["yellow"],
                                   "Bear In The Air: watches its route", 0.8))
    return entries


def summary(board: Board) -> list[str]:
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


TOOLS = BoardTools(Board, load_board, summary, tenfour_geometry)
"""What ``cbrig board``, ``cbrig print`` and the live board use (rig.gametype.folder_parts)."""
