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

from PIL import Image

from hardware.display.base import HEIGHT, WIDTH
from valueclass import Frozen, set_field

PAGES = HEIGHT // 8
FRAME_BYTES = PAGES * WIDTH

Pages = tuple[bytes, ...]
"""A frame as the controller stores it: PAGES rows of WIDTH column bytes."""

ALWAYS_JOINED_GAP = 7
"""Unchanged bytes between two changed runs of a page that every planner resends rather
than starting a new window: a window costs at least the SH1106's 67 bits beyond its
data (luma's three address bytes in a command transfer, and the data transfer's
framing), worth 7 bytes. Joined by the regex, in C: fewer runs for the planners to walk
(the tests check the bound against each controller's window overhead)."""

_RUNS = re.compile(rb"[^\x00](?:\x00{0,%d}[^\x00])*" % ALWAYS_JOINED_GAP)


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
    """Inclusive column ranges where two pages differ, gaps of up to
    :data:`ALWAYS_JOINED_GAP` unchanged bytes joined (found in C: XOR, then a regex over
    the non-zero bytes)."""
    if old == new:
        return []
    diff = (int.from_bytes(old, "big") ^ int.from_bytes(new, "big")).to_bytes(len(new), "big")
    return [(m.start(), m.end() - 1) for m in _RUNS.finditer(diff)]


class Window(Frozen):
    """Pages ``first_page..last_page`` x columns ``first_column..last_column``
    (inclusive, panel coordinates). (This and the plan's other values are
    :class:`valueclass.Frozen`, with their own ``__init__``: the OLED driver is
    imported before READY on a rig, and plans are made at every frame.)"""

    __slots__ = ("first_column", "first_page", "last_column", "last_page")
    first_page: int
    last_page: int
    first_column: int
    last_column: int

    def __init__(self, first_page: int, last_page: int, first_column: int,
                 last_column: int) -> None:
        set_field(self, "first_page", first_page)
        set_field(self, "last_page", last_page)
        set_field(self, "first_column", first_column)
        set_field(self, "last_column", last_column)

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


class Pointer(Frozen):
    """What the controller's address registers hold between frames, as far as we know
    (None: unknown). ``mode`` is the SSD1306 memory addressing mode (0 horizontal,
    2 page; the SH1106 only has page addressing). In horizontal mode ``columns`` and
    ``pages`` are the window last set (0x21 / 0x22), with the write pointer back at its
    first byte (a window sent in full wraps round to its start). In page mode ``page``
    is the page, ``register`` the column last commanded and ``column`` the write
    pointer (RAM columns, the SH1106 offset included)."""

    __slots__ = ("column", "columns", "mode", "page", "pages", "register")
    mode: int | None
    columns: tuple[int, int] | None
    pages: tuple[int, int] | None
    page: int | None
    register: int | None
    column: int | None

    def __init__(self, mode: int | None = None, columns: tuple[int, int] | None = None,
                 pages: tuple[int, int] | None = None, page: int | None = None,
                 register: int | None = None, column: int | None = None) -> None:
        set_field(self, "mode", mode)
        set_field(self, "columns", columns)
        set_field(self, "pages", pages)
        set_field(self, "page", page)
        set_field(self, "register", register)
        set_field(self, "column", column)


UNKNOWN = Pointer()


class Step(Frozen):
    """Address commands (possibly none: the pointer is already there), then the bytes of
    ``window``."""

    __slots__ = ("commands", "window")
    commands: tuple[int, ...]
    window: Window

    def __init__(self, commands: tuple[int, ...], window: Window) -> None:
        set_field(self, "commands", commands)
        set_field(self, "window", window)


def step_bits(step: Step) -> int:
    """Bus bits of one step: its command transfer (if any) plus its data transfer."""
    commands = transfer_bits(1 + len(step.commands)) if step.commands else 0
    return commands + transfer_bits(1 + step.window.size)


DATA_FRAMING_BITS = transfer_bits(1)
"""A data transfer's cost beyond its bytes: start, address, control byte, stop."""



def column_commands(target: int, register: int | None, column: int | None
                    ) -> tuple[int, ...]:
    """The page-addressing column commands (``0x00 | low nibble``, ``0x10 | high
    nibble``) that move the write pointer (at ``column``; ``register``: the column last
    commanded; None: unknown) to RAM column ``target``. A nibble is left out only when
    both the register and the pointer already have it: the datasheets do not say plainly
    whether a lone nibble command completes the register or edits the moving pointer,
    and this is right under either reading."""
    if column == target:
        return ()
    both = (target & 0x0F, 0x10 | (target >> 4))
    if register is None or column is None:
        return both
    low_differs = (register ^ target) & 0x0F or (column ^ target) & 0x0F
    high_differs = (register ^ target) >> 4 or (column ^ target) >> 4
    if low_differs and high_differs:
        return both
    return (both[0],) if low_differs else (both[1],)


