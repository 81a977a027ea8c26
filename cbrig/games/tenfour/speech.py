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
_TRUCK_OPTION = re.compile(r"^(\w+ truck) at (\S+): \d+ to (.+)$")
"""A two-player truck choice ("Red truck at R1: 6 to R7", "..., caught!")."""
_DECLARE_OPTION = re.compile(r"^(\w+ truck) at (\S+)( \(Hammer Up\))?$")
"""A two-player truck declared before the draw ("Red truck at R18 (Hammer Up)")."""
_SMOKEY_OPTION = re.compile(r"^(Smokey \d) (?:in the Bear Trap on \w+|at \S+): (\d+) (.+)$")
"""A police move of a Smokey on the board ("Smokey 1 in the Bear Trap on Blue: 10 to
B19", "Smokey 2 at Y3: 5 into the Bear Trap on Yellow")."""
_TRAP_OPTION = re.compile(r"^(Smokey \d) into the Bear Trap on (\w+)$")
"""A Smokey out of the Park (or put in, two players) into a trap."""
_BEAR_OPTION = re.compile(r"^Bear to the (\w+) route$")
"""The Bear out of the Park, or to another route."""

_BRIEF = (
    (re.compile(r"^(\w+) truck: [\w-]+ (?:ahead )?to "), r"\1 to "),
    (re.compile(r"^(Smokey \w+) (?:in the Bear Trap on \w+|at [\w -]+?): [\w-]+ "
                r"(?:by the short cut between [\w -]+?, )?(to|into) "), r"\1 \2 "),
    (re.compile(r"^Bear In The Air to "), "Bear to "),
    (re.compile(r": to the side of the road, loses next turn"), ", loses next turn"),
)
"""A move and a police move in brief, when the voice is behind ("Red truck: three ahead
to Red nine": "Red to Red nine"; "Smokey two in the Bear Trap on Blue: ten by the short
cut between ..., to Yellow three": "Smokey two to Yellow three")."""

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
    FLAVOUR = (("move", "Ten-four."), ("police", "Ten-four."))
    """The rulebook's "ten-four" after a move, in silent time only (the game's end says
    its own: "Ten-four, winner! ... Adios")."""

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

    def brief(self, text: str, kind: str) -> str:
        """A move, police move or alert in brief (`_BRIEF`): the piece and where it
        ends, a catch and its cost ("Bear bite! Green to Yellow three. Caught by Smokey
        two, loses next turn."); a card without the spin it asked for (its move says
        what came of it): the breaker and the card's own words."""
        sentences = re.split(r"(?<=[.!?])\s+", text)
        if kind == "card":
            return " ".join(s for s in sentences if not s.startswith("Spin the"))
        if kind not in ("move", "police", "alert"):
            return text
        out = []
        for sentence in sentences:
            for pattern, into in _BRIEF:
                sentence = pattern.sub(into, sentence)
            out.append(sentence)
        return " ".join(out)

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
        """The police options (which Smokey or the Bear, and where) and the two-player
        truck choice (which truck, from where, to where) are read out."""
        return all(item.removeprefix("Put ").startswith(POLICE)
                   or _TRUCK_OPTION.match(item) is not None
                   or _DECLARE_OPTION.match(item) is not None for item in menu)

    def option(self, item: str) -> str:
        """An option in the fewest words that still say which piece, from where and to
        where, short enough to hear between two turns of the knob at 3 s a gesture
        (issue 43): "Red truck: R1 to R7" ("... to R7 caught": no pause before it, a
        comma costs about 0.3 s); a Smokey by its number and where it ends ("Smokey 1:
        B19", "Smokey 1: Y3", "Smokey 2: Yellow trap", "..., catches Red"): a Smokey
        moves 10 but for a trap, so the count and a short cut on the way (two options
        never end on one space) are left to the screen and to the move's result; the
        Bear by its route ("Bear: Red route")."""
        truck = _TRUCK_OPTION.match(item)
        if truck is not None:
            to = truck.group(3).replace(", caught!", " caught")
            return f"{truck.group(1)}: {truck.group(2)} to {to}"
        declared = _DECLARE_OPTION.match(item)
        if declared is not None:
            hammer = ", Hammer Up" if declared.group(3) else ""
            return f"{declared.group(1)} at {declared.group(2)}{hammer}"
        item = item.removeprefix("Put ")
        smokey = _SMOKEY_OPTION.match(item)
        if smokey is None:
            item = _TRAP_OPTION.sub(r"\1: \2 trap", item)
            return _BEAR_OPTION.sub(r"Bear: \1 route", item)
        where = re.sub(r"^into the Bear Trap on (\w+)", r"\1 trap", smokey.group(3))
        where = re.sub(r" by short cut(?=,|$)", "", where)
        return f"{smokey.group(1)}: {where.removeprefix('to ')}"

    def choice_prompt(self, said: str) -> str:
        """A police choice's prompt without the card's "Break one nine!" (the breaker
        said it before the card), and taking a piece out of the Park said short."""
        said = said.replace(f" {BREAK} ", " ").replace(f" {BREAK.lower()} ", " ").replace(
            "Take a police car out of Yellowstone Park.", "police out of the Park:")
        return re.sub(r": Move a Smokey( or the Bear)?\.", r": move a Smokey\1:", said)

    def likely(self, game: object) -> list[str]:
        """Every Mike card's text, as its prompt reads it aloud (cbrig.games.tenfour.view shows
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
