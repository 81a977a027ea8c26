"""`cbrig run --config-errors=show` (the Pi image: the owner edits config.toml on the
FAT partition from any computer): a config with mistakes does not stop the rig. The
mistakes are logged and shown on the setup screen with the file and line, and the rig
starts with the defaults for what was wrong, the last good config, or the built-in
defaults (docs/IMAGE.md). Without the option a bad config still exits 78."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from rig.config import (
    BUILT_IN,
    FIELD_DEFAULTS,
    LAST_GOOD,
    LAST_GOOD_NAME,
    load_config,
    load_config_forgiving,
)
from rig.core.daemon import Daemon
from tests.daemon.helpers import NotifySocket, Quiet, write_config
from tests.slowdown import hang, scaled

CONFIG = """\
[game]
name = "bumpem"
players = 2

[pins]
backend = "mock"
hi_a = 99

[reader]
type = "none"

[display]
driver = "png"

[state]
directory = "{state}"
"""
"""A config with one mistake (line 7: no GPIO99) and the owner's own choices around it."""


def _environment(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The daemon's environment: its default state directory in the test's directory
    (as systemd's StateDirectory= gives it), never this machine's /var/lib/cbrig."""
    env = {k: v for k, v in os.environ.items()
           if k not in {"NOTIFY_SOCKET", "WATCHDOG_USEC", "CBRIG_CONFIG_ERRORS"}}
    env["STATE_DIRECTORY"] = str(tmp_path / "default-state")
    env["CBRIG_UPDATE_ROOT"] = str(tmp_path / "no-updates")
    env.update(extra)
    return env


def _run_until_ready(tmp_path: Path, config: Path, *options: str,
                     **env: str) -> tuple[int, str]:
    """Start `cbrig run`, wait for READY=1 (or its exit), stop it: (exit status, log)."""
    notify = NotifySocket(tmp_path / "notify",
                          timeout=0.5)  # not a hang deadline: a poll (the loop's is scaled)
    process = subprocess.Popen(
        [sys.executable, "-m", "rig.cli", "run", "--config", str(config), *options],
        env={**_environment(tmp_path, **env), "NOTIFY_SOCKET": str(notify.path)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        ready = False
        deadline = time.monotonic() + scaled(120)  # only ends a hang
        while process.poll() is None and not ready and time.monotonic() < deadline:
            try:
                ready = any(f == "READY=1" for f in notify.next())
            except TimeoutError:
                continue
        if process.poll() is None:
            process.terminate()
        _, err = process.communicate(timeout=hang())
    finally:
        notify.close()
        (tmp_path / "notify").unlink(missing_ok=True)
    return (0 if ready else process.returncode), err


def test_a_config_with_a_mistake_starts_the_rig_and_shows_it(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text(CONFIG.format(state=tmp_path / "state"))
    status, log = _run_until_ready(tmp_path, config, "--config-errors=show")
    assert status == 0, log
    assert f"{config}:7: pins.hi_a: GPIO99 does not exist" in log
    assert "started with the defaults for the wrong fields" in log
    frames = sorted((tmp_path / "state" / "screens").glob("*.png"))
    assert len(frames) >= 2, "the owner's [display] driver was kept: the menu, RIG OFF"


def test_the_setup_screen_says_the_file_and_line(tmp_path):
    config_path = tmp_path / "config.toml"
    config_path.write_text(CONFIG.format(state=tmp_path / "state"))
    forgiven = load_config_forgiving(config_path)
    assert forgiven.used == FIELD_DEFAULTS
    assert forgiven.config.pins.hi_a == 17, "its default"
    assert forgiven.config.display.driver == "png", "the rest as the owner wrote it"
    daemon = Daemon(config=forgiven.config, notifier=Quiet(), notices=(forgiven.notice(),))
    try:
        daemon.start()
        assert daemon.app is not None and daemon.app.menu is not None
        shown = daemon.app.screen().plain()
        assert shown.startswith("NEW GAME config.toml line 7: pins.hi_a: GPIO99"), shown
    finally:
        daemon.stop()


def test_without_the_option_a_config_with_mistakes_still_exits_78(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text(CONFIG.format(state=tmp_path / "state"))
    status, log = _run_until_ready(tmp_path, config)
    assert status == 78, log
    assert f"{config}:7: pins.hi_a" in log


def test_the_environment_setting_is_the_option(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text(CONFIG.format(state=tmp_path / "state"))
    status, log = _run_until_ready(tmp_path, config, CBRIG_CONFIG_ERRORS="show")
    assert status == 0, log
    status, log = _run_until_ready(tmp_path, config, "--config-errors=refuse",
                                   CBRIG_CONFIG_ERRORS="show")
    assert status == 78, "the option wins"


def test_a_file_that_is_not_toml_runs_the_last_good_config(tmp_path, monkeypatch):
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    good = write_config(tmp_path, game="tenfour", players=3)
    first = load_config_forgiving(good)
    assert first.problems == () and first.used == ""
    saved = tmp_path / "state" / LAST_GOOD_NAME
    assert saved.is_file(), "kept as the last good config"
    mtime = saved.stat().st_mtime_ns
    assert load_config_forgiving(good).config == first.config
    assert saved.stat().st_mtime_ns == mtime, "not written again when unchanged"

    good.write_text('[game\nname = "tenfour"\n')  # not TOML at all
    broken = load_config_forgiving(good)
    assert broken.used == LAST_GOOD
    assert [p.line for p in broken.problems] == [1]
    assert broken.config.game.name == "tenfour" and broken.config.game.players == 3
    assert broken.config.pins == load_config(saved).pins
    assert "config.toml line 1" in broken.notice()


def test_no_last_good_config_runs_the_built_in_defaults(tmp_path, monkeypatch):
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    config = tmp_path / "config.toml"
    config.write_bytes(b"\xff\xfe not text")
    forgiven = load_config_forgiving(config)
    assert forgiven.used == BUILT_IN
    assert forgiven.config.pins.hi_a == 17
    assert "not UTF-8" in forgiven.notice()


def test_fields_that_clash_fall_back_as_a_whole(tmp_path, monkeypatch):
    """Two pins on one number are each valid alone: with the wrong ones at their
    defaults the config still does not hold together, so the last good one runs."""
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    config = tmp_path / "config.toml"
    config.write_text('[pins]\nbackend = "mock"\nhi_a = 5\nlo_a = 5\n')
    forgiven = load_config_forgiving(config)
    assert forgiven.problems and forgiven.used == BUILT_IN
    assert forgiven.config.pins.hi_a != forgiven.config.pins.lo_a
