"""Race to 20's registry entry: the one place the rig learns about the game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cbrig.game import BoardTools, BuildFunction, GameEntry, LiveTools, PrintTools
from tests.racegame.info import COLOURS

if TYPE_CHECKING:
    from cbrig.game import Game, GameView, State
    from tests.racegame.board import Track
    from tests.racegame.game import RaceGame


def _build() -> BuildFunction:
    from tests.racegame.game import build

    return build


def _view(game: Game) -> GameView[State]:
    from cbrig.game import StateChecked, own
    from tests.racegame.game import RaceGame, RaceState
    from tests.racegame.view import RaceView

    return StateChecked(RaceView(own(game, RaceGame)), RaceState)


def _board() -> BoardTools[Track]:
    from tests.racegame.board import Track, geometry, load_board, summary

    return BoardTools(Track, load_board, summary, geometry)


def _live() -> LiveTools:
    from tests.racegame.live import live

    return live()


def _print() -> PrintTools[RaceGame]:
    from tests.racegame.game import RaceGame
    from tests.racegame.printout import pieces, reference

    return PrintTools(RaceGame, players=4, reference=reference, pieces=pieces)


RACE = GameEntry(name="race", title="Race to 20", info="tests.racegame.info", build=_build,
                 view=_view, colours=COLOURS, board=_board, live=_live, printout=_print,
                 sign_off="See you at the finish line.")
"""Registered by the tests that play it (`register(RACE)`), or for a whole `cbrig`
process with ``CBRIG_GAMES=tests.racegame.entry:RACE``."""
