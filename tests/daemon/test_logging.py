"""The daemon's log: journald priorities under systemd, plain lines elsewhere, outages
logged once with their recovery, data quoted in messages made safe."""

from __future__ import annotations

import logging
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from hardware.events import DisplayStatus, FrameRejected, ReaderStatus
from rig.core.service import HardwareLog
from rig.logs import setup_logging
from tests.daemon.helpers import write_config
from tests.slowdown import HANG, scaled

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def restore_logging():
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    for handler in list(root.handlers):
        root.removeHandler(handler)
    for handler in handlers:
        root.addHandler(handler)
    root.setLevel(level)


def _log_to(path: Path, environ: dict[str, str]) -> str:
    with path.open("w") as stream:
        setup_logging("debug", stream=stream, environ=environ)
        log = logging.getLogger("rig.test")
        log.error("cannot resume %s", "a\nb")
        log.warning("display lost")
        log.info("rig up")
        log.debug("detail \x1b[2J")
        logging.getLogger().handlers[0].flush()
    return path.read_text()


def test_lines_carry_journald_priorities_when_stderr_is_the_journal(tmp_path, restore_logging):
    path = tmp_path / "stderr"
    path.touch()
    info = os.stat(path)
    text = _log_to(path, {"JOURNAL_STREAM": f"{info.st_dev}:{info.st_ino}"})
    assert text.splitlines() == ["<3>cannot resume a", "<3>b", "<4>display lost",
                                 "<6>rig up", "<7>detail \\x1b[2J"]


@pytest.mark.parametrize("environ", [{}, {"JOURNAL_STREAM": "1:2"}],
                         ids=["no journal", "stderr redirected elsewhere"])
def test_lines_are_plain_anywhere_else(tmp_path, restore_logging, environ):
    text = _log_to(tmp_path / "stderr", environ)
    assert text.splitlines() == ["ERROR cannot resume a", "b", "WARNING display lost",
                                 "INFO rig up", "DEBUG detail \\x1b[2J"]


def test_the_daemon_under_journald_logs_a_refused_journal_as_an_error(tmp_path):
    """The real process, stderr a stream whose device:inode is in JOURNAL_STREAM."""
    config = write_config(tmp_path, game="bumpem", players=2)
    state = tmp_path / "state"
    state.mkdir()
    (state / "current.jsonl").write_text("not a journal\n")
    read_end, write_end = os.pipe()
    info = os.fstat(write_end)
    env = {k: v for k, v in os.environ.items() if k != "NOTIFY_SOCKET"}
    env["JOURNAL_STREAM"] = f"{info.st_dev}:{info.st_ino}"
    daemon = subprocess.Popen([sys.executable, "-m", "rig.cli", "run", "--config", str(config)],
                              stderr=write_end, env=env, text=True)
    os.close(write_end)
    lines = []
    with os.fdopen(read_end) as err:
        for line in err:
            lines.append(line.rstrip("\n"))
            if "rig up" in line:
                daemon.send_signal(signal.SIGTERM)
        daemon.wait(timeout=scaled(HANG))
    assert daemon.returncode == 0, lines
    assert any(re.match(r"<3>cannot resume .*current\.jsonl", line) for line in lines), lines
    assert "<6>rig up: setup menu" in lines
    assert all(re.match(r"<\d>", line) for line in lines), lines


def test_outages_are_logged_once_each_with_their_recovery(caplog):
    hardware_log = HardwareLog()
    with caplog.at_level(logging.INFO, logger="rig.core.service"):
        hardware_log.note(ReaderStatus("deck", True, "connected on /dev/serial0"))
        hardware_log.note(DisplayStatus(False, "OLED lost: [Errno 121] Remote I/O error"))
        hardware_log.note(ReaderStatus("deck", False, "lost /dev/serial0: gone"))
        hardware_log.note(DisplayStatus(True, "OLED back"))
        hardware_log.note(ReaderStatus("deck", True, "connected on /dev/serial0"))
    got = [(r.levelname, r.getMessage()) for r in caplog.records]
    assert got == [
        ("INFO", "reader deck: connected on /dev/serial0"),
        ("WARNING", "display lost: OLED lost: [Errno 121] Remote I/O error"),
        ("WARNING", "reader deck lost: lost /dev/serial0: gone"),
        ("INFO", "display back: OLED back"),
        ("INFO", "reader deck back: connected on /dev/serial0"),
    ]


def test_a_flood_of_rejected_frames_is_counted_not_logged_line_by_line(caplog):
    now = [0.0]
    hardware_log = HardwareLog(clock=lambda: now[0])
    with caplog.at_level(logging.INFO, logger="rig.core.service"):
        for _ in range(500):
            hardware_log.note(FrameRejected("deck", "bad checksum"))
            now[0] += 0.1  # 50 s of noise
        now[0] += 20
        hardware_log.note(FrameRejected("deck", "bad checksum"))
        hardware_log.note(FrameRejected("deck", "bad checksum"))
        hardware_log.flush()
    got = [r.getMessage() for r in caplog.records]
    assert got == ["reader deck: bad checksum (1 frame rejected)",
                   "reader deck: bad checksum (500 frames rejected)",
                   "reader deck: bad checksum (1 more frame rejected)"]


def test_modules_log_through_their_own_logger_and_never_configure_logging():
    offenders = []
    for path in [*ROOT.glob("rig/**/*.py"), *ROOT.glob("hardware/**/*.py"),
                 *ROOT.glob("engine/**/*.py")]:
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r"getLogger\(([^)]*)\)", text):
            if match.group(1) not in ("__name__", ""):
                offenders.append(f"{path.relative_to(ROOT)}: {match.group(0)}")
        if "basicConfig(" in text and path.name != "logs.py":
            offenders.append(f"{path.relative_to(ROOT)}: basicConfig")
    assert offenders == []


def test_the_daemon_logs_what_its_hardware_reports_and_still_hands_it_on(tmp_path, caplog):
    from rig.config import load_config
    from rig.core.daemon import Daemon
    from tests.daemon.test_journal_faults import Quiet

    daemon = Daemon(config=load_config(write_config(tmp_path)), notifier=Quiet())
    try:
        daemon.start()
        assert daemon.loop is not None
        with caplog.at_level(logging.INFO, logger="rig.core.service"):
            daemon._emit(DisplayStatus(False, "OLED lost: [Errno 121] Remote I/O error"))
            daemon._emit(DisplayStatus(True, "OLED back"))
        assert [r.levelname for r in caplog.records] == ["WARNING", "INFO"]
        handed_on = [daemon.loop.events.get_nowait() for _ in range(2)]
        assert handed_on == [DisplayStatus(False, "OLED lost: [Errno 121] Remote I/O error"),
                             DisplayStatus(True, "OLED back")]
    finally:
        daemon.stop()
