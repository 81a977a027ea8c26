"""Race for Five's registry entry (the race's view, board, live board and sheets)."""

from __future__ import annotations

from cbrig.game import BuildFunction, GameEntry
from tests.racefive.info import COLOURS, VARIANT_PLAYERS
from tests.racegame.entry import RACE


def _build() -> BuildFunction:
    from tests.racegame.game import builder

    return builder("racefive", VARIANT_PLAYERS, COLOURS)


FIVE = GameEntry(name="racefive", title="Race for Five", info="tests.racefive.info",
                 build=_build, view=RACE.view, colours=COLOURS, board=RACE.board,
                 live=RACE.live, printout=RACE.printout)
"""Registered by the tests that play it (`register(FIVE)`)."""
