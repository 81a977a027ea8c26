"""READY=1 means the rig is up: the display shows the first screen AND the pins, knobs
and reader are claimed. A hardware set-up failure is an exit status systemd does not
restart in a loop, and the display says the start was refused."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageChops

from rig.config import load_config
from rig.core.startup import EXIT_HARDWARE, HardwareUnavailable, refused_screen
from rig.screens.render import render
from tests.daemon.helpers import NotifySocket, start_daemon, write_config
from tests.slowdown import HANG, scaled


def _config_with(tmp_path: Path, old: str, new: str, display: str = "png") -> Path:
    path = write_config(tmp_path, game="tenfour", players=3, display=display)
    path.write_text(path.read_text().replace(old, new))
    return path


def _notifications_until_exit(notify: NotifySocket, process) -> list[str]:  # type: ignore[no-untyped-def]
    process.communicate(timeout=scaled(HANG))
    notify.sock.settimeout(0)  # not a hang deadline: non-blocking, to drain
    while True:
        try:
            notify.next()
        except (TimeoutError, BlockingIOError):
            return notify.seen


def test_a_missing_pin_library_is_no_ready_and_no_restart_loop(tmp_path):
    """The pin backend is lgpio and lgpio is not there (or has no GPIO chip here): the
    daemon used to send READY=1 first, then exit 1, and systemd restarted it ten times."""
    config = _config_with(tmp_path, 'backend = "mock"', 'backend = "lgpio"')
    notify = NotifySocket(tmp_path / "notify")
    try:
        process = start_daemon(config, notify)
        seen = _notifications_until_exit(notify, process)
    finally:
        notify.close()
    assert process.returncode == EXIT_HARDWARE, process.stderr
    assert "READY=1" not in seen
    assert "STOPPING=1" in seen
    # the display says so, on its last frame
    frames = sorted((load_config(config).state.directory / "screens").glob("frame_*.png"))
    assert frames, "the display was written"
    last = Image.open(frames[-1]).convert("1")
    wanted = render(refused_screen(HardwareUnavailable("")))
    wanted = wanted.resize(last.size).convert("1")
    assert ImageChops.difference(last.convert("L"), wanted.convert("L")).getbbox() is None


def test_ready_is_sent_once_the_hardware_is_claimed(tmp_path):
    config = write_config(tmp_path, game="tenfour", players=3)
    notify = NotifySocket(tmp_path / "notify")
    try:
        process = start_daemon(config, notify)
        notify.wait_for("READY=1")
        process.terminate()
        _, err = process.communicate(timeout=scaled(HANG))
    finally:
        notify.close()
    assert process.returncode == 0, err
    started, up = err.index("hardware started"), err.index("rig up")
    assert started < up, "pins, knobs and reader before READY"


def test_the_unit_does_not_restart_a_hardware_failure():
    from tests.systemd.test_unit_file import UNIT, directives

    prevent = directives(UNIT.read_text())[("Service", "RestartPreventExitStatus")][0]
    assert str(EXIT_HARDWARE) in prevent.split()


def test_a_second_daemon_refused_leaves_the_first_ones_display_alone(tmp_path):
    """Another cbrig runs the rig (and its OLED): the refused one must not draw NO START
    over the game on the screen."""
    import subprocess
    import sys

    from rig.core.daemon import Daemon
    from rig.core.startup import EXIT_BUSY
    from tests.daemon.helpers import Quiet

    config_path = write_config(tmp_path, game="tenfour", players=3, display="png")
    config = load_config(config_path)
    first = Daemon(config=config, notifier=Quiet())
    try:
        first.start()
        screens = config.state.directory / "screens"
        before = {p.name: p.read_bytes() for p in screens.iterdir()}
        second = subprocess.run([sys.executable, "-m", "rig.cli", "run", "--config",
                                 str(config_path)], capture_output=True, text=True,
                                timeout=scaled(HANG))
        assert second.returncode == EXIT_BUSY, second.stderr
        assert {p.name: p.read_bytes() for p in screens.iterdir()} == before
    finally:
        first.stop()
