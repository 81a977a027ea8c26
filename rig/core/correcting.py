"""The correction menu at work (RULINGS G5, G7): a long press opens it over the game,
its presses correct a piece or the turn, take the last input back or abandon the game.
The menu itself (its rows, cursor and questions) is `rig.core.corrections.CorrectionMenu`.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.api import Action, State
from hardware.events import CardPresented, KnobPress, KnobSpin, KnobTurn
from rig.core.corrections import (
    ABANDON,
    ABANDON_ROW,
    CLOSE,
    STAY,
    TAKE_BACK,
    CorrectionMenu,
    Refusal,
)
from rig.core.face import Face
from rig.core.journalread import JournalError
from rig.core.modes import (
    Correcting,
    CorrectionClosed,
    CorrectionOpened,
    MomentArrived,
    TakenBack,
)
from rig.core.replay import describe_input
from rig.core.session import Session
from rig.screens import words
from rig.screens.views import Fix, GameView, Notice


class Corrections:
    """Opens and closes the correction menu and does what its presses ask."""

    def __init__(self, session: Session, view: GameView[State], face: Face,
                 apply: Callable[[Action], bool], moved_on: Callable[[], None],
                 tapped: Callable[[], int]) -> None:
        """``moved_on``: the game is at a new position (the decision's menu starts
        over); ``tapped``: the step of the last card tapped on the reader."""
        self.session = session
        self.view = view
        self.face = face
        self.apply = apply
        self.moved_on = moved_on
        self.tapped = tapped

    def toggle(self, over: bool) -> None:
        state = self.session.state
        if isinstance(self.face.mode, Correcting):
            self.face.enter(CorrectionClosed())
        elif not over:
            menu = CorrectionMenu(self.view, state, self.rows(state))
            self.face.enter(CorrectionOpened(menu))

    def rows(self, state: State) -> list[Fix]:
        rows = [Fix(said, piece=piece) for piece, said in self.view.correction_pieces(state)]
        rows += self.view.turn_fixes(state)
        last = self.take_back_offer()
        if last is not None:
            rows.append(Fix(words.take_back(last), take_back=True))
        rows.append(ABANDON_ROW)
        return rows

    def handle(self, menu: CorrectionMenu, event: object) -> None:
        if isinstance(event, KnobTurn):
            menu.turn(event.knob, event.steps)
            return
        if isinstance(event, KnobSpin):
            self.face.refuse(words.NO_SPIN_IN_CORRECTIONS)
            return
        if isinstance(event, CardPresented):
            self.face.refuse(words.CARD_NOT_READ)
            return
        if not isinstance(event, KnobPress):
            return
        outcome = menu.press()
        if outcome == CLOSE:
            self.face.enter(CorrectionClosed())
        elif outcome == TAKE_BACK:
            self.take_back()
        elif outcome == ABANDON:
            self.abandon()
        elif isinstance(outcome, Refusal):
            self.face.refuse(outcome.text)
        elif outcome != STAY and not isinstance(outcome, str) and self.apply(outcome):
            self.face.enter(CorrectionClosed())

    def take_back_offer(self) -> str | None:
        """The last input, in words, when it may be taken back: a menu choice (a move,
        a correction) or a card tapped on the reader; never a spin or a draw from the
        virtual deck (RULINGS G5: that would let a player spin or draw again)."""
        session = self.session
        if not session.history:
            return None
        last = session.game.action_from_json(session.history[-1])
        before = session.state_before_last()
        correction = last.KIND.startswith("correct")
        if before.is_chance_node() and not correction and self.tapped() != session.steps:
            return None
        return describe_input(before, last)

    def journaled(self, write: Callable[[], None]) -> bool:
        """Write the correction menu's own journal entry (a take-back, an abandon); if it
        cannot be saved, nothing changes and the screen says why."""
        try:
            write()
        except (JournalError, OSError) as exc:
            self.face.refuse(words.not_saved(exc))
            return False
        return True

    def take_back(self) -> None:
        what = self.take_back_offer()
        if not self.journaled(self.session.take_back):
            return
        self.face.enter(TakenBack())
        self.face.news = [Notice(words.taken_back(what))]
        self.moved_on()

    def abandon(self) -> None:
        """Abandon the game once confirmed (RULINGS G7): journaled first; whoever runs
        the rig (`rig.core.app.App`) then files it and goes back to the setup menu."""
        if not self.journaled(self.session.abandon):
            return
        self.face.enter(CorrectionClosed())
        self.face.enter(MomentArrived(None))
        self.face.news = [Notice(words.ABANDONED, short=words.ABANDONED_SHORT)]
        self.moved_on()
