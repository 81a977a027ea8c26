"""What the table sees of a game now, and which inputs that screen takes.

The controller's parts (its chance input, its decisions, its correction menu) change
what shows only through a `Face`: `enter` (the mode, rig/core/modes.py) and `refuse`
(the refusal line). The face also keeps the guards of a new screen: a result that
appeared by itself, or a screen an input just made, takes no input for `ACK_GUARD_MS`,
and a double press is answered, never taken for the next step (issue 43).
"""

from __future__ import annotations

from collections.abc import Callable

from hardware.events import CardPresented, KnobPress, KnobSpin, KnobTurn
from rig.core.modes import (
    Acknowledging,
    Animation,
    Mode,
    Moment,
    MomentArrived,
    Playing,
    SpinEnded,
    Trigger,
    next_mode,
)
from rig.screens import words
from rig.screens.screen import Part
from rig.screens.views import Notice
from valueclass import Frozen

REFUSAL_MS = 2500
ACK_GUARD_MS = 400
"""How long a new screen takes no input after an input (or a spin's end) made it: a
result, the next step's prompt, the next player's turn. Less than a person takes to see
a new screen and press, so a press made during the spin, or on its way as the result
appeared, is never taken as "ok" for a result nobody saw, and the second press of a
double press (0.12 s apart) never takes the next turn's step (issue 43)."""
GUARDED = (KnobPress, KnobSpin, CardPresented)
"""The inputs a new prompt does not take within `ACK_GUARD_MS` (a turn only moves a
cursor: browsing is never refused)."""
KNOB = (KnobPress, KnobTurn, KnobSpin)
ACKNOWLEDGE = (*KNOB, CardPresented)
"""What acknowledges a result screen: a person acting (lifting a card off the reader
is not: the tap that made the result is one gesture with it)."""


class Refused(Frozen):
    """A refusal line ("! Spin the HI knob") and when it fades."""

    text: str
    until: float


class Face:
    """The mode, the refusal line, the news, the page and the answer on a result
    screen, with the waits that guard a new screen."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.mode: Mode = Playing()
        """Which part takes an input and what shows (rig/core/modes.py): `enter` changes it
        (and a failed save puts it back with the rest of the controller)."""
        self.refusal: Refused | None = None
        self.news: list[Notice] = []
        self.page = 0
        self.answer = ""
        """The words answering an input the result screen did not take (its footer)."""
        self.ready_at: float | None = None
        """Until when the result on screen takes no acknowledgement (`ACK_GUARD_MS`
        after it appeared at the end of a spin); None when any input is taken."""
        self.settled_at: float | None = None
        """Until when the screen an input just made (a result, the next step's prompt,
        the next player's turn) takes no input like it (`ACK_GUARD_MS`): the second press
        of a double press is answered, never taken for the next step."""
        self.settled_by: type | None = None
        """The kind of input that made that screen (a press, a flick, a card): the same
        again within the guard is the double; another gesture is a person going on."""

    def enter(self, trigger: Trigger) -> None:
        """The one way the mode changes (the table of changes is `rig.core.modes.next_mode`);
        an answer on a result screen, and its wait, go with the screen."""
        self.mode = next_mode(self.mode, trigger)
        self.ready_at, self.settled_at, self.answer = None, None, ""

    def refuse(self, text: str) -> None:
        self.refusal = Refused(text, self.clock() + REFUSAL_MS / 1000)

    def tick(self, now: float) -> None:
        """The waits that are over end."""
        if self.ready_at is not None and now >= self.ready_at:
            self.ready_at = None
        if self.settled_at is not None and now >= self.settled_at:
            self.settled_at = None

    def settle(self, event: object, now: float) -> None:
        """``event`` made a new screen (a result, the next step's prompt, the next
        player's turn): the screen takes no input like it for `ACK_GUARD_MS` (a spin's
        own result is guarded from the spin's end instead: `end_spin`). The controller
        settles only a person's input, and none while a result's own wait runs."""
        self.settled_at, self.settled_by = now + ACK_GUARD_MS / 1000, type(event)

    def early_on_prompt(self, event: object, now: float) -> bool:
        """Whether an input reached the prompt too soon after the screen before it went:
        answered in words, on this screen, and not taken."""
        if not isinstance(self.mode, Playing) or not self.double(event, now):
            return False
        self.refuse(words.DOUBLE_PRESS)
        return True

    def double(self, event: object, now: float) -> bool:
        """Whether ``event`` repeats, within the guard, the input that made the screen
        (a double press, a card tapped twice)."""
        return (isinstance(event, GUARDED) and self.settled_at is not None
                and now < self.settled_at and type(event) is self.settled_by)

    def end_spin(self, now: float) -> None:
        """The animation gives way to its result, which takes no acknowledgement for
        `ACK_GUARD_MS`: it appeared by itself, not in answer to a person's input."""
        self.enter(SpinEnded())
        if isinstance(self.mode, Acknowledging):
            self.ready_at = now + ACK_GUARD_MS / 1000

    def too_soon(self, event: object, animation: Animation, now: float) -> None:
        """Answer an input that came while the spin animated, on the spinner's own
        screen: the result it led to, with the answer in its footer. A spin that leads
        straight to the next prompt (the start order) shows what it spun first, titled
        with the spinner, so the answer is never on the next player's screen."""
        if not isinstance(self.mode, Acknowledging):
            news = [Part(n.text, "result", n.short) for n in self.news]
            self.news = []
            parts = tuple(news) or (Part(words.spun(animation.final), "result"),)
            self.enter(MomentArrived(Moment(title=animation.title, parts=parts,
                                            big=animation.final)))
            self.ready_at = now + ACK_GUARD_MS / 1000
        self.answer = words.early_answer(event)

    def not_acknowledging(self, event: object, now: float,
                          next_page: Callable[[], bool]) -> bool:
        """Whether an input on a result screen leaves it as it is: a card lifted off
        the reader (the table has not read it yet), any input before the result can
        have been seen (answered), or a flick (it reads on to the next page, but on the
        last it is answered: a flick is not "ok")."""
        if not isinstance(event, ACKNOWLEDGE):
            return True
        if (self.ready_at is not None and now < self.ready_at) or self.double(event, now):
            self.answer = words.early_answer(event)
            return True
        if isinstance(event, KnobSpin):
            if not next_page():  # a flick reads on, as a press does...
                self.answer = words.NOT_A_FLICK  # ...but is no "ok" for the last page
            return True
        return False
