"""How Bump 'Em is said (RULINGS G6): its track codes and tickets.

A track space is printed as "T35": it is said "track thirty-five"; the home stretch,
the pit and the finish are already words on the screen ("home stretch 3": "home stretch
three"). The Bump 'em! ticket and the game's name are said as words, not letters. A
result is said short: a forced move without its "Only move:" (the table just makes it),
and "Red cannot use 10" after "Red draws 10" as "Cannot use it".

One module, self-contained beyond the generic :mod:`rig.voice.speech`, so that it can move
into the game's own folder as it is.
"""

from __future__ import annotations

import re

from cbrig.game import Vocabulary, number_words

_TRACK = re.compile(r"\bT(\d{1,3})\b")
_BARE_CAR = re.compile(r"\b(Red|Blue|Green|Yellow) ([TH]\d{1,3}|in pit)\b")
"""A car named by colour and place only, as an oil slide's list of bumped cars is."""


def bare_cars(text: str) -> str:
    """"Green T25": "Green car at T25" ("Green in pit": "Green car in pit")."""
    return _BARE_CAR.sub(lambda m: f"{m.group(1)} car "
                         f"{'in pit' if m.group(2) == 'in pit' else 'at ' + m.group(2)}", text)
_HOME = re.compile(r"\bH(\d{1,2})\b")


_CANNOT = re.compile(r"^(\w+) cannot use (.+)$")
_FROM_PIT = re.compile(r"^\w+ car in pit (?:enters at|onto) (.+)$")
"""A move option out of the pit ("Red car in pit enters at T5")."""
_MOVE = re.compile(r"^\w+ car at (\S+): \d+ (back )?to (.+)$")
"""A move option of a car on the track ("Red car at T9: 1 to T10")."""


_DRAWS = re.compile(r"^(\w+) draws [^.]*\. ")
_NO_MOVE = re.compile(r"^(\w+) draws [^.]*\. Cannot use it\.?$")
_CAR_BRIEF = re.compile(r"(\w+) car at ([\w -]+?): [\w-]+ (back )?to ")
_PIT_BRIEF = re.compile(r"(\w+) car in pit enters at ")


class BumpEmVocabulary(Vocabulary):
    REPLACE = (("BUMP 'EM", "Bump 'em"),)
    WINNER_TITLES = frozenset({"CHECKERED FLAG"})

    def said_line(self, text: str, before: str) -> str:
        """"Only move: Red car at T6: 3 to T9": "Red car at T6: 3 to T9"; "Red cannot use
        10" after "Red draws 10": "Cannot use it"."""
        text = text.removeprefix("Only move: ")
        cannot = _CANNOT.match(text)
        if cannot and before == f"{cannot.group(1)} draws {cannot.group(2)}":
            return "Cannot use it"
        return text

    def brief(self, text: str, kind: str) -> str:
        """A move in brief, when the voice is behind: "Red draws ten. Red car at track
        ten: ten to track twenty": "Red: track ten to track twenty"; a ticket that could
        not be used: "Blue cannot move"."""
        if kind != "move":
            return text
        no_move = _NO_MOVE.match(text)
        if no_move is not None:
            return f"{no_move.group(1)} cannot move"
        text = _DRAWS.sub("", text)
        text = _CAR_BRIEF.sub(lambda m: f"{m.group(1)}: {m.group(2)} {m.group(3) or ''}to ",
                              text)
        return _PIT_BRIEF.sub(r"\1 enters at ", text).rstrip(".")

    def options(self, menu: tuple[str, ...]) -> bool:
        """Which move: the options are read out (the rig's only choice in Bump 'Em)."""
        return True

    def option(self, item: str) -> str:
        """A move in fewer words: the player's own colour and the count (the prompt
        says both) left out: "Red car at T9: 1 to T10": "T9 to T10"; "... 9 back to
        T37": "T46 back to T37"; "Red car in pit enters at T5": "from the pit onto T5";
        "Red car in pit onto Blue car at T20": "from the pit onto Blue car at T20"."""
        text = item.removeprefix("Only move: ")
        pit = _FROM_PIT.match(text)
        if pit is not None:
            return f"from the pit onto {pit.group(1)}"
        move = _MOVE.match(text)
        if move is not None:
            return f"{move.group(1)} {move.group(2) or ''}to {move.group(3)}"
        return text

    def places(self, text: str) -> str:
        """"T35": "track thirty-five"; a printed "H3": "home stretch three"; a car the
        screen names by colour and place only (an oil slide's bumped cars, "bumps Green
        T25, Yellow T57", short to fit a menu line) said as a car ("Green car at track
        twenty-five": issue 43, "bumps Yellow track fifty-seven" named no car)."""
        text = bare_cars(text)
        text = _TRACK.sub(lambda m: f"track {number_words(int(m.group(1)))}", text)
        return _HOME.sub(lambda m: f"home stretch {number_words(int(m.group(1)))}", text)


VOCABULARY = BumpEmVocabulary()
