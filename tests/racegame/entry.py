"""Race to 20's registry entry: the one place the rig learns about the game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rig.registry import BuildFunction, GameEntry
from tests.racegame.info import COLOURS

if TYPE_CHECKING:
    from engine.api import Game
    from rig.views import GameView


def _build() -> BuildFunction:
    from tests.racegame.game import build

    return build


def _view(game: Game) -> GameView:
    from tests.racegame.view import RaceView

    return RaceView(game)


RACE = GameEntry(name="race", title="Race to 20", info="tests.racegame.info", build=_build,
                 view=_view, colours=COLOURS)
"""Registered by the tests that play it (`register(RACE)`), or for a whole `cbrig`
process with ``CBRIG_GAMES=tests.racegame.entry:RACE``."""
