"""The rig between games and during one: setup menu, game, winner, setup again."""

from __future__ import annotations

from collections.abc import Callable

from hardware.events import KnobLongPress
from rig.controller import Controller
from rig.screen import Screen
from rig.setup_menu import SetupChoice, SetupMenu


class App:
    """What the event loop drives: delegates to the setup menu or the game controller."""

    def __init__(
        self,
        start_game: Callable[[SetupChoice], Controller],
        finish_game: Callable[[Controller], None],
        controller: Controller | None = None,
        defaults: SetupChoice | None = None,
    ) -> None:
        self.start_game = start_game
        self.finish_game = finish_game
        self.controller = controller
        self.defaults = defaults
        self.menu: SetupMenu | None = None if controller else SetupMenu(defaults)
        self.error = ""

    def handle(self, event: object) -> None:
        if self.controller is not None:
            if self.controller.session.state.is_terminal() and isinstance(event, KnobLongPress):
                self.finish_game(self.controller)
                self.controller = None
                self.menu = SetupMenu(self.defaults)
                return
            self.controller.handle(event)
            return
        assert self.menu is not None
        self.menu.handle(event)
        if self.menu.started is not None:
            choice, self.menu.started = self.menu.started, None
            try:
                self.controller = self.start_game(choice)
            except (OSError, ValueError) as exc:
                self.error = f"Cannot start: {exc}"
                return
            self.menu = None
            self.error = ""

    def screen(self) -> Screen:
        if self.controller is not None:
            return self.controller.screen()
        assert self.menu is not None
        screen = self.menu.screen()
        if self.error:
            return Screen(title=screen.title, lines=(self.error[:42],), menu=screen.menu,
                          cursor=screen.cursor, footer=screen.footer)
        return screen

    def next_deadline(self) -> float | None:
        return self.controller.next_deadline() if self.controller is not None else None
