"""Text widths of the PDF standard fonts Helvetica and Helvetica-Bold (ASCII 32-126).

The board geometry sizes every label box before any backend draws it, so that boxes can
be fitted, tested for clipping and laid out once for PNG, SVG and PDF alike. The widths
are the fonts' published AFM metrics, in 1/1000 of the font size; characters outside
ASCII count as a wide letter so a box is never too small.
"""

from __future__ import annotations

_FIRST = 32
_WIDE = 1000

_REGULAR: tuple[int, ...] = (
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
)

_BOLD: tuple[int, ...] = (
    278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611,
    975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778,
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556,
    333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611,
    611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584,
)


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Width of `text` set at font size `size` (any unit; the result is in that unit)."""
    table = _BOLD if bold else _REGULAR
    total = 0
    for char in text:
        code = ord(char) - _FIRST
        total += table[code] if 0 <= code < len(table) else _WIDE
    return total * size / 1000.0
