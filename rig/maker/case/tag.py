"""Where a card's RFID tag sits: one figure the print kit and the case both read.

The print kit (rig/maker/printout/) draws the "RFID sticker here" spot on every card with its
centre TAG_FROM_BOTTOM mm above the card's bottom edge; the case (rig/maker/case/layout.py)
puts the reader's antenna under that spot for a card lying face up in its recess, read
the right way up from the front of the console (its top edge towards the back). Pure
Python: the print kit imports it without the case extra.
"""

from __future__ import annotations

CARD = (63.0, 88.0)
"""A printed card: poker size, width x height (mm)."""
TAG_DIAMETER = 25.0
"""A round 25 mm NFC/RFID sticker (the common size of an NTAG/MIFARE or EM4100 tag)."""
TAG_FROM_BOTTOM = 20.0
"""The tag's centre above the card's bottom edge, on the card's centre line."""
STICKER_PLAY = 1.0
"""How far a sticker stuck by hand on its printed spot may sit off it, each way."""


def tag_offset() -> tuple[float, float]:
    """The tag's centre from the card's centre (across, along towards the card's top)."""
    return (0.0, TAG_FROM_BOTTOM - CARD[1] / 2)


__all__ = ["CARD", "STICKER_PLAY", "TAG_DIAMETER", "TAG_FROM_BOTTOM", "tag_offset"]
