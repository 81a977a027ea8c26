"""The board as PDF: one A3/A2 sheet, or tiles on A4/Letter that join into the board."""

from __future__ import annotations

from collections.abc import Sequence

from rig.maker.boardart.draw import draw_board
from rig.maker.boardart.geometry import (
    BLACK,
    GREY,
    LEGEND_SWATCH,
    RGB,
    BoardGeometry,
    Box,
    Label,
    Point,
    legend_swatch,
)
from rig.maker.boardart.pdf import MARGIN_MM, Page, PdfCanvas, PdfDocument, spread
from rig.maker.boardart.tiles import LABEL_BAND_MM, Tile, TilePlan, fits_one_sheet, plan_tiles
from valueclass import Frozen

MARK_INK: RGB = (236, 0, 140)
"""Registration marks and cut lines print in magenta, unlike anything on the board."""
MARK_RADIUS = 2.5
SCALE_BAR_MM = 50.0


class BoardPrint(Frozen):
    """What was printed: for the command's summary and for tests."""

    pages: int
    grid: tuple[int, int]
    """(rows, columns) of tiles; (1, 1) for one sheet."""
    paper: tuple[float, float]
    plan: TilePlan | None


class _RegionCanvas(PdfCanvas):
    """A tile's canvas: text wholly outside the tile is not written at all, so the
    page's text is only what can be seen on it."""

    def __init__(self, base: PdfCanvas, region: Box) -> None:
        super().__init__(base.pdf, base.page)
        self.region = region

    def text(self, label: Label, upside_down: bool = False) -> None:
        left, top, right, bottom = label.box
        r = self.region
        if right > r[0] and left < r[2] and bottom > r[1] and top < r[3]:
            super().text(label, upside_down)


def write_board(geometry: BoardGeometry, path: str, paper: tuple[float, float],
                paper_name: str, tile: bool | None = None) -> BoardPrint:
    """Write the board to `path`. `tile` None: one sheet if the board fits the paper."""
    sheet = fits_one_sheet(geometry, paper, MARGIN_MM)
    doc = PdfDocument(path, f"{geometry.title} (board)")
    if sheet is not None and tile is not True:
        _one_sheet(doc, geometry, sheet, paper_name)
        doc.save()
        return BoardPrint(1, (1, 1), sheet, None)
    plan = plan_tiles(geometry, paper, MARGIN_MM)
    if plan is None:
        raise ValueError(f"{paper_name} paper is too small to tile the board on")
    _overview(doc, geometry, plan, paper_name)
    for one in plan.tiles:
        _tile_page(doc, geometry, plan, one, paper_name)
    doc.save()
    return BoardPrint(len(plan.tiles) + 1, plan.grid, plan.paper, plan)


def _overview(doc: PdfDocument, geometry: BoardGeometry, plan: TilePlan,
              paper_name: str) -> None:
    """Page 1 of a tiled board: the whole board small, with every tile outlined and
    named, so the pages are laid out the right way round before gluing."""
    w, h = plan.paper
    top = MARGIN_MM + 14
    room_w, room_h = w - 2 * MARGIN_MM, h - top - MARGIN_MM - LABEL_BAND_MM
    scale = min(room_w / geometry.width, room_h / geometry.height)
    origin = ((w - geometry.width * scale) / 2, top)
    canvas = doc.page(Page(w, h, origin, scale=scale))
    draw_board(geometry, canvas)
    for one in plan.tiles:
        left, top_, right, bottom = one.region
        canvas.rect(left, top_, right - left, bottom - top_, None, MARK_INK, 0.6 / scale)
        canvas.text(Label(one.name, (left + right) / 2, (top_ + bottom) / 2, 9 / scale,
                          MARK_INK, bold=True))
    plain = PdfCanvas(doc.pdf, Page(w, h))
    rows, columns = plan.grid
    _left_text(plain, f"{geometry.title}: how the {rows * columns} tiles join", MARGIN_MM,
               MARGIN_MM + 3, 4.2, bold=True)
    _left_text(plain, f"Print the next {rows * columns} pages at actual size (100%) and lay "
               f"them out as below: {rows} rows (A, B, ...) of {columns} tiles. Each tile "
               "overlaps its neighbours; cut along the", MARGIN_MM, MARGIN_MM + 8, 2.8)
    _left_text(plain, "magenta dashed line and match the round marks. This overview is "
               f"{scale * 100:.0f}% of the real size.", MARGIN_MM, MARGIN_MM + 11.5, 2.8)
    _footer(plain, plan.paper, [f"{geometry.title}: overview ({paper_name.upper()})",
                                "Not to scale: the tiles that follow are."])


