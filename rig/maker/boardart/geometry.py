"""The board as geometry in millimetres: what every drawing of a board is made from.

One `BoardGeometry` per board file feeds `cbrig board show` (PNG), `cbrig print` (PDF)
and the browser's live board (SVG), so the board on the table, the picture and the live
board are the same by construction. Everything is in millimetres at print size, y down,
origin at the top-left corner of the drawing; every label carries its box (measured with
the Helvetica metrics every backend draws with), so layout and clipping are decided here
once, not per backend.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from rig.maker.boardart.metrics import text_width
from valueclass import Frozen, field, replace

Point = tuple[float, float]
RGB = tuple[int, int, int]
Box = tuple[float, float, float, float]
"""(left, top, right, bottom) in mm."""

BLACK: RGB = (0, 0, 0)
WHITE: RGB = (255, 255, 255)
GREY: RGB = (120, 120, 120)
FILL: Mapping[str, RGB] = {"red": (244, 170, 170), "green": (170, 222, 170),
                           "blue": (170, 190, 244), "yellow": (244, 230, 150),
                           "orange": (250, 200, 150), "purple": (210, 180, 235),
                           "pink": (245, 190, 215), "brown": (215, 190, 160),
                           "black": (190, 190, 190), "white": (250, 250, 250)}
"""Light fill of each colour a game may seat: spaces are filled with it so the ink labels
stay readable (a game names its colours; the palette is not any one game's)."""
INK: Mapping[str, RGB] = {"red": (190, 30, 30), "green": (30, 130, 30),
                          "blue": (30, 60, 190), "yellow": (170, 140, 0),
                          "orange": (220, 100, 10), "purple": (110, 40, 170),
                          "pink": (200, 60, 130), "brown": (120, 75, 30),
                          "black": (20, 20, 20), "white": (150, 150, 150)}
"""Strong ink of each colour: outlines, captions, pieces."""

LABEL_BOX_HEIGHT = 1.0
"""A label's box is this many font sizes tall (ascender to descender of Helvetica)."""


class Label(Frozen):
    """One line of text centred on (x, y); `size` is the font size in mm."""

    text: str
    x: float
    y: float
    size: float
    colour: RGB = BLACK
    bold: bool = False

    @property
    def width(self) -> float:
        return text_width(self.text, self.size, self.bold)

    @property
    def box(self) -> Box:
        half_w, half_h = self.width / 2, self.size * LABEL_BOX_HEIGHT / 2
        return (self.x - half_w, self.y - half_h, self.x + half_w, self.y + half_h)

    def moved(self, dx: float, dy: float) -> Label:
        return replace(self, x=self.x + dx, y=self.y + dy)


class Space(Frozen):
    """A place pieces stand on (a location id of the game), or a drawn area like it.

    `form` is "rect", "round" (rounded rectangle), "circle", "diamond" or "triangle",
    sized `w` x `h` round its centre. `slots` are where piece markers go, in order.
    """

    id: str
    kind: str
    colour: str
    form: str
    x: float
    y: float
    w: float
    h: float
    fill: RGB
    ink: RGB
    stroke: float = 0.4
    dashed: bool = False
    labels: tuple[Label, ...] = ()
    slots: tuple[Point, ...] = ()

    @property
    def box(self) -> Box:
        return (self.x - self.w / 2, self.y - self.h / 2, self.x + self.w / 2,
                self.y + self.h / 2)

    def moved(self, dx: float, dy: float) -> Space:
        return replace(self, x=self.x + dx, y=self.y + dy,
                       labels=tuple(lb.moved(dx, dy) for lb in self.labels),
                       slots=tuple((sx + dx, sy + dy) for sx, sy in self.slots))


class Line(Frozen):
    """A road, link or connector, drawn under the spaces; ``over=True`` draws it above
    them (a ladder or a chute from one space to another, which the spaces would hide)."""

    points: tuple[Point, ...]
    colour: RGB = GREY
    width: float = 0.5
    dashed: bool = False
    over: bool = False
    """Drawn above the spaces (and under the labels), not under them."""

    def moved(self, dx: float, dy: float) -> Line:
        return replace(self, points=tuple((x + dx, y + dy) for x, y in self.points))


class LegendEntry(Frozen):
    """One line of the legend: a small swatch drawn like the spaces it explains."""

    form: str
    fill: RGB
    ink: RGB
    text: str
    stroke: float = 0.4
    dashed: bool = False


class BoardGeometry(Frozen):
    """A whole board at print size, ready for any backend."""

    game: str
    title: str
    width: float
    height: float
    space_mm: float
    """Size of one playing space (its side, or its diameter)."""
    piece_mm: float
    """Largest piece (token or standee base) that fits one space."""
    spaces: tuple[Space, ...]
    lines: tuple[Line, ...] = ()
    labels: tuple[Label, ...] = ()
    """Captions that belong to no single space (titles, curve names, notes)."""
    legend: tuple[LegendEntry, ...] = ()
    legend_at: Point = (0.0, 0.0)
    """Top-left corner of the legend."""
    legend_columns: int = 1
    by_id: Mapping[str, Space] = field(default_factory=dict, compare=False)

    def all_labels(self) -> list[Label]:
        return [*self.labels, *(lb for s in self.spaces for lb in s.labels),
                *legend_labels(self)]


LEGEND_ROW = 7.0
LEGEND_TEXT = 3.2
LEGEND_SWATCH = 5.0
LEGEND_GAP = 2.5
LEGEND_COLUMN_GAP = 6.0


def _legend_rows(count: int, columns: int) -> int:
    return max(1, -(-count // max(columns, 1)))


def _legend_column_width(entries: Sequence[LegendEntry]) -> float:
    widths = [text_width(e.text, LEGEND_TEXT) for e in entries] or [0.0]
    return LEGEND_SWATCH + LEGEND_GAP + max(widths)


def legend_swatch(geometry: BoardGeometry, index: int) -> Point:
    """Centre of the swatch of legend entry `index` (entries fill column by column)."""
    x, y = geometry.legend_at
    rows = _legend_rows(len(geometry.legend), geometry.legend_columns)
    column, row = divmod(index, rows)
    step = _legend_column_width(geometry.legend) + LEGEND_COLUMN_GAP
    return (x + column * step + LEGEND_SWATCH / 2, y + LEGEND_ROW * (row + 1.4))


def legend_labels(geometry: BoardGeometry) -> list[Label]:
    """The legend's heading and text lines, where `draw_board` puts them."""
    if not geometry.legend:
        return []
    x, y = geometry.legend_at
    head = Label("Legend", x, y + LEGEND_TEXT * 0.6, LEGEND_TEXT * 1.2, bold=True)
    out = [replace(head, x=x + head.width / 2)]
    for index, entry in enumerate(geometry.legend):
        sx, sy = legend_swatch(geometry, index)
        text = Label(entry.text, 0.0, sy, LEGEND_TEXT)
        out.append(replace(text, x=sx + LEGEND_SWATCH / 2 + LEGEND_GAP + text.width / 2))
    return out


def legend_size(entries: Sequence[LegendEntry], columns: int) -> Point:
    """(width, height) the legend needs."""
    if not entries:
        return (0.0, 0.0)
    used = min(columns, len(entries))
    rows = _legend_rows(len(entries), columns)
    return (used * _legend_column_width(entries) + (used - 1) * LEGEND_COLUMN_GAP,
            LEGEND_ROW * (rows + 1))


def fit_label(text: str, x: float, y: float, size: float, max_width: float,
              colour: RGB = BLACK, bold: bool = False) -> Label:
    """A label at `size`, made smaller if needed so it is no wider than `max_width`."""
    width = text_width(text, size, bold)
    if width > max_width > 0:
        size = size * max_width / width
    return Label(text, x, y, size, colour, bold)


def union(boxes: Sequence[Box]) -> Box:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes))


def contains(outer: Box, inner: Box, tolerance: float = 1e-6) -> bool:
    return (inner[0] >= outer[0] - tolerance and inner[1] >= outer[1] - tolerance
            and inner[2] <= outer[2] + tolerance and inner[3] <= outer[3] + tolerance)


def finish(game: str, title: str, space_mm: float, piece_mm: float, spaces: Sequence[Space],
           lines: Sequence[Line], labels: Sequence[Label], legend: Sequence[LegendEntry],
           legend_at: Point, legend_columns: int = 1, margin: float = 8.0
           ) -> BoardGeometry:
    """Shift everything so the drawing starts `margin` mm from its top-left corner and
    size the drawing to hold every space, line and label: nothing can be clipped."""
    draft = BoardGeometry(game, title, 0.0, 0.0, space_mm, piece_mm, tuple(spaces),
                          tuple(lines), tuple(labels), tuple(legend), legend_at,
                          legend_columns)
    boxes = [s.box for s in spaces] + [lb.box for lb in draft.all_labels()]
    boxes += [(x, y, x, y) for line in lines for x, y in line.points]
    lw, lh = legend_size(legend, legend_columns)
    if legend:
        boxes.append((legend_at[0], legend_at[1], legend_at[0] + lw, legend_at[1] + lh))
    left, top, right, bottom = union(boxes)
    dx, dy = margin - left, margin - top
    moved = tuple(s.moved(dx, dy) for s in spaces)
    return BoardGeometry(
        game=game, title=title, width=right - left + 2 * margin,
        height=bottom - top + 2 * margin, space_mm=space_mm, piece_mm=piece_mm,
        spaces=moved, lines=tuple(line.moved(dx, dy) for line in lines),
        labels=tuple(lb.moved(dx, dy) for lb in labels), legend=tuple(legend),
        legend_at=(legend_at[0] + dx, legend_at[1] + dy), legend_columns=legend_columns,
        by_id={s.id: s for s in moved})


def piece_position(geometry: BoardGeometry, location: str, slot: int = 0) -> Point:
    """Where a piece at `location` (a location id of the game: "R13", "side:R13", "park",
    "T35", "pit:red", ...) stands, in mm from the drawing's top-left corner.

    `slot` picks one of the location's piece places, so several pieces on one location
    do not hide each other; it wraps round when a location has fewer places.
    Raises KeyError for a location the board does not have.
    """
    space = geometry.by_id[location]
    if not space.slots:
        return (space.x, space.y)
    return space.slots[slot % len(space.slots)]


def grid_slots(x: float, y: float, w: float, h: float, columns: int, rows: int
               ) -> tuple[Point, ...]:
    """`columns` x `rows` evenly spread piece places in a w x h area centred on (x, y)."""
    return tuple((x - w / 2 + w * (c + 0.5) / columns, y - h / 2 + h * (r + 0.5) / rows)
                 for r in range(rows) for c in range(columns))


# -- primitives the games' drawings share ------------------------------------------

GAP = 1.0
"""Clear space (mm) between a space and what is drawn beside it."""


def sub(a: Point, b: Point) -> Point:
    return (a[0] - b[0], a[1] - b[1])


def along(p: Point, direction: Point, distance: float) -> Point:
    return (p[0] + direction[0] * distance, p[1] + direction[1] * distance)


def unit(v: Point) -> Point:
    length = math.hypot(*v) or 1.0
    return (v[0] / length, v[1] / length)


def outward(prev: Point, here: Point, nxt: Point, centre: Point) -> Point:
    """The unit normal of the road at `here`, pointing away from the board's centre."""
    tx, ty = sub(nxt, prev)
    normal = unit((ty, -tx))
    away = sub(here, centre)
    if normal[0] * away[0] + normal[1] * away[1] < 0:
        normal = (-normal[0], -normal[1])
    return normal


def upright(normal: Point) -> bool:
    """True where the road runs left-right (its normal points up or down)."""
    return abs(normal[1]) >= abs(normal[0])


def clearance(normal: Point, half: float, w: float, h: float) -> float:
    """How far along `normal` a w x h box must sit to clear a square of half-side `half`
    round the starting point (it clears once it is past the square on one axis)."""
    needs = [(half + size / 2) / abs(component)
             for component, size in ((normal[0], w), (normal[1], h)) if abs(component) > 0.1]
    return min(needs)


def piece_mm(side: float) -> float:
    """The largest token or standee base a space takes with room to pick it up."""
    return math.floor(side * 0.8)
