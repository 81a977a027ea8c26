"""The correction menu (RULINGS G5): everything the table can get out of step with.

A long press opens it. The first list names every piece with where the rig thinks it
is ("Red truck at R8"), then whose turn it is, the lost turns, a Hammer Up, when there is
one the last menu choice or card tap to take back, and abandoning the game (RULINGS G7,
after a confirmation). A piece opens the places
it may be set to, in board order, the cursor on where it stands now: the HI knob steps
one place, the LO knob jumps a route or section. Every correction is an input like any
other: journaled, and replayed.
"""

from __future__ import annotations

from engine.api import Action, State
from rig.screens import words
from rig.screens.screen import Part
from rig.screens.views import CorrectionPlace, Fix, GameView
from valueclass import Frozen

CLOSE = "close"
TAKE_BACK = "take back"
STAY = "stay"
ABANDON = "abandon"
"""Abandon the game (RULINGS G7), once confirmed."""
ABANDON_ROW = Fix(words.ABANDON_ROW, options=((words.ABANDON_YES, ABANDON),),
                  question=words.ABANDON_QUESTION)


class Refusal(Frozen):
    text: str


Outcome = Action | Refusal | str
"""What a press asks of the controller: apply an action, refuse with a reason, or one of
CLOSE, TAKE_BACK, STAY, ABANDON."""


class CorrectionMenu:
    def __init__(self, view: GameView[State], state: State, rows: list[Fix]) -> None:
        self.view = view
        self.state = state
        self.rows = rows
        self.open: Fix | None = None
        self.places: list[CorrectionPlace] = []
        self.current = ""
        self.cursor = 0

    # ----------------------------------------------------------------- what shows
    def items(self) -> list[str]:
        if self.open is None:
            return [*(row.words for row in self.rows), words.DONE]
        if self.open.piece:
            return [place.words + (words.NOW if place.location == self.current else "")
                    for place in self.places] + [words.BACK]
        return [option for option, _ in self.open.options] + [words.BACK]

    def heading(self) -> Part:
        if self.open is None:
            return Part(words.FIX_WHAT[0], "instruction", words.FIX_WHAT[1])
        if self.open.piece:
            return Part(words.fix_to(self.open.words), "instruction", words.FIX_SET_TO)
        if self.open.question:
            return Part(self.open.question, "instruction", self.open.question.split("?")[0] + "?")
        return Part(words.fix(self.open.words), "instruction", words.FIX_CHOOSE)

    def footer(self) -> str:
        if self.open is not None and self.open.piece:
            return words.FIX_PLACES_FOOTER
        return words.FIX_FOOTER

    # ------------------------------------------------------------------- input
    def turn(self, knob: str, steps: int) -> None:
        if knob == "lo" and self.open is not None and self.open.piece:
            self.cursor = self._section_jump(steps)
        else:
            self.cursor = (self.cursor + steps) % len(self.items())

    def press(self) -> Outcome:
        if self.cursor == len(self.items()) - 1:  # "Done" / "Back"
            if self.open is None:
                return CLOSE
            self.cursor, self.open = self.rows.index(self.open), None
            return STAY
        if self.open is None:
            return self._choose_row(self.rows[self.cursor])
        if self.open.piece:
            location = self.places[self.cursor].location
            if location == self.current:
                return Refusal(words.ALREADY_THERE)
            return self.view.correction(self.open.piece, location)
        return self.open.options[self.cursor][1]

    def _choose_row(self, row: Fix) -> Outcome:
        if row.take_back:
            return TAKE_BACK
        if row.action is not None:
            return row.action
        self.open = row
        self.cursor = len(row.options) if row.question else 0  # a confirmation: on Back
        if row.piece:
            self.places = self.view.correction_places(self.state, row.piece)
            self.current = self.view.current_place(self.state, row.piece)
            at = [p.location for p in self.places]
            self.cursor = at.index(self.current) if self.current in at else 0
        return STAY

    def _section_jump(self, steps: int) -> int:
        """The first place of the next (or previous) section: a route, the traps..."""
        starts = [i for i, place in enumerate(self.places)
                  if i == 0 or place.section != self.places[i - 1].section]
        at = min(self.cursor, len(self.places) - 1)
        here = max(i for i, start in enumerate(starts) if start <= at)
        return starts[(here + steps) % len(starts)]