def _one_sheet(doc: PdfDocument, geometry: BoardGeometry, paper: tuple[float, float],
               paper_name: str) -> None:
    w, h = paper
    origin = ((w - geometry.width) / 2, MARGIN_MM + (h - 2 * MARGIN_MM - LABEL_BAND_MM
                                                    - geometry.height) / 2)
    canvas = doc.page(Page(w, h, origin))
    draw_board(geometry, canvas)
    plain = PdfCanvas(doc.pdf, Page(w, h))
    _footer(plain, paper, [f"{geometry.title}: the whole board on one {paper_name.upper()} "
                           "sheet", "Print at actual size (100%, no fit to page)."])


def _tile_page(doc: PdfDocument, geometry: BoardGeometry, plan: TilePlan, tile: Tile,
               paper_name: str) -> None:
    w, h = plan.paper
    left, top, right, bottom = tile.region
    origin = (MARGIN_MM - left, MARGIN_MM - top)
    clip = (MARGIN_MM, MARGIN_MM, MARGIN_MM + right - left, MARGIN_MM + bottom - top)
    canvas = doc.page(Page(w, h, origin, clip))
    draw_board(geometry, _RegionCanvas(canvas, tile.region))
    doc.unclip(canvas)
    marks = PdfCanvas(doc.pdf, Page(w, h, origin))
    _cut_marks(marks, tile, geometry)
    rows, columns = plan.grid
    plain = PdfCanvas(doc.pdf, Page(w, h))
    _footer(plain, plan.paper, [
        f"{geometry.title}: tile {tile.name} of {rows * columns} (row "
        f"{chr(ord('A') + tile.row)} of {rows}, column {tile.column + 1} of {columns}, "
        f"{paper_name.upper()})",
        "Cut the tile along its magenta dashed line, lay it over its neighbour and match "
        "the round marks.",
    ])
    _mini_map(plain, plan, tile, (w - MARGIN_MM - 3.6 * columns, h - MARGIN_MM
                                  - LABEL_BAND_MM + 0.5))


def mark_points(tile: Tile, geometry: BoardGeometry) -> list[Point]:
    """Board points of the registration marks on a tile: three on each cut line, at
    places that depend only on the shared edge and the board, so both neighbours print
    them alike. Each is moved along its line, within its third, to where it covers
    nothing drawn (else no word nor legend swatch): never over the legend or a name."""
    left, top, right, bottom = tile.region
    own_top = top if tile.cut_top is None else tile.cut_top
    own_bottom = bottom if tile.cut_bottom is None else tile.cut_bottom
    own_left = left if tile.cut_left is None else tile.cut_left
    own_right = right if tile.cut_right is None else tile.cut_right
    tiers = _mark_obstacles(geometry)
    points: list[Point] = []
    for cut in (tile.cut_left, tile.cut_right):
        if cut is not None:
            points += [(cut, y) for y in _clear_spots(own_top, own_bottom, cut, True, tiers)]
    for cut in (tile.cut_top, tile.cut_bottom):
        if cut is not None:
            points += [(x, cut) for x in _clear_spots(own_left, own_right, cut, False, tiers)]
    return points


MARK_REACH = MARK_RADIUS * 1.6
"""Half the size of a mark: the ends of its cross."""


def _mark_obstacles(geometry: BoardGeometry) -> tuple[list[Box], list[Box]]:
    """What a mark must not cover: first everything drawn (spaces, words, legend
    swatches), then at least the words and swatches."""

    half = LEGEND_SWATCH / 2
    swatches = [(x - half, y - half, x + half, y + half)
                for x, y in (legend_swatch(geometry, i) for i in range(len(geometry.legend)))]
    words = [label.box for label in geometry.all_labels()]
    return [*words, *swatches, *(space.box for space in geometry.spaces)], [*words, *swatches]


