"""A journal header names its data files; whatever it names, the rig comes up.

A header is a file anyone with the state directory's rights can edit (or a power cut
can half-write). Naming a device (/dev/zero read until the memory ran out), a FIFO (read
forever), a directory, a huge file, a missing path or a 5,000-character shipped name
must each set the game aside and start at the setup menu, as a config naming the same
paths is refused by `cbrig config check`.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import pytest

from rig.core.daemon import Daemon
from rig.datafiles import MAX_DATA_BYTES
from tests.daemon.helpers import Quiet, assert_set_aside
from tests.daemon.test_journal_faults import _config, _edit_header, _journal_in_progress, _set
from tests.slowdown import hang


def _oversized(tmp_path: Path) -> str:
    path = tmp_path / "huge_bands.toml"
    with path.open("wb") as handle:  # sparse: no disk used
        handle.truncate(MAX_DATA_BYTES + 1)
    return str(path)


def _binary(tmp_path: Path) -> str:
    path = tmp_path / "bands.bin"
    path.write_bytes(b"\xff\xfe\x00 not text")
    return str(path)


def _fifo(tmp_path: Path) -> str:
    path = tmp_path / "bands.fifo"
    os.mkfifo(path)
    return str(path)


NAMED = {
    "/dev/zero": lambda tmp_path: "/dev/zero",
    "/dev/urandom": lambda tmp_path: "/dev/urandom",
    "a FIFO": _fifo,
    "a directory": lambda tmp_path: str(tmp_path),
    "an oversized file": _oversized,
    "a file that is not UTF-8": _binary,
    "a missing absolute path": lambda tmp_path: str(tmp_path / "gone" / "bands.toml"),
    "a 5,000-character default: name": lambda tmp_path: "default:" + "b" * 5000,
    "a 300-character default: name": lambda tmp_path: "default:" + "b" * 300,
}


class _FifoGuard:
    """Opens a FIFO's other end if the start has not come back by the deadline, so a
    start that blocks on it fails this test instead of hanging the suite."""

    def __init__(self, path: str, deadline: float = hang()) -> None:
        self.path, self.deadline = path, deadline
        self.done = threading.Event()
        self.had_to_unblock = False
        self.thread = threading.Thread(target=self._watch, daemon=True)

    def _watch(self) -> None:
        if self.done.wait(self.deadline):
            return
        self.had_to_unblock = True
        os.close(os.open(self.path, os.O_WRONLY))  # the reader sees end of file

    def __enter__(self) -> _FifoGuard:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.done.set()
        self.thread.join()


@pytest.mark.parametrize("named", NAMED.values(), ids=NAMED.keys())
def test_a_header_naming_what_is_no_data_file_sets_the_game_aside(tmp_path, named):
    config = _config(tmp_path)
    current = _journal_in_progress(config)
    source = named(tmp_path)
    _edit_header(current, _set("game", "data", "bands", "source", value=source))
    before = current.read_bytes()
    daemon = Daemon(config=config, notifier=Quiet())
    try:
        if Path(source).is_fifo() if source.startswith("/") else False:
            with _FifoGuard(source) as guard:
                daemon.start()
            assert not guard.had_to_unblock, "the start blocked on the FIFO"
        else:
            daemon.start()
        assert_set_aside(daemon, config, current, before)
    finally:
        daemon.stop()


def test_cbrig_run_comes_up_when_the_header_names_dev_zero(tmp_path: Path) -> None:
    """The process as systemd runs it: READY (not exit 73, not 4.5 GB read), the
    game set aside and why in the log."""
    from rig.config import load_config
    from tests.daemon.helpers import start_daemon, up_then_stop, write_config

    config_path = write_config(tmp_path, game="tenfour", players=3)
    current = _journal_in_progress(load_config(config_path))
    _edit_header(current, _set("game", "data", "bands", "source", value="/dev/zero"))
    daemon = start_daemon(config_path, None)
    err = up_then_stop(daemon)
    assert daemon.returncode == 0, err
    assert "/dev/zero is a character device, not a data file" in err
    assert "set aside" in err and "rig up" in err


def test_a_fifo_or_device_as_the_card_map_does_not_hold_up_the_start(tmp_path: Path,
                                                                    caplog: Any) -> None:
    """The card map is read before READY too: a FIFO there blocked the start for ever."""
    config = _config(tmp_path)
    config.state.directory.mkdir(parents=True)
    os.mkfifo(config.reader.cards)
    daemon = Daemon(config=config, notifier=Quiet())
    try:
        with _FifoGuard(str(config.reader.cards)) as guard:
            daemon.start()
        assert not guard.had_to_unblock, "the start blocked on the FIFO"
        assert daemon.cards == {}
        assert "is a FIFO, not a data file" in caplog.text
    finally:
        daemon.stop()
