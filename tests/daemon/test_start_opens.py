"""Issue 44: every file the rig reads before READY goes through one bounded reader
(rig.datafiles.read_bounded): a FIFO, a device, a huge or non-UTF-8 file is refused
with one line naming it, never read, and the rig starts.

The first test watches every ``open`` of a start to READY (an audit hook, in a child
process: hooks cannot be removed) and fails on a file opened for reading that did not
come through the bounded reader and is not one of the listed exceptions, so the next
file someone adds to the start path is caught here."""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys
from pathlib import Path

from rig.config import load_config
from rig.core.daemon import Daemon
from rig.core.service import QuietNotifier
from tests.daemon.helpers import write_config
from tests.slowdown import scaled

WATCH = r"""
import json, os, sys
opens, watching = [], [False]

def hook(event, args):
    if not watching[0] or event != "open" or isinstance(args[0], int):
        return
    frame, bounded, callers = sys._getframe(1), False, []
    while frame is not None:
        code = frame.f_code
        if code.co_name == "read_bounded" and code.co_filename.endswith(
                os.path.join("rig", "datafiles.py")):
            bounded = True
        if os.sep + "rig" + os.sep in code.co_filename:
            callers.append(f"{os.path.basename(code.co_filename)}:{code.co_name}")
        frame = frame.f_back
    opens.append({"path": os.fsdecode(args[0]), "mode": args[1], "flags": args[2],
                  "bounded": bounded, "callers": callers[:3]})

sys.addaudithook(hook)
from rig.config import load_config
from rig.core.daemon import Daemon
from rig.core.service import QuietNotifier

class Ready(QuietNotifier):
    def ready(self, *args, **kwargs):
        watching[0] = False  # READY: what follows is after the start
        return super().ready(*args, **kwargs)

if sys.argv[2] == "daemon":
    watching[0] = True
    daemon = Daemon(config=load_config(sys.argv[1]), notifier=Ready())  # as `cbrig run`
    daemon.start()
    watching[0] = False
    daemon.stop()
else:  # the command itself, as the Pi image runs it (docs/IMAGE.md): every read it adds
    from rig import cli
    from rig.core import daemon as running, sdnotify

    def ready(self, *args, **kwargs):
        watching[0] = False  # READY ends the watch (no systemd here to tell)
        return True

    sdnotify.Notifier.ready = ready
    running.Daemon.serve = lambda self: None  # READY reached: no serving wanted here
    watching[0] = True
    code = cli.main(["run", "--config", sys.argv[1], *sys.argv[3:]])
    watching[0] = False
    assert code == 0, code
print(json.dumps(opens))
"""

WRITING = os.O_WRONLY | os.O_RDWR | os.O_CREAT
EXCEPTIONS = {
    "journal.py:read_journal": "a game's journal: its own scanner reads it a chunk at a "
                               "time (rig.core.journal, TAIL_LIMIT), header files bounded",
    "journal.py:open": "the same, when a game is resumed",
}
"""Callers allowed to open a file for reading outside the bounded reader, and why."""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _config(tmp_path: Path) -> Path:
    path = write_config(tmp_path, game="bumpem", players=2)
    path.write_text(path.read_text() + f'\n[web]\nenabled = true\nport = {_free_port()}\n')
    state = tmp_path / "state"
    state.mkdir(exist_ok=True)
    (state / "voice.conf").write_text("enabled = true\nvolume = 60\n")
    (state / "cards.toml").write_text('[tags]\n"04a1b2c3" = "M01"\n')
    return path


def _is_python(path: str) -> bool:
    return path.endswith((".py", ".pyc", ".so")) and any(
        entry and path.startswith(entry) for entry in sys.path)


def _opens(config: Path, *how: str, env: dict[str, str] | None = None) -> list[dict]:
    result = subprocess.run([sys.executable, "-c", WATCH, str(config), *how],
                            capture_output=True, text=True, timeout=scaled(120), check=True,
                            env=None if env is None else {**os.environ, **env})
    return json.loads(result.stdout.strip().splitlines()[-1])


def _unbounded(opens: list[dict]) -> list[dict]:
    """The reads in `opens` that neither went through the bounded reader nor are allowed."""
    unbounded = []
    for seen in opens:
        flags = seen["flags"] if isinstance(seen["flags"], int) else 0
        mode = seen["mode"] or ""
        if seen["bounded"] or _is_python(seen["path"]):
            continue
        if flags & getattr(os, "O_DIRECTORY", 0):
            continue  # a directory (the state directory's lock, a directory's fsync)
        if flags & WRITING or any(c in mode for c in "wax+"):
            continue  # a file the rig writes (created new, never a FIFO's reader)
        if any(caller in EXCEPTIONS for caller in seen["callers"]):
            continue
        unbounded.append(seen)
    return unbounded


