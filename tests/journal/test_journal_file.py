"""rig.core.journal: creation, appending, reopening and recovery after a power cut."""

from __future__ import annotations

import errno
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rig.core.filing import archive, archive_name
from rig.core.journal import CURRENT_NAME, GAMES_DIR, Journal
from rig.core.journalread import (
    PREALLOCATE,
    JournalError,
    JournalWriteError,
    Recovery,
    parse_journal,
    read_journal,
)
from rig.statedir import atomic_write

IDENTITY = {
    "game": "tenfour",
    "variant": "standard",
    "players": 2,
    "seats": ["Red", "Blue"],
    "options": {"police": True},
    "data": {"board": {"source": "default:tenfour_board.toml", "sha256": "ab" * 32}},
}
HEADER = {"game": IDENTITY, "created": "2026-11-29T17:15:00Z"}
ACTIONS: list[dict[str, Any]] = [
    {"kind": "spin", "band": 1, "value": 7},
    {"kind": "move", "piece": "Red car 1", "steps": 7, "route": ["R1", "R2"]},
    {"kind": "draw", "card": "Smokey ahead \u2014 slow down \u00e9\u00e8"},
    {"kind": "spin", "band": 2, "value": 10},
    {"kind": "correct", "piece": "Smokey 1", "location": "S12"},
]


def make_journal(path: Path, actions: list[dict[str, Any]] = ACTIONS) -> bytes:
    with Journal.create(path, HEADER) as journal:
        for action in actions:
            journal.append(action)
    return path.read_bytes()


def written(path: Path) -> bytes:
    """The journal's lines on disk, without the zero-filled tail an open journal has."""
    return path.read_bytes().rstrip(b"\0")


def line_ends(data: bytes) -> list[int]:
    """Offsets just after each newline."""
    return [i + 1 for i, byte in enumerate(data) if byte == ord("\n")]


# -- creation -------------------------------------------------------------------------

def test_create_writes_header_line_with_format_version_and_seq(tmp_path: Path) -> None:
    path = tmp_path / CURRENT_NAME
    journal = Journal.create(path, {**HEADER, "rig": "cb-rig test"})
    journal.close()
    lines = path.read_bytes().split(b"\n")
    assert lines[1:] == [b""]  # exactly one line, ending in a newline
    header = json.loads(lines[0])
    assert header == {"format": "cbrig-journal", "version": 1, "seq": 0, "game": IDENTITY,
                      "created": "2026-11-29T17:15:00Z", "rig": "cb-rig test"}
    assert journal.header == header
    assert journal.entries == []
    assert journal.seq == 0


def test_create_refuses_to_overwrite(tmp_path: Path) -> None:
    path = tmp_path / CURRENT_NAME
    before = make_journal(path)
    with pytest.raises(JournalError, match="already exists"):
        Journal.create(path, HEADER)
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ({"created": "2026-11-29T17:15:00Z"}, "game identity"),
        ({"game": "tenfour", "created": "now"}, "game identity"),
        ({"game": IDENTITY}, "creation time"),
        ({"game": IDENTITY, "created": 17}, "creation time"),
        ({**HEADER, "seq": 3}, "'seq' is set by the journal"),
        ({**HEADER, "format": "other"}, "'format' is set by the journal"),
        ({**HEADER, "score": float("nan")}, "JSON"),
    ],
)
def test_create_rejects_bad_headers_before_touching_disk(
    tmp_path: Path, header: dict[str, Any], message: str
) -> None:
    path = tmp_path / CURRENT_NAME
    with pytest.raises(ValueError, match=message):
        Journal.create(path, header)
    assert not path.exists()


def test_create_in_read_only_directory_is_a_clear_write_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_open = os.open

    def read_only_open(path: Any, flags: int, *args: Any) -> int:
        if flags & os.O_CREAT:
            raise OSError(errno.EROFS, "Read-only file system")
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", read_only_open)
    with pytest.raises(JournalWriteError, match=r"cannot create journal .*read-only") as info:
        Journal.create(tmp_path / CURRENT_NAME, HEADER)
    assert info.value.errno == errno.EROFS
    assert isinstance(info.value, OSError)


UNPRIVILEGED = 65534
"""nobody: a user that owns nothing here."""


