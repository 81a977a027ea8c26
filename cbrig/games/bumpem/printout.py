"""Bump 'Em's printed sheets: the ticket cards, the cars and the quick reference (written
by rig.maker.printout; the turbo option and the board's lengths come from the game printed)."""

from __future__ import annotations

from collections.abc import Callable

from cbrig.game import (
    BLACK,
    CARD_H,
    CARD_W,
    FILL,
    GREY,
    INK,
    RGB,
    TAG_SPOT_Y,
    CardFace,
    CardSheet,
    IconCanvas,
    PdfCanvas,
    PieceList,
    PrintedPiece,
    PrintTools,
    Sections,
    corrections,
    put_text,
    rfid_spot,
    wrap,
)
from engine.bumpem.game import BumpemGame
from engine.bumpem.tickets import TICKET_IDS, ticket_label


def _ticket_lines(game: BumpemGame) -> list[str]:
    """What each ticket does, in the words of the ticket file in use, two kinds a line."""

    tickets = game.tickets
    kinds = [f"{ticket_label(kind)}: {text}" for kind, text, count
             in zip(TICKET_IDS, tickets.texts, tickets.counts, strict=True) if count > 0]
    return [" ".join(kinds[i:i + 2]) for i in range(0, len(kinds), 2)]


def reference(game: BumpemGame) -> Sections:
    board = game.board
    turbo = game.options.get("turbo", True)
    sections: Sections = [
        ("The track", [
            f"A loop of {board.track_length} spaces (T1-T{board.track_length}), cars move "
            f"clockwise. Each colour has {board.cars_per_player} cars, a pit row beside its "
            f"start, a home stretch of {board.home_length} spaces (HOME STRETCH 1-"
            f"{board.home_length}) that leaves the track just before its start, and a finish "
            "area.",
        ]),
        ("Your turn", [
            "Draw a ticket (tap a ticket card or let the rig draw), then make one of the "
            "moves it allows; the rig lists them. No legal move: the ticket is lost. "
            "Exactly one: it must be made, even when it hurts.",
            *_ticket_lines(game),
        ]),
        ("Landing", [
            "Landing on another player's car sends it to its pit row. You may not land on "
            "your own car (unless it is on a turbo space).",
            "A car reaching its own home-stretch entrance goes in instead of going on; cars "
            "in the home stretch cannot be bumped or swapped; finishing needs the exact count.",
            "Entering onto your start space bumps an opponent there; your own car there "
            "blocks the entry. Backward moves may take a car out of its home stretch.",
            "Oil slick: landing on one of another colour slides the car 6 spaces forward, "
            "sending every car on those spaces (its owner's too) to its pit row.",
        ]),
    ]
    if turbo and board.turbo:
        sections.append(("Turbo spaces", [
            "Landing on a turbo space where a car sits does not bump it: the sitting car "
            "zooms forward to the next turbo space (or straight into its finish if its own "
            "entrance comes first). A zoom onto an occupied turbo space sets that car off "
            "in turn.",
        ]))
    sections.append(("Winning", [
        "The first player with every car in the finish area wins.",
    ]))
    sections.append(corrections("any car's place (cars are named by where they stand: Red "
                                "car at T35, Red car in home stretch 3) or whose turn it is",
                                "ticket", spins=False))
    return sections


def cards(game: BumpemGame) -> CardSheet:
    tickets = game.tickets
    kinds = [(kind, text, count) for kind, text, count
             in zip(TICKET_IDS, tickets.texts, tickets.counts, strict=True)]
    faces: list[CardFace] = []
    total = len(kinds)
    for order, (kind, text, count) in enumerate(kinds, 1):
        copies = count if tickets.is_deck else 1
        for copy in range(copies):
            faces.append(CardFace(kind, order, _ticket_face(kind, ticket_label(kind), text,
                                                            order, total, copy, copies)))
    how = ["Stick an RFID tag on each ticket at its marked spot, then run `cbrig cards "
           "enroll` and tap one ticket of each kind in this order."]
    if tickets.is_deck:
        how.append("The ticket file is a deck (draw = \"deck\"): each kind is printed as "
                   "many times as its count.")
    else:
        how.append("The ticket file draws independently (draw = \"independent\"): one "
                   "ticket of each kind is printed; kinds with count 0 are not drawn.")
    order_list = [(kind, f"{ticket_label(kind)}: {text}") for kind, text, _ in kinds]
    return faces, order_list, how, "Bump 'Em tickets"


def _ticket_face(kind: str, label: str, text: str, order: int, total: int, copy: int,
                 copies: int) -> Callable[[PdfCanvas, float, float], None]:
    def draw(canvas: PdfCanvas, x: float, y: float) -> None:
        cx = x + CARD_W / 2
        canvas.rect(x + 3, y + 3, CARD_W - 6, 24, FILL["yellow"], INK["yellow"], 0.6,
                    radius=3)
        put_text(canvas, "TICKET", cx, y + 7, 2.6, INK["yellow"], bold=True)
        big = 14.0 if len(label) <= 2 else 8.0
        put_text(canvas, label, cx, y + 17, big, BLACK, bold=True)
        cy = y + 33
        for line in wrap(text, 3.3, CARD_W - 10)[:6]:
            put_text(canvas, line, cx, cy, 3.3)
            cy += 4.3
        rfid_spot(canvas, cx, y + TAG_SPOT_Y, kind, order, total)
        note = f"ticket {label}" + (f"  (copy {copy + 1} of {copies})" if copies > 1 else "")
        put_text(canvas, note, x + 4, y + CARD_H - 4, 2.4, GREY, align="left")
    return draw


def pieces(game: BumpemGame) -> PieceList:
    """Every car of every colour on the board."""
    cars = game.board.cars_per_player
    return [PrintedPiece(f"{c.capitalize()} car", c, c.capitalize(), car_icon)
            for c in game.board.colours for _ in range(cars)]


def car_icon(canvas: IconCanvas, x: float, y: float, ink: RGB) -> None:
    """A small silhouette of a race car."""
    canvas.rect(x - 4.4, y - 1.0, 8.8, 2.4, ink, None, 0, radius=0.8)
    canvas.rect(x - 1.8, y - 2.4, 3.6, 1.6, ink, None, 0, radius=0.5)
    for wx in (x - 2.6, x + 2.6):
        canvas.ellipse(wx, y + 1.9, 0.9, 0.9, ink, None, 0)


TOOLS = PrintTools(BumpemGame, players=2, reference=reference, pieces=pieces, cards=cards)
"""What ``cbrig print`` prints (rig.gametype.folder_parts)."""
