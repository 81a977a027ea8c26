"""The rig between games and during one: setup menu, game, winner, setup again.

One value says where the rig is (like the controller's modes, rig/core/modes.py), so `handle`
and `screen` dispatch on the same thing and cannot disagree:

- `AtMenu`: the setup menu takes the input;
- `Enrolling`: the "Enrol cards" walk, opened from the menu, which it goes back to;
- `InGame`: the game's controller takes the input, until the game is over and filed.

A reason the last action failed (a game that could not start, a journal not filed) is
not a stage: it is a note the menu shows, paged with the LO knob, until the next input.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeAlias, assert_never

from hardware.events import KnobLongPress, KnobTurn, SoundStatus
from rig.core.join import JoinScreen
from rig.core.setup_menu import SetupChoice, SetupMenu
from rig.screens import words
from rig.screens.screen import Part, Screen, page_count
from valueclass import Frozen, replace

if TYPE_CHECKING:  # the game modules load after READY (rig.core.daemon): types only here
    from rig.core.controller import Controller
    from rig.core.enroll import EnrolScreen
    from rig.voice.control import VoiceControl
    from rig.web.invite import Invitation

ENROL = words.ENROL
JOIN = words.JOIN
log = logging.getLogger(__name__)


class AtMenu(Frozen):
    menu: SetupMenu


class Enrolling(Frozen):
    enrolment: EnrolScreen
    menu: SetupMenu
    """Where the walk returns when it closes."""


class Joining(Frozen):
    join: JoinScreen
    menu: SetupMenu
    """Where "Back" returns."""


class InGame(Frozen):
    controller: Controller


Stage: TypeAlias = AtMenu | Enrolling | Joining | InGame


class App:
    """What the event loop drives: the setup menu, the enrolment walk or the game."""

    def __init__(
        self,
        start_game: Callable[[SetupChoice], Controller],
        finish_game: Callable[[Controller], None],
        controller: Controller | None = None,
        defaults: SetupChoice | None = None,
        enrol: Callable[[SetupChoice], EnrolScreen] | None = None,
        voice: VoiceControl | None = None,
        invitation: Invitation | None = None,
    ) -> None:
        self.start_game = start_game
        self.finish_game = finish_game
        self.defaults = defaults
        self.enrol = enrol
        """Builds the "Enrol cards" screen for the menu's game; None: no reader."""
        self.voice = voice
        """Voice on/off and volume on the setup menu (None: no voice rows)."""
        self.invitation = invitation
        """The live board's join code (None: no board, or open to the LAN)."""
        self.join_addresses: Callable[[], list[str]] = list
        """Where phones open the board (set once it serves)."""
        self.sound_ok = True
        """The voice's last word (a SoundStatus), kept across the menu: a fault told
        before a game (no synthesizer, at start) is shown by every game after it."""
        self.stage: Stage = InGame(controller) if controller else self._new_menu()
        self.error = ""
        self.error_page = 0

    @property
    def controller(self) -> Controller | None:
        """The game being played, if the rig is in one."""
        return self.stage.controller if isinstance(self.stage, InGame) else None

    @property
    def menu(self) -> SetupMenu | None:
        """The setup menu, if the rig is at it."""
        return self.stage.menu if isinstance(self.stage, AtMenu) else None

    def play(self, controller: Controller) -> None:
        """Into a game (started here, resumed, or the daemon's autoplay)."""
        controller.sound_ok = self.sound_ok
        self.stage = InGame(controller)

    def to_menu(self) -> None:
        """Back to a fresh setup menu (a game over and filed)."""
        self.stage = self._new_menu()

    def _new_menu(self) -> AtMenu:
        actions = ((ENROL,) if self.enrol is not None else ()) \
            + ((JOIN,) if self.invitation is not None else ())
        return AtMenu(SetupMenu(self.defaults, actions=actions, voice=self.voice))

    def handle(self, event: object) -> None:
        if isinstance(event, SoundStatus):
            self.sound_ok = event.ok
        stage = self.stage
        if isinstance(stage, InGame):
            self._handle_game(stage.controller, event)
        elif isinstance(stage, Enrolling):
            stage.enrolment.handle(event)
            if stage.enrolment.closed:
                self.stage = AtMenu(stage.menu)
        elif isinstance(stage, Joining):
            stage.join.handle(event)
            if stage.join.closed:
                self.stage = AtMenu(stage.menu)
        elif isinstance(stage, AtMenu):
            self._handle_menu(stage.menu, event)
        else:
            assert_never(stage)

    def _handle_game(self, controller: Controller, event: object) -> None:
        if controller.session.state.is_terminal() and isinstance(event, KnobLongPress):
            self.finish_game(controller)
            self.to_menu()
            return
        controller.handle(event)
        if controller.session.abandoned:
            self._abandoned(controller)

    def _handle_menu(self, menu: SetupMenu, event: object) -> None:
        if self.error and self._page_error(event):
            return
        self.error_page = 0
        menu.handle(event)
        if menu.requested == ENROL and self.enrol is not None:
            menu.requested = None
            try:
                self.stage = Enrolling(self.enrol(menu.choice), menu)
            except (OSError, ValueError) as exc:
                self.error = words.cannot_enrol(exc)
                self.error_page = 0
                log.error("cannot enrol cards: %s", exc)
            return
        if menu.requested == JOIN and self.invitation is not None:
            menu.requested = None
            self.stage = Joining(JoinScreen(self.invitation, self.join_addresses), menu)
            return
        if menu.started is not None:
            choice, menu.started = menu.started, None
            try:
                controller = self.start_game(choice)
            except Exception as exc:  # a file in the way, a full disk, a bad data file:
                # the table is told on the menu and the loop goes on
                self.error = words.cannot_start(exc)
                self.error_page = 0
                from rig.core.journalread import JournalError

                log.error("cannot start a game (%s): %s", choice, exc, exc_info=not isinstance(
                    exc, OSError | ValueError | JournalError))
                return
            self.play(controller)
            self.error = ""
            if self.invitation is not None:  # the code the last game showed lets no one
                self.invitation.renew_code()  # new in; who joined stays in

    def _abandoned(self, controller: Controller) -> None:
        """The table abandoned the game (RULINGS G7): file it like a finished one and
        say so on the setup menu (`finish_game` says instead if the filing failed)."""
        self.to_menu()
        self.error, self.error_page = words.ABANDONED, 0
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
        stage = self.stage
        if isinstance(stage, InGame):
            return stage.controller.screen()
        if isinstance(stage, Enrolling):
            return stage.enrolment.screen()
        if isinstance(stage, Joining):
            return stage.join.screen()
        if isinstance(stage, AtMenu):
            screen = stage.menu.screen()
            if self.error:
                return replace(screen, lines=(Part(self.error, "alert"),),
                               page=self.error_page)
            return screen
        assert_never(stage)

    def await_durable(self) -> bool:
        """See :meth:`rig.core.controller.Controller.await_durable`."""
        return self.controller.await_durable() if self.controller is not None else True

    def next_deadline(self) -> float | None:
        return self.controller.next_deadline() if self.controller is not None else None