def _create_as(uid: int, target: Path) -> str:
    """Journal.create(target) in a forked child running as `uid`; what it reported.

    The child inherits the imported modules, so it never reads the checkout or starts an
    interpreter: the outcome is the same wherever the checkout lies and whoever owns it.
    """
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: drop to `uid`, try, report through the pipe, never return
        outcome = "crashed"
        try:
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
            os.listdir(target.parent)  # the directory is reachable: only writing is denied
            try:
                Journal.create(target, HEADER)
                outcome = "created"
            except JournalWriteError as exc:
                outcome = f"refused: {exc}"
        except BaseException as exc:
            outcome = f"crashed: {exc!r}"
        finally:
            os.write(writer, outcome.encode())
            os._exit(0)
    os.close(writer)
    with os.fdopen(reader, "rb") as pipe:
        outcome = pipe.read().decode()
    os.waitpid(pid, 0)
    return outcome


def test_create_in_unwritable_directory_really_fails(tmp_path: Path) -> None:
    """A real permission failure: as an unprivileged user when the tests run as root
    (root may write anywhere), directly otherwise."""
    base = Path(tempfile.mkdtemp(prefix="cbrig-ro-"))  # outside root's private pytest dir
    try:
        base.chmod(0o755)
        locked = base / "locked"
        locked.mkdir(mode=0o555)
        locked.chmod(0o555)
        target = locked / CURRENT_NAME
        if os.geteuid() != 0:
            with pytest.raises(JournalWriteError, match="permission denied"):
                Journal.create(target, HEADER)
        else:
            outcome = _create_as(UNPRIVILEGED, target)
            assert outcome == f"refused: cannot create journal {target}: permission denied"
        assert not target.exists()
    finally:
        shutil.rmtree(base)


def test_create_that_cannot_write_the_header_leaves_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(fd: int, data: bytes) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    path = tmp_path / CURRENT_NAME
    with pytest.raises(JournalWriteError, match="disk is full"):
        Journal.create(path, HEADER)
    assert not path.exists()


def test_create_fsyncs_file_and_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[str] = []
    real_fsync = os.fsync

    def spy(fd: int) -> None:
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", spy)
    path = tmp_path / CURRENT_NAME
    journal = Journal.create(path, HEADER)
    assert synced == [str(path), str(tmp_path)]
    journal.close()


# -- appending and reopening ----------------------------------------------------------

def test_append_numbers_lines_and_reopen_reads_them_back(tmp_path: Path) -> None:
    path = tmp_path / CURRENT_NAME
    with Journal.create(path, HEADER) as journal:
        assert [journal.append(a) for a in ACTIONS] == [1, 2, 3, 4, 5]
        assert journal.entries == ACTIONS
        assert journal.size == len(written(path))
        assert path.stat().st_size == PREALLOCATE  # the zero tail, overwritten in place
    assert journal.size == path.stat().st_size  # closing cut the tail off
    lines = path.read_bytes().splitlines()
    assert [json.loads(line) for line in lines[1:]] == [
        {"seq": n, "action": a} for n, a in enumerate(ACTIONS, start=1)
    ]
    reopened, recovery = Journal.open(path)
    with reopened:
        assert recovery == Recovery()
        assert recovery.clean
        assert reopened.entries == ACTIONS
        assert reopened.header["game"] == IDENTITY
        assert reopened.append({"kind": "spin", "band": 1, "value": 3}) == 6
    assert json.loads(path.read_bytes().splitlines()[-1])["seq"] == 6


