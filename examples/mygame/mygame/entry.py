"""Ladders' registration: the one place the rig learns about the game, named in the
package's ``cbrig.games`` entry point (pyproject.toml). Its board, live board, printed
sheets and voice are found by ``folder_parts`` from its modules' names; the rules and
the view are loaded on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cbrig.game import BuildFunction, GameEntry, folder_parts
from mygame import info

if TYPE_CHECKING:
    from cbrig.game import Game, GameView, State


def _build() -> BuildFunction:
    from mygame.game import build

    return build


def _view(game: Game) -> GameView[State]:
    from cbrig.game import StateChecked, own
    from mygame.game import LaddersGame, LaddersState
    from mygame.view import LaddersView

    return StateChecked(LaddersView(own(game, LaddersGame)), LaddersState)


ENTRY = GameEntry(name="mygame", title="Ladders", info=info, build=_build, view=_view,
                  colours=info.COLOURS, sign_off="See you at the top.", requires_api="1.1",
                  **folder_parts("mygame"))
