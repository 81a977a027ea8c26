"""How 10-Four, Good Buddy is said (RULINGS G6): its place codes, knobs and CB slang.

A highway space is printed on the board as its route's initial and a number ("B13"):
it is said "Blue thirteen"; a short cut "R16-G2" is "the short cut between Red sixteen
and Green two" (not "Red sixteen to Green two", which sounds like two more stops). The
knobs are the HI and LO bands ("high knob", "high band"). The slang decorates, as on
the screen: "Breaker one-nine!" once before a card that calls the police (it stands for
the card's own "BREAK ONE NINE!", which is not said a second time); it never replaces
the instruction. A card that names its band ("Spin the Lo-Band.") is read in full and
the knob to flick is not said again. A truck's move is said without the space it
starts from (each colour has one truck: "Red truck: three ahead to Red four"). The
police options (which Smokey or the Bear, and where) are read out so that a listener
can choose. Everything else is the screen's own words.

One module, self-contained beyond the generic :mod:`rig.voice.speech`, so that it can move
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
_SHORT_CUT = re.compile(
    rf"\b(?:(?:the )?short cut )?([{_LETTERS}]\d{{1,3}})-([{_LETTERS}]\d{{1,3}})\b( (?:on)?to )?")
_FLICK = re.compile(r"^\w+: flick the (HI|LO) knob \((?:Hi|Lo)-Band\)(?:, move spin \+(\d+))?$")
_EXTRA = re.compile(r"move (\d+) extra spaces?")
_FROM = re.compile(rf"^(\w+ truck) at [{_LETTERS}]\d{{1,3}}(?=: \d+ ahead)")
"""A truck's move from where it stands ("Red truck at R1: 3 ahead to R4")."""

POLICE = ("Smokey", "Bear")
"""The police pieces: a result that moves one is a police move."""
BREAKER = "Breaker one-nine!"
"""Said once before a card that calls the police."""
BREAK = "Break one nine!"
"""The card's own call, as said: the breaker stands for it."""


def _short_cut(match: re.Match[str]) -> str:
    """"by the short cut R16-G2 to G3": "by the short cut between R16 and G2, to G3" (a
    pause before where it ends, so the ends of the short cut are not heard as stops)."""
    onward = f",{match.group(3)}" if match.group(3) else ""
    return f"the short cut between {match.group(1)} and {match.group(2)}{onward}"


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
    WINNER_TITLES = frozenset({"10-4, WINNER!"})

    def said_line(self, text: str, before: str) -> str:
        """A truck's move is said without the place it starts from: each colour has one
        truck, so "Red truck" names it, and the table hears how far and where to ("Red
        truck: three ahead to Red four")."""
        return _FROM.sub(r"\1", text)

    def result_kind(self, text: str) -> str:
        """A Smokey or the Bear moved (or placed: "Red puts Smokey 1 ...") is a police
        move."""
        police = text.startswith(POLICE) or any(f" puts {piece}" in text for piece in POLICE)
        return "police" if police else "move"

    def card_lead(self, parts: Iterable[Part]) -> str:
        """The breaker before a card that calls the police (its text or the warning)."""
        calls = any(p.role in ("card", "warning") and "BREAK ONE NINE" in p.text.upper()
                    for p in parts)
        return BREAKER if calls else ""

    def led_card(self, said: str) -> str:
        return said.removeprefix(BREAK).lstrip()

    def adds(self, card: str, instruction: str) -> bool:
        """"Red: flick the LO knob (Lo-Band), move spin +1" adds nothing to a card that
        says "Spin the Lo-Band and move 1 extra space"."""
        flick = _FLICK.match(instruction)
        if flick is None or f"{flick.group(1).capitalize()}-Band" not in card:
            return True
        extra = _EXTRA.search(card)
        return (extra.group(1) if extra else None) != flick.group(2)

    def options(self, menu: tuple[str, ...]) -> bool:
        """The police options (which Smokey or the Bear, and where) are read out."""
        return all(item.removeprefix("Put ").startswith(POLICE) for item in menu)

    def likely(self, game: object) -> list[str]:
        """Every Mike card's text, as its prompt reads it aloud (rig.games.tenfour.view shows
        the card as a part of its own, in quotes), and the breaker before a police card."""
        deck = getattr(game, "deck", None)
        texts = []
        for card in getattr(deck, "cards", ()):
            part = Part(f'"{card.text}"', "card")
            said = said_as(self, [part])
            lead = self.card_lead([part])
            texts.append(f"{lead} {self.led_card(said)}" if lead else said)
        return [BREAKER, *texts]

    def places(self, text: str) -> str:
        """"B13": "Blue thirteen"; "short cut R16-G2": "the short cut between Red
        sixteen and Green two"."""
        text = _SHORT_CUT.sub(_short_cut, text)
        return _CODE.sub(_code, text)


VOCABULARY = TenFourVocabulary()
