"""What the rig says: one short utterance per screen, made from the screen's own parts.

RULINGS G6: where the rig has a sound output it speaks what the table must know (whose
turn, the card drawn with its text, the spin and the move, the police move chosen, every
alert, the winner) with the same pieces, numbers and places as the screen. So speech is
not written a second time: :func:`utterance` takes the :class:`~rig.screen.Screen` the
controller already built, keeps the parts a person needs to hear (by their roles: the
instruction, the card, the warning, the news, the result, the alert; never the menu, the
hint or the footer) and lets the game's vocabulary say its place codes as words
("B13": "Blue thirteen"). Voice and screen cannot drift apart: they are one value.

Each game's vocabulary (its codes, its slang) is its folder's ``speech`` module
(``rig/games/<name>/speech.py``), named by its registry entry and found by game name
through :func:`vocabulary_for`.
Everything here is pure: no audio, no clock; :mod:`rig.voice` speaks the result.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from rig.screen import Part, Screen
from valueclass import Frozen, set_field

EVENTS = ("turn", "card", "move", "police", "alert", "winner", "refusal")
"""The kinds of utterance, which the ``[voice] events`` setting picks from:

- turn: whose turn it is and what to do (draw, spin, choose), with the news before it;
- card: the Mike card drawn, read aloud with its printed text, and what to spin;
- move: the result of a move (where the piece goes);
- police: the police move chosen (a Smokey or the Bear);
- alert: a catch, a bump, a slide, a zoom, a reshuffle;
- winner: the winner and the sign-off;
- refusal: why an input was refused, in a few words.
"""

SPOKEN_ROLES = frozenset({"news", "card", "instruction", "warning", "text"})
"""The parts of a prompt screen that are said (not the hint, the computer's note, the
refusal, which is said alone, nor any menu item)."""
MOMENT_ROLES = frozenset({"result", "alert"})
"""The roles of a result or alert screen's parts (rig.controller's moments)."""
SPINNING = "spinning..."
"""The spin animation's line (rig.controller): the animation is silent."""
SILENT_TITLES = frozenset({"CORRECTION", "NEW GAME"})
"""Screens a person works through with the knobs (nothing there to announce)."""


class Utterance(Frozen):
    """One thing to say, and what kind of moment it is (see `EVENTS`)."""

    __slots__ = ("kind", "text")
    text: str
    kind: str

    def __init__(self, text: str, kind: str) -> None:
        set_field(self, "text", text)
        set_field(self, "kind", kind)


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
_SENTENCE_START = re.compile(r"(?<=[.!?] )[a-z]")


def _number_match(match: re.Match[str]) -> str:
    raw = match.group(0)
    plus = "plus " if raw.startswith("+") else ""
    return plus + number_words(int(raw.lstrip("+")))


class Vocabulary:
    """How one game's words are said. The base says numbers as words and speaks capital
    slang in a normal voice ("BEAR BITE!": "Bear bite!"); a game adds its place codes,
    its knobs and its slang decorations (`DECORATIONS`)."""

    REPLACE: tuple[tuple[str, str], ...] = ()
    """Plain text replacements made first (e.g. "HI knob": "high knob")."""
    KEEP_CAPS: frozenset[str] = frozenset()
    """Words in capitals that are said as letters (none by default)."""
    AFTER_MOVE = ""
    """Slang said after a move's result ("Ten-four."): it decorates, never replaces."""
    BEFORE_BREAK = ""
    """Slang said before a card that calls the police ("Breaker one-nine!")."""
    WINNER_TITLES: frozenset[str] = frozenset()
    """Alert headlines that announce the winner."""
    POLICE: tuple[str, ...] = ()
    """How a result that moves a police piece begins ("Smokey", "Bear")."""

    @property
    def decorations(self) -> tuple[str, ...]:
        """The slang this vocabulary adds to what the screen says (tests take it out
        before comparing an utterance with its screen)."""
        return tuple(d for d in (self.AFTER_MOVE, self.BEFORE_BREAK) if d)

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

    def is_police(self, text: str) -> bool:
        """Whether a result moves (or places) a police piece."""
        return bool(self.POLICE) and (text.startswith(self.POLICE) or any(
            f" puts {piece}" in text for piece in self.POLICE))

    def likely(self, game: object) -> list[str]:
        """Texts this game will say sooner or later whatever happens (its cards, its
        fixed prompts), each as `utterance` says it: the voice renders them ahead, at
        low priority, so that they are cached when their moment comes. None here."""
        return []

    def breaks(self, parts: Iterable[Part]) -> bool:
        """Whether the card drawn is one `BEFORE_BREAK` is said before (none here)."""
        return False


