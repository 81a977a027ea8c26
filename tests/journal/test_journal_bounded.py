"""Reading a journal is bounded: a file followed by 1 GiB of zeros (a file system that
lost its size, a hostile copy) must not be read whole. A 512 MB Pi did not survive it:
READY after 12.8 s at 1 GB RSS. The files here are sparse, so the tests are cheap."""

from __future__ import annotations

import os
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rig.core.journal import Journal
from rig.core.journalread import MAX_LINE, TAIL_LIMIT, JournalError, read_journal
from tests.journal.test_journal_file import ACTIONS, HEADER, make_journal
from tests.slowdown import hang

GIB = 1 << 30
BOUND = 4 * (1 << 20)
"""What reading may allocate at most: a few chunks and the bounded look-ahead."""


def peak_allocation(call: Callable[[], Any]) -> tuple[Any, int]:
    tracemalloc.start()
    try:
        result = call()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_journal_followed_by_a_gib_of_zeros_opens_in_bounded_memory(tmp_path: Path):
    path = tmp_path / "current.jsonl"
    good = make_journal(path)
    os.truncate(path, len(good) + GIB)
    (journal, recovery), peak = peak_allocation(lambda: Journal.open(path))
    try:
        assert peak < BOUND, f"{peak} bytes allocated"
        assert recovery.clean and journal.entries == ACTIONS
        assert journal.append({"kind": "spin", "band": 1, "value": 3}) == len(ACTIONS) + 1
    finally:
        journal.close()
    assert Journal.open(path)[0].entries[-1] == {"kind": "spin", "band": 1, "value": 3}
    contents, peak = peak_allocation(lambda: read_journal(path))
    assert peak < BOUND and contents.entries[-1]["value"] == 3


def test_data_far_beyond_the_zeros_is_not_looked_for(tmp_path: Path):
    """A rig never leaves more than TAIL_LIMIT bytes of zeros after its last line: what
    lies beyond is not read, and not cut either (the file is only shortened at a clean
    close, as every journal is)."""
    path = tmp_path / "current.jsonl"
    good = make_journal(path)
    with open(path, "r+b") as f:
        f.seek(len(good) + TAIL_LIMIT + (1 << 20))
        f.write(b'{"seq": 99}\n')
    (journal, recovery), peak = peak_allocation(lambda: Journal.open(path))
    assert peak < BOUND
    assert recovery.clean and journal.entries == ACTIONS
    journal.close()
    assert path.read_bytes() == good


def test_data_just_after_a_run_of_zeros_is_still_damage(tmp_path: Path):
    """Zeros inside the file (a bad sector), then lines: not a power cut's tail."""
    path = tmp_path / "current.jsonl"
    good = make_journal(path)
    lines = good.split(b"\n")
    lines[2] = b"\0" * len(lines[2])
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(JournalError, match=":3: damaged line before the end"):
        Journal.open(path)
    assert path.read_bytes() == b"\n".join(lines), "left untouched"


def test_a_line_longer_than_any_journal_line_stops_the_read(tmp_path: Path):
    path = tmp_path / "current.jsonl"
    good = make_journal(path)
    with open(path, "ab") as f:
        f.truncate(len(good))
        f.write(b"x" * (MAX_LINE + 1))
    os.truncate(path, len(good) + GIB)  # and no newline for a GiB
    with pytest.raises(JournalError, match=f":{len(ACTIONS) + 2}: .*longer than"):
        peak_allocation(lambda: Journal.open(path))


def test_a_line_too_long_is_never_written(tmp_path: Path):
    with Journal.create(tmp_path / "j.jsonl", HEADER) as journal, \
            pytest.raises(ValueError, match="longer than"):
        journal.append({"kind": "note", "text": "x" * MAX_LINE})


def test_a_full_disk_says_how_much_a_new_game_needs(tmp_path: Path, monkeypatch):
    """40 KiB free, 64 KiB reserved: START said "the disk is full" and nothing more."""
    import errno

    from rig.core import journal as journal_module
    from rig.core.journalread import PREALLOCATE, JournalWriteError

    real_statvfs = os.statvfs

    class Full:
        f_frsize = 4096
        f_bavail = 10  # 40 KiB

    def write(fd: int, data: bytes) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(journal_module.os, "write", write)
    monkeypatch.setattr(journal_module.os, "statvfs",
                        lambda p: Full() if Path(p) == tmp_path else real_statvfs(p))
    with pytest.raises(JournalWriteError) as caught:
        Journal.create(tmp_path / "current.jsonl", HEADER)
    message = str(caught.value)
    assert f"a new game needs {PREALLOCATE // 1024} KiB" in message
    assert "40 KiB free" in message
    assert not (tmp_path / "current.jsonl").exists()


