"""How Ladders is said aloud: the knob as a word a listener knows."""

from __future__ import annotations

from cbrig.game import Vocabulary


class LaddersWords(Vocabulary):
    REPLACE = (("HI knob", "high knob"),)
    AFTER_MOVE = ""


VOCABULARY = LaddersWords()
"""Found by folder_parts (speech.py's VOCABULARY)."""
