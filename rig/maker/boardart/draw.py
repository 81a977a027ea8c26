"""Draw a `BoardGeometry` through a tiny canvas protocol (PNG, SVG and PDF backends).

The drawing order is fixed here, once: lines (roads, links) under spaces, spaces with
their labels, free captions, then the legend. A backend only knows how to put a
primitive on its surface, in millimetres, y down.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from rig.maker.boardart.geometry import (
    LEGEND_SWATCH,
    RGB,
    BoardGeometry,
    Label,
    Point,
    legend_labels,
    legend_swatch,
)


class Canvas(Protocol):
    """What a backend draws: shapes and centred one-line text, in mm, y down."""

    def line(self, points: Sequence[Point], colour: RGB, width: float,
             dashed: bool = False) -> None: ...

    def polygon(self, points: Sequence[Point], fill: RGB | None, ink: RGB | None,
                width: float, dashed: bool = False) -> None: ...

    def ellipse(self, x: float, y: float, rx: float, ry: float, fill: RGB | None,
                ink: RGB | None, width: float, dashed: bool = False) -> None: ...

    def rect(self, x: float, y: float, w: float, h: float, fill: RGB | None,
             ink: RGB | None, width: float, radius: float = 0.0,
             dashed: bool = False) -> None: ...

    def text(self, label: Label) -> None: ...

    def begin_group(self, ident: str, attributes: Mapping[str, str]) -> None:
        """Start the drawing of one location (SVG gives it an id and data attributes)."""

    def end_group(self) -> None: ...


def shape_points(form: str, x: float, y: float, w: float, h: float) -> list[Point]:
    """The corners of a diamond or triangle (pointing up) of w x h centred on (x, y)."""
    if form == "diamond":
        return [(x, y - h / 2), (x + w / 2, y), (x, y + h / 2), (x - w / 2, y)]
    if form == "triangle":
        return [(x, y - h / 2), (x + w / 2, y + h / 2), (x - w / 2, y + h / 2)]
    raise ValueError(f"no polygon for form {form!r}")


def draw_shape(canvas: Canvas, form: str, x: float, y: float, w: float, h: float,
               fill: RGB | None, ink: RGB | None, stroke: float, dashed: bool = False) -> None:
    if form in ("rect", "round"):
        canvas.rect(x - w / 2, y - h / 2, w, h, fill, ink, stroke,
                    radius=min(w, h) * 0.25 if form == "round" else 0.0, dashed=dashed)
    elif form == "circle":
        canvas.ellipse(x, y, w / 2, h / 2, fill, ink, stroke, dashed=dashed)
    else:
        canvas.polygon(shape_points(form, x, y, w, h), fill, ink, stroke, dashed=dashed)


def draw_board(geometry: BoardGeometry, canvas: Canvas) -> None:
    """Draw the whole board onto `canvas` (which spans geometry.width x geometry.height)."""
    for line in geometry.lines:
        if not line.over:
            canvas.line(line.points, line.colour, line.width, line.dashed)
    for space in geometry.spaces:
        canvas.begin_group(space.id, {"kind": space.kind, "colour": space.colour,
                                      "x": f"{space.x:.2f}", "y": f"{space.y:.2f}"})
        draw_shape(canvas, space.form, space.x, space.y, space.w, space.h, space.fill,
                   space.ink, space.stroke, space.dashed)
        for label in space.labels:
            canvas.text(label)
        canvas.end_group()
    for line in geometry.lines:
        if line.over:  # a ladder or a chute: above the spaces it joins
            canvas.line(line.points, line.colour, line.width, line.dashed)
    for label in geometry.labels:
        canvas.text(label)
    if geometry.legend:
        canvas.begin_group("legend", {"kind": "legend"})
        for row, entry in enumerate(geometry.legend):
            x, y = legend_swatch(geometry, row)
            size = LEGEND_SWATCH
            draw_shape(canvas, entry.form, x, y, size, size * (0.8 if entry.form == "rect"
                                                               else 1.0),
                       entry.fill, entry.ink, entry.stroke, entry.dashed)
        for label in legend_labels(geometry):
            canvas.text(label)
        canvas.end_group()