def test_replay_of_a_missing_file_says_the_file_does_not_exist(tmp_path: Path):
    import subprocess
    import sys

    missing = tmp_path / "nonexistent.jsonl"
    result = subprocess.run([sys.executable, "-m", "rig.cli", "replay", str(missing)],
                            capture_output=True, text=True, timeout=hang())
    assert result.returncode == 1
    assert str(missing) in result.stderr and "directory" not in result.stderr
    assert "no such file" in result.stderr or "the file does not exist" in result.stderr


def test_reading_a_missing_journal_says_the_file_does_not_exist(tmp_path: Path):
    with pytest.raises(JournalError, match="the file does not exist"):
        read_journal(tmp_path / "nonexistent.jsonl")


def test_creating_in_a_missing_directory_says_the_directory_does_not_exist(tmp_path: Path):
    from rig.core.journalread import JournalWriteError

    with pytest.raises(JournalWriteError, match="the directory does not exist"):
        Journal.create(tmp_path / "gone" / "current.jsonl", HEADER)


def test_garbage_lines_after_the_journal_are_not_read_whole(tmp_path: Path):
    """Reading stops at the first line that is not a journal line: what follows is only
    looked at far enough to tell damage (an error, file untouched) from a torn end."""
    path = tmp_path / "current.jsonl"
    good = make_journal(path)
    garbage = b"x\n" * (8 * (1 << 20))  # 16 MiB of lines that are no journal lines
    path.write_bytes(good + garbage)
    def refused() -> JournalError:
        try:
            Journal.open(path)
        except JournalError as exc:
            return exc
        raise AssertionError("opened")

    error, peak = peak_allocation(refused)
    assert f":{len(ACTIONS) + 2}: damaged line" in str(error)
    assert peak < BOUND, f"{peak} bytes allocated"
    assert path.read_bytes() == good + garbage


class _NearlyFullDisk:
    """A disk with `free` bytes left, as the kernel treats it: a write larger than what
    is left writes what fits and returns that count (a short write); the next one
    fails with ENOSPC. Removing the file (the only one written) gives its bytes back."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, directory: Path, free: int) -> None:
        import errno

        from rig.core import journal as journal_module

        self.free = free
        self.taken = 0
        real_write, real_pwrite, real_statvfs = os.write, os.pwrite, os.statvfs
        real_unlink = os.unlink
        disk = self

        class Stat:
            f_frsize = 1024

            @property
            def f_bavail(self) -> int:
                return disk.free // 1024

        def take(data: bytes) -> bytes:
            if disk.free == 0:
                raise OSError(errno.ENOSPC, "No space left on device")
            fits = bytes(data[:disk.free])
            disk.free -= len(fits)
            disk.taken += len(fits)
            return fits

        def unlink(path: str) -> None:
            real_unlink(path)
            disk.free, disk.taken = disk.free + disk.taken, 0

        monkeypatch.setattr(journal_module.os, "write",
                            lambda fd, data: real_write(fd, take(data)))
        monkeypatch.setattr(journal_module.os, "pwrite",
                            lambda fd, data, at: real_pwrite(fd, take(data), at))
        monkeypatch.setattr(journal_module.os, "unlink", unlink)
        monkeypatch.setattr(journal_module.os, "statvfs",
                            lambda p: Stat() if Path(p) == directory else real_statvfs(p))


@pytest.mark.parametrize("free_kib", [1, 40, 63])
def test_a_short_write_of_the_preallocation_is_a_full_disk_not_a_failing_card(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, free_kib: int) -> None:
    """1-63 KiB free: the 64 KiB preallocation got a short write, which was reported as
    "input/output error (failing SD card or disk?)": owners would replace a good card."""
    import errno

    from rig.core.journalread import JournalWriteError

    _NearlyFullDisk(monkeypatch, tmp_path, free_kib * 1024)
    with pytest.raises(JournalWriteError) as caught:
        Journal.create(tmp_path / "current.jsonl", HEADER)
    message = str(caught.value)
    assert "the disk is full" in message and "input/output" not in message
    assert "SD card" not in message
    assert f"the disk is full (a new game needs 64 KiB, {free_kib} KiB free" in message
    assert caught.value.errno == errno.ENOSPC
    assert not (tmp_path / "current.jsonl").exists()


def test_a_short_write_while_extending_the_tail_is_a_full_disk(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rig.core.journalread import PREALLOCATE, JournalWriteError

    with Journal.create(tmp_path / "current.jsonl", HEADER) as journal:
        disk = _NearlyFullDisk(monkeypatch, tmp_path, 10 * 1024)
        with pytest.raises(JournalWriteError) as caught:
            while True:  # bounded: the tail is extended within PREALLOCATE bytes
                journal.append({"kind": "note", "text": "x" * 1000})
                assert journal.size < 2 * PREALLOCATE
        assert "the disk is full" in str(caught.value)
        assert disk.free == 0
