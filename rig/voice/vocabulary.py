"""How one game's words are said (`Vocabulary`), and numbers in words.

The shared type of the game records: `rig.gametype` names it and `rig.voice.speech`
(which finds a game's vocabulary in the registry) speaks with it; this module imports
neither, so the game records stand on it without a circle.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from rig.screens.screen import Part

# -- numbers in words -----------------------------------------------------------------------

_ONES = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
         "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
         "seventeen", "eighteen", "nineteen")
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty",
         "ninety")


def number_words(n: int) -> str:
    """0 to 9999 in English words ("35": "thirty-five"); larger numbers as digits.

    Said as words here rather than left to the synthesizer, so the text that is cached,
    logged and tested is exactly what is heard, whichever synthesizer speaks it."""
    if n < 0:
        return "minus " + number_words(-n)
    if n < 20:
        return _ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + (f"-{_ONES[ones]}" if ones else "")
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        return f"{_ONES[hundreds]} hundred" + (f" and {number_words(rest)}" if rest else "")
    if n < 10000:
        thousands, rest = divmod(n, 1000)
        tail = "" if not rest else (" and " if rest < 100 else " ") + number_words(rest)
        return f"{_ONES[thousands]} thousand{tail}"
    return str(n)


_NUMBER = re.compile(r"(?<![\w.])\+?\d+(?![\w.])")
_CAPS = re.compile(r"\b[A-Z][A-Z']+\b")
_COMMAND = re.compile(r"\s*\(cbrig [^)]*\)")
"""A command in brackets, for the owner ("(cbrig cards enroll)"): read, not said."""


def _number_match(match: re.Match[str]) -> str:
    raw = match.group(0)
    plus = "plus " if raw.startswith("+") else ""
    return plus + number_words(int(raw.lstrip("+")))


class Vocabulary:
    """How one game's words are said. The base says numbers as words and speaks capital
    slang in a normal voice ("BEAR BITE!": "Bear bite!"); a game adds its place codes,
    its knobs, its slang decorations and the hooks below (none of which the base uses
    a game's word for)."""

    REPLACE: tuple[tuple[str, str], ...] = ()
    """Plain text replacements made first (e.g. "HI knob": "high knob")."""
    KEEP_CAPS: frozenset[str] = frozenset()
    """Words in capitals that are said as letters (none by default)."""
    WINNER_TITLES: frozenset[str] = frozenset()
    """Alert headlines that announce the winner."""
    AFTER_MOVE = ""
    """Slang said after a move's result ("Oink."): it decorates, never replaces. None by
    default: the roger beep closes each transmission, and the table's pace asks for few
    words (10-Four's "Ten-four." is left out for that)."""

    FLAVOUR: tuple[tuple[str, str], ...] = ()
    """CB slang said after a moment of a kind, in time that would otherwise be silent
    ((kind, words), e.g. ("move", "Ten-four.")): handed as routine speech of its own
    (`FLAVOUR_KIND`), it yields to whatever comes next and is dropped when the table has
    moved on, so it never delays a word the table needs (RULINGS G6: slang decorates)."""

    def flavour(self, kind: str) -> str:
        """The slang said after a moment of ``kind`` ("" for none)."""
        return next((words for k, words in self.FLAVOUR if k == kind), "")

    @property
    def decorations(self) -> tuple[str, ...]:
        """The slang this vocabulary adds to what the screen says (a test takes it out
        before it compares an utterance with its screen)."""
        return (self.AFTER_MOVE,) if self.AFTER_MOVE else ()

    def places(self, text: str) -> str:
        """Place codes in words; the game's own (the base has none)."""
        return text

    def words(self, text: str) -> str:
        """Screen text as it is said: replacements, place codes, numbers, capitals."""
        for old, new in self.REPLACE:
            text = text.replace(old, new)
        text = _COMMAND.sub("", self.places(text))
        text = _NUMBER.sub(_number_match, text)
        text = _CAPS.sub(self._caps, text)
        return " ".join(text.replace('"', "").split())

    def _caps(self, match: re.Match[str]) -> str:
        word = match.group(0)
        return word if word in self.KEEP_CAPS else word.lower()

    def said_line(self, text: str, before: str) -> str:
        """A result or alert line as it is said, after the line ``before`` it ("" for
        the first): the game may leave out what the listener knows already (the base
        says it all)."""
        return text

    def result_kind(self, text: str) -> str:
        """The kind of a result screen whose first line is ``text``: "move", or
        "police" where the game says the piece moved is not a player's."""
        return "move"

    def card_lead(self, parts: Iterable[Part]) -> str:
        """Slang said before the card drawn ("" for none)."""
        return ""

    def led_card(self, said: str) -> str:
        """The card's spoken text after `card_lead`: the game takes out its own words
        for what the lead already said (no phrase said twice)."""
        return said

    def adds(self, card: str, instruction: str) -> bool:
        """Whether the instruction shown after a card tells the table more than the
        card read aloud does (by default it does, and is said)."""
        return True

    def options(self, menu: tuple[str, ...]) -> bool:
        """Whether a choice's options are read out (the base reads none)."""
        return False

    def option(self, item: str) -> str:
        """One option of a choice in its shortest spoken form, still screen text (the
        places as codes: `words` says them); by default the menu item as it is."""
        return item

    def knob(self, said: str) -> str:
        """The option under the knob as said (words, not codes), in fewer words where
        the game can say it shorter still (Bump 'Em names the track once); by default
        as it is."""
        return said

    def choice_prompt(self, said: str) -> str:
        """The spoken prompt of a choice before its options (the game may say it in
        fewer words: the options carry the details); by default as it is."""
        return said

    def brief(self, text: str, kind: str) -> str:
        """What is said of an utterance (``text``, of ``kind``) when the voice has
        fallen behind and says what is queued in fewer words ("Red to Red nine."): the
        facts that still matter, no history. By default all of it; "" for nothing."""
        return text

    def likely(self, game: object) -> list[str]:
        """Texts this game will say sooner or later whatever happens (its cards, its
        fixed prompts), each as `utterance` says it: the voice renders them ahead, at
        low priority, so that they are cached when their moment comes. None here."""
        return []
