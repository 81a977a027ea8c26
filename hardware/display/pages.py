"""The OLED's memory as the controllers see it, and what to send to change it.

SSD1306 and SH1106 panels keep the picture in 8 *pages* of 8 pixel rows; one byte is a
column of 8 pixels of a page (bit 0 the top row). A frame is therefore 8 x 128 bytes,
and a change to a few pixels only needs the bytes of the pages and columns it touches,
with the address commands that point the controller at them:

* SSD1306 (luma sets horizontal addressing): ``0x21 first last`` (column range),
  ``0x22 first last`` (page range); the data then fills that window row by row, so one
  command and one data transfer cover a rectangle of several pages.
* SH1106 (page addressing only, 132 columns of which the panel shows 2-129): per page
  ``0xB0 + page``, ``0x00 | low nibble``, ``0x10 | high nibble`` of the column (plus 2);
  the data runs along that page only.

:func:`plan` picks the windows that send the fewest bus bits, counting what an I2C
transfer costs (:func:`transfer_bits`). Nothing here does I/O; :mod:`hardware.display.oled`
sends the windows through luma's serial interface.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from PIL import Image

from hardware.display.base import HEIGHT, WIDTH

PAGES = HEIGHT // 8
FRAME_BYTES = PAGES * WIDTH

Pages = tuple[bytes, ...]
"""A frame as the controller stores it: PAGES rows of WIDTH column bytes."""

_NONZERO = re.compile(rb"[^\x00]+")


def transfer_bits(payload: int) -> int:
    """I2C bits of one write transfer of ``payload`` bytes after the address byte (the
    control byte counts as payload): start + 9 bits a byte (8 + acknowledge) + stop."""
    return 2 + 9 * (1 + payload)


def frame_pages(image: Image.Image) -> Pages:
    """A mode "1" 128x64 image as page bytes, exactly as luma packs it (bit 0 = top row
    of the page). Rotating a quarter turn clockwise makes every column a row of 64 pixels
    that ``tobytes`` packs most significant bit first, i.e. bottom page first and each
    page's top row in bit 0; taking every 8th byte then gives one page."""
    packed = image.transpose(Image.Transpose.ROTATE_270).tobytes()
    return tuple(packed[PAGES - 1 - page::PAGES] for page in range(PAGES))


def pages_image(pages: Pages) -> Image.Image:
    """The inverse of :func:`frame_pages` (tests and the fake bus's panel)."""
    packed = bytearray(FRAME_BYTES)
    for page, row in enumerate(pages):
        packed[PAGES - 1 - page::PAGES] = row
    rotated = Image.frombytes("1", (HEIGHT, WIDTH), bytes(packed))
    return rotated.transpose(Image.Transpose.ROTATE_90)


def changed_runs(old: bytes, new: bytes) -> list[tuple[int, int]]:
    """Inclusive column ranges where two pages differ (found in C: XOR, then a regex
    over the non-zero bytes)."""
    if old == new:
        return []
    diff = (int.from_bytes(old, "big") ^ int.from_bytes(new, "big")).to_bytes(len(new), "big")
    return [(m.start(), m.end() - 1) for m in _NONZERO.finditer(diff)]


@dataclass(frozen=True, slots=True)
class Window:
    """Pages ``first_page..last_page`` x columns ``first_column..last_column``
    (inclusive, panel coordinates)."""

    first_page: int
    last_page: int
    first_column: int
    last_column: int

    @property
    def columns(self) -> int:
        return self.last_column - self.first_column + 1

    @property
    def size(self) -> int:
        return (self.last_page - self.first_page + 1) * self.columns

    def data(self, pages: Pages) -> bytes:
        """The window's bytes in the order the controller stores them (page by page)."""
        return b"".join(pages[p][self.first_column:self.last_column + 1]
                        for p in range(self.first_page, self.last_page + 1))


FULL_WINDOW = Window(0, PAGES - 1, 0, WIDTH - 1)


