"""The PDF backend (reportlab): vector pages in millimetres, and the board tiled on them.

reportlab is imported only here, and only `cbrig print` imports this module, so the
rig's start-up never pays for it. A `PdfCanvas` draws the same primitives as the PNG
and SVG backends onto one page, through an offset (the part of the board this page
shows) and a clip (so a tile shows only its own part).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

from rig.maker.boardart.geometry import RGB, Box, Label, Point
from rig.maker.boardart.metrics import text_width
from valueclass import Frozen

PT_PER_MM = 72 / 25.4

PAPERS: Mapping[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a3": (297.0, 420.0),
    "a2": (420.0, 594.0),
}
"""Portrait paper sizes in mm."""

MARGIN_MM = 8.0
"""Kept blank round every page: most printers cannot print closer to the edge."""


def _rgb(colour: RGB) -> tuple[float, float, float]:
    return (colour[0] / 255, colour[1] / 255, colour[2] / 255)


class ReportlabPath(Protocol):
    """The part of reportlab's path object this backend draws with (reportlab ships no
    type information: these say what we call, so the calls are checked)."""

    def moveTo(self, x: float, y: float) -> None: ...

    def lineTo(self, x: float, y: float) -> None: ...

    def rect(self, x: float, y: float, width: float, height: float) -> None: ...

    def close(self) -> None: ...


class ReportlabCanvas(Protocol):
    """The part of reportlab's ``Canvas`` this backend calls (see :class:`ReportlabPath`)."""

    def setTitle(self, title: str) -> None: ...

    def setCreator(self, creator: str) -> None: ...

    def setPageSize(self, size: tuple[float, float]) -> None: ...

    def showPage(self) -> None: ...

    def save(self) -> None: ...

    def saveState(self) -> None: ...

    def restoreState(self) -> None: ...

    def setFillColorRGB(self, r: float, g: float, b: float) -> None: ...

    def setStrokeColorRGB(self, r: float, g: float, b: float) -> None: ...

    def setLineWidth(self, width: float) -> None: ...

    def setLineJoin(self, mode: int) -> None: ...

    def setDash(self, array: list[float]) -> None: ...

    def setFont(self, name: str, size: float) -> None: ...

    def beginPath(self) -> ReportlabPath: ...

    def drawPath(self, path: ReportlabPath, stroke: int = 1,
                 fill: int = 0) -> None: ...

    def clipPath(self, path: ReportlabPath, stroke: int = 1,
                 fill: int = 0) -> None: ...

    def ellipse(self, x1: float, y1: float, x2: float, y2: float, stroke: int = 1,
                fill: int = 0) -> None: ...

    def rect(self, x: float, y: float, width: float, height: float, stroke: int = 1,
             fill: int = 0) -> None: ...

    def roundRect(self, x: float, y: float, width: float, height: float,
                  radius: float, stroke: int = 1, fill: int = 0) -> None: ...

    def drawCentredString(self, x: float, y: float, text: str) -> None: ...

    def translate(self, dx: float, dy: float) -> None: ...

    def rotate(self, theta: float) -> None: ...


class Page(Frozen):
    """One page: paper size in mm and where the drawing's origin sits on it."""

    width: float
    height: float
    origin: Point = (0.0, 0.0)
    """Page position (mm from the top-left corner) of drawing point (0, 0)."""
    clip: Box | None = None
    """Page area (mm, y down) the drawing is clipped to, or None."""
    scale: float = 1.0
    """Drawing mm per page mm (below 1 for an overview of the whole board)."""


