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
_HOME = re.compile(r"\bH(\d{1,2})\b")


_CANNOT = re.compile(r"^(\w+) cannot use (.+)$")


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

    def places(self, text: str) -> str:
        """"T35": "track thirty-five"; a printed "H3": "home stretch three"."""
        text = _TRACK.sub(lambda m: f"track {number_words(int(m.group(1)))}", text)
        return _HOME.sub(lambda m: f"home stretch {number_words(int(m.group(1)))}", text)


VOCABULARY = BumpEmVocabulary()
