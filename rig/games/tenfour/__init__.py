"""10-Four, Good Buddy on the rig: its registration. The rest of this folder is loaded on
first use: view (screens), board (drawing, summary), live (browser pieces and tray),
printout (cards, pieces, reference), speech (how it is said)."""

from __future__ import annotations

from types import MappingProxyType
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
from engine.tenfour import info

if TYPE_CHECKING:
    from cbrig.game import Game, GameView, State, Vocabulary
    from engine.tenfour.board import Board
    from engine.tenfour.game import TenFourGame


def _build() -> BuildFunction:
    from engine.tenfour import build

    return build


def _view(game: Game) -> GameView[State]:
    from cbrig.game import StateChecked, own
    from engine.tenfour import TenFourGame, TenFourState
    from rig.games.tenfour.view import TenFourView

    return StateChecked(TenFourView(own(game, TenFourGame)), TenFourState)


def _board() -> BoardTools[Board]:
    from engine.tenfour import load_board
    from engine.tenfour.board import Board
    from rig.games.tenfour.board import summary, tenfour_geometry

    return BoardTools(Board, load_board, summary, tenfour_geometry)


def _live() -> LiveTools:
    from rig.games.tenfour.live import live

    return live()


def _print() -> PrintTools[TenFourGame]:
    from engine.tenfour.game import TenFourGame
    from rig.games.tenfour.printout import cards, pieces, reference

    return PrintTools(TenFourGame, players=4, reference=reference, pieces=pieces, cards=cards)


def _speech() -> Vocabulary:
    from rig.games.tenfour.speech import VOCABULARY

    return VOCABULARY


ENTRY = register(GameEntry(
    order=0, name="tenfour", title="10-Four, Good Buddy", short_title="10-Four",
    info=info, build=_build, view=_view,
    ai="engine.tenfour.ai",
    colours=("red", "green", "blue", "yellow"),
    seatings=MappingProxyType({"two-player": (("red", "blue"),)}),
    board=_board, live=_live, printout=_print, speech=_speech,
    sign_off="ADIOS, good buddies.",
    bench=BenchCases(
        engine_speed=(("standard", 3), ("standard", 4), ("two-player", 2)),
        latency=(LatencyCase("standard", 4, 1, 6), LatencyCase("two-player", 2, 1, 4)),
        # The shipped config (wiring/config.toml) has hints = true: every human seat gets
        # the strong level's suggestion, computed at each decision node inside the step.
        hinted_latency=(LatencyCase("standard", 4, 1, 4, hints=True),),
        bus_players=4,
    ),
))
