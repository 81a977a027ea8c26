"""Draw a Screen onto the 128x64 one-bit frame the OLED shows.

Layout, in 8-pixel rows: an inverted title bar; an optional big line (spin results,
"MOVE 9"); the body text; a menu window around the cursor (the selected item gets two
rows so a whole move description shows); a footer. Alerts invert the whole screen.
Glyphs are cached as bitmaps and pasted: drawing a frame is a few hundred pastes.
"""

from __future__ import annotations

from functools import cache, lru_cache

from PIL import Image, ImageOps

from hardware.display.base import HEIGHT, WIDTH, new_frame
from hardware.display.font import HUGE, LARGE, SMALL, Font, draw_text, text_width
from rig.screen import COLUMNS, Screen, wrap

ROW = SMALL.cell_height
ROWS = HEIGHT // ROW


@cache
def _glyph(font_name: str, char: str) -> Image.Image:
    font = {"small": SMALL, "large": LARGE, "huge": HUGE}[font_name]
    cell = Image.new("1", (font.cell_width, font.cell_height), 0)
    draw_text(cell, (0, 0), char, font, fill=255)
    return cell


@lru_cache(maxsize=512)
def _line(font_name: str, text: str) -> Image.Image:
    """A whole line of glyphs as one mask, clipped to the screen width. Pillow's
    Python-level ``paste`` costs ~5 us a call whatever the size, so one paste per line
    instead of one per glyph makes a frame several times cheaper."""
    font = {"small": SMALL, "large": LARGE, "huge": HUGE}[font_name]
    count = min(len(text), -(-WIDTH // font.cell_width))
    line = Image.new("1", (max(1, count * font.cell_width), font.cell_height), 0)
    for i, char in enumerate(text[:count]):
        line.paste(255, (i * font.cell_width, 0), mask=_glyph(font_name, char))
    return line


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
    """The body rows below the title (and big line): (text, highlighted)."""
    rows_free = ROWS - 1 - (1 if screen.footer else 0)
    if screen.big:
        rows_free -= _big_font(screen.big).cell_height // ROW
    text_rows = [(line, False) for raw in screen.lines for line in wrap(raw)]
    if not screen.menu:
        return text_rows[-rows_free:] if rows_free > 0 else []
    menu_rows = _menu_rows(screen, max(2, rows_free - min(len(text_rows), 3)))
    keep = max(0, rows_free - len(menu_rows))
    return (text_rows[-keep:] if keep else []) + menu_rows


def _menu_rows(screen: Screen, budget: int) -> list[tuple[str, bool]]:
    chosen = wrap(screen.menu[screen.cursor], COLUMNS - 2)[:2]
    rows = [("> " + chosen[0], True)] + [("  " + more, True) for more in chosen[1:]]
    before, after = screen.cursor - 1, screen.cursor + 1
    top: list[tuple[str, bool]] = []
    bottom: list[tuple[str, bool]] = []
    while len(rows) + len(top) + len(bottom) < budget and (before >= 0 or after < len(screen.menu)):
        if after < len(screen.menu):
            bottom.append(("  " + screen.menu[after][: COLUMNS - 2], False))
            after += 1
        if before >= 0 and len(rows) + len(top) + len(bottom) < budget:
            top.insert(0, ("  " + screen.menu[before][: COLUMNS - 2], False))
            before -= 1
    return top + rows + bottom


def render(screen: Screen) -> Image.Image:
    frame = new_frame()
    frame.paste(255, (0, 0, WIDTH, ROW - 1))
    title = screen.title[:COLUMNS]
    status = f"[{screen.status}]" if screen.status else ""
    _text(frame, 1, 0, title, ink=0)
    if status:
        _text(frame, WIDTH - text_width(status) - 1, 0, status, ink=0)
    y = ROW
    if screen.big:
        font = _big_font(screen.big)
        _centered(frame, y + 1, screen.big, font)
        y += font.cell_height
    for text, highlighted in layout(screen):
        if highlighted and screen.menu:
            frame.paste(255, (0, y, WIDTH, y + ROW))
            _text(frame, 0, y, text, ink=0)
        else:
            _text(frame, 0, y, text)
        y += ROW
    if screen.footer:
        _text(frame, 0, HEIGHT - ROW, screen.footer[:COLUMNS])
    if screen.alert:
        frame = ImageOps.invert(frame.convert("L")).convert("1")
    return frame


def rows(screen: Screen) -> list[str]:
    """The screen as the text rows the OLED shows (a transcript, not the pixels)."""
    out = [screen.title[:COLUMNS] + (f" [{screen.status}]" if screen.status else "")]
    if screen.big:
        out.append(f"<< {screen.big} >>")
    out.extend(text for text, _ in layout(screen))
    if screen.footer:
        out.append(screen.footer[:COLUMNS])
    return out


def boxed(screen: Screen) -> str:
    """A transcript picture of the screen; alerts get a heavy border."""
    lines = rows(screen)
    edge = "#" if screen.alert else "-"
    side = "#" if screen.alert else "|"
    width = max(COLUMNS, *(len(line) for line in lines))
    top = "+" + edge * (width + 2) + "+"
    return "\n".join([top, *(f"{side} {line:<{width}} {side}" for line in lines), top])


def render_terminal(screen: Screen) -> str:
    from hardware.display.terminal import render_halfblocks

    return render_halfblocks(render(screen), border=True)
