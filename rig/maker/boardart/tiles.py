"""Split a board drawing into page-sized tiles that join into the whole board.

Neighbouring tiles overlap by `overlap` mm; the cut line runs down the middle of each
overlap, with registration marks centred on it that both tiles print at the same board
point. Cut lines are moved (within a slack) so that they never run through a label:
every label is then whole on one tile. Pure arithmetic, no PDF library.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from rig.maker.boardart.geometry import BoardGeometry, Box
from valueclass import Frozen

OVERLAP_MM = 12.0
SLACK_MM = 24.0
LABEL_BAND_MM = 12.0
"""Height kept at the foot of each page for its label and the 50 mm scale bar."""


class Tile(Frozen):
    """One page of a tiled board: which board area it shows and where it is."""

    row: int
    column: int
    region: Box
    """Board area (mm, drawing coordinates) this page shows."""
    cut_left: float | None
    cut_top: float | None
    cut_right: float | None
    cut_bottom: float | None
    """Board coordinates of the cut lines on each side (None on the board's edge)."""

    @property
    def name(self) -> str:
        """"B3": row letter, column number, as on the page label."""
        return f"{chr(ord('A') + self.row)}{self.column + 1}"


class TilePlan(Frozen):
    paper: tuple[float, float]
    """Page size (mm) in the orientation used."""
    columns: tuple[float, ...]
    """Cut positions along x (board mm), without the board's edges."""
    rows: tuple[float, ...]
    tiles: tuple[Tile, ...]

    @property
    def grid(self) -> tuple[int, int]:
        return (len(self.rows) + 1, len(self.columns) + 1)


def _cuts(length: float, room: float, overlap: float, slack: float,
          busy: Sequence[Sequence[tuple[float, float]]]) -> list[float] | None:
    """Cut positions so each tile spans at most `room`; None if `room` is too small.

    The tile count leaves `slack` per tile, so each cut can move off its even position
    (as far as the tiles on both sides still fit) to where it crosses no label: first
    no label at all, else no label of a place (titles and the legend may then be cut)."""
    if length <= room:
        return []
    usable = room - overlap - slack
    if usable <= 0:
        return None
    count = max(2, math.ceil((length - overlap) / usable))
    step = (length - overlap) / count
    cuts: list[float] = []
    previous = overlap / 2
    for i in range(1, count):
        left_after = count - i
        lo = max(previous + overlap, length - overlap / 2 - left_after * (room - overlap))
        hi = previous + room - overlap
        cut = _free_near(overlap / 2 + i * step, lo, hi, busy)
        cuts.append(cut)
        previous = cut
    return cuts


def _free_near(nominal: float, lo: float, hi: float,
               tiers: Sequence[Sequence[tuple[float, float]]]) -> float:
    """The position in [lo, hi] nearest `nominal` that crosses no span of the first
    tier it can keep clear of (tiers go from "every label" to fewer)."""
    nominal = min(max(nominal, lo), hi)
    candidates = sorted((lo + k * 0.25 for k in range(int((hi - lo) * 4) + 1)),
                        key=lambda x: abs(x - nominal))
    for busy in tiers:
        for x in candidates:
            if not any(a - 0.6 < x < b + 0.6 for a, b in busy):
                return x
    return nominal


def _spans(edges: Sequence[float], length: float, overlap: float) -> list[tuple[float, float]]:
    """The board span each tile shows along one axis."""
    bounds = [0.0, *edges, length]
    out = []
    for i in range(len(bounds) - 1):
        lo = bounds[i] - overlap / 2 if i > 0 else 0.0
        hi = bounds[i + 1] + overlap / 2 if i < len(bounds) - 2 else length
        out.append((lo, hi))
    return out


def plan_tiles(geometry: BoardGeometry, paper: tuple[float, float], margin: float,
               overlap: float = OVERLAP_MM, slack: float = SLACK_MM) -> TilePlan | None:
    """Tiles of `geometry` on `paper` (portrait or landscape, whichever takes fewer
    pages); None if the paper is too small to tile on."""
    every = geometry.all_labels()
    places = [lb for space in geometry.spaces for lb in space.labels]
    busy_x = [[(lb.box[0], lb.box[2]) for lb in tier] for tier in (every, places)]
    busy_y = [[(lb.box[1], lb.box[3]) for lb in tier] for tier in (every, places)]
    best: TilePlan | None = None
    for w, h in ((min(paper), max(paper)), (max(paper), min(paper))):
        room_x, room_y = w - 2 * margin, h - 2 * margin - LABEL_BAND_MM
        columns = _cuts(geometry.width, room_x, overlap, slack, busy_x)
        rows = _cuts(geometry.height, room_y, overlap, slack, busy_y)
        if columns is None or rows is None:
            continue
        xs, ys = _spans(columns, geometry.width, overlap), _spans(rows, geometry.height,
                                                                  overlap)
        tiles = []
        for r, (top, bottom) in enumerate(ys):
            for c, (left, right) in enumerate(xs):
                tiles.append(Tile(
                    r, c, (left, top, right, bottom),
                    cut_left=columns[c - 1] if c > 0 else None,
                    cut_top=rows[r - 1] if r > 0 else None,
                    cut_right=columns[c] if c < len(columns) else None,
                    cut_bottom=rows[r] if r < len(rows) else None))
        plan = TilePlan((w, h), tuple(columns), tuple(rows), tuple(tiles))
        if best is None or len(plan.tiles) < len(best.tiles):
            best = plan
    return best


def fits_one_sheet(geometry: BoardGeometry, paper: tuple[float, float],
                   margin: float) -> tuple[float, float] | None:
    """The orientation of `paper` that holds the whole board, or None."""
    for w, h in ((min(paper), max(paper)), (max(paper), min(paper))):
        if (geometry.width <= w - 2 * margin
                and geometry.height <= h - 2 * margin - LABEL_BAND_MM):
            return (w, h)
    return None