def test_append_fsyncs_before_returning(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    journal = Journal.create(tmp_path / CURRENT_NAME, HEADER)
    calls: list[str] = []
    real_pwrite, real_fdatasync = os.pwrite, os.fdatasync

    def spy_pwrite(fd: int, data: bytes, offset: int) -> int:
        calls.append(f"pwrite {len(data)} at {offset}")
        return real_pwrite(fd, data, offset)

    def spy_fdatasync(fd: int) -> None:
        calls.append("fdatasync")
        real_fdatasync(fd)

    size = journal.size
    monkeypatch.setattr(os, "pwrite", spy_pwrite)
    monkeypatch.setattr(os, "fdatasync", spy_fdatasync)
    journal.append(ACTIONS[0])
    # one write of the whole line over the tail's start, then its data made durable
    assert calls == [f"pwrite {journal.size - size} at {size}", "fdatasync"]
    journal.close()


def test_a_line_past_the_tail_extends_it_with_a_full_fsync_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / CURRENT_NAME
    journal = Journal.create(path, HEADER)
    long_action = {"kind": "note", "text": "x" * 300}
    while journal.size + 400 < PREALLOCATE:
        journal.append(long_action)
    calls: list[str] = []
    real_fsync, real_fdatasync = os.fsync, os.fdatasync
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(os, "fdatasync",
                        lambda fd: (calls.append("fdatasync"), real_fdatasync(fd))[1])
    journal.append(long_action)
    journal.append(long_action)
    assert calls == ["fsync", "fdatasync", "fdatasync"]  # the new tail's size, then lines
    assert path.stat().st_size == 2 * PREALLOCATE
    entries = journal.entries
    monkeypatch.undo()
    journal.close()
    reopened, recovery = Journal.open(path)
    reopened.close()
    assert recovery.clean and reopened.entries == entries


def test_a_crash_leaves_the_zero_tail_which_reads_as_the_end(tmp_path: Path) -> None:
    path = tmp_path / CURRENT_NAME
    journal = Journal.create(path, HEADER)
    for action in ACTIONS:
        journal.append(action)
    crashed = path.read_bytes()  # what a power cut leaves: never closed
    journal.close()
    path.write_bytes(crashed)
    assert len(crashed) == PREALLOCATE and crashed.endswith(b"\0" * 100)
    assert read_journal(path).entries == ACTIONS
    reopened, recovery = Journal.open(path)
    assert recovery.clean and reopened.entries == ACTIONS
    assert reopened.append({"kind": "spin", "band": 1, "value": 3}) == len(ACTIONS) + 1
    reopened.close()
    assert Journal.open(path)[0].entries[-1] == {"kind": "spin", "band": 1, "value": 3}


@pytest.mark.parametrize("torn", [b'{"seq": 6, "ac', b'\0\0\0\0on": {"kind": "spin"}}\n'])
def test_a_torn_line_in_the_zero_tail_is_cut(tmp_path: Path, torn: bytes) -> None:
    """Overwriting in place, a power cut may leave any part of the last line's bytes
    (a block written, the one before it not), then zeros."""
    path = tmp_path / CURRENT_NAME
    good = make_journal(path)
    path.write_bytes(good + torn + bytes(500))
    journal, recovery = Journal.open(path)
    assert journal.entries == ACTIONS
    assert recovery.dropped_bytes == len(torn) and recovery.line == len(ACTIONS) + 2
    journal.close()
    assert path.read_bytes() == good


def test_append_stores_what_a_reopen_reads(tmp_path: Path) -> None:
    path = tmp_path / CURRENT_NAME
    with Journal.create(path, HEADER) as journal:
        journal.append({"kind": "move", "route": ("R1", "R2"), "text": "line\nbreak"})
        assert journal.entries == [{"kind": "move", "route": ["R1", "R2"], "text": "line\nbreak"}]
        in_memory = journal.entries
    assert Journal.open(path)[0].entries == in_memory
    assert len(path.read_bytes().splitlines()) == 2  # the newline in the text was escaped


@pytest.mark.parametrize("bad", [["spin"], "spin", {"value": float("inf")}, {"x": object()}])
def test_append_refuses_non_json_actions_without_writing(tmp_path: Path, bad: Any) -> None:
    path = tmp_path / CURRENT_NAME
    with Journal.create(path, HEADER) as journal:
        before = path.read_bytes()
        with pytest.raises((TypeError, ValueError)):
            journal.append(bad)
        assert path.read_bytes() == before
        assert journal.append(ACTIONS[0]) == 1


def test_closed_journal_refuses_appends(tmp_path: Path) -> None:
    journal = Journal.create(tmp_path / CURRENT_NAME, HEADER)
    journal.close()
    journal.close()  # twice is fine
    assert journal.closed
    with pytest.raises(JournalError, match="closed"):
        journal.append(ACTIONS[0])


def test_open_missing_file(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match="no journal at"):
        Journal.open(tmp_path / CURRENT_NAME)


# -- power cuts: every byte offset ----------------------------------------------------

def test_cut_at_every_byte_recovers_an_exact_prefix(tmp_path: Path) -> None:
    full = make_journal(tmp_path / "full.jsonl")
    ends = line_ends(full)
    header_end = ends[0]
    path = tmp_path / CURRENT_NAME
    for offset in range(len(full) + 1):
        path.write_bytes(full[:offset])
        if offset < header_end:
            with pytest.raises(JournalError, match="empty file" if offset == 0 else ":1: "):
                Journal.open(path)
            assert path.read_bytes() == full[:offset], offset  # left untouched
            continue
        complete = [end for end in ends if end <= offset]
        good = complete[-1]
        journal, recovery = Journal.open(path)
        with journal:
            assert journal.entries == ACTIONS[: len(complete) - 1], offset
            assert recovery.dropped_bytes == offset - good, offset
            assert recovery.clean == (offset == good)
            if not recovery.clean:
                assert recovery.line == len(complete) + 1
                assert "incomplete line" in (recovery.reason or "")
            assert path.read_bytes() == full[:good], offset
            # The recovered journal continues with the next sequence number.
            assert journal.append({"kind": "after"}) == len(complete)
        again, second = Journal.open(path)
        again.close()
        assert second.clean
        assert again.entries == [*ACTIONS[: len(complete) - 1], {"kind": "after"}]


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    actions=st.lists(
        st.dictionaries(
            st.text(min_size=1, max_size=8),
            st.one_of(st.integers(), st.text(max_size=12), st.booleans(), st.none(),
                      st.lists(st.integers(), max_size=3)),
            max_size=4,
        ),
        max_size=6,
    ),
    data=st.data(),
)
def test_any_journal_cut_anywhere_recovers_a_prefix(
    tmp_path: Path, actions: list[dict[str, Any]], data: st.DataObject
) -> None:
    path = tmp_path / "h.jsonl"
    path.unlink(missing_ok=True)
    full = make_journal(path, actions)
    header_end = line_ends(full)[0]
    offset = data.draw(st.integers(min_value=header_end, max_value=len(full)))
    contents = parse_journal(full[:offset])
    n = len(contents.entries)
    assert contents.entries == actions[:n]
    assert contents.good_size == line_ends(full)[n]
    assert contents.good_size + contents.recovery.dropped_bytes == offset


