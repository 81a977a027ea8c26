"""10-Four's printed sheets: the Mike cards, the pieces and the quick reference (written
by rig.maker.printout; numbers that are options or data come from the game being printed)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from cbrig.game import (
    BLACK,
    CARD_H,
    CARD_W,
    GREY,
    RGB,
    TAG_SPOT_Y,
    WHITE,
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
from cbrig.games.tenfour.view import BAND_NAMES
from engine.tenfour.board import COLOURS
from engine.tenfour.game import TenFourGame

if TYPE_CHECKING:
    from engine.tenfour.cards import Card

HI_INK: RGB = (190, 30, 30)
LO_INK: RGB = (30, 60, 190)
BREAK_FILL: RGB = (250, 225, 80)


def reference(game: TenFourGame) -> Sections:
    board = game.board
    bear = game.options["bear_limit"]
    move = game.options["smokey_move"]
    return [
        ("The road", [
            f"One clockwise loop of {board.size} highway spaces in four coloured routes. Each "
            "truck starts on the first space of its colour's route (START) and must drive the "
            "whole loop back to it. Reaching or passing it wins at once: no exact count.",
            "Spaces are named as printed (R13); the rig names every other place as the "
            "board does: Bear Trap on Blue, short cut R16-G2, Bear space on Green, "
            f"{board.park}, side of road R13.",
        ]),
        ("Your turn (3-4 players)", [
            "Tap the next Mike card on the rig (or let it draw one), spin the band the card "
            "names with the knob, and move spin + extra spaces.",
            "BREAK ONE NINE: first spin and move, then you must make one police move, even "
            "if your truck could not move.",
            "Start order: everyone spins the Hi-Band, highest first, ties spin again; play "
            "then goes to the left. Used cards are reshuffled when the deck runs out.",
        ]),
        ("Caught!", [
            "Smokey on the highway: when any move ends, a truck on the Smokey's space or the "
            "space just in front or behind is caught. Passing does not count.",
            "Bear Trap: a truck whose move ends on one of the trap's three spaces while a "
            "Smokey is in the trap is caught (not one already standing there).",
            "A caught truck goes to the side of the road at its space; its owner loses the "
            "next turn, then it goes on from there. While there it cannot be caught again.",
            f"Bear In The Air: a truck that starts its turn on the watched route with spin + "
            f"extra of {bear} or more is caught and does not move (no later turn lost).",
        ]),
        ("Hammer Up", [
            "A truck whose turn ends on a Hammer Up curve (orange) plays its next turn "
            "without a card, on the Lo-Band.",
        ]),
        ("Police moves (on BREAK ONE NINE)", [
            f"While any police piece is still in {board.park}, take one out: a Smokey into "
            "any Bear Trap (both may share one), the Bear onto any Bear space. Nothing ever "
            "returns to the Park.",
            f"Once all are out: a Smokey moves exactly {move} steps clockwise (it may take a "
            f"short cut, 1 step); or at most {move} steps ending in a Bear Trap (stepping in "
            "is 1 step); or the Bear moves to another Bear space.",
            "A Smokey enters a trap from any of its three spaces and leaves it onto the "
            "space after the last. A Smokey in a trap or on a short cut catches nobody.",
        ]),
        ("Two players", [
            "Each player has two trucks on one entrance (red + green on R's start, blue + "
            "yellow on B's start) and puts a Smokey in any Bear Trap first; no Bear, no Park.",
            "A turn: draw, spin, choose either truck and move it; a truck on a Hammer Up "
            "space is declared before drawing (no card, Lo-Band). Both trucks home wins.",
        ]),
        ("Cards", [
            "Each Mike card carries an RFID tag enrolled to its entry; a tag not enrolled, "
            "or a card already drawn since the last reshuffle, is refused and nothing "
            "changes.",
        ]),
        corrections("any piece's place (Red truck at R8), whose turn it is, a lost turn or "
                    "a pending Hammer Up", "card", spins=True),
    ]


def cards(game: TenFourGame) -> CardSheet:
    cards = game.deck.cards
    total = len(cards)
    faces: list[CardFace] = []
    for order, card in enumerate(cards, 1):
        for copy in range(card.copies):
            faces.append(CardFace(card.id, order, _mike_face(card, order, total, copy,
                                                             BAND_NAMES)))
    order_list = [(card.id, f"{BAND_NAMES.get(card.band, card.band)}"
                   f"{f' +{card.extra}' if card.extra else ''}"
                   f"{' BREAK ONE NINE' if card.break_one_nine else ''}: {card.text}")
                  for card in cards]
    how = ["Stick an RFID tag on each card at its marked spot, then run `cbrig cards "
           "enroll` and tap the cards in this order (the rig asks for each by id and text).",
           "A card printed more than once (copies) shares one deck entry."]
    return faces, order_list, how, "10-Four Mike cards"


def _mike_face(card: Card, order: int, total: int, copy: int,
               band_names: Mapping[str, str]) -> Callable[[PdfCanvas, float, float], None]:
    def draw(canvas: PdfCanvas, x: float, y: float) -> None:
        ink = HI_INK if card.band == "hi" else LO_INK
        canvas.rect(x + 3, y + 3, CARD_W - 6, 15, ink, None, 0)
        cx = x + CARD_W / 2
        put_text(canvas, "MIKE CARD", cx, y + 6.5, 2.6, WHITE, bold=True)
        put_text(canvas, band_names.get(card.band, card.band), cx, y + 13, 6.0, WHITE, bold=True)
        cy = y + 23
        if card.extra:
            plural = "s" if card.extra > 1 else ""
            put_text(canvas, f"+{card.extra} extra space{plural}", cx, cy, 4.2, ink, bold=True)
            cy += 6
        if card.break_one_nine:
            canvas.rect(x + 3, cy - 3, CARD_W - 6, 11, BREAK_FILL, BLACK, 0.4)
            put_text(canvas, "BREAK ONE NINE", cx, cy + 0.5, 4.2, BLACK, bold=True)
            put_text(canvas, "then move a Smokey or the Bear", cx, cy + 5, 2.5)
            cy += 12
        for line in wrap(card.text, 3.3, CARD_W - 10)[:5]:
            put_text(canvas, line, cx, cy, 3.3)
            cy += 4.3
        rfid_spot(canvas, cx, y + TAG_SPOT_Y, card.id, order, total)
        note = f"{card.id}" + (f"  (copy {copy + 1} of {card.copies})" if card.copies > 1
                               else "")
        put_text(canvas, note, x + 4, y + CARD_H - 4, 2.4, GREY, align="left")
    return draw


def pieces(game: TenFourGame) -> PieceList:
    """Four trucks, two Smokeys and the Bear."""

    trucks = [PrintedPiece(f"{c.capitalize()} truck", c, c.capitalize(), truck_icon)
              for c in COLOURS]
    return [*trucks, PrintedPiece("Smokey 1", "police", "S1", smokey_icon),
            PrintedPiece("Smokey 2", "police", "S2", smokey_icon),
            PrintedPiece("Bear", "police", "Bear", bear_icon)]


def _wheels(canvas: IconCanvas, xs: tuple[float, ...], y: float, ink: RGB) -> None:
    for wx in xs:
        canvas.ellipse(wx, y + 1.9, 0.9, 0.9, ink, None, 0)


def truck_icon(canvas: IconCanvas, x: float, y: float, ink: RGB) -> None:
    """A small silhouette of a truck."""
    canvas.rect(x - 4.6, y - 2.4, 6.2, 3.8, ink, None, 0)
    canvas.rect(x + 1.9, y - 1.2, 2.8, 2.6, ink, None, 0)
    _wheels(canvas, (x - 3.2, x - 0.6, x + 3.4), y, ink)


def smokey_icon(canvas: IconCanvas, x: float, y: float, ink: RGB) -> None:
    """A police car with its light."""
    canvas.rect(x - 4.6, y - 0.6, 9.2, 2.2, ink, None, 0)
    canvas.rect(x - 2.4, y - 2.2, 4.8, 1.8, ink, None, 0)
    canvas.rect(x - 1.2, y - 3.2, 2.4, 0.9, (230, 40, 40), None, 0)
    _wheels(canvas, (x - 2.8, x + 2.8), y, ink)


def bear_icon(canvas: IconCanvas, x: float, y: float, ink: RGB) -> None:
    """A helicopter: the Bear In The Air."""
    canvas.ellipse(x - 0.8, y, 3.0, 2.0, ink, None, 0)
    canvas.line([(x + 1.5, y - 0.3), (x + 5.0, y - 0.8)], ink, 0.8)
    canvas.line([(x - 5.0, y - 3.0), (x + 3.4, y - 3.0)], ink, 0.5)
    canvas.line([(x - 0.8, y - 3.0), (x - 0.8, y - 2.0)], ink, 0.5)


TOOLS = PrintTools(TenFourGame, players=4, reference=reference, pieces=pieces, cards=cards)
"""What ``cbrig print`` prints (rig.gametype.folder_parts)."""