def said_as(vocabulary: Vocabulary, parts: Iterable[Part]) -> str:
    """Parts said as `utterance` says them (for a vocabulary's `likely` texts)."""
    return _say(vocabulary, parts)


def vocabulary_for(game: str) -> Vocabulary:
    """The vocabulary of a game by its registered name (a game without one of its own
    gets the base: numbers and capitals only)."""
    from rig.registry import find

    found = find(game)
    if found is None or found.speech is None:
        return Vocabulary()
    return found.speech()


def _sentence(text: str) -> str:
    """A spoken sentence ends in a stop (a pause in every synthesizer)."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def _say(vocabulary: Vocabulary, parts: Iterable[Part], lead: str = "",
         tail: str = "") -> str:
    sentences = [lead] if lead else []
    sentences += [_sentence(vocabulary.words(p.text)) for p in parts]
    sentences += [tail] if tail else []
    return _SENTENCE_START.sub(lambda m: m.group(0).upper(),
                               " ".join(s for s in sentences if s))


@lru_cache(maxsize=256)
def utterance(screen: Screen, vocabulary: Vocabulary) -> Utterance | None:
    """What to say for this screen, or None for a screen that says nothing new (the
    spin animation, menus a person works through, an empty screen).

    A refusal is said alone, in its few words; a result or alert screen says each of
    its lines (an alert after its headline, a move followed by the game's slang); a
    prompt says the news, the card, the instruction and the warnings, in screen order.
    """
    if screen.title in SILENT_TITLES:
        return None
    parts = screen.parts()
    refusal = next((p for p in parts if p.role == "refusal"), None)
    if refusal is not None:
        return Utterance(_say(vocabulary, [Part(refusal.text.removeprefix("! "))]), "refusal")
    if any(p.text == SPINNING for p in parts) or not parts:
        return None
    if all(p.role in MOMENT_ROLES for p in parts):
        return _moment(screen, parts, vocabulary)
    spoken = [p for p in parts if p.role in SPOKEN_ROLES]
    if not spoken:
        return None
    if screen.footer.startswith("long press"):  # the game is over: the sign-off
        return Utterance(_say(vocabulary, spoken), "winner")
    card = any(p.role == "card" for p in spoken)
    lead = vocabulary.BEFORE_BREAK if card and vocabulary.breaks(spoken) else ""
    return Utterance(_say(vocabulary, spoken, lead), "card" if card else "turn")


def _moment(screen: Screen, parts: tuple[Part, ...], vocabulary: Vocabulary) -> Utterance:
    """A result or alert screen (titled with the mover, or the alert's headline)."""
    if screen.alert:
        kind = "winner" if screen.title in vocabulary.WINNER_TITLES else "alert"
        headline = _sentence(vocabulary.words(screen.title))
        return Utterance(_say(vocabulary, parts, lead=headline), kind)
    kind = "police" if vocabulary.is_police(parts[0].text) else "move"
    return Utterance(_say(vocabulary, parts, tail=vocabulary.AFTER_MOVE), kind)


__all__ = ["EVENTS", "Utterance", "Vocabulary", "number_words", "utterance",
           "vocabulary_for"]
