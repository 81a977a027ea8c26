"""A decision's menu: its cursor, the computer seats' thinking and the hint.

At a decision the table turns a knob over the legal choices and presses one. A computer
seat (or a hint) works its choice out on the loop's ticks, in slices when its level
thinks in slices (`Seat.think`), so thinking never delays what the table sees.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from engine.api import Action, State
from engine.search import Thinking
from hardware.events import CardPresented, KnobPress, KnobSpin, KnobTurn
from rig.core.face import Face
from rig.core.session import Session
from rig.screens import words
from rig.screens.views import GameView
from valueclass import Record

SLICE_MS = 2.0
"""How long a slice of a pending search runs before the loop looks for events again (it
ends after the sample that crosses it: one sample is the least)."""
SLICE_SAMPLES = 16
"""Most samples a slice runs (a clock that does not move, as in tests, ends it here)."""

Chooser = Callable[[State, list[Action]], Action]


class Seat(Record):
    """A seat's controller: a person, or a computer level whose choices are announced."""

    level: str = "human"
    chooser: Chooser | None = None
    think: Callable[[State, list[Action]], Thinking] | None = None
    """Starts the choice in slices (a `hard` level): the loop advances it between events
    instead of blocking on `chooser`, which gives the same answer in one go."""


class Decisions:
    """The menu at a decision and the seats' choices on it."""

    def __init__(self, session: Session, view: GameView[State], seats: list[Seat],
                 face: Face, apply: Callable[[Action], bool],
                 waiting_for: Callable[[], str]) -> None:
        self.session = session
        self.view = view
        self.seats = seats
        self.face = face
        self.apply = apply
        self.waiting_for = waiting_for
        self.cursor = 0
        self.hinted = 0
        """The computer's choice (or a person's hint) at this decision."""
        self.choice_pending = False
        self.thinking: Thinking | None = None
        """The pending choice's search, while it runs in slices."""
        self.cursor_moved = False
        """A person turned the menu at this decision: a hint that arrives leaves it."""
        self.work_clock: Callable[[], float] = time.perf_counter
        """What ends a slice of thinking (`SLICE_MS`): the real time spent, whatever the
        loop's clock says (an emulated rig's stands still). Tests may freeze it."""

    def choices(self) -> list[Action]:
        """The legal choices in menu order (the view's board order)."""
        state = self.session.state
        return self.view.menu_order(state, list(state.legal_actions()))

    def preselect(self, over: bool) -> None:
        """At a decision for a computer seat (or with hints), ask for its choice soon.

        The choice is worked out on the loop's next tick, after the frame for this
        input is drawn, so thinking never delays what the table sees.
        """
        self.cursor = self.hinted = 0
        self.choice_pending = False
        self.thinking = None  # a search for the position before is dropped
        self.cursor_moved = False
        state = self.session.state
        if over or state.is_chance_node():
            return
        self.choice_pending = self.seats[state.current_player()].chooser is not None

    def think(self) -> None:
        """Work on the pending choice for one slice (the loop sends a Tick only when no
        event waits): a level that thinks in slices runs up to `SLICE_SAMPLES` samples or
        `SLICE_MS`, the others choose at once."""
        if not self.choice_pending:
            return
        state = self.session.state
        seat = self.seats[state.current_player()]
        if seat.think is None:
            self.resolve_choice(move_cursor=True)
            return
        if self.thinking is None:
            self.thinking = seat.think(state, list(state.legal_actions()))
        ends = self.work_clock() + SLICE_MS / 1000
        for _ in range(SLICE_SAMPLES):
            action = self.thinking.advance(1)
            if action is not None:
                self.chosen(action, move_cursor=seat.level != "hint" or not self.cursor_moved)
                return
            if self.work_clock() >= ends:
                return

    def resolve_choice(self, move_cursor: bool) -> None:
        """Work out the pending choice at once; the cursor follows it unless a person
        moved it."""
        if not self.choice_pending:
            return
        state = self.session.state
        chooser = self.seats[state.current_player()].chooser
        assert chooser is not None
        self.chosen(chooser(state, list(state.legal_actions())), move_cursor)

    def chosen(self, action: Action, move_cursor: bool) -> None:
        """The pending choice is made: mark it (and put the cursor on it)."""
        self.choice_pending = False
        self.thinking = None
        self.hinted = self.choices().index(action)
        if move_cursor:
            self.cursor = self.hinted

    def handle(self, event: object) -> None:
        """An input at a decision: a turn moves the cursor, a press takes its choice."""
        seat = self.seats[self.session.state.current_player()]
        if seat.think is None:
            self.resolve_choice(move_cursor=seat.level != "hint")
        elif self.choice_pending and seat.level != "hint" and isinstance(event, KnobPress):
            self.face.refuse(words.THINKING)  # the computer's move shows when its search ends
            return
        legal = self.choices()
        if isinstance(event, KnobTurn):
            self.cursor = (self.cursor + event.steps) % len(legal)
            self.cursor_moved = True
        elif isinstance(event, KnobPress):
            self.apply(legal[min(self.cursor, len(legal) - 1)])
        elif isinstance(event, CardPresented):
            self.face.refuse(words.not_now(self.waiting_for()))
        elif isinstance(event, KnobSpin):
            self.face.refuse(words.NO_SPIN_HERE)
