"""The sheets `cbrig print` writes: board, cards (or tickets), pieces, quick reference.

Each writer takes the game name, the built game (its board, deck, tickets and options
are the data in use), the output path, the paper name and the tile flag, writes one PDF
and returns a one-line note of what it wrote.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from rig.maker.boardart import board_geometry
from rig.maker.boardart.geometry import BLACK, GREY, INK, RGB, WHITE, Label, Point, fit_label
from rig.maker.boardart.pdf import PAPERS, Page, PdfCanvas, PdfDocument, wrap
from rig.maker.case.tag import CARD, TAG_DIAMETER, TAG_FROM_BOTTOM
from rig.maker.printout.board import write_board
from rig.maker.printout.parts import CardFace, CardSheet, Icon, IconCanvas, PieceList, PrintedPiece
from rig.maker.printout.reference import Sections
from rig.registry import entry

__all__ = ["CARD_H", "CARD_MARGIN", "CARD_W", "CUT", "FOOTER_MM", "RFID_MM", "SHEETS", "SPARES",
           "STANDEE_PANEL", "STANDEE_TAB", "TAG_SPOT_Y", "TOKEN_GAP", "CardFace", "CardSheet",
           "Icon", "IconCanvas", "PieceList", "PrintedPiece", "print_board", "print_cards",
           "print_pieces", "print_reference", "print_tools", "put_text", "reference_text",
           "rfid_spot"]

if TYPE_CHECKING:
    from engine.api import Game
    from rig.gametype import GamePrints

CARD_W, CARD_H = CARD
"""Poker-size cards (63 x 88 mm): sleeves and card stock for them are everywhere; the
case's card recess reads the same figure (rig/maker/case/tag.py)."""
CARD_MARGIN = 5.0
"""Kept clear round the card grid; with the footer this fits 3 x 3 cards on Letter too."""
FOOTER_MM = 5.0
RFID_MM = TAG_DIAMETER
"""Room for a round 25 mm NFC sticker (the common size of an NTAG/MIFARE tag)."""
TAG_SPOT_Y = CARD_H - TAG_FROM_BOTTOM
"""The sticker spot's centre below a card's top edge: rig/maker/case/tag.py, the one figure
the case puts its reader's antenna under."""
CUT: RGB = (150, 150, 150)


def put_text(canvas: PdfCanvas, text: str, x: float, y: float, size: float,
          colour: RGB = BLACK, bold: bool = False, align: str = "centre") -> Label:
    """Draw one line; `align` "left" puts its left edge on x. Returns what was drawn."""
    label = Label(text, x, y, size, colour, bold)
    if align == "left":
        label = Label(text, x + label.width / 2, y, size, colour, bold)
    canvas.text(label)
    return label


def _paper(name: str) -> tuple[float, float]:
    return PAPERS[name]


# -- board ---------------------------------------------------------------------------------


def print_board(game_name: str, game: Game, path: str, paper: str, tile: bool) -> str:
    geometry = board_geometry(game_name, print_tools(game_name).board_of(game))
    result = write_board(geometry, path, _paper(paper), paper, True if tile else None)
    rows, columns = result.grid
    layout = ("one sheet" if result.plan is None
              else f"{rows} x {columns} tiles to join")
    return (f"board, {result.pages} page(s) {paper.upper()} ({layout}); spaces "
            f"{geometry.space_mm:.0f} mm, pieces up to {geometry.piece_mm:.0f} mm")


# -- cards ---------------------------------------------------------------------------------


