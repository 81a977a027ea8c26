"""Draw a Screen onto the 128x64 one-bit frame the OLED shows.

Layout, in 8-pixel rows: an inverted title bar; an optional big line (spin results,
"MOVE 9"); the body text; a menu window around the cursor; a footer. What goes on
which row is decided once, by `rig.screens.screen.fit`; this module only draws it. Alerts
invert the whole screen.
Lines of text are cached as masks and pasted: drawing a frame is a dozen pastes.
"""

from __future__ import annotations

from functools import cache, lru_cache

from PIL import Image

from hardware.display.base import HEIGHT, WIDTH, new_frame
from hardware.display.font import FONTS, LARGE, SMALL, Font, text_width
from rig.screens.screen import COLUMNS, Screen, fit, shown_rows

_INVERTED = list(range(255, -1, -1))
"""The lookup table of ``ImageOps.invert`` (without importing ImageOps and its palette
modules at start-up)."""
ROW = SMALL.cell_height
ROWS = HEIGHT // ROW


@cache
def _glyph_columns(font_name: str, char: str) -> bytes:
    """One character cell as column bytes, the layout of ``_line``'s raw data: for each
    pixel column of the cell ``scale`` bytes (least significant first), bit ``y`` lit
    when the cell's pixel at row ``y`` is; the spacing columns are zero."""
    font = FONTS[font_name]
    s = font.scale
    columns = bytearray()
    for bits in font.columns(char):
        scaled = 0
        for row in range(font.glyph_height):
            if bits >> row & 1:
                scaled |= ((1 << s) - 1) << (row * s)
        columns += scaled.to_bytes(s, "little") * s
    columns += bytes(s * font.spacing * s)
    return bytes(columns)


@lru_cache(maxsize=512)
def _line(font_name: str, text: str) -> Image.Image:
    """A whole line of glyphs as one mask, clipped to the screen width, so a frame is
    one paste per line (Pillow's Python-level ``paste`` costs ~5 us a call).

    Built without a paste per glyph: the cells' column bytes joined are the line turned
    on its side (one row of ``cell_height`` pixels per pixel column, least significant
    bit first: raw mode ``1;R``), and one transpose stands it up. Equal pixel for pixel
    to pasting ``glyph_cell`` side by side (``tests/rig/test_render_lines.py``); a miss
    of this cache (a line not drawn lately) was a fifth of a frame's render time."""
    font = FONTS[font_name]
    count = min(len(text), -(-WIDTH // font.cell_width))
    if count == 0:
        return Image.new("1", (1, font.cell_height), 0)
    data = b"".join([_glyph_columns(font_name, char) for char in text[:count]])
    side = Image.frombytes("1", (font.cell_height, count * font.cell_width), data,
                           "raw", "1;R")
    return side.transpose(Image.Transpose.TRANSPOSE)


def _text(frame: Image.Image, x: int, y: int, text: str, font: Font = SMALL,
          ink: int = 255) -> None:
    """Paste a line of text; ink 0 writes dark text onto a lit band."""
    if text and x < WIDTH:
        frame.paste(ink, (x, y), mask=_line(font.name, text))


def _centered(frame: Image.Image, y: int, text: str, font: Font) -> None:
    _text(frame, max(0, (WIDTH - text_width(text, font)) // 2), y, text, font)


def _big_font(text: str) -> Font:
    """Two rows high: room for an instruction and four more rows of text below it."""
    return LARGE


def layout(screen: Screen) -> list[tuple[str, bool]]:
    """The body rows below the title (and big line) on the current page:
    (text, highlighted). The fitting itself is `rig.screens.screen.fit`, shared by every display."""
    body, _ = fit(screen).page(screen.page)
    return [(row.text, row.highlighted) for row in body]


def render(screen: Screen) -> Image.Image:
    frame = new_frame()
    frame.paste(255, (0, 0, WIDTH, ROW - 1))
    fitted = fit(screen)
    body, footer = fitted.page(screen.page)
    title, _, status = fitted.title.partition(" [")
    _text(frame, 1, 0, title, ink=0)
    if status:
        status = "[" + status
        _text(frame, WIDTH - text_width(status) - 1, 0, status, ink=0)
    y = ROW
    if fitted.big:
        font = _big_font(fitted.big)
        _centered(frame, y + 1, fitted.big, font)
        y += font.cell_height
    for row in body:
        if row.highlighted:
            frame.paste(255, (0, y, WIDTH, y + ROW))
            _text(frame, 0, y, row.text, ink=0)
        else:
            _text(frame, 0, y, row.text)
        y += ROW
    if footer:
        _text(frame, 0, HEIGHT - ROW, footer)
    if screen.alert:
        frame = frame.convert("L").point(_INVERTED).convert("1")
    return frame


def rows(screen: Screen) -> list[str]:
    """The screen as the text rows the OLED shows (a transcript, not the pixels)."""
    return shown_rows(screen)


def boxed(screen: Screen) -> str:
    """A transcript picture of the screen; alerts get a heavy border."""
    lines = rows(screen)
    edge = "#" if screen.alert else "-"
    side = "#" if screen.alert else "|"
    width = max(COLUMNS, *(len(line) for line in lines))
    top = "+" + edge * (width + 2) + "+"
    return "\n".join([top, *(f"{side} {line:<{width}} {side}" for line in lines), top])


def render_terminal(screen: Screen) -> str:
    from hardware.display.desktop import render_halfblocks

    return render_halfblocks(render(screen), border=True)
