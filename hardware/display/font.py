"""Bundled pixel fonts for a mode "1" (1-bit) display: no antialiasing, no font files.

Glyphs are 5x7 column bitmaps kept here as data: one hex byte per column, bit 0 is the
top row. ``SMALL`` draws them in a 6x8 cell (21 characters x 8 lines on 128x64);
``LARGE`` and ``HUGE`` scale them 2x (12x16 cell, 10 x 4) and 3x (18x24 cell, 7 x 2) for
big numbers and alerts. Characters outside ASCII 32-126 draw as ``?``, but for the
menu's scroll markers (small triangles).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PIL import Image

from valueclass import Frozen

if TYPE_CHECKING:
    from PIL import ImageDraw

# ASCII 32..126, five columns each, LSB = top row.
_GLYPHS_5X7 = """
00 00 00 00 00
00 00 5F 00 00
00 07 00 07 00
14 7F 14 7F 14
24 2A 7F 2A 12
23 13 08 64 62
36 49 55 22 50
00 05 03 00 00
00 1C 22 41 00
00 41 22 1C 00
14 08 3E 08 14
08 08 3E 08 08
00 50 30 00 00
08 08 08 08 08
00 60 60 00 00
20 10 08 04 02
3E 51 49 45 3E
00 42 7F 40 00
42 61 51 49 46
21 41 45 4B 31
18 14 12 7F 10
27 45 45 45 39
3C 4A 49 49 30
01 71 09 05 03
36 49 49 49 36
06 49 49 29 1E
00 36 36 00 00
00 56 36 00 00
08 14 22 41 00
14 14 14 14 14
00 41 22 14 08
02 01 51 09 06
32 49 79 41 3E
7E 11 11 11 7E
7F 49 49 49 36
3E 41 41 41 22
7F 41 41 22 1C
7F 49 49 49 41
7F 09 09 09 01
3E 41 49 49 7A
7F 08 08 08 7F
00 41 7F 41 00
20 40 41 3F 01
7F 08 14 22 41
7F 40 40 40 40
7F 02 0C 02 7F
7F 04 08 10 7F
3E 41 41 41 3E
7F 09 09 09 06
3E 41 51 21 5E
7F 09 19 29 46
46 49 49 49 31
01 01 7F 01 01
3F 40 40 40 3F
1F 20 40 20 1F
3F 40 38 40 3F
63 14 08 14 63
07 08 70 08 07
61 51 49 45 43
00 7F 41 41 00
02 04 08 10 20
00 41 41 7F 00
04 02 01 02 04
40 40 40 40 40
00 01 02 04 00
20 54 54 54 78
7F 48 44 44 38
38 44 44 44 20
38 44 44 48 7F
38 54 54 54 18
08 7E 09 01 02
0C 52 52 52 3E
7F 08 04 04 78
00 44 7D 40 00
20 40 44 3D 00
7F 10 28 44 00
00 41 7F 40 00
7C 04 18 04 78
7C 08 04 04 78
38 44 44 44 38
7C 14 14 14 08
08 14 14 18 7C
7C 08 04 04 08
48 54 54 54 20
04 3F 44 40 20
3C 40 40 20 7C
1C 20 40 20 1C
3C 40 30 40 3C
44 28 10 28 44
0C 50 50 50 3C
44 64 54 4C 44
00 08 36 41 00
00 00 7F 00 00
00 41 36 08 00
08 04 08 10 08
"""

FIRST_CHAR = 32
LAST_CHAR = 126


def _parse(table: str) -> dict[str, tuple[int, ...]]:
    rows = [line.split() for line in table.strip().splitlines()]
    if len(rows) != LAST_CHAR - FIRST_CHAR + 1:
        raise AssertionError(f"font table has {len(rows)} glyphs")
    return {chr(FIRST_CHAR + i): tuple(int(x, 16) for x in row) for i, row in enumerate(rows)}


GLYPHS_5X7: dict[str, tuple[int, ...]] = _parse(_GLYPHS_5X7)
MARKER_GLYPHS: dict[str, tuple[int, ...]] = {
    "\u25b2": (0x10, 0x18, 0x1C, 0x18, 0x10),  # up triangle: a menu has more above
    "\u25bc": (0x04, 0x0C, 0x1C, 0x0C, 0x04),  # down triangle: more below
    "\u25c6": (0x08, 0x1C, 0x3E, 0x1C, 0x08),  # diamond: more above and below
}
"""Beyond ASCII: the menu's scroll markers (rig.screens.screen.MARKERS), drawn by every font."""


