"""The Pillow backend: a board drawing as a PNG picture (`cbrig board show`)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from rig.maker.boardart.draw import draw_board
from rig.maker.boardart.geometry import RGB, BoardGeometry, Label, Point
from rig.maker.boardart.metrics import text_width

PX_PER_MM = 4.0
"""Default resolution of `cbrig board show`: the default 10-Four board is ~1700 px."""
DASH_MM = (1.6, 1.0)


@lru_cache(maxsize=64)
def _font(px: int) -> Any:
    from PIL import ImageFont

    try:
        return ImageFont.load_default(size=px)
    except TypeError:  # Pillow before 10.1 has one bitmap size
        return ImageFont.load_default()


def _dashes(points: Sequence[Point]) -> list[tuple[Point, Point]]:
    """The drawn pieces of a dashed polyline."""
    on, off = DASH_MM
    out: list[tuple[Point, Point]] = []
    for a, b in itertools.pairwise(points):
        length = math.dist(a, b)
        t = 0.0
        while t < length:
            end = min(t + on, length)
            out.append(((a[0] + (b[0] - a[0]) * t / length, a[1] + (b[1] - a[1]) * t / length),
                        (a[0] + (b[0] - a[0]) * end / length,
                         a[1] + (b[1] - a[1]) * end / length)))
            t = end + off
    return out


class PillowCanvas:
    """Draws in mm onto an RGB image at `scale` pixels per mm."""

    def __init__(self, width_mm: float, height_mm: float, scale: float = PX_PER_MM) -> None:
        from PIL import Image, ImageDraw

        self.scale = scale
        self.image = Image.new("RGB", (round(width_mm * scale), round(height_mm * scale)),
                               "white")
        self.draw = ImageDraw.Draw(self.image)

    def _px(self, p: Point) -> tuple[float, float]:
        return (p[0] * self.scale, p[1] * self.scale)

    def _w(self, width: float) -> int:
        return max(1, round(width * self.scale))

    def line(self, points: Sequence[Point], colour: RGB, width: float,
             dashed: bool = False) -> None:
        if dashed:
            for a, b in _dashes(points):
                self.draw.line([self._px(a), self._px(b)], fill=colour, width=self._w(width))
        else:
            self.draw.line([self._px(p) for p in points], fill=colour, width=self._w(width),
                           joint="curve")

    def polygon(self, points: Sequence[Point], fill: RGB | None, ink: RGB | None,
                width: float, dashed: bool = False) -> None:
        self.draw.polygon([self._px(p) for p in points], fill=fill,
                          outline=None if dashed else ink, width=self._w(width))
        if dashed and ink is not None:
            self.line([*points, points[0]], ink, width, dashed=True)

    def ellipse(self, x: float, y: float, rx: float, ry: float, fill: RGB | None,
                ink: RGB | None, width: float, dashed: bool = False) -> None:
        box = [self._px((x - rx, y - ry)), self._px((x + rx, y + ry))]
        self.draw.ellipse(box, fill=fill, outline=ink, width=self._w(width))

    def rect(self, x: float, y: float, w: float, h: float, fill: RGB | None,
             ink: RGB | None, width: float, radius: float = 0.0,
             dashed: bool = False) -> None:
        box = [self._px((x, y)), self._px((x + w, y + h))]
        outline = None if dashed else ink
        if radius > 0:
            self.draw.rounded_rectangle(box, radius=radius * self.scale, fill=fill,
                                        outline=outline, width=self._w(width))
        else:
            self.draw.rectangle(box, fill=fill, outline=outline, width=self._w(width))
        if dashed and ink is not None:
            self.line([(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)], ink, width,
                      dashed=True)

    def text(self, label: Label) -> None:
        """Centred text, shrunk if this font runs wider than the Helvetica box."""
        px = max(6, round(label.size * self.scale))
        font = _font(px)
        room = text_width(label.text, label.size, label.bold) * self.scale
        drawn = self.draw.textlength(label.text, font=font)
        if drawn > room * 1.02:
            font = _font(max(6, math.floor(px * room / drawn)))
        self.draw.text(self._px((label.x, label.y)), label.text, fill=label.colour,
                       font=font, anchor="mm",
                       stroke_width=1 if label.bold and px >= 14 else 0,
                       stroke_fill=label.colour)

    def begin_group(self, ident: str, attributes: Mapping[str, str]) -> None:
        """Pictures have no groups."""

    def end_group(self) -> None:
        """Pictures have no groups."""


def render_png(geometry: BoardGeometry, scale: float = PX_PER_MM) -> Any:
    """The board as a PIL image at `scale` pixels per mm."""
    canvas = PillowCanvas(geometry.width, geometry.height, scale)
    draw_board(geometry, canvas)
    return canvas.image