def test_every_file_read_before_ready_goes_through_the_bounded_reader(tmp_path: Path):
    opens = _opens(_config(tmp_path), "daemon")
    assert _unbounded(opens) == [], "read before READY without rig.datafiles.read_bounded"
    bounded = {Path(seen["path"]).name for seen in opens if seen["bounded"]}
    assert {"config.toml", "voice.conf", "cards.toml", "join.conf"} <= bounded, bounded


def test_the_image_s_command_line_reads_through_the_bounded_reader_too(tmp_path: Path):
    """`cbrig run --config-errors=show` as the Pi image starts it (docs/IMAGE.md): the
    last good config kept and compared, an update's notice and the note that it was
    shown. Run twice: a good config (the copy written, then compared), then one with a
    mistake (the owner's file read again with its field at the default)."""
    assert "hints = false" in _config(tmp_path).read_text()  # the field the third round breaks
    config = _config(tmp_path)
    updates = tmp_path / "update"
    updates.mkdir()
    (updates / "notice.txt").write_text("abc123\nUpdate 0.4.0 failed: back on 0.3.0.\n")
    env = {"CBRIG_UPDATE_ROOT": str(updates)}
    for round_ in ("good", "good again", "a mistake"):
        if round_ == "a mistake":
            config.write_text(config.read_text().replace("hints = false", "hints = 7", 1))
        opens = _opens(config, "run", "--config-errors=show", env=env)
        assert _unbounded(opens) == [], (round_, "read without the bounded reader")
        bounded = {Path(seen["path"]).name for seen in opens if seen["bounded"]}
        assert {"config.toml", "notice.txt"} <= bounded, (round_, bounded)
        if round_ == "good again":  # the last good copy and the shown note compared
            assert {"config-last-good.toml", "update-notice-seen"} <= bounded, bounded


def test_a_fifo_a_huge_or_a_non_utf8_state_file_is_refused_and_the_rig_starts(
        tmp_path: Path, caplog):
    """voice.conf a FIFO (no READY in 20 s before), join.conf a 1.5 GB sparse file (1.08
    GB resident before, for voice.conf), cards.toml not UTF-8: each refused in one line
    naming it, never read, and the rig comes up."""
    config_path = _config(tmp_path)
    state = tmp_path / "state"
    (state / "voice.conf").unlink()
    os.mkfifo(state / "voice.conf")
    with open(state / "join.conf", "wb") as huge:
        huge.truncate(1536 * 1024 * 1024)
    (state / "cards.toml").write_bytes(b"[tags]\n\xff\xfe = 1\n")
    daemon = Daemon(config=load_config(config_path), notifier=QuietNotifier())
    with caplog.at_level(logging.WARNING):
        daemon.start()
    try:
        assert daemon.app is not None and daemon.app.menu is not None  # up, at the menu
        said = [r.getMessage() for r in caplog.records]
        for name, what in (("voice.conf", "is a FIFO"), ("join.conf", "is larger than"),
                           ("cards.toml", "is not UTF-8")):
            lines = [line for line in said if str(state / name) in line and what in line]
            assert len(lines) == 1, (name, said)
            assert "\n" not in lines[0]
    finally:
        daemon.stop()


def test_a_config_that_is_a_device_or_a_fifo_ends_in_one_line(tmp_path: Path):
    """`cbrig run --config /dev/zero` (a MemoryError traceback before), `cbrig config
    check /dev/zero`, and a FIFO as the config (a silent hang before)."""
    fifo = tmp_path / "rig.toml"
    os.mkfifo(fifo)
    for args, shown in ((["run", "--config", "/dev/zero"], "/dev/zero"),
                        (["config", "check", "/dev/zero"], "/dev/zero"),
                        (["run", "--config", str(fifo)], str(fifo)),
                        (["config", "check", str(fifo)], str(fifo))):
        done = subprocess.run([sys.executable, "-m", "rig.cli", *args], capture_output=True,
                              text=True, timeout=scaled(60))
        said = done.stdout + done.stderr
        assert done.returncode != 0 and "Traceback" not in said, said
        assert f"{shown}: file: is a " in said and ", not a config file" in said, said
