"""Pull the plug: SIGKILL the daemon at many points of a game; nothing is lost.

The daemon's autoplay derives every chance outcome and choice from the seed and the
number of inputs already journaled, so a restarted daemon continues exactly where an
uninterrupted one goes. The finished journals must then be identical.
"""

from __future__ import annotations

import random

from rig.journal import read_journal
from tests.daemon.helpers import NotifySocket, kill, start_daemon, write_config

SEED = 5
KILLS = 50


def _inputs(fields: list[str]) -> int | None:
    for f in fields:
        if f.startswith("STATUS=inputs "):
            return int(f.split()[-1])
    return None


def _finished_journal(state_dir):
    games = sorted((state_dir / "games").glob("*.jsonl"))
    assert len(games) == 1, games
    assert not (state_dir / "current.jsonl").exists()
    return read_journal(games[0])


def _run_to_end(config, notify) -> None:
    daemon = start_daemon(config, notify, "--autoplay", str(SEED))
    _, err = daemon.communicate(timeout=120)
    assert daemon.returncode == 0, err


def test_sigkill_at_fifty_points_loses_nothing(tmp_path):
    calm = tmp_path / "calm"
    calm.mkdir()
    _run_to_end(write_config(calm), None)
    expected = _finished_journal(calm / "state").entries
    assert len(expected) > KILLS * 2

    rough = tmp_path / "rough"
    rough.mkdir()
    config = write_config(rough)
    targets = sorted(random.Random(SEED).sample(range(1, len(expected) - 1), KILLS))
    notify = NotifySocket(rough / "notify")
    kills = 0
    try:
        for target in targets:
            daemon = start_daemon(config, notify, "--autoplay", str(SEED))
            while True:
                count = _inputs(notify.next())
                if count is not None and count >= target:
                    break
            kill(daemon)
            kills += 1
            journal = rough / "state" / "current.jsonl"
            assert journal.exists(), f"the game in progress is on disk after kill {kills}"
        _run_to_end(config, notify)
    finally:
        notify.close()
    assert kills == KILLS
    assert _finished_journal(rough / "state").entries == expected
