"""Race to 20's registry entry: the one place the rig learns about the game. Its board,
live board and printed sheets are the ``TOOLS`` of board.py, live.py and printout.py,
found by ``folder_parts``; only the rules and the view have loaders of their own."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cbrig.game import BuildFunction, GameEntry, folder_parts
from tests.racegame import info
from tests.racegame.info import COLOURS

if TYPE_CHECKING:
    from cbrig.game import Game, GameView, State


def _build() -> BuildFunction:
    from tests.racegame.game import build

    return build


def _view(game: Game) -> GameView[State]:
    from cbrig.game import StateChecked, own
    from tests.racegame.game import RaceGame, RaceState
    from tests.racegame.view import RaceView

    return StateChecked(RaceView(own(game, RaceGame)), RaceState)


RACE = GameEntry(name="race", title="Race to 20", info=info, build=_build, view=_view,
                 colours=COLOURS, sign_off="See you at the finish line.",
                 **folder_parts("tests.racegame"))
"""Registered by the tests that play it (`register(RACE)`), or for a whole `cbrig`
process with ``CBRIG_GAMES=tests.racegame.entry:RACE``."""
