"""Bump 'Em on the rig: its registration. The rest of this folder is loaded on first use:
view (screens), and the parts rig.gametype.folder_parts finds by name: board (drawing,
summary), live (browser pieces and tray), printout (tickets, cars, reference), speech
(how it is said)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cbrig.game import BenchCases, BuildFunction, GameEntry, LatencyCase, folder_parts, register
from engine.bumpem import info

if TYPE_CHECKING:
    from cbrig.game import Game, GameView, State


def _build() -> BuildFunction:
    from engine.bumpem import build

    return build


def _view(game: Game) -> GameView[State]:
    from cbrig.game import StateChecked, own
    from cbrig.games.bumpem.view import BumpEmView
    from engine.bumpem.game import BumpemGame
    from engine.bumpem.state import BumpemState

    return StateChecked(BumpEmView(own(game, BumpemGame)), BumpemState)


ENTRY = register(GameEntry(
    order=1, name="bumpem", title="Bump 'Em", info=info, build=_build, view=_view,
    ai="engine.bumpem.ai", colours=("red", "blue", "yellow", "green"),
    sign_off="Checkered flag: good racing.",
    bench=BenchCases(
        engine_speed=(("standard", 2), ("standard", 3), ("standard", 4)),
        latency=(LatencyCase(None, 4, 1, 3),),
        hinted_latency=(LatencyCase(None, 4, 1, 2, hints=True),),
        bus_players=3,
    ),
    **folder_parts(__name__),
))
