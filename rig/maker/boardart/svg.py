"""The SVG backend: the board as the browser's live board.

The SVG's user unit is the millimetre (viewBox = the board in mm), so a piece marker
goes where `piece_position` says with no conversion. Every location is a `<g>` with
id "loc-<location id>" and data-location / data-kind / data-colour / data-x / data-y
attributes, so a page can find, highlight or hit-test a space by the rig's own id.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from xml.sax.saxutils import escape, quoteattr

from rig.maker.boardart.draw import draw_board
from rig.maker.boardart.geometry import RGB, BoardGeometry, Label, Point

FONT_FAMILY = "Helvetica, Arial, 'Liberation Sans', sans-serif"
"""Helvetica's metrics size every label; Arial and Liberation Sans share them."""


def _colour(rgb: RGB | None) -> str:
    return "none" if rgb is None else "#{:02x}{:02x}{:02x}".format(*rgb)


def _num(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _paint(fill: RGB | None, ink: RGB | None, width: float, dashed: bool) -> str:
    dash = ' stroke-dasharray="1.6 1"' if dashed else ""
    return (f'fill="{_colour(fill)}" stroke="{_colour(ink)}" '
            f'stroke-width="{_num(width)}"{dash}')


class SvgCanvas:
    """Collects SVG elements; `document()` wraps them in an <svg> sized in mm."""

    def __init__(self, width_mm: float, height_mm: float) -> None:
        self.width = width_mm
        self.height = height_mm
        self.parts: list[str] = []

    def line(self, points: Sequence[Point], colour: RGB, width: float,
             dashed: bool = False) -> None:
        coords = " ".join(f"{_num(x)},{_num(y)}" for x, y in points)
        self.parts.append(f'<polyline points="{coords}" {_paint(None, colour, width, dashed)}'
                          ' stroke-linejoin="round"/>')

    def polygon(self, points: Sequence[Point], fill: RGB | None, ink: RGB | None,
                width: float, dashed: bool = False) -> None:
        coords = " ".join(f"{_num(x)},{_num(y)}" for x, y in points)
        self.parts.append(f'<polygon points="{coords}" {_paint(fill, ink, width, dashed)}/>')

    def ellipse(self, x: float, y: float, rx: float, ry: float, fill: RGB | None,
                ink: RGB | None, width: float, dashed: bool = False) -> None:
        self.parts.append(f'<ellipse cx="{_num(x)}" cy="{_num(y)}" rx="{_num(rx)}" '
                          f'ry="{_num(ry)}" {_paint(fill, ink, width, dashed)}/>')

    def rect(self, x: float, y: float, w: float, h: float, fill: RGB | None,
             ink: RGB | None, width: float, radius: float = 0.0,
             dashed: bool = False) -> None:
        corner = f' rx="{_num(radius)}"' if radius else ""
        self.parts.append(f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" '
                          f'height="{_num(h)}"{corner} {_paint(fill, ink, width, dashed)}/>')

    def text(self, label: Label) -> None:
        weight = ' font-weight="bold"' if label.bold else ""
        self.parts.append(
            f'<text x="{_num(label.x)}" y="{_num(label.y + label.size * 0.35)}" '
            f'font-size="{_num(label.size)}"{weight} text-anchor="middle" '
            f'fill="{_colour(label.colour)}" textLength="{_num(label.width)}" '
            f'lengthAdjust="spacingAndGlyphs">{escape(label.text)}</text>')

    def begin_group(self, ident: str, attributes: Mapping[str, str]) -> None:
        data = "".join(f" data-{key}={quoteattr(value)}" for key, value in attributes.items())
        self.parts.append(f"<g id={quoteattr('loc-' + ident)} data-location={quoteattr(ident)}"
                          f"{data}>")

    def end_group(self) -> None:
        self.parts.append("</g>")

    def document(self) -> str:
        w, h = _num(self.width), _num(self.height)
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" '
                f'viewBox="0 0 {w} {h}" font-family="{FONT_FAMILY}">\n'
                f'<rect width="{w}" height="{h}" fill="#ffffff"/>\n'
                + "\n".join(self.parts) + "\n</svg>\n")


def board_svg(geometry: BoardGeometry) -> str:
    """The whole board as an SVG document whose user unit is the millimetre."""
    canvas = SvgCanvas(geometry.width, geometry.height)
    draw_board(geometry, canvas)
    return canvas.document()
