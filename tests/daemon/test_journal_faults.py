"""The daemon and a journal that is wrong, damaged, locked or unwritable.

Each case is one that broke the rig before: a header the engine refuses stopped the
daemon from starting at all, a short `levels` list crashed the first computer turn, a
journal damaged during the game crashed the loop at GAME OVER, two daemons shared one
journal, and a journal that merely could not be written was filed as damaged.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hardware.events import KnobLongPress
from rig.config import load_config
from rig.core.autopilot import gestures_for
from rig.core.daemon import Daemon
from rig.core.setup_menu import SetupChoice
from rig.core.startup import EXIT_BUSY, EXIT_UNWRITABLE
from tests.daemon.helpers import (
    Quiet,
    assert_set_aside,
    start_daemon,
    up_then_stop,
    write_config,
)
from tests.slowdown import HANG, scaled
from tests.system_tools import require_command


def _config(tmp_path: Path, game: str = "tenfour", players: int = 3) -> Any:
    return load_config(write_config(tmp_path, game=game, players=players))


def _journal_in_progress(config: Any, levels: tuple[str, ...] = ("human", "strong", "random"),
                         inputs: int = 6) -> Path:
    """A game of 10-Four a few inputs in, left on disk as a power cut would leave it."""
    config.state.directory.mkdir(parents=True, exist_ok=True)
    daemon = Daemon(config=config, notifier=Quiet())
    controller = daemon._start_game(SetupChoice(game="tenfour", players=len(levels),
                                                levels=levels, hints=False))
    rng = random.Random(4)
    while controller.session.steps < inputs:
        for gesture in gestures_for(controller, rng):
            controller.handle(gesture)
            controller.handle(_tick())
    controller.session.close()
    return config.state.current


def _tick() -> Any:
    from rig.core.loop import Tick

    return Tick()


def _edit_header(path: Path, edit: Any) -> None:
    lines = path.read_bytes().split(b"\n")
    header = json.loads(lines[0])
    edit(header)
    lines[0] = json.dumps(header).encode()
    path.write_bytes(b"\n".join(lines))


def _set(*keys: str, value: Any) -> Any:
    def edit(header: dict[str, Any]) -> None:
        target = header
        for key in keys[:-1]:
            target = target[key]
        target[keys[-1]] = value
    return edit


def _rename_option(header: dict[str, Any]) -> None:
    options = header["game"]["options"]
    options["bear_limiT"] = options.pop("bear_limit")


def _rename_role(header: dict[str, Any]) -> None:
    data = header["game"]["data"]
    data["boarD"] = data.pop("board")


def _drop(*keys: str) -> Any:
    def edit(header: dict[str, Any]) -> None:
        target = header
        for key in keys[:-1]:
            target = target[key]
        del target[keys[-1]]
    return edit


BAD_HEADERS = {
    "renamed option": _rename_option,
    "option of the wrong type": _set("game", "options", "bear_limit", value="eight"),
    "options not an object": _set("game", "options", value=["bear_limit"]),
    "renamed data role": _rename_role,
    "missing data role": _drop("game", "data", "deck"),
    "data entry without a hash": _drop("game", "data", "board", "sha256"),
    "data not an object": _set("game", "data", value="default"),
    "data file name with a byte changed": _set("game", "data", "bands", "source",
                                               value="default8tenfour_bands.toml"),
    "shipped data file that does not exist": _set("game", "data", "bands", "source",
                                                  value="default:tenfour_bandz.toml"),
    "shipped data file outside the package": _set("game", "data", "bands", "source",
                                                  value="default:../data/tenfour_bands.toml"),
    "players a string": _set("game", "players", value="3"),
    "too many players": _set("game", "players", value=7),
    "unknown seat colour": _set("game", "seats", value=["red", "green", "pink"]),
    "seats not matching players": _set("game", "seats", value=["red", "green"]),
    "unknown variant": _set("game", "variant", value="deluxe"),
    "unknown game": _set("game", "game", value="chess"),
    "unknown level": _set("levels", value=["human", "strongest", "random"]),
    "levels shorter than the players": _set("levels", value=["human"]),
    "levels longer than the players": _set("levels", value=["human"] * 4),
    "levels not a list": _set("levels", value="human"),
    "hints not true or false": _set("hints", value="yes"),
}


@pytest.mark.parametrize("edit", BAD_HEADERS.values(), ids=BAD_HEADERS.keys())
def test_a_bad_header_is_set_aside_and_the_rig_starts_at_the_menu(tmp_path, edit):
    config = _config(tmp_path)
    current = _journal_in_progress(config)
    _edit_header(current, edit)
    before = current.read_bytes()
    daemon = Daemon(config=config, notifier=Quiet())
    try:
        daemon.start()
        assert_set_aside(daemon, config, current, before)
    finally:
        daemon.stop()


@pytest.mark.parametrize("edit", BAD_HEADERS.values(), ids=BAD_HEADERS.keys())
def test_replay_reports_a_bad_header_without_a_traceback(tmp_path, edit):
    config = _config(tmp_path)
    current = _journal_in_progress(config)
    _edit_header(current, edit)
    result = subprocess.run([sys.executable, "-m", "rig.cli", "replay", str(current)],
                            capture_output=True, text=True, timeout=scaled(HANG))
    assert "Traceback" not in result.stderr
    if result.returncode != 0:
        assert result.returncode == 1 and str(current) in result.stderr


def test_the_daemon_process_starts_despite_a_bad_header_and_says_why(tmp_path):
    config_path = write_config(tmp_path, game="tenfour", players=3)
    current = _journal_in_progress(load_config(config_path))
    _edit_header(current, _rename_option)
    daemon = start_daemon(config_path, None)
    err = up_then_stop(daemon)
    assert daemon.returncode == 0, err
    assert "bear_limiT" in err and "set aside" in err


@pytest.fixture
def daemon_at_game_over(tmp_path):
    """A daemon that has just played a whole game of Bump 'Em to GAME OVER."""
    config = _config(tmp_path, game="bumpem", players=2)
    config.state.directory.mkdir(parents=True)
    daemon = Daemon(config=config, notifier=Quiet())
    try:
        daemon.start()
        play_to_game_over(daemon)
        yield daemon
    finally:
        daemon.stop()