class Addressing:
    """How one controller is told where the next data bytes go."""

    name = ""
    multi_page = False
    """Whether one window may span several pages (the address pointer moves on to the
    next page at the end of a row)."""
    command_bytes = 0
    """Length of the address commands before each window."""

    def commands(self, window: Window) -> tuple[int, ...]:
        raise NotImplementedError

    @property
    def overhead_bits(self) -> int:
        """What a window costs beyond its data bytes: its command transfer and the
        framing of its data transfer (address and control byte, start, stop)."""
        return transfer_bits(1 + self.command_bytes) + transfer_bits(1)

    def window_bits(self, window: Window) -> int:
        """Bus bits to send ``window``: its command transfer plus its data transfer."""
        return self.overhead_bits + 9 * window.size

    def full(self) -> list[Window]:
        """The whole frame, as luma's own ``display`` sends it."""
        if self.multi_page:
            return [FULL_WINDOW]
        return [Window(p, p, 0, WIDTH - 1) for p in range(PAGES)]


class Ssd1306Addressing(Addressing):
    name = "ssd1306"
    multi_page = True
    command_bytes = 6

    def commands(self, window: Window) -> tuple[int, ...]:
        return (0x21, window.first_column, window.last_column,
                0x22, window.first_page, window.last_page)


class Sh1106Addressing(Addressing):
    name = "sh1106"
    command_bytes = 3
    COLUMN_OFFSET = 2
    """The 128 visible columns are RAM columns 2..129 of 132 (as luma addresses them)."""

    def commands(self, window: Window) -> tuple[int, ...]:
        assert window.first_page == window.last_page, "SH1106 windows are one page high"
        column = window.first_column + self.COLUMN_OFFSET
        return (0xB0 | window.first_page, column & 0x0F, 0x10 | (column >> 4))


ADDRESSING: dict[str, Addressing] = {a.name: a for a in (Ssd1306Addressing(),
                                                         Sh1106Addressing())}


def _page_windows(page: int, runs: list[tuple[int, int]], gap_limit: int) -> list[Window]:
    """One page's changed runs as windows, joining runs whose gap (``gap_limit`` bytes
    or fewer) costs fewer bits to resend than another window would."""
    merged: list[list[int]] = []
    for first, last in runs:
        if merged and first - merged[-1][1] - 1 <= gap_limit:
            merged[-1][1] = last
        else:
            merged.append([first, last])
    return [Window(page, page, first, last) for first, last in merged]


def plan(old: Pages | None, new: Pages, addressing: Addressing) -> list[Window]:
    """The windows to send so the panel holding ``old`` shows ``new`` (all of it when
    ``old`` is None: nothing is known about the panel). For multi-page controllers a
    small dynamic programme over the changed pages chooses between one window per page
    (or per run) and one rectangle over several pages (the pages in between resent as
    they are), whichever costs fewer bus bits."""
    if old is None:
        return addressing.full()
    overhead = addressing.overhead_bits
    gap_limit = overhead // 9
    dirty: list[tuple[int, list[Window]]] = []
    for page in range(PAGES):
        if old[page] != new[page]:
            runs = changed_runs(old[page], new[page])
            dirty.append((page, _page_windows(page, runs, gap_limit)))
    if not addressing.multi_page or len(dirty) < 2:
        return [w for _, windows in dirty for w in windows]
    # best[j] = (bits, windows) covering the changes of the first j dirty pages
    best: list[tuple[int, list[Window]]] = [(0, [])]
    for j, (last_page, windows) in enumerate(dirty):
        bits, chosen = best[j]
        candidate = (bits + sum(overhead + 9 * w.size for w in windows), chosen + windows)
        first_column, last_column = windows[0].first_column, windows[-1].last_column
        for i in range(j - 1, -1, -1):
            first_page, earlier = dirty[i]
            first_column = min(first_column, earlier[0].first_column)
            last_column = max(last_column, earlier[-1].last_column)
            size = (last_page - first_page + 1) * (last_column - first_column + 1)
            bits = best[i][0] + overhead + 9 * size
            if bits < candidate[0]:
                window = Window(first_page, last_page, first_column, last_column)
                candidate = (bits, [*best[i][1], window])
        best.append(candidate)
    return best[-1][1]


def plan_bits(windows: list[Window], addressing: Addressing) -> int:
    """Bus bits of a plan (for the bench and tests)."""
    return sum(addressing.window_bits(w) for w in windows)


__all__ = [
    "ADDRESSING",
    "FRAME_BYTES",
    "FULL_WINDOW",
    "PAGES",
    "Addressing",
    "Pages",
    "Sh1106Addressing",
    "Ssd1306Addressing",
    "Window",
    "changed_runs",
    "frame_pages",
    "pages_image",
    "plan",
    "plan_bits",
    "transfer_bits",
]