def _grid(paper: tuple[float, float]) -> tuple[int, int, float, float]:
    """Columns, rows and the top-left corner of a centred grid of cards."""
    w, h = paper
    columns = int((w - 2 * CARD_MARGIN) // CARD_W)
    rows = int((h - 2 * CARD_MARGIN - FOOTER_MM) // CARD_H)
    return columns, rows, (w - columns * CARD_W) / 2, (h - FOOTER_MM - rows * CARD_H) / 2


def _cut_lines(canvas: PdfCanvas, paper: tuple[float, float], columns: int, rows: int,
               x0: float, y0: float) -> None:
    """Card outlines (dashed) and short crop marks just outside the grid."""
    x1, y1 = x0 + columns * CARD_W, y0 + rows * CARD_H
    mark = min(6.0, x0 - 2, y0 - 2)
    for c in range(columns + 1):
        x = x0 + c * CARD_W
        canvas.line([(x, y0), (x, y1)], CUT, 0.2, dashed=True)
        canvas.line([(x, y0 - 1.5 - mark), (x, y0 - 1.5)], BLACK, 0.25)
        canvas.line([(x, y1 + 1.5), (x, y1 + 1.5 + mark)], BLACK, 0.25)
    for r in range(rows + 1):
        y = y0 + r * CARD_H
        canvas.line([(x0, y), (x1, y)], CUT, 0.2, dashed=True)
        canvas.line([(x0 - 1.5 - mark, y), (x0 - 1.5, y)], BLACK, 0.25)
        canvas.line([(x1 + 1.5, y), (x1 + 1.5 + mark, y)], BLACK, 0.25)


def rfid_spot(canvas: PdfCanvas, cx: float, cy: float, ident: str, order: int,
               total: int) -> None:
    canvas.ellipse(cx, cy, RFID_MM / 2, RFID_MM / 2, None, GREY, 0.3, dashed=True)
    put_text(canvas, "RFID sticker here", cx, cy - 2.5, 2.4, GREY, bold=True)
    put_text(canvas, f"enrol as {ident}", cx, cy + 0.8, 2.4, GREY)
    put_text(canvas, f"tag {order} of {total}", cx, cy + 4.0, 2.4, GREY)


def _write_cards(path: str, title: str, paper_name: str, faces: Sequence[CardFace],
                 order: Sequence[tuple[str, str]], how: Sequence[str]) -> int:
    paper = _paper(paper_name)
    columns, rows, x0, y0 = _grid(paper)
    per_page = columns * rows
    doc = PdfDocument(path, title)
    pages = math.ceil(len(faces) / per_page)
    for page in range(pages):
        canvas = doc.page(Page(*paper))
        chunk = faces[page * per_page:(page + 1) * per_page]
        for i, face in enumerate(chunk):
            r, c = divmod(i, columns)
            face.draw(canvas, x0 + c * CARD_W, y0 + r * CARD_H)
        used_rows = math.ceil(len(chunk) / columns)
        _cut_lines(canvas, paper, columns if used_rows > 1 else len(chunk), used_rows, x0, y0)
        put_text(canvas, f"{title}: sheet {page + 1} of {pages}. Cut on the lines; print at "
              "actual size (100%).", CARD_MARGIN + 3, paper[1] - 4.5, 2.6, BLACK, align="left")
    _enrolment_page(doc, paper, title, order, how)
    doc.save()
    return pages + 1


def _enrolment_page(doc: PdfDocument, paper: tuple[float, float], title: str,
                    order: Sequence[tuple[str, str]], how: Sequence[str]) -> None:
    """The tag enrolment order: the order `cbrig cards enroll` asks for the cards."""
    canvas = doc.page(Page(*paper))
    w, h = paper
    x, y = 15.0, 18.0
    put_text(canvas, f"{title}: tag enrolment order", x, y, 5.0, bold=True, align="left")
    y += 8
    for line in how:
        for part in wrap(line, 3.2, w - 30):
            put_text(canvas, part, x, y, 3.2, align="left")
            y += 4.4
    y += 3
    size = 3.0
    columns = 1 if len(order) * 4.2 < h - y - 15 else 2
    per_column = math.ceil(len(order) / columns)
    step = min(4.2, (h - y - 15) / per_column)
    width = (w - 30) / columns
    for i, (ident, text) in enumerate(order):
        column, row = divmod(i, per_column)
        cx, cy = x + column * width, y + row * step
        put_text(canvas, f"{i + 1:>2}.", cx, cy, size, bold=True, align="left")
        put_text(canvas, ident, cx + 8, cy, size, bold=True, align="left")
        room = width - 26
        short = wrap(text, size, room)[0]
        if short != text:
            short = short.rstrip(".,;:") + "..."
        put_text(canvas, short, cx + 22, cy, size, align="left")


def print_tools(game_name: str) -> GamePrints:
    """The game's print tools, from its registry entry (ValueError: none)."""
    tools = entry(game_name).printout
    if tools is None:
        raise ValueError(f"{entry(game_name).title} has no printed sheets")
    return tools()


def print_cards(game_name: str, game: Game, path: str, paper: str, tile: bool) -> str:
    """10-Four: every Mike card; Bump 'Em: the ticket cards."""
    sheet = print_tools(game_name).cards_of(game)
    if sheet is None:
        raise ValueError(f"{entry(game_name).title} has no cards to print")
    faces, order, how, title = sheet
    pages = _write_cards(path, title, paper, faces, order, how)
    return f"{len(faces)} cards on {pages - 1} sheet(s) + the enrolment order ({paper.upper()})"


# -- pieces --------------------------------------------------------------------------------


TOKEN_GAP = 6.0
SPARES = 2


def print_pieces(game_name: str, game: Game, path: str, paper: str, tile: bool) -> str:
    """Round tokens in the board's colours, sized to the board's spaces, with spares."""
    tools = print_tools(game_name)
    geometry = board_geometry(game_name, tools.board_of(game))
    size = geometry.piece_mm
    pieces = tools.pieces_of(game)
    sheet = _paper(paper)
    w, h = sheet
    doc = PdfDocument(path, f"{geometry.title} (pieces)")
    canvas = doc.page(Page(*sheet))
    game_title = entry(game_name).display_title
    put_text(canvas, f"{game_title} pieces: tokens "
          f"{size:.0f} mm across (spaces are {geometry.space_mm:.0f} mm)", 15, 16, 4.6,
          bold=True, align="left")
    notes = ["Glue the sheet onto thin card, cut out each disc on its outer circle, and stand "
             "the tokens on the board's spaces. Each piece is printed with spares.",
             "Print at actual size (100%): the bar below is 50 mm."]
    y = 23.0
    for note in notes:
        for line in wrap(note, 3.2, w - 30):
            put_text(canvas, line, 15, y, 3.2, align="left")
            y += 4.4
    canvas.line([(15, y + 1), (65, y + 1)], BLACK, 0.4)
    y += 8
    step = size + TOKEN_GAP
    columns = int((w - 30) // step)
    place = 0
    for piece in pieces:
        for _ in range(1 + SPARES):
            r, c = divmod(place, columns)
            cx, cy = 15 + c * step + size / 2, y + r * (step + 3) + size / 2
            if cy + size / 2 + 4 > h - 10:
                canvas = doc.page(Page(*sheet))
                y, place = 15.0, 0
                r, c = 0, 0
                cx, cy = 15 + size / 2, y + size / 2
            _token(canvas, piece, cx, cy, size)
            place += 1
    _standees(doc, sheet, pieces, size)
    doc.save()
    return (f"{len(pieces)} pieces (+{SPARES} spares each), tokens {size:.0f} mm, and "
            f"fold-over standees, {paper.upper()}")


STANDEE_PANEL = 16.0
STANDEE_TAB = 8.0


class _HalfTurn:
    """A canvas wrapper that draws everything turned half round the point `centre`."""

    def __init__(self, base: PdfCanvas, centre: Point) -> None:
        self.base = base
        self.cx, self.cy = centre

    def _p(self, p: Point) -> Point:
        return (2 * self.cx - p[0], 2 * self.cy - p[1])

    def line(self, points: Sequence[Point], colour: RGB, width: float,
             dashed: bool = False) -> None:
        self.base.line([self._p(p) for p in points], colour, width, dashed)

    def ellipse(self, x: float, y: float, rx: float, ry: float, fill: RGB | None,
                ink: RGB | None, width: float, dashed: bool = False) -> None:
        self.base.ellipse(*self._p((x, y)), rx, ry, fill, ink, width, dashed)

    def rect(self, x: float, y: float, w: float, h: float, fill: RGB | None,
             ink: RGB | None, width: float, radius: float = 0.0,
             dashed: bool = False) -> None:
        left, top = self._p((x + w, y + h))
        self.base.rect(left, top, w, h, fill, ink, width, radius, dashed)

    def text(self, label: Label) -> None:
        x, y = self._p((label.x, label.y))
        self.base.text(Label(label.text, x, y, label.size, label.colour, label.bold),
                       upside_down=True)


def _standees(doc: PdfDocument, sheet: tuple[float, float],
              pieces: Sequence[PrintedPiece], size: float) -> None:
    """One fold-over standee per piece: tab, front, back (upside down), tab."""
    w, h = sheet
    canvas = doc.page(Page(*sheet))
    put_text(canvas, f"Fold-over standees ({size:.0f} mm wide, {STANDEE_PANEL:.0f} mm tall)",
          15, 16, 4.6, bold=True, align="left")
    for i, line in enumerate(wrap("Cut round each strip. Fold on the dashed lines: the two "
                                  "picture panels back to back (glue them), the end tabs "
                                  "outwards, so the piece stands on its tabs.", 3.2, w - 30)):
        put_text(canvas, line, 15, 23 + i * 4.4, 3.2, align="left")
    length = 2 * (STANDEE_PANEL + STANDEE_TAB)
    step_x, step_y = size + 8, length + 12
    columns = int((w - 30) // step_x)
    top = 36.0
    for index, piece in enumerate(pieces):
        row, column = divmod(index, columns)
        x, y = 15 + column * step_x, top + row * step_y
        if y + length > h - 10:
            canvas = doc.page(Page(*sheet))
            top = 15.0 - row * step_y
            y = top + row * step_y
        _standee(canvas, piece, x, y, size)


def _standee(canvas: PdfCanvas, piece: PrintedPiece, x: float, y: float, size: float) -> None:
    fill = INK.get(piece.colour, (40, 40, 40))
    panel, tab = STANDEE_PANEL, STANDEE_TAB
    canvas.rect(x, y, size, tab, (225, 225, 225), None, 0)
    canvas.rect(x, y + tab + 2 * panel, size, tab, (225, 225, 225), None, 0)
    canvas.rect(x, y + tab, size, 2 * panel, fill, None, 0)
    front = (x + size / 2, y + tab + panel / 2)
    back = (x + size / 2, y + tab + panel * 1.5)
    sides: tuple[tuple[PdfCanvas | _HalfTurn, Point], ...] = (
        (canvas, front), (_HalfTurn(canvas, back), back))
    for side, (cx, cy) in sides:
        if piece.icon is not None:
            piece.icon(side, cx, cy - 2.5, WHITE)
        side.text(fit_label(piece.word.upper(), cx, cy + 4, 2.2, size - 1.5, WHITE, True))
    for fold in (y + tab, y + tab + panel, y + tab + 2 * panel):
        canvas.line([(x, fold), (x + size, fold)], WHITE if fold != y + tab + panel
                    else (200, 200, 200), 0.25, dashed=True)
    canvas.rect(x, y, size, 2 * (panel + tab), None, BLACK, 0.25)
    put_text(canvas, piece.name, x + size / 2, y + 2 * (panel + tab) + 2.6, 2.2)


def _token(canvas: PdfCanvas, piece: PrintedPiece, x: float, y: float, size: float) -> None:
    fill = INK.get(piece.colour, (40, 40, 40))
    canvas.ellipse(x, y, size / 2, size / 2, fill, BLACK, 0.25)
    canvas.ellipse(x, y, size / 2 - 0.8, size / 2 - 0.8, None, WHITE, 0.3)
    if piece.icon is not None:
        piece.icon(canvas, x, y - 1.2, WHITE)
    canvas.text(fit_label(piece.word.upper(), x, y + size * 0.3, min(2.0, size * 0.16), size * 0.62,
                          WHITE, bold=True))
    put_text(canvas, piece.name, x, y + size / 2 + 2.2, 2.2, BLACK)


# -- quick reference -----------------------------------------------------------------------


def reference_text(game_name: str, game: Game) -> tuple[str, Sections]:
    """The page's title and sections, from the game's registry entry."""
    return f"{entry(game_name).title}: quick reference", print_tools(game_name).reference_of(game)


def print_reference(game_name: str, game: Game, path: str, paper: str, tile: bool) -> str:
    """One page: the game as the rig rules it (RULINGS.md, with the options in use)."""
    sheet = _paper(paper)
    w, h = sheet
    title, sections = reference_text(game_name, game)
    doc = PdfDocument(path, title)
    size = 3.3
    while True:
        lines = _reference_lines(sections, size, w - 30)
        height = sum(step for _, _, step, _ in lines)
        if height <= h - 45 or size < 2.2:
            break
        size -= 0.1
    canvas = doc.page(Page(*sheet))
    put_text(canvas, title, 15, 17, 6.0, bold=True, align="left")
    y = 27.0
    for text, bold, step, indent in lines:
        put_text(canvas, text, 15 + indent, y, size * (1.15 if bold else 1.0), BLACK, bold,
              align="left")
        y += step
    put_text(canvas, "The rig keeps the true state and says what to do; the board is played "
          "by hand.", 15, h - 10, 2.6, GREY, align="left")
    doc.save()
    return f"quick reference, 1 page {paper.upper()} (text {size:.1f} mm)"


def _reference_lines(sections: Sequence[tuple[str, Sequence[str]]], size: float,
                     width: float) -> list[tuple[str, bool, float, float]]:
    """(text, bold, line step, indent) for every printed line."""
    out: list[tuple[str, bool, float, float]] = []
    for heading, bullets in sections:
        out.append((heading, True, size * 1.7, 0.0))
        for bullet in bullets:
            parts = wrap(bullet, size, width - 5)
            for i, part in enumerate(parts):
                out.append(((" - " if i == 0 else "   ") + part, False, size * 1.35,
                            0.0 if i == 0 else 1.0))
        out[-1] = (out[-1][0], out[-1][1], out[-1][2] + size * 0.8, out[-1][3])
    return out


SHEETS: Mapping[str, Callable[[str, Game, str, str, bool], str]] = {
    "board": print_board,
    "cards": print_cards,
    "pieces": print_pieces,
    "reference": print_reference,
}

