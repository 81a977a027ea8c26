"""Pull the plug: SIGKILL the daemon at many points of a game; nothing is lost.

The daemon's autoplay derives every chance outcome and choice from the seed and the
number of inputs already journaled, so a restarted daemon continues exactly where an
uninterrupted one goes. The finished journals must then be identical.

Two kinds of kill: ``--crash-at N`` makes the daemon SIGKILL itself once input N is
saved (an exact point, however slowly this test reads: sd_notify messages are dropped,
never waited for, when nobody keeps up), and an outside SIGKILL the moment READY=1
arrives (wherever the resumed daemon then is).
"""

from __future__ import annotations

import random
import signal

from rig.core.journalread import read_journal
from tests.daemon.helpers import NotifySocket, kill, start_daemon, write_config
from tests.slowdown import HANG, scaled

SEED = 5
KILLS = 50


def _finished_journal(state_dir):
    games = sorted((state_dir / "games").glob("*.jsonl"))
    assert len(games) == 1, games
    assert not (state_dir / "current.jsonl").exists()
    return read_journal(games[0])


def _run_to_end(config, notify) -> None:
    daemon = start_daemon(config, notify, "--autoplay", str(SEED))
    _, err = daemon.communicate(timeout=scaled(HANG))
    assert daemon.returncode == 0, err


def _drain(notify: NotifySocket) -> None:
    """Drop what a killed daemon left queued, so the next one's READY=1 has room."""
    notify.sock.setblocking(False)
    try:
        while True:
            notify.sock.recv(4096)
    except BlockingIOError:
        pass
    finally:
        notify.sock.settimeout(scaled(HANG))


def test_sigkill_at_fifty_points_loses_nothing(tmp_path):
    calm = tmp_path / "calm"
    calm.mkdir()
    _run_to_end(write_config(calm), None)
    expected = _finished_journal(calm / "state").entries
    assert len(expected) > KILLS * 2

    rough = tmp_path / "rough"
    rough.mkdir()
    config = write_config(rough)
    journal = rough / "state" / "current.jsonl"
    targets = sorted(random.Random(SEED).sample(range(1, len(expected) - 1), KILLS))
    notify = NotifySocket(rough / "notify")
    kills = outside_kills = 0
    try:
        for index, target in enumerate(targets):
            # READY=1 comes once the hardware is up, so a daemon killed the moment it
            # arrives may already have played on past this target: it then stops at once
            before = len(read_journal(journal).entries) if journal.exists() else 0
            daemon = start_daemon(config, notify, "--autoplay", str(SEED),
                                  "--crash-at", str(target))
            _, err = daemon.communicate(timeout=scaled(HANG))
            assert daemon.returncode == -signal.SIGKILL, err
            kills += 1
            assert len(read_journal(journal).entries) == max(target, before), \
                f"kill {kills}: every input saved before the power cut is on disk"
            _drain(notify)
            if index % 5 == 4:
                daemon = start_daemon(config, notify, "--autoplay", str(SEED))
                notify.wait_for("READY=1")
                kill(daemon)
                outside_kills += 1
                assert journal.exists(), f"the game in progress is on disk after kill {kills}"
                _drain(notify)
        _run_to_end(config, notify)
    finally:
        notify.close()
    assert (kills, outside_kills) == (KILLS, KILLS // 5)
    assert _finished_journal(rough / "state").entries == expected
