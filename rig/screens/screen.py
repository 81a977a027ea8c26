"""What the OLED shows, as data, and the one layout step that fits it into 21x8.

The controller builds a `Screen` out of parts with roles (the title, the instruction
now, the result of the last move, an alert, a menu, a footer); `fit` turns it into the
rows every display shows (OLED, terminal, PNG, web), keeping within the budget of the
small font: 21 characters by 8 lines. When the parts do not fit, `fit` uses each part's
shorter wording, then pages the text (the footer says "1/2 turn: more", or "1/2 press:
more" where a press reads on), and never drops a line silently (RULINGS G4). Menu items
are wrapped whole, never cut, and a menu window with options off-screen marks its top or
bottom row (`MORE_ABOVE`, `MORE_BELOW`).

Keeping the screen a plain value lets the loop skip unchanged frames by comparing
screens, and lets scripts and tests `expect` on text without reading pixels. The values
are :class:`valueclass.Frozen`, the convention of every value class, each with its own
``__init__``: some are made at every frame.
"""

from __future__ import annotations

import textwrap
from functools import lru_cache

from valueclass import Frozen, set_field

COLUMNS = 21
"""Characters per line in the small font (6-pixel cells on a 128-pixel screen)."""
ROWS = 8
"""Lines of the small font on the 64-pixel screen."""
BIG_ROWS = 2
"""The big line (a spin, "MOVE 9") takes two rows of the small font."""
MENU_WIDTH = COLUMNS - 2
"""Menu items are indented two columns ("> " marks the selected one)."""

MORE_ABOVE = "\u25b2"
"""Marks the top row of a menu window with options above it (a small up triangle)."""
MORE_BELOW = "\u25bc"
"""Marks the bottom row of a menu window with options below it."""
MORE_BOTH = "\u25c6"
"""Marks a one-row menu window with options above and below it."""
MARKERS = (MORE_ABOVE, MORE_BELOW, MORE_BOTH)

PRESS_OK = "press: ok"
"""The footer of a result or alert the table acknowledges with a press."""

MAY_PAGE = ("news",)
"""Parts that give way to the rest of the screen on page 1 when it pages: news ("Green
loses this turn") may wait on page 2, the prompt's instruction may not (RULINGS G4)."""

SHORTEN_FIRST = ("news", "result", "hint", "cpu", "warning", "refusal", "card",
                 "alert", "text", "instruction")
"""Which parts give up their full wording first when a screen is too full: the plain
instruction keeps its words longest."""


class Part(Frozen):
    """One paragraph of a screen with its role and, optionally, a shorter wording."""

    __slots__ = ("role", "short", "text")
    text: str
    role: str
    short: str

    def __init__(self, text: str, role: str = "text", short: str = "") -> None:
        set_field(self, "text", text)
        set_field(self, "role", role)
        set_field(self, "short", short)


Line = str | Part


class Screen(Frozen):
    __slots__ = (
        "alert",
        "big",
        "cursor",
        "footer",
        "lines",
        "menu",
        "page",
        "status",
        "title",
    )
    title: str
    lines: tuple[Line, ...]
    big: str | None
    menu: tuple[str, ...]
    cursor: int
    alert: bool
    footer: str
    status: str
    page: int
    """Which page of the text is showing when it needs more than one (see `fit`)."""

    def __init__(self, title: str, lines: tuple[Line, ...] = (), big: str | None = None,
                 menu: tuple[str, ...] = (), cursor: int = 0, alert: bool = False,
                 footer: str = "", status: str = "", page: int = 0) -> None:
        set_field(self, "title", title)
        set_field(self, "lines", lines)
        set_field(self, "big", big)
        set_field(self, "menu", menu)
        set_field(self, "cursor", cursor)
        set_field(self, "alert", alert)
        set_field(self, "footer", footer)
        set_field(self, "status", status)
        set_field(self, "page", page)

    def parts(self) -> tuple[Part, ...]:
        return tuple(line if isinstance(line, Part) else Part(line) for line in self.lines)

    def text(self) -> str:
        """Plain text of everything on screen (every page, full wordings), for
        transcripts and `expect`."""
        parts = [self.title + (f" [{self.status}]" if self.status else "")]
        if self.big:
            parts.append(self.big)
        parts.extend(part.text for part in self.parts())
        for index, item in enumerate(self.menu):
            parts.append(("> " if index == self.cursor else "  ") + item)
        if self.footer:
            parts.append(self.footer)
        return "\n".join(parts)

    def plain(self) -> str:
        """All the text with line breaks folded to spaces: what `expect` matches against,
        so a phrase still matches where the screen wrapped it."""
        return _fold(self.text())


class Row(Frozen):
    __slots__ = ("highlighted", "text")
    text: str
    highlighted: bool

    def __init__(self, text: str, highlighted: bool = False) -> None:
        set_field(self, "text", text)
        set_field(self, "highlighted", highlighted)