MARK_APART = 20.0
"""The least distance between two marks on one cut line."""


def _clear_spots(start: float, end: float, cut: float, vertical: bool,
                 tiers: Sequence[Sequence[Box]]) -> list[float]:
    """Three positions along a cut line from `start` to `end` (evenly spread, 10 mm from
    the ends), each moved to the nearest place, MARK_APART from the others, where a mark
    covers none of the first tier of obstacles it can avoid."""
    def at(along: float) -> Point:
        return (cut, along) if vertical else (along, cut)

    lo, hi = start + MARK_REACH + 1, end - MARK_REACH - 1
    candidates = [lo + k * 0.5 for k in range(int((hi - lo) * 2) + 1)]
    placed: list[float] = []
    for nominal in (start + offset for offset in spread(3, end - start, 10)):
        nearest = sorted((c for c in candidates
                          if all(abs(c - other) >= MARK_APART for other in placed)),
                         key=lambda c: abs(c - nominal))
        placed.append(next((c for boxes in tiers for c in nearest
                            if not _covers(at(c), boxes)), nominal))
    return placed


def _covers(at: Point, boxes: Sequence[Box], pad: float = 0.8) -> bool:
    x, y = at
    r = MARK_REACH + pad
    return any(b[0] < x + r and b[2] > x - r and b[1] < y + r and b[3] > y - r
               for b in boxes)


def _cut_marks(canvas: PdfCanvas, tile: Tile, geometry: BoardGeometry) -> None:
    left, top, right, bottom = tile.region
    for cut in (tile.cut_left, tile.cut_right):
        if cut is not None:
            canvas.line([(cut, top), (cut, bottom)], MARK_INK, 0.25, dashed=True)
    for cut in (tile.cut_top, tile.cut_bottom):
        if cut is not None:
            canvas.line([(left, cut), (right, cut)], MARK_INK, 0.25, dashed=True)
    for x, y in mark_points(tile, geometry):
        canvas.ellipse(x, y, MARK_RADIUS, MARK_RADIUS, None, MARK_INK, 0.3)
        canvas.line([(x - MARK_RADIUS * 1.6, y), (x + MARK_RADIUS * 1.6, y)], MARK_INK, 0.3)
        canvas.line([(x, y - MARK_RADIUS * 1.6), (x, y + MARK_RADIUS * 1.6)], MARK_INK, 0.3)


def _footer(canvas: PdfCanvas, paper: tuple[float, float], lines: Sequence[str]) -> None:
    """Page label and a 50 mm scale bar in the band at the foot of the page."""
    top = paper[1] - MARGIN_MM - LABEL_BAND_MM
    bar_y = top + 9.5
    x0 = MARGIN_MM
    canvas.line([(x0, bar_y), (x0 + SCALE_BAR_MM, bar_y)], BLACK, 0.4)
    for tick in range(0, int(SCALE_BAR_MM) + 1, 10):
        canvas.line([(x0 + tick, bar_y - 1.5), (x0 + tick, bar_y)], BLACK, 0.3)
    _left_text(canvas, f"{SCALE_BAR_MM:.0f} mm", x0 + SCALE_BAR_MM + 2, bar_y - 0.6, 2.6)
    for i, line in enumerate(lines):
        _left_text(canvas, line, x0, top + 2.2 + i * 3.4, 2.7 if i else 3.0, bold=not i)


def _left_text(canvas: PdfCanvas, text: str, x: float, y: float, size: float,
               bold: bool = False, colour: RGB = BLACK) -> None:
    label = Label(text, 0, y, size, colour, bold)
    canvas.text(Label(text, x + label.width / 2, y, size, colour, bold))


def _mini_map(canvas: PdfCanvas, plan: TilePlan, tile: Tile, at: Point) -> None:
    """A little grid of all tiles with this one filled, so the pages are laid out right."""
    for one in plan.tiles:
        x, y = at[0] + one.column * 3.6, at[1] + one.row * 3.6
        mine = one.row == tile.row and one.column == tile.column
        canvas.rect(x, y, 3.2, 3.2, BLACK if mine else None, GREY, 0.2)

