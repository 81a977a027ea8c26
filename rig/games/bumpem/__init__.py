"""Bump 'Em on the rig: its registration. The rest of this folder is loaded on first use:
view (screens), board (drawing, summary), live (browser pieces and tray), printout
(tickets, cars, reference), speech (how it is said)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cbrig.game import (
    BenchCases,
    BoardTools,
    BuildFunction,
    GameEntry,
    LatencyCase,
    LiveTools,
    PrintTools,
    register,
)
from engine.bumpem import info

if TYPE_CHECKING:
    from cbrig.game import Game, GameView, State, Vocabulary
    from engine.bumpem.board import Board
    from engine.bumpem.game import BumpemGame


def _build() -> BuildFunction:
    from engine.bumpem import build

    return build


def _view(game: Game) -> GameView[State]:
    from cbrig.game import StateChecked, own
    from engine.bumpem.game import BumpemGame
    from engine.bumpem.state import BumpemState
    from rig.games.bumpem.view import BumpEmView

    return StateChecked(BumpEmView(own(game, BumpemGame)), BumpemState)


def _board() -> BoardTools[Board]:
    from engine.bumpem import load_board
    from engine.bumpem.board import Board
    from rig.games.bumpem.board import bumpem_geometry, summary

    return BoardTools(Board, load_board, summary, bumpem_geometry)


def _live() -> LiveTools:
    from rig.games.bumpem.live import live

    return live()


def _print() -> PrintTools[BumpemGame]:
    from engine.bumpem.game import BumpemGame
    from rig.games.bumpem.printout import cards, pieces, reference

    return PrintTools(BumpemGame, players=2, reference=reference, pieces=pieces, cards=cards)


def _speech() -> Vocabulary:
    from rig.games.bumpem.speech import VOCABULARY

    return VOCABULARY


ENTRY = register(GameEntry(
    order=1, name="bumpem", title="Bump 'Em", info=info, build=_build,
    ai="engine.bumpem.ai",
    view=_view, colours=("red", "blue", "yellow", "green"), board=_board,
    live=_live, printout=_print, speech=_speech,
    sign_off="Checkered flag: good racing.",
    bench=BenchCases(
        engine_speed=(("standard", 2), ("standard", 3), ("standard", 4)),
        latency=(LatencyCase(None, 4, 1, 3),),
        hinted_latency=(LatencyCase(None, 4, 1, 2, hints=True),),
        bus_players=3,
    ),
))