class Fitted(Frozen):
    """A screen laid out: the title row, the big line, and the body rows of each page
    (text, then the menu window) with the footer row that goes with each page."""

    __slots__ = ("big", "footers", "pages", "title", "wordings")
    title: str
    big: str | None
    pages: tuple[tuple[Row, ...], ...]
    footers: tuple[str, ...]
    wordings: tuple[str, ...]
    """The wording each part is shown in (its full text, or its short one)."""

    def __init__(self, title: str, big: str | None, pages: tuple[tuple[Row, ...], ...],
                 footers: tuple[str, ...], wordings: tuple[str, ...]) -> None:
        set_field(self, "title", title)
        set_field(self, "big", big)
        set_field(self, "pages", pages)
        set_field(self, "footers", footers)
        set_field(self, "wordings", wordings)

    def page(self, index: int) -> tuple[tuple[Row, ...], str]:
        index = max(0, min(index, len(self.pages) - 1))
        return self.pages[index], self.footers[index]


def _fold(text: str) -> str:
    return " ".join(text.split())


@lru_cache(maxsize=2048)
def wrap(text: str, width: int = COLUMNS) -> tuple[str, ...]:
    """Wrap plain text to the screen width, keeping words whole where possible."""
    out: list[str] = []
    for paragraph in text.split("\n"):
        out.extend(textwrap.wrap(paragraph, width) or [""])
    return tuple(out)


def title_and_status(screen: Screen) -> tuple[str, Part | None]:
    """The title row, and the status as a body part when both do not share one row."""
    if not screen.status:
        return screen.title, None
    joined = f"{screen.title} [{screen.status}]"
    if len(joined) <= COLUMNS:
        return joined, None
    return screen.title, Part(f"[{screen.status}]", "alert")


def menu_item_rows(item: str, selected: bool) -> list[Row]:
    lines = wrap(item, MENU_WIDTH)
    mark = "> " if selected else "  "
    return [Row(mark + lines[0], selected)] + [Row("  " + more, selected) for more in lines[1:]]


def menu_window(menu: tuple[str, ...], cursor: int, budget: int) -> list[Row]:
    """Whole menu items around the cursor: the selected one, then its neighbours (one
    after, one before, ...) while each fits whole. When options are left out above or
    below, the window's top or bottom row says so (`MORE_ABOVE`, `MORE_BELOW`): a menu
    never hides that there are more (RULINGS G4)."""
    if not menu:
        return []
    window, first, last = _window(menu, cursor, budget)
    return _marked(window, above=first > 0, below=last < len(menu) - 1)


def _marked(rows: list[Row], above: bool, below: bool) -> list[Row]:
    """The marker goes in the indent: its first column, or the second beside the
    cursor's ">"."""
    if not (above or below):
        return rows
    rows = list(rows)
    ends = [(0, MORE_ABOVE)] if above else []
    ends += [(len(rows) - 1, MORE_BELOW)] if below else []
    for index, mark in ends:
        if above and below and len(rows) == 1:
            mark = MORE_BOTH
        row = rows[index]
        text = (row.text[0] + mark if row.text.startswith(">") else mark + row.text[1]
                ) + row.text[2:]
        rows[index] = Row(text, row.highlighted)
    return rows


def _window(menu: tuple[str, ...], cursor: int, budget: int) -> tuple[list[Row], int, int]:
    """The window's rows and the first and last item shown."""
    cursor = max(0, min(cursor, len(menu) - 1))
    rows = menu_item_rows(menu[cursor], True)
    top: list[Row] = []
    bottom: list[Row] = []
    before, after = cursor - 1, cursor + 1
    first, last = cursor, cursor
    while before >= 0 or after < len(menu):
        if after < len(menu):
            item = menu_item_rows(menu[after], False)
            if len(rows) + len(top) + len(bottom) + len(item) <= budget:
                bottom.extend(item)
                last = after
                after += 1
            else:
                after = len(menu)
        if before >= 0:
            item = menu_item_rows(menu[before], False)
            if len(rows) + len(top) + len(bottom) + len(item) <= budget:
                top[:0] = item
                first = before
                before -= 1
            else:
                before = -1
    return top + rows + bottom, first, last