def play_to_game_over(daemon: Daemon, start: bool = True) -> None:
    """Start a 2-player game of Bump 'Em on a started daemon (or take the one started)
    and play it to GAME OVER through the daemon's own loop."""
    assert daemon.app is not None and daemon.loop is not None
    if start:
        daemon.app.play(daemon._start_game(SetupChoice(
            game="bumpem", players=2, levels=("human", "human"))))
    controller = daemon.app.controller
    assert controller is not None
    rng = random.Random(9)
    while not controller.session.state.is_terminal():
        for gesture in gestures_for(controller, rng):
            daemon.loop.step(gesture)
            controller.face.settled_at = None  # a robot has seen the new screen (issue 43)
            daemon.loop.run_due()


def test_a_journal_damaged_during_the_game_does_not_crash_game_over(daemon_at_game_over):
    daemon = daemon_at_game_over
    current = daemon.config.state.current
    lines = current.read_bytes().split(b"\n")
    lines[len(lines) // 2] = b"\x00" * 40  # a bad sector in the middle of the file
    current.write_bytes(b"\n".join(lines))
    daemon.loop.step(KnobLongPress("hi"))  # GAME OVER -> setup menu
    assert daemon.app.controller is None and daemon.app.menu is not None
    assert not current.exists()
    assert len(list(daemon.config.state.games.glob("*.jsonl"))) == 1, "filed all the same"


def test_a_journal_removed_during_the_game_does_not_crash_game_over(daemon_at_game_over):
    daemon = daemon_at_game_over
    daemon.config.state.current.unlink()
    daemon.loop.step(KnobLongPress("hi"))
    assert daemon.app.menu is not None
    assert "not filed" in daemon.app.screen().plain()


def test_a_second_daemon_on_the_same_state_refuses_and_leaves_the_journal_alone(tmp_path):
    config_path = write_config(tmp_path, game="tenfour", players=3)
    config = load_config(config_path)
    current = _journal_in_progress(config)
    first = Daemon(config=config, notifier=Quiet())
    try:
        first.start()
        assert first.app is not None and first.app.controller is not None, "resumed"
        before = current.read_bytes()
        second = subprocess.run([sys.executable, "-m", "rig.cli", "run", "--config",
                                 str(config_path)], capture_output=True, text=True,
                                timeout=scaled(HANG))
        assert second.returncode == EXIT_BUSY, second.stderr
        assert "another cbrig" in second.stderr and str(config.state.directory) in second.stderr
        assert "Traceback" not in second.stderr
        assert current.read_bytes() == before
        assert not config.state.games.exists()
    finally:
        first.stop()
    again = Daemon(config=config, notifier=Quiet())
    try:
        again.start()  # the lock went with the first daemon
        assert again.app is not None and again.app.controller is not None
    finally:
        again.stop()


WITHOUT_WRITE_OVERRIDE = ("--inh-caps=-dac_override", "--bounding-set=-dac_override", "--")
"""setpriv options for root without the one power that lets it write a read-only file:
it still reads everything (CAP_DAC_READ_SEARCH stays), so the interpreter starts from any
checkout, wherever it lies and whoever owns it (an unprivileged user could not read a
checkout in /root), and the journal's own mode bits decide, as for the service user.
Dropped from the inheritable set too: systemd-nspawn hands its payload every capability
as inheritable, and root's execve would take it back from there."""


def test_a_healthy_journal_that_cannot_be_written_refuses_to_start(tmp_path):
    """`sudo cbrig run` once leaves a root-owned current.jsonl; the service user cannot
    write it. The game must stay where it is and the message must say what to fix."""
    config_path = write_config(tmp_path, game="tenfour", players=3)
    config = load_config(config_path)
    current = _journal_in_progress(config)
    before = current.read_bytes()
    command = [sys.executable, "-m", "rig.cli", "run", "--config", str(config_path)]
    if os.geteuid() == 0:  # root writes anything: take that power away for this process
        command = [require_command("setpriv", "util-linux"), *WITHOUT_WRITE_OVERRIDE,
                   *command]
    current.chmod(0o444)  # owned by someone else, as far as writing goes
    result = subprocess.run(command, capture_output=True, text=True, timeout=scaled(HANG),
                            env={**os.environ, "HOME": str(tmp_path)})
    assert result.returncode == EXIT_UNWRITABLE, result.stderr
    assert "permission denied" in result.stderr and str(current) in result.stderr
    assert "chown" in result.stderr, "says what to fix"
    assert "Traceback" not in result.stderr
    assert current.read_bytes() == before, "the game is left in place"
    assert not config.state.games.exists(), "not filed as damaged"


def test_the_state_the_daemon_creates_is_private_whatever_the_umask(tmp_path):
    from rig.core.enroll import save_card_map

    old = os.umask(0)
    try:
        config = _config(tmp_path)
        daemon = Daemon(config=config, notifier=Quiet())
        try:
            daemon.start()
            assert daemon.app is not None
            controller = daemon._start_game(SetupChoice(
                game="tenfour", players=3, levels=("human",) * 3))
            controller.session.close()
        finally:
            daemon.stop()
        save_card_map(config.reader.cards, {"0003887558": "M01"})
    finally:
        os.umask(old)
    assert config.state.directory.stat().st_mode & 0o777 == 0o700
    assert config.state.current.stat().st_mode & 0o777 == 0o600
    assert config.reader.cards.stat().st_mode & 0o777 == 0o600