class PdfCanvas:
    """Draws mm primitives (y down) onto the current reportlab page."""

    def __init__(self, pdf: ReportlabCanvas, page: Page) -> None:
        self.pdf = pdf
        self.page = page

    def _pt(self, p: Point) -> tuple[float, float]:
        x = (p[0] * self.page.scale + self.page.origin[0]) * PT_PER_MM
        y = (self.page.height - (p[1] * self.page.scale + self.page.origin[1])) * PT_PER_MM
        return (x, y)

    def _style(self, fill: RGB | None, ink: RGB | None, width: float, dashed: bool) -> None:
        if fill is not None:
            self.pdf.setFillColorRGB(*_rgb(fill))
        if ink is not None:
            self.pdf.setStrokeColorRGB(*_rgb(ink))
        self.pdf.setLineWidth(width * self.page.scale * PT_PER_MM)
        self.pdf.setDash([1.6 * PT_PER_MM, 1.0 * PT_PER_MM] if dashed else [])

    def _path(self, points: Sequence[Point], close: bool) -> ReportlabPath:
        path = self.pdf.beginPath()
        path.moveTo(*self._pt(points[0]))
        for p in points[1:]:
            path.lineTo(*self._pt(p))
        if close:
            path.close()
        return path

    def line(self, points: Sequence[Point], colour: RGB, width: float,
             dashed: bool = False) -> None:
        self._style(None, colour, width, dashed)
        self.pdf.setLineJoin(1)
        self.pdf.drawPath(self._path(points, close=False), stroke=1, fill=0)

    def polygon(self, points: Sequence[Point], fill: RGB | None, ink: RGB | None,
                width: float, dashed: bool = False) -> None:
        self._style(fill, ink, width, dashed)
        self.pdf.drawPath(self._path(points, close=True), stroke=int(ink is not None),
                          fill=int(fill is not None))

    def ellipse(self, x: float, y: float, rx: float, ry: float, fill: RGB | None,
                ink: RGB | None, width: float, dashed: bool = False) -> None:
        self._style(fill, ink, width, dashed)
        x1, y1 = self._pt((x - rx, y + ry))
        x2, y2 = self._pt((x + rx, y - ry))
        self.pdf.ellipse(x1, y1, x2, y2, stroke=int(ink is not None),
                         fill=int(fill is not None))

    def rect(self, x: float, y: float, w: float, h: float, fill: RGB | None,
             ink: RGB | None, width: float, radius: float = 0.0,
             dashed: bool = False) -> None:
        self._style(fill, ink, width, dashed)
        left, bottom = self._pt((x, y + h))
        k = self.page.scale * PT_PER_MM
        args = (left, bottom, w * k, h * k)
        paint = {"stroke": int(ink is not None), "fill": int(fill is not None)}
        if radius > 0:
            self.pdf.roundRect(*args, radius * k, **paint)
        else:
            self.pdf.rect(*args, **paint)

    def text(self, label: Label, upside_down: bool = False) -> None:
        """Centred text; `upside_down` turns it half round its centre (the back of a
        fold-over standee)."""
        self.pdf.setFillColorRGB(*_rgb(label.colour))
        self.pdf.setFont("Helvetica-Bold" if label.bold else "Helvetica",
                         label.size * self.page.scale * PT_PER_MM)
        if not upside_down:
            x, y = self._pt((label.x, label.y + label.size * 0.35))
            self.pdf.drawCentredString(x, y, label.text)
            return
        x, y = self._pt((label.x, label.y))
        self.pdf.saveState()
        self.pdf.translate(x, y)
        self.pdf.rotate(180)
        self.pdf.drawCentredString(0, -label.size * 0.35 * self.page.scale * PT_PER_MM,
                                   label.text)
        self.pdf.restoreState()

    def begin_group(self, ident: str, attributes: Mapping[str, str]) -> None:
        """PDF pages carry no location ids."""

    def end_group(self) -> None:
        """PDF pages carry no location ids."""


class PdfDocument:
    """A PDF file being written page by page; `page()` starts a new page."""

    def __init__(self, path: str, title: str) -> None:
        from reportlab.pdfgen.canvas import Canvas

        self.pdf: ReportlabCanvas = Canvas(path, pageCompression=1)
        self.pdf.setTitle(title)
        self.pdf.setCreator("cbrig print")
        self.pages = 0

    def page(self, page: Page) -> PdfCanvas:
        if self.pages:
            self.pdf.showPage()
        self.pages += 1
        self.pdf.setPageSize((page.width * PT_PER_MM, page.height * PT_PER_MM))
        canvas = PdfCanvas(self.pdf, page)
        if page.clip is not None:
            self.pdf.saveState()
            left, top, right, bottom = page.clip
            path = self.pdf.beginPath()
            path.rect(left * PT_PER_MM, (page.height - bottom) * PT_PER_MM,
                      (right - left) * PT_PER_MM, (bottom - top) * PT_PER_MM)
            self.pdf.clipPath(path, stroke=0, fill=0)
        return canvas

    def unclip(self, canvas: PdfCanvas) -> PdfCanvas:
        """Drop the page's clip (after the tile's drawing, before its marks)."""
        if canvas.page.clip is not None:
            self.pdf.restoreState()
        return PdfCanvas(self.pdf, Page(canvas.page.width, canvas.page.height))

    def save(self) -> None:
        self.pdf.showPage()
        self.pdf.save()


def orient(paper: tuple[float, float], landscape: bool) -> tuple[float, float]:
    w, h = paper
    return (max(w, h), min(w, h)) if landscape else (min(w, h), max(w, h))


def wrap(text: str, size: float, width: float, bold: bool = False) -> list[str]:
    """Break `text` into lines no wider than `width` at font size `size` (mm)."""

    lines: list[str] = []
    for paragraph in text.split("\n"):
        current = ""
        for word in paragraph.split():
            trial = f"{current} {word}".strip()
            if current and text_width(trial, size, bold) > width:
                lines.append(current)
                current = word
            else:
                current = trial
        lines.append(current)
    return lines


def spread(count: int, length: float, least: float) -> Iterable[float]:
    """`count` evenly spaced positions along `length`, at least `least` from the ends."""
    if count <= 0:
        return []
    if count == 1:
        return [length / 2]
    step = (length - 2 * least) / (count - 1)
    return [least + i * step for i in range(count)]


def ceil_div(a: float, b: float) -> int:
    return max(1, math.ceil(a / b - 1e-9))
