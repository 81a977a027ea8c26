"""10-Four, Good Buddy on the rig: its registration. The rest of this folder is loaded on
first use: view (screens), and the parts rig.gametype.folder_parts finds by name: board
(drawing, summary), live (browser pieces and tray), printout (cards, pieces, reference),
speech (how it is said)."""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING

from cbrig.game import BenchCases, BuildFunction, GameEntry, LatencyCase, folder_parts, register
from engine.tenfour import info

if TYPE_CHECKING:
    from cbrig.game import Game, GameView, State


def _build() -> BuildFunction:
    from engine.tenfour import build

    return build


def _view(game: Game) -> GameView[State]:
    from cbrig.game import StateChecked, own
    from cbrig.games.tenfour.view import TenFourView
    from engine.tenfour import TenFourGame, TenFourState

    return StateChecked(TenFourView(own(game, TenFourGame)), TenFourState)


ENTRY = register(GameEntry(
    order=0, name="tenfour", title="10-Four, Good Buddy", short_title="10-Four",
    info=info, build=_build, view=_view, ai="engine.tenfour.ai",
    colours=("red", "green", "blue", "yellow"),
    seatings=MappingProxyType({"two-player": (("red", "blue"),)}),
    sign_off="ADIOS, good buddies.",
    bench=BenchCases(
        engine_speed=(("standard", 3), ("standard", 4), ("two-player", 2)),
        latency=(LatencyCase("standard", 4, 1, 6), LatencyCase("two-player", 2, 1, 4)),
        # The shipped config (wiring/config.toml) has hints = true: every human seat gets
        # the strong level's suggestion, computed at each decision node inside the step.
        hinted_latency=(LatencyCase("standard", 4, 1, 4, hints=True),),
        bus_players=4,
    ),
    **folder_parts(__name__),
))