class Font(Frozen):
    """A column-bitmap font drawn at an integer ``scale``. A character cell is
    ``(glyph_width + spacing) * scale`` wide and ``line_height * scale`` tall."""

    name: str
    glyphs: dict[str, tuple[int, ...]]
    glyph_width: int = 5
    glyph_height: int = 7
    spacing: int = 1
    line_height: int = 8
    scale: int = 1

    @property
    def cell_width(self) -> int:
        return (self.glyph_width + self.spacing) * self.scale

    @property
    def cell_height(self) -> int:
        return self.line_height * self.scale

    def columns(self, char: str) -> tuple[int, ...]:
        return self.glyphs.get(char) or self.glyphs["?"]

    def chars_per_line(self, width: int = 128) -> int:
        # the trailing spacing column of the last character may fall off the edge
        return (width + self.spacing * self.scale) // self.cell_width

    def lines(self, height: int = 64) -> int:
        return height // self.cell_height


_DRAWN = {**GLYPHS_5X7, **MARKER_GLYPHS}
SMALL = Font("small", _DRAWN)
LARGE = Font("large", _DRAWN, scale=2)
HUGE = Font("huge", _DRAWN, scale=3)
FONTS = {f.name: f for f in (SMALL, LARGE, HUGE)}


def text_width(text: str, font: Font = SMALL) -> int:
    """Pixel width of ``text`` on one line (no trailing spacing column)."""
    if not text:
        return 0
    return len(text) * font.cell_width - font.spacing * font.scale


def text_height(text: str, font: Font = SMALL) -> int:
    """Pixel height of ``text`` (lines separated by "\\n")."""
    return (text.count("\n") + 1) * font.cell_height


def draw_text(
    target: Image.Image | ImageDraw.ImageDraw,
    xy: tuple[int, int],
    text: str,
    font: Font = SMALL,
    fill: Any = 255,
) -> int:
    """Draw ``text`` with its top-left corner at ``xy`` ("\\n" starts a new line).
    ``target`` is a PIL image or an ``ImageDraw``. Returns the x after the text."""
    from PIL import ImageDraw  # ImageDraw pulls in ImageFont: not needed by the rig's render

    draw = target if isinstance(target, ImageDraw.ImageDraw) else ImageDraw.Draw(target)
    x0, y = xy
    x = x0
    s = font.scale
    for char in text:
        if char == "\n":
            x = x0
            y += font.cell_height
            continue
        for col, bits in enumerate(font.columns(char)):
            if not bits:
                continue
            for row in range(font.glyph_height):
                if bits >> row & 1:
                    px, py = x + col * s, y + row * s
                    if s == 1:
                        draw.point((px, py), fill=fill)
                    else:
                        draw.rectangle((px, py, px + s - 1, py + s - 1), fill=fill)
        x += font.cell_width
    return x


def glyph_cell(char: str, font: Font = SMALL) -> Image.Image:
    """One character cell as a mode "1" image (what :func:`draw_text` draws into a
    blank cell), packed straight from the glyph's columns: rows most significant bit
    first, each padded to a byte, as mode "1" raw data is."""
    width, height, s = font.cell_width, font.cell_height, font.scale
    stride = (width + 7) // 8
    packed = bytearray(stride * height)
    for col, bits in enumerate(font.columns(char)):
        for row in range(font.glyph_height):
            if bits >> row & 1:
                for y in range(row * s, row * s + s):
                    for x in range(col * s, col * s + s):
                        packed[y * stride + x // 8] |= 0x80 >> (x % 8)
    return Image.frombytes("1", (width, height), bytes(packed))


def draw_centered(
    target: Image.Image | ImageDraw.ImageDraw,
    y: int,
    text: str,
    font: Font = SMALL,
    width: int = 128,
    fill: Any = 255,
) -> None:
    """Draw one line of ``text`` centred horizontally."""
    draw_text(target, ((width - text_width(text, font)) // 2, y), text, font, fill)


__all__ = [
    "FONTS",
    "GLYPHS_5X7",
    "HUGE",
    "LARGE",
    "MARKER_GLYPHS",
    "SMALL",
    "Font",
    "draw_centered",
    "draw_text",
    "glyph_cell",
    "text_height",
    "text_width",
]
