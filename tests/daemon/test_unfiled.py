"""A finished game that cannot be filed in games/ must never keep the table from a new game.

`games` left root-owned by one `sudo cbrig run`, or made a plain file: the finished
journal is kept beside it in the state directory (never lost, never in the way of the
next game's `current.jsonl`), the screen and the log say why and how to fix it, and the
rig goes on, at GAME OVER as at the next start.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from hardware.events import KnobLongPress, KnobPress, KnobTurn
from rig.config import load_config
from rig.core.daemon import Daemon
from tests.daemon.helpers import Quiet, start_daemon, up_then_stop, write_config
from tests.daemon.test_journal_faults import WITHOUT_WRITE_OVERRIDE, play_to_game_over
from tests.system_tools import require_command


def _finished_game(tmp_path: Path) -> tuple[object, Path]:
    """A config and a whole game of Bump 'Em played to GAME OVER, left in current.jsonl
    (as a daemon stopped at the GAME OVER screen leaves it)."""
    config_path = write_config(tmp_path, game="bumpem", players=2)
    config = load_config(config_path)
    config.state.directory.mkdir(parents=True)
    daemon = Daemon(config=config, notifier=Quiet())
    try:
        daemon.start()
        play_to_game_over(daemon)
    finally:
        daemon.stop()
    return config, config_path


def _press_start(daemon: Daemon) -> None:
    assert daemon.loop is not None
    daemon.loop.step(KnobTurn("hi", -1))  # START is the last row, one turn back
    daemon.loop.step(KnobPress("hi"))


def _kept_beside(config: object) -> list[Path]:
    return sorted(config.state.directory.glob("unfiled-*.jsonl"))  # type: ignore[attr-defined]


def test_game_over_with_games_a_plain_file_keeps_the_game_and_starts_a_new_one(tmp_path):
    config, _ = _finished_game(tmp_path)
    current = config.state.current
    finished = current.read_bytes()
    config.state.games.write_text("not a directory\n")
    daemon = Daemon(config=config, notifier=Quiet())
    try:
        daemon.start()  # resumes the finished game at its GAME OVER screen? no: files it
        assert daemon.app is not None and daemon.app.controller is None
        kept = _kept_beside(config)
        assert len(kept) == 1 and kept[0].read_bytes() == finished, "kept, unchanged"
        assert not current.exists(), "out of the way of the next game"
        shown = daemon.app.screen().plain()
        assert "not filed" in shown
        _press_start(daemon)
        assert daemon.app.controller is not None, "a new game started"
        assert config.state.games.read_text() == "not a directory\n", "left alone"
    finally:
        daemon.stop()


def test_game_over_then_start_when_games_cannot_be_filed(tmp_path):
    config, _ = _finished_game(tmp_path)
    config.state.current.unlink()
    config.state.games.write_text("")
    daemon = Daemon(config=config, notifier=Quiet())
    try:
        daemon.start()
        play_to_game_over(daemon)
        finished = config.state.current.read_bytes().rstrip(b"\0")
        daemon.loop.step(KnobLongPress("hi"))  # GAME OVER -> setup menu
        shown = daemon.app.screen().plain()
        assert "not filed" in shown and "games" in shown
        kept = _kept_beside(config)
        assert len(kept) == 1 and kept[0].read_bytes() == finished
        _press_start(daemon)  # raised an uncaught JournalError: the daemon died
        assert daemon.app.controller is not None
        assert daemon.app.controller.session.steps == 0
    finally:
        daemon.stop()


def test_a_start_refused_by_the_journal_is_said_on_the_menu_not_raised(tmp_path):
    """Whatever keeps the new journal from being made, START says it and the loop runs."""
    config, _ = _finished_game(tmp_path)
    config.state.current.unlink()
    daemon = Daemon(config=config, notifier=Quiet())
    try:
        daemon.start()
        config.state.current.write_text("in the way\n")  # e.g. a file copied in by hand
        _press_start(daemon)
        assert daemon.app is not None and daemon.app.controller is None
        assert "Cannot start" in daemon.app.screen().plain()
    finally:
        daemon.stop()


def test_a_restart_with_games_not_writable_comes_up_and_says_how_to_fix_it(tmp_path):
    """`sudo cbrig run` left games/ root-owned: the service user cannot file into it.
    The restart used to die on a raw PermissionError, again and again."""
    config, config_path = _finished_game(tmp_path)
    games = config.state.games
    games.mkdir(mode=0o500)
    finished = config.state.current.read_bytes()
    command = [sys.executable, "-m", "rig.cli", "run", "--config", str(config_path)]
    if os.geteuid() == 0:
        command = [require_command("setpriv", "util-linux"), *WITHOUT_WRITE_OVERRIDE,
                   *command]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env={**os.environ, "HOME": str(tmp_path)})
    err = up_then_stop(process)
    games.chmod(0o700)
    assert process.returncode == 0, err
    assert "Traceback" not in err
    assert "not filed" in err and "chown" in err and str(games) in err
    kept = _kept_beside(config)
    assert len(kept) == 1 and kept[0].read_bytes() == finished
    assert not config.state.current.exists()


def test_a_restart_with_games_a_file_gives_no_remount_hint(tmp_path):
    config, config_path = _finished_game(tmp_path)
    config.state.games.write_text("")
    result = start_daemon(config_path, None)
    err = up_then_stop(result)
    assert result.returncode == 0, err
    assert "remount" not in err
    assert "not a directory" in err and str(config.state.games) in err


def test_kept_games_are_filed_once_games_takes_them_again(tmp_path):
    config, _ = _finished_game(tmp_path)
    config.state.games.write_text("")
    daemon = Daemon(config=config, notifier=Quiet())
    try:
        daemon.start()
        (kept,) = _kept_beside(config)
        first = kept.read_bytes()
        config.state.games.unlink()  # the owner followed the advice
        _press_start(daemon)
        play_to_game_over(daemon, start=False)
        daemon.loop.step(KnobLongPress("hi"))  # type: ignore[union-attr]
        assert daemon.app is not None and "not filed" not in daemon.app.screen().plain()
    finally:
        daemon.stop()
    assert _kept_beside(config) == []
    filed = sorted(config.state.games.glob("*.jsonl"))
    assert len(filed) == 2 and first in [p.read_bytes() for p in filed]
    assert not any(p.name.startswith("unfiled-") for p in filed)
