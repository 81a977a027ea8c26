"""The rig's stages between and during games (rig.core.app): one value says where it is."""

from __future__ import annotations

from hardware.events import KnobLongPress, KnobPress, KnobTurn
from rig.core.app import App, AtMenu, InGame
from rig.core.controller import Controller
from rig.core.setup_menu import SetupChoice
from rig.desktop.emulated import new_emulated_rig


def _to_start(app: App) -> None:
    menu = app.screen().menu
    app.handle(KnobTurn("hi", menu.index("START") - app.screen().cursor))
    app.handle(KnobPress("hi"))


def test_start_plays_and_a_game_handed_over_goes_back_to_a_fresh_menu() -> None:
    started: list[SetupChoice] = []
    rig = new_emulated_rig("bumpem", 2, seed=1)

    def start(choice: SetupChoice) -> Controller:
        started.append(choice)
        return rig.controller

    app = App(start_game=start, finish_game=lambda controller: None)
    assert isinstance(app.stage, AtMenu) and app.controller is None
    _to_start(app)
    assert isinstance(app.stage, InGame) and app.controller is rig.controller
    assert app.menu is None and len(started) == 1
    app.to_menu()  # what the daemon's autoplay does with a game it filed itself
    assert app.controller is None and app.menu is not None
    assert app.screen().title == "NEW GAME", "the menu is shown, not a stale game"


def test_a_long_press_in_a_game_not_over_is_the_games_not_the_apps() -> None:
    rig = new_emulated_rig("bumpem", 2, seed=1)
    finished = []
    app = App(start_game=lambda choice: rig.controller, finish_game=finished.append,
              controller=rig.controller)
    app.handle(KnobLongPress("hi"))  # the correction menu, over the game
    assert isinstance(app.stage, InGame) and finished == []
    assert app.screen().title == "CORRECTION"
