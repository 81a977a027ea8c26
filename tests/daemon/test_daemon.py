"""The daemon speaks systemd's notify protocol, stops cleanly and refuses bad configs."""

from __future__ import annotations

import signal
import subprocess
import sys

from PIL import Image, ImageChops

from rig.daemon import goodbye_screen
from rig.render import render
from tests.daemon.helpers import NotifySocket, start_daemon, write_config


def test_ready_then_watchdog_pings_then_stopping_on_sigterm(tmp_path):
    config = write_config(tmp_path, display="png")
    notify = NotifySocket(tmp_path / "notify")
    daemon = start_daemon(config, notify, watchdog_usec=200_000)
    try:
        ready = notify.wait_for("READY=1")
        assert any(f.startswith("STATUS=") for f in ready)
        notify.wait_for("WATCHDOG=1")
        notify.wait_for("WATCHDOG=1")
        daemon.send_signal(signal.SIGTERM)
        notify.wait_for("STOPPING=1")
        _, err = daemon.communicate(timeout=20)
    finally:
        notify.close()
        if daemon.poll() is None:
            daemon.kill()
    assert daemon.returncode == 0, err
    frames = sorted((tmp_path / "state" / "screens").glob("*.png"))
    assert frames, "the daemon drew the setup menu"
    last = Image.open(frames[-1]).convert("1").resize((128, 64), Image.NEAREST)
    assert ImageChops.difference(last, render(goodbye_screen())).getbbox() is None, \
        "RIG OFF stays on the display"


def test_no_watchdog_pings_without_a_watchdog(tmp_path):
    config = write_config(tmp_path)
    notify = NotifySocket(tmp_path / "notify", timeout=20)
    daemon = start_daemon(config, notify)
    try:
        notify.wait_for("READY=1")
        daemon.send_signal(signal.SIGINT)
        notify.wait_for("STOPPING=1")
        daemon.communicate(timeout=20)
    finally:
        notify.close()
    assert daemon.returncode == 0
    assert "WATCHDOG=1" not in notify.seen


def test_a_broken_config_is_a_clear_error_not_a_traceback(tmp_path):
    bad = tmp_path / "config.toml"
    bad.write_text('[display]\ndriver = "ssd1309"\n\n[pins]\nhi_a = 2\n')
    result = subprocess.run([sys.executable, "-m", "rig.cli", "run", "--config", str(bad)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 78
    assert f"{bad}:2: display.driver" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_missing_config_file_is_reported(tmp_path):
    result = subprocess.run([sys.executable, "-m", "rig.cli", "run", "--config",
                             str(tmp_path / "nope.toml")], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 78
    assert "nope.toml" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_resumed_game_keeps_its_seats_and_hints(tmp_path):
    from rig.config import load_config
    from rig.daemon import Daemon
    from rig.setup_menu import SetupChoice

    config = load_config(write_config(tmp_path, game="tenfour", players=3))

    class Quiet:
        def ready(self, status=None): ...
        def watchdog_interval(self): return None
        def stopping(self): ...

    first = Daemon(config=config, notifier=Quiet())
    first.config.state.directory.mkdir(parents=True)
    controller = first._start_game(SetupChoice(game="tenfour", players=3,
                                               levels=("human", "strong", "random"), hints=True))
    controller.session.close()
    resumed = Daemon(config=config, notifier=Quiet())._resume()
    assert resumed is not None
    assert [seat.level for seat in resumed.seats] == ["hint", "strong", "random"]