@pytest.mark.parametrize(
    ("last_line", "reason"),
    [
        (b"\x00\x00\x00\x00\x00\x00\n", "not valid JSON"),
        (b"\xff\xfe{}\n", "not UTF-8"),
        (b'{"seq": 9, "action": {"kind": "spin"}}\n', "sequence number 9, expected 6"),
        (b'{"seq": 5, "action": {"kind": "spin"}}\n', "sequence number 5, expected 6"),
        (b'{"seq": true, "action": {"kind": "spin"}}\n', "no sequence number"),
        (b'{"seq": 6}\n', "no action object"),
        (b'{"seq": 6, "action": {}, "state": {}}\n', "unexpected fields"),
        (b"[6]\n", "not a JSON object"),
        (b"\n", "not valid JSON"),
        (b"\x00\x00\x00x", "incomplete line"),
    ],
)
def test_corrupt_last_line_is_cut_and_reported(
    tmp_path: Path, last_line: bytes, reason: str
) -> None:
    path = tmp_path / CURRENT_NAME
    good = make_journal(path)
    path.write_bytes(good + last_line)
    journal, recovery = Journal.open(path)
    journal.close()
    assert journal.entries == ACTIONS
    assert recovery.dropped_bytes == len(last_line)
    assert recovery.line == len(ACTIONS) + 2
    assert reason in (recovery.reason or "")
    assert f"line {len(ACTIONS) + 2}" in str(recovery)
    assert path.read_bytes() == good


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (b'{"seq": 3, "act', "not valid JSON"),
        (b'{"seq": 4, "action": {"kind": "spin"}}', "sequence number 4, expected 3"),
        (b"\x00\x00\x00\x00", "not valid JSON"),
        (b'"just a string"', "not a JSON object"),
    ],
)
def test_damage_before_the_last_line_is_an_error_naming_it(
    tmp_path: Path, damage: bytes, reason: str
) -> None:
    path = tmp_path / CURRENT_NAME
    lines = make_journal(path).splitlines(keepends=True)
    lines[3] = damage + b"\n"  # line 4 of the file holds seq 3
    damaged = b"".join(lines)
    path.write_bytes(damaged)
    mtime = path.stat().st_mtime_ns
    with pytest.raises(JournalError, match=f":4: damaged line .*{reason}") as info:
        Journal.open(path)
    assert "left untouched" in str(info.value)
    assert path.read_bytes() == damaged
    assert path.stat().st_mtime_ns == mtime


