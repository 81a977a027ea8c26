"""The rig between games and during one: setup menu, game, winner, setup again."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from hardware.events import KnobLongPress, KnobTurn
from rig.screen import Part, Screen, page_count
from rig.setup_menu import SetupChoice, SetupMenu
from valueclass import replace

if TYPE_CHECKING:  # the game modules load after READY (rig.daemon): types only here
    from rig.controller import Controller
    from rig.enroll import EnrolScreen
    from rig.voicecontrol import VoiceControl

ENROL = "Enrol cards"
log = logging.getLogger(__name__)


class App:
    """What the event loop drives: delegates to the setup menu or the game controller."""

    def __init__(
        self,
        start_game: Callable[[SetupChoice], Controller],
        finish_game: Callable[[Controller], None],
        controller: Controller | None = None,
        defaults: SetupChoice | None = None,
        enrol: Callable[[SetupChoice], EnrolScreen] | None = None,
        voice: VoiceControl | None = None,
    ) -> None:
        self.start_game = start_game
        self.finish_game = finish_game
        self.controller = controller
        self.defaults = defaults
        self.enrol = enrol
        """Builds the "Enrol cards" screen for the menu's game; None: no reader."""
        self.voice = voice
        """Voice on/off and volume on the setup menu (None: no voice rows)."""
        self.enrolling: EnrolScreen | None = None
        self.menu: SetupMenu | None = None if controller else self._new_menu(defaults)
        self.error = ""
        self.error_page = 0

    def _new_menu(self, choice: SetupChoice | None) -> SetupMenu:
        return SetupMenu(choice, actions=(ENROL,) if self.enrol is not None else (),
                         voice=self.voice)

    def handle(self, event: object) -> None:
        if self.controller is not None:
            if self.controller.session.state.is_terminal() and isinstance(event, KnobLongPress):
                self.finish_game(self.controller)
                self.controller = None
                self.menu = self._new_menu(self.defaults)
                return
            self.controller.handle(event)
            if self.controller.session.abandoned:
                self._abandoned(self.controller)
            return
        if self.enrolling is not None:
            self.enrolling.handle(event)
            if self.enrolling.closed:
                self.enrolling = None
            return
        assert self.menu is not None
        if self.error and self._page_error(event):
            return
        self.error_page = 0
        self.menu.handle(event)
        if self.menu.requested == ENROL and self.enrol is not None:
            self.menu.requested = None
            try:
                self.enrolling = self.enrol(self.menu.choice)
            except (OSError, ValueError) as exc:
                self.error = f"Cannot enrol: {exc}"
                self.error_page = 0
                log.error("cannot enrol cards: %s", exc)
            return
        if self.menu.started is not None:
            choice, self.menu.started = self.menu.started, None
            try:
                self.controller = self.start_game(choice)
            except Exception as exc:  # a file in the way, a full disk, a bad data file:
                # the table is told on the menu and the loop goes on
                self.error = f"Cannot start: {exc}"
                self.error_page = 0
                from rig.journal import JournalError

                log.error("cannot start a game (%s): %s", choice, exc, exc_info=not isinstance(
                    exc, OSError | ValueError | JournalError))
                return
            self.menu = None
            self.error = ""

    def _abandoned(self, controller: Controller) -> None:
        """The table abandoned the game (RULINGS G7): file it like a finished one and
        say so on the setup menu (`finish_game` says instead if the filing failed)."""
        from rig.controller import ABANDONED

        self.controller = None
        self.menu = self._new_menu(self.defaults)
        self.error, self.error_page = ABANDONED, 0
        self.finish_game(controller)

    def _page_error(self, event: object) -> bool:
        """The LO knob pages a reason too long for one screen (RULINGS G4: never cut);
        everything else works the menu as usual."""
        if not (isinstance(event, KnobTurn) and event.knob == "lo"):
            return False
        pages = page_count(self.screen())
        if pages < 2:
            return False
        self.error_page = (self.error_page + event.steps) % pages
        return True

    def screen(self) -> Screen:
        if self.controller is not None:
            return self.controller.screen()
        if self.enrolling is not None:
            return self.enrolling.screen()
        assert self.menu is not None
        screen = self.menu.screen()
        if self.error:
            return replace(screen, lines=(Part(self.error, "alert"),), page=self.error_page)
        return screen

    def await_durable(self) -> bool:
        """See :meth:`rig.controller.Controller.await_durable`."""
        return self.controller.await_durable() if self.controller is not None else True

    def next_deadline(self) -> float | None:
        return self.controller.next_deadline() if self.controller is not None else None
