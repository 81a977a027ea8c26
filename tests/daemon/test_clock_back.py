"""A Pi has no real-time clock: after a boot without network its clock may start behind
the last boot's. Finished games, and games set aside, are filed by a number that only
grows (docs/IMAGE.md, "The clock"), so a clock that goes back, or jumps forward, across
restarts of the rig, never collides, overwrites or reorders them; the files an older
version named by date stay where they are, readable, listed first."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from hardware.events import KnobLongPress
from rig.config import load_config
from rig.core.daemon import Daemon
from rig.core.filing import filed_games
from rig.core.journal import CURRENT_NAME
from rig.core.journalread import read_journal
from tests.daemon.helpers import Quiet, write_config
from tests.daemon.test_journal_faults import play_to_game_over

# The clock of each boot: the same second twice (a Pi that booted without network at
# the image's build time), back a year, forward, back again before the first.
BOOTS = (
    datetime(2026, 12, 6, 9, 0, 0, tzinfo=UTC),
    datetime(2026, 12, 6, 9, 0, 0, tzinfo=UTC),
    datetime(2025, 1, 1, 0, 0, 0, tzinfo=UTC),
    datetime(2027, 6, 1, 12, 0, 0, tzinfo=UTC),
    datetime(2024, 3, 3, 3, 3, 3, tzinfo=UTC),
)

OLD_NAME = "2026-11-29T17-15-00Z-bumpem.jsonl"
"""How a version before the numbering filed a game (by its creation time)."""


def _one_boot(config_path: Path, now: datetime) -> bytes:
    """Start the rig (a fresh process's worth of state: a new Daemon) with the clock at
    `now`, play a game to GAME OVER, file it with a long press, stop. The journal's bytes
    as they were before filing."""
    config = load_config(config_path)
    daemon = Daemon(config=config, notifier=Quiet(), wall_clock=lambda: now)
    try:
        daemon.start()
        play_to_game_over(daemon)
        journal = config.state.current.read_bytes().rstrip(b"\0")
        assert daemon.loop is not None
        daemon.loop.step(KnobLongPress("hi"))  # GAME OVER -> filed, setup menu
        assert not config.state.current.exists()
    finally:
        daemon.stop()
    return journal


def test_games_filed_while_the_clock_goes_back_and_forth_keep_their_order(tmp_path):
    config_path = write_config(tmp_path, game="bumpem", players=2)
    games = tmp_path / "state" / "games"
    games.mkdir(parents=True)
    old = games / OLD_NAME
    old.write_bytes(b'{"format": "cbrig-journal", "version": 1, "seq": 0, '
                    b'"game": {"game": "bumpem"}, "created": "2026-11-29T17:15:00Z"}\n')
    old_bytes = old.read_bytes()

    played = [_one_boot(config_path, now) for now in BOOTS]

    listed = filed_games(games)
    assert listed[0] == old and old.read_bytes() == old_bytes, "left as it was, first"
    assert read_journal(old).header["created"] == "2026-11-29T17:15:00Z", "still readable"
    numbered = listed[1:]
    assert len(numbered) == len(BOOTS), "no game overwrote another"
    assert [p.name[:7] for p in numbered] == [f"{n:06d}-" for n in range(1, len(BOOTS) + 1)]
    assert [p.read_bytes() for p in numbered] == played, "in the order they were played"
    created = [read_journal(p).header["created"] for p in numbered]
    assert created == [now.strftime("%Y-%m-%dT%H:%M:%SZ") for now in BOOTS], \
        "the date stays, as a label"
    assert numbered[2].name == "000003-2025-01-01T00-00-00Z-bumpem.jsonl"
    assert sorted(p.name for p in numbered) == [p.name for p in numbered], \
        "a plain sort of the names agrees"
    assert not (tmp_path / "state" / CURRENT_NAME).exists()


def test_a_game_set_aside_after_the_clock_went_back_sorts_after_the_ones_before(tmp_path):
    config_path = write_config(tmp_path, game="bumpem", players=2)
    _one_boot(config_path, BOOTS[0])
    current = tmp_path / "state" / CURRENT_NAME
    current.write_bytes(b"not a journal\n")  # damaged: set aside at the next start
    config = load_config(config_path)
    daemon = Daemon(config=config, notifier=Quiet(), wall_clock=lambda: BOOTS[4])
    try:
        daemon.start()
    finally:
        daemon.stop()
    names = [p.name for p in filed_games(tmp_path / "state" / "games")]
    assert names == ["000001-2026-12-06T09-00-00Z-bumpem.jsonl",
                     "000002-damaged-2024-03-03T03-03-03Z.jsonl"]