def test_a_bad_line_before_a_torn_line_is_damage_too(tmp_path: Path) -> None:
    path = tmp_path / CURRENT_NAME
    good = make_journal(path)
    damaged = good + b"garbage\n" + b'{"seq": 7'
    path.write_bytes(damaged)
    with pytest.raises(JournalError, match=f":{len(ACTIONS) + 2}: damaged"):
        Journal.open(path)
    assert path.read_bytes() == damaged


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty file"),
        (b'{"format": "cbrig-journal", "version": 1', "header line is incomplete"),
        (b"not json\n", "bad journal header: not valid JSON"),
        (b'["cbrig-journal"]\n', "not a JSON object"),
        (b'{"format": "other", "version": 1, "seq": 0, "game": {}, "created": "x"}\n',
         "not a cbrig journal"),
        (b'{"format": "cbrig-journal", "version": 2, "seq": 0, "game": {}, "created": "x"}\n',
         "unsupported journal version 2"),
        (b'{"format": "cbrig-journal", "version": 1, "seq": 1, "game": {}, "created": "x"}\n',
         "header seq is 1"),
        (b'{"format": "cbrig-journal", "version": 1, "seq": 0, "created": "x"}\n',
         "no game identity"),
        (b'{"format": "cbrig-journal", "version": 1, "seq": 0, "game": {}}\n',
         "no creation time"),
        (b'{"seq": 1, "action": {"kind": "spin"}}\n', "not a cbrig journal"),
    ],
)
def test_bad_header_is_an_error_and_untouched(
    tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / CURRENT_NAME
    tail = b'{"seq": 1, "action": {"kind": "spin"}}\n' if content.endswith(b"\n") else b""
    path.write_bytes(content + tail)
    before = path.read_bytes()
    with pytest.raises(JournalError, match=message) as info:
        Journal.open(path)
    assert str(path) in str(info.value)
    assert path.read_bytes() == before


def test_read_journal_reports_but_does_not_cut(tmp_path: Path) -> None:
    path = tmp_path / CURRENT_NAME
    good = make_journal(path)
    path.write_bytes(good + b'{"seq": 6, "ac')
    contents = read_journal(path)
    assert contents.entries == ACTIONS
    assert contents.recovery.dropped_bytes == len(b'{"seq": 6, "ac')
    assert contents.good_size == len(good)
    assert path.read_bytes() == good + b'{"seq": 6, "ac'


# -- write failures -------------------------------------------------------------------

@pytest.mark.parametrize(
    ("code", "words"),
    [(errno.ENOSPC, "disk is full"), (errno.EROFS, "read-only"), (errno.EIO, "input/output")],
)
def test_failed_write_raises_and_keeps_the_journal_consistent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int, words: str
) -> None:
    path = tmp_path / CURRENT_NAME
    journal = Journal.create(path, HEADER)
    journal.append(ACTIONS[0])
    before = written(path)

    def failing(fd: int, data: bytes, offset: int) -> int:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(os, "pwrite", failing)
    with pytest.raises(JournalWriteError, match=words) as info:
        journal.append(ACTIONS[1])
    assert info.value.errno == code
    assert str(path) in str(info.value)
    assert journal.entries == ACTIONS[:1]
    assert path.read_bytes() == before  # rolled back: the tail is cut off too
    monkeypatch.undo()
    assert journal.append(ACTIONS[1]) == 2  # the disk recovered: carry on
    journal.close()
    assert Journal.open(path)[0].entries == ACTIONS[:2]


