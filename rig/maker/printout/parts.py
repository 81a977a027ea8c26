"""The records a game's print tools answer in: its cards (`CardFace`, `CardSheet`) and
its pieces (`PrintedPiece`, `PieceList`).

The shared type of the game records: `rig.gametype` names them and
`rig.maker.printout.sheets` (which finds a game's print tools in the registry) prints
them; this module imports neither, so the game records stand on it without a circle.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from rig.maker.boardart.geometry import RGB, Point
from rig.maker.boardart.pdf import PdfCanvas
from valueclass import Frozen


class CardFace(Frozen):
    """One physical card to print."""

    ident: str
    """The deck entry (Mike card id or ticket kind) its RFID tag is enrolled to."""
    order: int
    """Its place in the enrolment order (1-based)."""
    draw: Callable[[PdfCanvas, float, float], None]
    """Draws the face with its top-left corner at (x, y)."""


CardSheet = tuple[list[CardFace], list[tuple[str, str]], list[str], str]
"""A game's cards: the faces, the enrolment order (id, words), how to enrol, the title."""


class IconCanvas(Protocol):
    """What a piece's icon draws on (a page, or a page turned half round)."""

    def line(self, points: Sequence[Point], colour: RGB, width: float,
             dashed: bool = False) -> None: ...

    def ellipse(self, x: float, y: float, rx: float, ry: float, fill: RGB | None,
                ink: RGB | None, width: float, dashed: bool = False) -> None: ...

    def rect(self, x: float, y: float, w: float, h: float, fill: RGB | None,
             ink: RGB | None, width: float, radius: float = 0.0,
             dashed: bool = False) -> None: ...


Icon = Callable[[IconCanvas, float, float, RGB], None]
"""Draws a small silhouette centred on (x, y) in the given ink (the game's own shapes)."""


class PrintedPiece(Frozen):
    """One piece in the box, as its token and standee show it."""

    name: str
    """As the rig says it ("Red truck"): the caption under the token."""
    colour: str
    """A board colour (rig.maker.boardart.geometry.INK); any other name prints dark grey."""
    word: str
    """The short word on the token ("Red", "S1")."""
    icon: Icon | None = None


PieceList = list[PrintedPiece]
"""Every piece in the box."""