class Addressing:
    """How one controller is told where the next data bytes go."""

    name = ""
    multi_page = False
    """Whether one window may span several pages (the address pointer moves on to the
    next page at the end of a row)."""
    command_bytes = 0
    """Length of luma's address commands before each window of a whole frame."""
    column_offset = 0
    """RAM column of the panel's first visible column."""
    last_column = WIDTH - 1
    """The last RAM column the write pointer steps onto safely (beyond it: unknown)."""

    def commands(self, window: Window) -> tuple[int, ...]:
        """luma's own address commands for a window of its whole frame."""
        raise NotImplementedError

    @property
    def overhead_bits(self) -> int:
        """What a window costs beyond its data bytes with luma's address commands: its
        command transfer and the framing of its data transfer."""
        return transfer_bits(1 + self.command_bytes) + DATA_FRAMING_BITS

    def window_bits(self, window: Window) -> int:
        """Bus bits to send ``window`` with luma's address commands."""
        return self.overhead_bits + 9 * window.size

    def full(self) -> list[Window]:
        """The whole frame, as luma's own ``display`` sends it."""
        if self.multi_page:
            return [FULL_WINDOW]
        return [Window(p, p, 0, WIDTH - 1) for p in range(PAGES)]

    def after_reset(self) -> Pointer:
        """What is known right after the driver's init sequence."""
        return UNKNOWN

    def plan(self, old: Pages | None, new: Pages,
             pointer: Pointer = UNKNOWN) -> tuple[list[Step], Pointer]:
        """The steps that make a panel holding ``old`` (None: unknown, send it all)
        show ``new``, and the pointer after them."""
        return page_mode_plan(dirty_runs(old, new), pointer, self)


class Ssd1306Addressing(Addressing):
    name = "ssd1306"
    multi_page = True
    command_bytes = 6

    def commands(self, window: Window) -> tuple[int, ...]:
        return (0x21, window.first_column, window.last_column,
                0x22, window.first_page, window.last_page)

    def after_reset(self) -> Pointer:
        return Pointer(mode=0)  # luma's init sets horizontal addressing (0x20 0x00)

    def plan(self, old: Pages | None, new: Pages,
             pointer: Pointer = UNKNOWN) -> tuple[list[Step], Pointer]:
        """Horizontal windows (rectangles over several pages). Page addressing would
        save ~3 % of the bits with 2.5 times as many transfers (its windows are one
        page high), each with a fixed cost on a real bus that the bit count leaves out:
        not used (docs/PERFORMANCE.md)."""
        return horizontal_plan(dirty_runs(old, new), pointer, self)


class Sh1106Addressing(Addressing):
    name = "sh1106"
    command_bytes = 3
    column_offset = 2
    """The 128 visible columns are RAM columns 2..129 of 132 (as luma addresses them)."""
    COLUMN_OFFSET = column_offset
    last_column = 131

    def commands(self, window: Window) -> tuple[int, ...]:
        assert window.first_page == window.last_page, "SH1106 windows are one page high"
        column = window.first_column + self.column_offset
        return (0xB0 | window.first_page, column & 0x0F, 0x10 | (column >> 4))

    def after_reset(self) -> Pointer:
        return Pointer(mode=2)


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


Dirty = list[tuple[int, list[tuple[int, int]]]]
"""(page, changed column runs) of every page that differs."""


def dirty_runs(old: Pages | None, new: Pages) -> Dirty:
    """(page, changed column runs) of every page that differs (all of it when ``old``
    is None)."""
    if old is None:
        return [(page, [(0, WIDTH - 1)]) for page in range(PAGES)]
    return [(page, changed_runs(old[page], new[page]))
            for page in range(PAGES) if old[page] != new[page]]


def page_mode_plan(dirty: Dirty, pointer: Pointer,
                   addressing: Addressing) -> tuple[list[Step], Pointer]:
    """Page addressing: the changed runs of each page left to right, each window
    preceded by only the commands that move the pointer (the page, the column nibbles
    that differ). Runs are joined as for luma's commands (a gap costing fewer bits than
    a window with luma's three address bytes is resent), so the shorter commands save
    bits without adding transfers: each transfer has a fixed cost on a real bus beyond
    its bits. On the SSD1306 the first window also switches to page addressing if the
    controller is not in it. (Plain locals, not :class:`Pointer` copies: this runs for
    every frame.)"""
    offset, limit = addressing.column_offset, addressing.last_column
    gap_limit = addressing.overhead_bits // 9
    lead: tuple[int, ...] = ()
    if addressing.multi_page and pointer.mode != 2:
        lead, pointer = (0x20, 0x02), Pointer(mode=2)
    page, register, column = pointer.page, pointer.register, pointer.column
    steps: list[Step] = []
    for dirty_page, runs in dirty:
        start = end = -1  # the window being gathered (none yet: -1)
        commands: tuple[int, ...] = ()
        for first, last in runs:
            target = first + offset
            if start >= 0:
                if first - end - 1 <= gap_limit:
                    end = last
                    continue
                columns = column_commands(target, register, _past(end + offset, limit))
                steps.append(Step(commands, Window(dirty_page, dirty_page, start, end)))
                commands = columns
            else:
                if page != dirty_page:
                    lead += (0xB0 | dirty_page,)
                    page = dirty_page
                columns = column_commands(target, register, column)
                commands, lead = lead + columns, ()
            if columns:
                register = target
            start, end = first, last
        if start >= 0:
            steps.append(Step(commands, Window(dirty_page, dirty_page, start, end)))
            column = _past(end + offset, limit)
    return steps, Pointer(2, page=page, register=register, column=column)