@lru_cache(maxsize=256)
def fit(screen: Screen) -> Fitted:
    """Lay the screen out in 21x8: full wordings if they fit, else shorter wordings part
    by part (SHORTEN_FIRST), else pages of text, each with the menu window below."""
    title, status_part = title_and_status(screen)
    parts = list(screen.parts()) + ([status_part] if status_part else [])
    budget = ROWS - 1 - (BIG_ROWS if screen.big else 0) - (1 if screen.footer else 0)
    selected = (len(wrap(screen.menu[min(screen.cursor, len(screen.menu) - 1)], MENU_WIDTH))
                if screen.menu else 0)
    wordings = [part.text for part in parts]

    def text_rows() -> int:
        return sum(len(wrap(w)) for w in wordings)

    # Room for the selected item and, when there is one, the item after it: a menu
    # that shows a single choice hides that there are others.
    following = (len(wrap(screen.menu[(screen.cursor + 1) % len(screen.menu)], MENU_WIDTH))
                 if len(screen.menu) > 1 else 0)
    order = sorted(range(len(parts)), key=lambda i: (_shorten_rank(parts[i].role), -i))
    for i in order:
        if text_rows() + selected + following <= budget:
            break
        if parts[i].short:
            wordings[i] = parts[i].short
    paragraphs = [[Row(row) for row in wrap(w)] for w in wordings]
    if text_rows() + selected <= budget:
        body = [row for rows in paragraphs for row in rows]
        window = menu_window(screen.menu, screen.cursor, budget - len(body))
        return Fitted(title, screen.big, (tuple(body + window),), (screen.footer,),
                      tuple(wordings))
    roles = tuple(part.role for part in parts)
    return _paged(screen, title, paragraphs, selected, tuple(wordings), roles)


def _shorten_rank(role: str) -> int:
    return SHORTEN_FIRST.index(role) if role in SHORTEN_FIRST else 0


def _paged(screen: Screen, title: str, paragraphs: list[list[Row]], selected: int,
           wordings: tuple[str, ...], roles: tuple[str, ...]) -> Fitted:
    """Pages of text, paragraphs kept whole where they fit a page, the news that does
    not fit beside the rest of page 1 moved after it (`MAY_PAGE`); the footer row
    carries the page number (a page without a footer gives up a row for it)."""
    budget = ROWS - 1 - (BIG_ROWS if screen.big else 0) - 1
    room = max(1, budget - selected)
    paragraphs = _news_last(paragraphs, roles, room)
    pages: list[list[Row]] = [[]]
    for rows in paragraphs:
        if pages[-1] and len(pages[-1]) + len(rows) > room and len(rows) <= room:
            pages.append([])
        for row in rows:
            if len(pages[-1]) == room:
                pages.append([])
            pages[-1].append(row)
    count = len(pages)
    laid: list[tuple[Row, ...]] = []
    footers: list[str] = []
    knob = "lo " if screen.menu else ""
    # a result screen: a press reads on ("press: ok", or its answer to an early input,
    # "too soon: press again"); a game-over screen's "long press" does not
    pressed = (not screen.menu and "press" in screen.footer
               and not screen.footer.startswith("long press"))
    for number, rows in enumerate(pages, start=1):
        window = menu_window(screen.menu, screen.cursor, budget - len(rows))
        laid.append(tuple(rows + window))
        last = f"{number}/{count} {screen.footer}"
        if pressed and screen.footer != PRESS_OK and (number < count or len(last) > COLUMNS):
            last = screen.footer  # the answer to an early input, until the page turns
        elif number < count and pressed:
            last = f"{number}/{count} press: more"  # a press reads on (Controller)
        elif number < count:
            last = f"{number}/{count} turn {knob}: more".replace(" :", ":")
        elif not screen.footer or len(last) > COLUMNS:  # the last page: a turn goes back
            last = f"{number}/{count} turn {knob}: back".replace(" :", ":")
        footers.append(last)
    return Fitted(title, screen.big, tuple(laid), tuple(footers), wordings)


def _news_last(paragraphs: list[list[Row]], roles: tuple[str, ...],
               room: int) -> list[list[Row]]:
    """The paragraphs in the order they are paged: as they come, except news that
    would push the rest of the screen off page 1 (the first such news item and the
    news after it go last)."""
    spare = room - sum(len(rows) for rows, role in zip(paragraphs, roles, strict=True)
                       if role not in MAY_PAGE)
    if spare < 0 or not any(role in MAY_PAGE for role in roles):
        return paragraphs
    first: list[list[Row]] = []
    later: list[list[Row]] = []
    for rows, role in zip(paragraphs, roles, strict=True):
        if role not in MAY_PAGE:
            first.append(rows)
        elif not later and len(rows) <= spare:
            first.append(rows)
            spare -= len(rows)
        else:
            later.append(rows)
    return first + later


def page_count(screen: Screen) -> int:
    return len(fit(screen).pages)


def shown_rows(screen: Screen) -> list[str]:
    """The rows of the current page as text (title, big, body, footer)."""
    fitted = fit(screen)
    body, footer = fitted.page(screen.page)
    out = [fitted.title]
    if fitted.big:
        out.append(f"<< {fitted.big} >>")
    out.extend(row.text for row in body)
    if footer:
        out.append(footer)
    return out
