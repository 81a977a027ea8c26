"""The daemon speaks systemd's notify protocol, stops cleanly and refuses bad configs."""

from __future__ import annotations

import signal
import subprocess
import sys

from PIL import Image, ImageChops

from rig.core.startup import goodbye_screen
from rig.screens.render import render
from tests.daemon.helpers import NotifySocket, start_daemon, write_config
from tests.slowdown import HANG, scaled


def test_ready_then_watchdog_pings_then_stopping_on_sigterm(tmp_path):
    config = write_config(tmp_path, display="png")
    notify = NotifySocket(tmp_path / "notify")
    daemon = start_daemon(config, notify, watchdog_usec=200_000)
    try:
        ready = notify.wait_for("READY=1")
        assert any(f.startswith("STATUS=") for f in ready)
        # the CPU the start used, measured by the daemon itself at READY (the bench's figure)
        [cpu] = [f.split("=", 1)[1] for f in ready if f.startswith("X_CBRIG_START_CPU=")]
        assert 0 < float(cpu) < 60
        notify.wait_for("WATCHDOG=1")
        notify.wait_for("WATCHDOG=1")
        daemon.send_signal(signal.SIGTERM)
        notify.wait_for("STOPPING=1")
        _, err = daemon.communicate(timeout=scaled(HANG))
    finally:
        notify.close()
        if daemon.poll() is None:
            daemon.kill()
    assert daemon.returncode == 0, err
    frames = sorted((tmp_path / "state" / "screens").glob("*.png"))
    assert frames, "the daemon drew the setup menu"
    last = Image.open(frames[-1]).convert("1").resize((128, 64), Image.NEAREST)
    assert ImageChops.difference(last, render(goodbye_screen("bumpem"))).getbbox() is None, \
        "RIG OFF stays on the display"


def test_no_watchdog_pings_without_a_watchdog(tmp_path):
    config = write_config(tmp_path)
    notify = NotifySocket(tmp_path / "notify", timeout=scaled(HANG))
    daemon = start_daemon(config, notify)
    try:
        notify.wait_for("READY=1")
        daemon.send_signal(signal.SIGINT)
        notify.wait_for("STOPPING=1")
        daemon.communicate(timeout=scaled(HANG))
    finally:
        notify.close()
    assert daemon.returncode == 0
    assert "WATCHDOG=1" not in notify.seen


def test_a_broken_config_is_a_clear_error_not_a_traceback(tmp_path):
    bad = tmp_path / "config.toml"
    bad.write_text('[display]\ndriver = "ssd1309"\n\n[pins]\nhi_a = 2\n')
    result = subprocess.run([sys.executable, "-m", "rig.cli", "run", "--config", str(bad)],
                            capture_output=True, text=True, timeout=scaled(HANG))
    assert result.returncode == 78
    assert f"{bad}:2: display.driver" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_missing_config_file_is_reported(tmp_path):
    result = subprocess.run([sys.executable, "-m", "rig.cli", "run", "--config",
                             str(tmp_path / "nope.toml")], capture_output=True, text=True,
                            timeout=scaled(HANG))
    assert result.returncode == 78
    assert "nope.toml" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_resumed_game_keeps_its_seats_and_hints(tmp_path):
    from rig.config import load_config
    from rig.core.daemon import Daemon
    from rig.core.setup_menu import SetupChoice

    config = load_config(write_config(tmp_path, game="tenfour", players=3))

    class Quiet:
        def ready(self, status=None, start_cpu=None): ...
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


def _full_notify_socket(path):
    """A notify socket whose queue is already full and that nobody reads (a hung
    service manager): the daemon's next datagram would wait for ever if it blocked."""
    import socket

    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(str(path))
    client = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    client.setblocking(False)
    try:
        while True:
            client.sendto(b"STATUS=filler", str(path))
    except BlockingIOError:
        pass
    finally:
        client.close()
    return server


class _Socket:
    def __init__(self, path):
        self.path = path


def test_a_notify_socket_nobody_reads_blocks_neither_the_game_nor_sigterm(tmp_path):
    """Autoplay sends a STATUS per input: the whole game still plays to its end. Then a
    daemon at the setup menu pinging the watchdog still stops on SIGTERM."""
    from tests.daemon.helpers import write_config as config_in

    path = tmp_path / "notify"
    server = _full_notify_socket(path)
    try:
        played = tmp_path / "played"
        played.mkdir()
        game = start_daemon(config_in(played), _Socket(path), "--autoplay", "3",
                            watchdog_usec=20_000)
        try:
            _, err = game.communicate(timeout=scaled(HANG))
        finally:
            if game.poll() is None:
                game.kill()
        assert game.returncode == 0, err
        assert list((played / "state" / "games").glob("*.jsonl")), "the game was finished"

        idle = tmp_path / "idle"
        idle.mkdir()
        daemon = start_daemon(config_in(idle), _Socket(path), watchdog_usec=20_000)
        try:
            for line in daemon.stderr:
                if "rig up" in line:
                    break
            daemon.send_signal(signal.SIGTERM)
            _, err = daemon.communicate(timeout=scaled(HANG))
        finally:
            if daemon.poll() is None:
                daemon.kill()
                daemon.communicate()
        assert daemon.returncode == 0, err
    finally:
        server.close()
