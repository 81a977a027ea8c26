"""How 10-Four, Good Buddy is said (RULINGS G6): its place codes, knobs and CB slang.

A highway space is printed on the board as its route's initial and a number ("B13"):
it is said "Blue thirteen"; a short cut "R16-G2" is "Red sixteen to Green two". The
knobs are the HI and LO bands ("high knob", "high band"). The slang decorates, as on
the screen: "Breaker one-nine!" before a card that calls the police, "Ten-four." after
a move; it never replaces the instruction. Everything else is the screen's own words.

One module, self-contained beyond the generic :mod:`rig.speech`, so that it can move
into the game's own folder as it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from cbrig.game import Part, Vocabulary, number_words, said_as
from engine.tenfour.board import COLOURS

_INITIALS = {colour[0].upper(): colour.capitalize() for colour in COLOURS}
_LETTERS = "".join(_INITIALS)
_CODE = re.compile(rf"\b([{_LETTERS}])(\d{{1,3}})\b")
_SHORT_CUT = re.compile(rf"\b([{_LETTERS}]\d{{1,3}})-([{_LETTERS}]\d{{1,3}})\b")


def _code(match: re.Match[str]) -> str:
    return f"{_INITIALS[match.group(1)]} {number_words(int(match.group(2)))}"


class TenFourVocabulary(Vocabulary):
    REPLACE = (
        (" (Hi-Band)", ""),
        (" (Lo-Band)", ""),
        ("10-4", "ten-four"),
        ("HI knob", "high knob"),
        ("LO knob", "low knob"),
        ("Hi-Band", "high band"),
        ("Lo-Band", "low band"),
        ("BREAK 1-9", "break one nine"),
    )
    AFTER_MOVE = "Ten-four."
    BEFORE_BREAK = "Breaker one-nine!"
    WINNER_TITLES = frozenset({"10-4, WINNER!"})
    POLICE = ("Smokey", "Bear")

    def breaks(self, parts: Iterable[Part]) -> bool:
        """Whether the card drawn calls the police (its text or the warning says so)."""
        return any(p.role in ("card", "warning") and "BREAK ONE NINE" in p.text.upper()
                   for p in parts)

    def likely(self, game: object) -> list[str]:
        """Every Mike card's text, as its prompt reads it aloud (rig.games.tenfour.view shows
        the card as a part of its own, in quotes), and the breaker before a police card."""
        deck = getattr(game, "deck", None)
        texts = [said_as(self, [Part(f'"{card.text}"', "card")])
                 for card in getattr(deck, "cards", ())]
        return [self.BEFORE_BREAK, self.AFTER_MOVE, *texts]

    def places(self, text: str) -> str:
        """"B13": "Blue thirteen"; "R16-G2": "Red sixteen to Green two"."""
        text = _SHORT_CUT.sub(r"\1 to \2", text)
        return _CODE.sub(_code, text)


VOCABULARY = TenFourVocabulary()
