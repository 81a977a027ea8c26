"""The renderer's line masks, built from column bytes, equal glyph cells pasted side by
side (the way lines were built before, and what ``draw_text`` draws)."""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageChops

from hardware.display.base import WIDTH
from hardware.display.font import FONTS, Font, glyph_cell
from rig.screens.render import _line

PRINTABLE = "".join(chr(c) for c in range(32, 127))


def pasted_line(text: str, font: Font) -> Image.Image:
    """A line made of ``glyph_cell`` pastes, clipped to the screen width."""
    count = min(len(text), -(-WIDTH // font.cell_width))
    line = Image.new("1", (max(1, count * font.cell_width), font.cell_height), 0)
    for i, char in enumerate(text[:count]):
        line.paste(255, (i * font.cell_width, 0), mask=glyph_cell(char, font))
    return line


def texts() -> list[str]:
    rng = random.Random("render-lines")
    pool = PRINTABLE + "\u00e9\u2014\t"  # outside ASCII 32-126: drawn as "?"
    made = [PRINTABLE, "", " ", "?", "MOVE 9", "x" * 40]
    made += ["".join(rng.choice(pool) for _ in range(rng.randint(1, 30))) for _ in range(200)]
    return made


@pytest.mark.parametrize("font_name", sorted(FONTS))
def test_a_line_from_column_bytes_equals_its_glyph_cells_pasted(font_name: str) -> None:
    font = FONTS[font_name]
    for text in texts():
        made = _line(font_name, text)
        expected = pasted_line(text, font)
        assert made.mode == "1" and made.size == expected.size, text
        assert ImageChops.difference(made, expected).getbbox() is None, text


def test_a_line_lights_exactly_its_glyphs_pixels() -> None:
    made = _line("small", "!")  # "!" is one column, 0x5F: rows 0-4 and 6 lit
    lit = {(x, y) for x in range(made.width) for y in range(made.height) if made.getpixel((x, y))}
    assert lit == {(2, y) for y in (0, 1, 2, 3, 4, 6)}