def test_partial_write_is_truncated_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / CURRENT_NAME
    journal = Journal.create(path, HEADER)
    journal.append(ACTIONS[0])
    before = written(path)
    real_pwrite = os.pwrite

    def half(fd: int, data: bytes, offset: int) -> int:
        return real_pwrite(fd, data[: len(data) // 2], offset)

    monkeypatch.setattr(os, "pwrite", half)
    with pytest.raises(JournalWriteError, match="disk is full"):
        journal.append(ACTIONS[1])
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert journal.append(ACTIONS[2]) == 2
    journal.close()
    assert Journal.open(path)[0].entries == [ACTIONS[0], ACTIONS[2]]


def test_failed_fsync_rolls_back_the_written_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / CURRENT_NAME
    journal = Journal.create(path, HEADER)
    before = written(path)
    real_fdatasync = os.fdatasync
    failures = iter([OSError(errno.EIO, "Input/output error")])

    def flaky(fd: int) -> None:
        failure = next(failures, None)
        if failure is not None:
            raise failure
        real_fdatasync(fd)

    monkeypatch.setattr(os, "fdatasync", flaky)
    with pytest.raises(JournalWriteError, match="input/output"):
        journal.append(ACTIONS[0])
    assert path.read_bytes() == before
    assert journal.entries == []
    assert journal.append(ACTIONS[1]) == 1
    journal.close()


def test_failed_rollback_marks_the_journal_unusable_and_reopen_repairs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / CURRENT_NAME
    journal = Journal.create(path, HEADER)
    journal.append(ACTIONS[0])
    real_pwrite = os.pwrite
    calls = []

    def half(fd: int, data: bytes, offset: int) -> int:
        """A disk that fills up mid-line: 10 bytes go, then ENOSPC (a short write is
        followed by the kernel's reason when the rest is written)."""
        calls.append(offset)
        if len(calls) > 1:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_pwrite(fd, data[:10], offset)

    def no_truncate(fd: int, size: int) -> None:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "pwrite", half)
    monkeypatch.setattr(os, "ftruncate", no_truncate)
    with pytest.raises(JournalWriteError):
        journal.append(ACTIONS[1])
    monkeypatch.undo()
    with pytest.raises(JournalWriteError, match=r"unusable .* reopen"):
        journal.append(ACTIONS[1])
    journal.close()
    reopened, recovery = Journal.open(path)
    reopened.close()
    assert reopened.entries == ACTIONS[:1]
    assert recovery.dropped_bytes == 10


# -- archive and atomic writes ---------------------------------------------------------

def test_archive_moves_a_finished_game_without_overwriting(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    current = state / CURRENT_NAME
    games = state / GAMES_DIR
    first = make_journal(current)
    moved = archive(current, games)
    assert moved == games / "000001-2026-11-29T17-15-00Z-tenfour.jsonl"
    assert not current.exists()
    assert moved.read_bytes() == first
    make_journal(current, ACTIONS[:2])
    second = archive(current, games)
    assert second == games / "000002-2026-11-29T17-15-00Z-tenfour.jsonl"
    assert moved.read_bytes() == first
    assert read_journal(second).entries == ACTIONS[:2]


def test_archive_name_is_a_safe_file_name() -> None:
    name = archive_name({"created": "2026-11-29T17:15:00+00:00", "game": {"game": "bump/em"}})
    assert name == "2026-11-29T17-15-00-00-00-bump-em.jsonl"
    assert "/" not in archive_name({"created": "../../etc", "game": {}})


def test_atomic_write_replaces_whole_file(tmp_path: Path) -> None:
    target = tmp_path / "cards.toml"
    target.write_bytes(b"old")
    atomic_write(target, b"new content\n")
    assert target.read_bytes() == b"new content\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cards.toml"]


def test_atomic_write_failure_keeps_old_content(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "cards.toml"
    target.write_bytes(b"old")

    def full(fd: int, data: bytes) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(OSError):
        atomic_write(target, b"new")
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cards.toml"]


# -- private files ----------------------------------------------------------------------


@pytest.fixture
def permissive_umask() -> Any:
    """umask 000: what a shell or a unit without UMask= may hand the rig."""
    old = os.umask(0)
    yield
    os.umask(old)


def _mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


def test_journals_archives_and_small_files_are_private_whatever_the_umask(
        tmp_path: Path, permissive_umask: None) -> None:
    path = tmp_path / "current.jsonl"
    with Journal.create(path, HEADER) as journal:
        journal.append(ACTIONS[0])
    assert _mode(path) == 0o600
    games = tmp_path / "state" / "games"
    filed = archive(path, games)
    assert _mode(filed) == 0o600 and _mode(games) == 0o700
    cards = tmp_path / "cards.toml"
    atomic_write(cards, b"[tags]\n")
    assert _mode(cards) == 0o600


def test_an_existing_readable_journal_is_made_private_when_opened(
        tmp_path: Path, permissive_umask: None) -> None:
    path = tmp_path / "current.jsonl"
    make_journal(path)
    path.chmod(0o644)  # written by an older rig
    journal, _ = Journal.open(path)
    journal.close()
    assert _mode(path) == 0o600