def _past(last: int, limit: int) -> int | None:
    """The write pointer after data up to RAM column ``last``: one past it, unknown
    beyond the last column it steps onto safely (``limit``)."""
    return last + 1 if last + 1 <= limit else None


def horizontal_plan(dirty: Dirty, pointer: Pointer,
                    addressing: Addressing) -> tuple[list[Step], Pointer]:
    """SSD1306 horizontal addressing: :func:`plan`'s windows, each with only the range
    commands that differ from what the controller holds (a window sent in full leaves
    the pointer at its own start), after a switch to horizontal mode if needed."""
    lead: tuple[int, ...] = ()
    if pointer.mode != 0:
        lead, pointer = (0x20, 0x00), Pointer(mode=0)
    steps: list[Step] = []
    for window in luma_windows(dirty, addressing):
        columns = (window.first_column, window.last_column)
        pages = (window.first_page, window.last_page)
        commands = lead
        if pointer.columns != columns:
            commands += (0x21, *columns)
        if pointer.pages != pages:
            commands += (0x22, *pages)
        lead = ()
        steps.append(Step(commands, window))
        pointer = Pointer(mode=0, columns=columns, pages=pages)
    return steps, pointer


def plan(old: Pages | None, new: Pages, addressing: Addressing) -> list[Window]:
    """The windows to send so the panel holding ``old`` shows ``new`` (all of it when
    ``old`` is None: nothing is known about the panel), with luma's address commands
    for each (see :func:`luma_windows`). :meth:`Addressing.plan` builds on this with
    shorter commands."""
    if old is None:
        return addressing.full()
    return luma_windows(dirty_runs(old, new), addressing)


def luma_windows(dirty: Dirty, addressing: Addressing) -> list[Window]:
    """Windows covering the changed runs, costed with luma's address commands. For
    multi-page controllers a small dynamic programme over the changed pages chooses
    between one window per page (or per run) and one rectangle over several pages (the
    pages in between resent as they are), whichever costs fewer bus bits."""
    if len(dirty) == PAGES and all(runs == [(0, WIDTH - 1)] for _, runs in dirty):
        return addressing.full()
    overhead = addressing.overhead_bits
    gap_limit = overhead // 9
    windows_of = [(page, _page_windows(page, runs, gap_limit)) for page, runs in dirty]
    if not addressing.multi_page or len(windows_of) < 2:
        return [w for _, windows in windows_of for w in windows]
    # best[j] = (bits, windows) covering the changes of the first j dirty pages
    best: list[tuple[int, list[Window]]] = [(0, [])]
    for j, (last_page, windows) in enumerate(windows_of):
        bits, chosen = best[j]
        candidate = (bits + sum(overhead + 9 * w.size for w in windows), chosen + windows)
        first_column, last_column = windows[0].first_column, windows[-1].last_column
        for i in range(j - 1, -1, -1):
            first_page, earlier = windows_of[i]
            first_column = min(first_column, earlier[0].first_column)
            last_column = max(last_column, earlier[-1].last_column)
            size = (last_page - first_page + 1) * (last_column - first_column + 1)
            bits = best[i][0] + overhead + 9 * size
            if bits < candidate[0]:
                window = Window(first_page, last_page, first_column, last_column)
                candidate = (bits, [*best[i][1], window])
        best.append(candidate)
    return best[-1][1]


def plan_bits(steps: list[Step]) -> int:
    """Bus bits of a plan's steps."""
    return sum(step_bits(step) for step in steps)


def luma_frame_bits(addressing: Addressing) -> int:
    """Bus bits of a whole frame as luma's own ``display`` sends it (the baseline)."""
    return sum(addressing.window_bits(w) for w in addressing.full())


__all__ = [
    "ADDRESSING",
    "ALWAYS_JOINED_GAP",
    "FRAME_BYTES",
    "FULL_WINDOW",
    "PAGES",
    "UNKNOWN",
    "Addressing",
    "Pages",
    "Pointer",
    "Sh1106Addressing",
    "Ssd1306Addressing",
    "Step",
    "Window",
    "changed_runs",
    "column_commands",
    "dirty_runs",
    "frame_pages",
    "horizontal_plan",
    "luma_frame_bits",
    "luma_windows",
    "page_mode_plan",
    "pages_image",
    "plan",
    "plan_bits",
    "step_bits",
    "transfer_bits",
]
