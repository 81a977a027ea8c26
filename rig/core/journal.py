"""A power-loss-safe JSON Lines journal of a game's accepted inputs.

Layout of a journal file (UTF-8, one JSON object per line, each line ends in "\\n"):

    {"format": "cbrig-journal", "version": 1, "seq": 0, "game": {...}, "created": "..."}
    {"seq": 1, "action": {...}}
    {"seq": 2, "action": {...}}

Line 1 is the header: the game's identity (``Game.identity()``), the creation time the
caller supplied and anything else the caller adds. Every further line is one accepted
input, numbered 1, 2, 3... with nothing derived from it; replaying the actions rebuilds
the game.

Durability rules:

* ``Journal.create`` writes the header, fsyncs the file and then its directory (the file
  is new), and refuses to overwrite an existing file.
* **Preallocated, overwritten in place.** The file is kept longer than its lines: after
  the last line comes a zero-filled tail (``PREALLOCATE`` bytes at a time, written and
  fsynced when made, so its blocks are allocated and initialised on disk).
  ``Journal.append`` writes the whole line over the tail's start with a single
  ``os.pwrite``, then ``os.fdatasync`` (``os.fsync`` where there is none), before it
  returns; the caller acknowledges the input only after that. Why that is as durable as
  appending and ``fsync``: the line's bytes are the only thing that changed (the file's
  size and block map did not), and ``fdatasync`` returns only when the data, and any
  metadata needed to read it back, are on the device; what it skips is the time stamps.
  It also skips the file system's journal commit that an append needs for the new size,
  which is what made the fsync slow and noisy (the commit waits for every other
  process's metadata). A line that does not fit in the tail first extends it (zeros
  written, then a full ``fsync``). A failed write or sync is rolled back (truncated to
  the last good line) and raised as ``JournalWriteError``; ``close`` cuts the tail off,
  so a closed journal (and an archived game) is plain JSON Lines. ``begin_append`` /
  ``finish_append`` split the same work so the sync runs on a helper thread while the
  caller prepares what it will show: the input counts (``entries``, ``size``) and may be
  acknowledged only once ``finish_append`` has returned; nothing else touches the file
  until then.
* ``Journal.open`` counts a line only if it ends in a newline, parses as a JSON object and
  has the expected sequence number. The zero tail is the end of the journal (a JSON line
  never holds a NUL byte: the encoder escapes it), so it is left out before the lines are
  read. A torn or corrupt LAST line is what a power cut leaves (overwriting in place, the
  torn line may be any part of the line's bytes, followed by zeros): it is cut off
  (truncate + fsync) and reported in ``Recovery``. Damage before the
  last line cannot come from a power cut and raises ``JournalError`` naming the line,
  leaving the file untouched for a person to inspect.
* **Reading is bounded**, whatever the file's length (a journal followed by a GiB of
  zeros once took 1 GB of memory): lines are read up to the first NUL byte or the first
  line that is no journal line, and past it at most ``TAIL_LIMIT`` bytes are looked at
  (see ``_Scanner``); a line longer than ``MAX_LINE`` is damage, and none is ever
  written.

The state directory holds ``current.jsonl`` for the game in progress and ``games/`` for
finished games, moved there by ``archive``. The clock is never trusted for order: a Pi
has no real-time clock and may start behind its last boot's time, so a filed game is
named ``NNNNNN-<name>`` with ``NNNNNN`` one more than the highest number in ``games/``
(the date in the name is only a label), and ``filed_games`` lists them in that order,
unnumbered files from older versions first (docs/IMAGE.md, "The clock").

Privacy: a journal records who played and how; journals, archives and files written by
``atomic_write`` are created 0600 and directories made here 0700, whatever the umask
(the mode is given to ``os.open``/``mkdir``, which a umask can only narrow). A journal
an older rig left readable by others is narrowed to 0600 when it is opened. Links are
not followed: a ``current.jsonl`` (or ``games``) that is a symbolic link is refused, and
the daemon sets the link itself aside (see :mod:`rig.statedir` for why).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import queue
import re
import stat
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from rig.statedir import (
    FILE_MODE,
    fsync_directory,
    make_private_dir,
    open_state_file,
)
from valueclass import Frozen, set_field

if TYPE_CHECKING:
    from engine.api import JSON

FORMAT = "cbrig-journal"
VERSION = 1
CURRENT_NAME = "current.jsonl"
"""The game in progress, inside the state directory."""
GAMES_DIR = "games"
"""Finished games, inside the state directory."""

_RESERVED = ("format", "version", "seq")
PREALLOCATE = 64 * 1024
"""Bytes of zero tail a journal grows by: a whole game of lines (~50-100 bytes an input)
at once, so the appends of a game overwrite blocks already on disk."""
MAX_LINE = 256 * 1024
"""The longest line a journal holds (a header is about 1 KiB, an input about 100 bytes).
Nothing longer is written, and reading stops at a longer line instead of holding it."""
TAIL_LIMIT = PREALLOCATE + MAX_LINE
"""The most zero tail the rig leaves after the last line (a ``PREALLOCATE`` step made
for a line that did not fit): the reader looks no further than this past the first zero
for data after the zeros (a torn line, or damage), whatever the file's length."""
_CHUNK = 64 * 1024


class JournalError(Exception):
    """A journal that cannot be used as it is (bad header, damage before the last line)."""


class JournalWriteError(JournalError, OSError):
    """Writing to the journal failed (disk full, read-only, I/O error).

    The journal on disk still holds exactly the inputs acknowledged before the failure.
    ``errno`` is the operating system's error number when there is one.
    """

    def __init__(self, message: str, err: int | None = None) -> None:
        super().__init__(message)
        self.errno = err
        self.message = message

    def __str__(self) -> str:
        return self.message


class Recovery(Frozen):
    """What ``Journal.open`` had to do to the file: usually nothing.

    ``dropped_bytes`` were cut from the end (a torn or corrupt last line); ``line`` is the
    1-based line number that was cut and ``reason`` says why.
    """

    dropped_bytes: int = 0
    line: int | None = None
    reason: str | None = None

    @property
    def clean(self) -> bool:
        return self.dropped_bytes == 0

    def __str__(self) -> str:
        if self.clean:
            return "journal intact"
        return f"cut {self.dropped_bytes} bytes at line {self.line}: {self.reason}"


class JournalContents(Frozen):
    """A journal as read from disk, without changing it (see ``read_journal``)."""

    header: dict[str, JSON]
    entries: list[dict[str, JSON]]
    good_size: int
    """Bytes up to the end of the last good line; the file is cut back to this."""
    recovery: Recovery


def _describe_os_error(action: str, path: Path, exc: OSError) -> str:
    hints = {
        errno.ENOSPC: "the disk is full",
        errno.EDQUOT: "the disk quota is used up",
        errno.EROFS: "the file system is read-only",
        errno.EACCES: "permission denied",
        errno.EPERM: "operation not permitted",
        errno.EIO: "input/output error (failing SD card or disk?)",
        errno.EEXIST: "the file already exists",
        errno.ENOENT: "the directory does not exist"
        if action == "create" or action.startswith("make") else "the file does not exist",
    }
    if exc.errno == errno.ENOTDIR and exc.strerror and exc.filename:
        return f"cannot {action} journal {path}: {exc.strerror}"
    why = hints.get(exc.errno or -1) or exc.strerror or str(exc)
    return f"cannot {action} journal {path}: {why}"


def _space_needed(exc: OSError, directory: Path, needed: int, what: str) -> str:
    """For a full disk: how much the write needed and how much is free (a journal takes
    ``PREALLOCATE`` bytes at once, so "full" can mean 40 KiB free); "" otherwise."""
    if exc.errno not in (errno.ENOSPC, errno.EDQUOT):
        return ""
    try:
        stat = os.statvfs(directory)
        free = f", {stat.f_bavail * stat.f_frsize // 1024} KiB free"
    except OSError:
        free = ""
    return f" ({what} {-(-needed // 1024)} KiB{free}: free some space)"


def _write_all(fd: int, data: bytes, offset: int | None = None) -> None:
    """Write all of `data` (at `offset`, else at the file position). A short write is
    not an error in itself: the rest is written, and when the disk cannot take it the
    kernel says why (ENOSPC for a full disk, where 1-63 KiB free used to be reported as
    a failing SD card). A write that takes nothing and says nothing counts as full."""
    view = memoryview(data)
    done = 0
    while done < len(view):
        chunk = view[done:]
        written = os.write(fd, chunk) if offset is None else os.pwrite(fd, chunk, offset + done)
        if written <= 0:
            raise OSError(errno.ENOSPC, f"nothing written after {done} of {len(view)} bytes")
        done += written


def _make_private(fd: int) -> None:
    """Narrow an open file to ``FILE_MODE`` if others may read it (never widen it)."""
    mode = os.fstat(fd).st_mode & 0o777
    if mode & ~FILE_MODE:
        os.fchmod(fd, mode & FILE_MODE)


def _encode(obj: Mapping[str, JSON]) -> bytes:
    """One journal line. json.dumps escapes newlines, so the line is a single line."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    line = text.encode("utf-8") + b"\n"
    if len(line) > MAX_LINE:
        raise ValueError(f"a journal line of {len(line)} bytes is longer than {MAX_LINE}")
    return line


def _journal_header(header: JSON) -> dict[str, JSON] | str:
    """`header` as a valid journal header, or why it is not one."""
    if not isinstance(header, dict):
        return "the header is not a JSON object"
    if header.get("format") != FORMAT:
        return f"not a cbrig journal (format is {header.get('format')!r}, expected {FORMAT!r})"
    version = header.get("version")
    if version != VERSION or isinstance(version, bool):
        return f"unsupported journal version {version!r} (this program reads {VERSION})"
    seq = header.get("seq")
    if seq != 0 or isinstance(seq, bool):
        return f"header seq is {seq!r}, expected 0"
    if not isinstance(header.get("game"), dict):
        return "header has no game identity object ('game')"
    if not isinstance(header.get("created"), str):
        return "header has no creation time string ('created')"
    return header


def _parse_line(raw: bytes) -> tuple[JSON, str | None]:
    try:
        return json.loads(raw.decode("utf-8")), None
    except UnicodeDecodeError:
        return None, "not UTF-8 text"
    except ValueError as exc:
        return None, f"not valid JSON ({exc})"
    except RecursionError:  # [[[[...]]]]: the decoder recurses once per level
        return None, "not a journal line: values nested too deeply"


def _entry_action(obj: JSON, expected: int) -> dict[str, JSON] | str:
    """The action of a valid journal entry numbered `expected`, or why it is not one."""
    if not isinstance(obj, dict):
        return "not a JSON object"
    seq = obj.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool):
        return f"no sequence number (seq is {seq!r})"
    if seq != expected:
        return f"sequence number {seq}, expected {expected}"
    action = obj.get("action")
    if not isinstance(action, dict):
        return "no action object"
    extra = sorted(set(obj) - {"seq", "action"})
    if extra:
        return f"unexpected fields {extra}"
    return action


def parse_journal(data: bytes, source: str = "<journal>") -> JournalContents:
    """Validate journal bytes; see the module docstring for what counts as a good line.
    A zero-filled tail (the preallocated part not written yet) is the end of the file.

    Raises ``JournalError`` for a missing or bad header and for damage before the last
    line. A torn or corrupt last line is reported in the result's ``recovery`` (and left
    out of ``entries``); ``good_size`` is where the file should be cut.
    """
    return _Scanner(lambda offset, count: data[offset:offset + count], len(data),
                    source).scan()


def read_journal(path: str | os.PathLike[str]) -> JournalContents:
    """Read and validate a journal without changing it (for replay and inspection)."""
    path = Path(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        try:
            return _scan_file(fd, str(path))
        finally:
            os.close(fd)
    except OSError as exc:
        raise JournalError(_describe_os_error("read", path, exc)) from exc


def _scan_file(fd: int, source: str) -> JournalContents:
    """:func:`parse_journal` of an open file, read as the scan goes (``os.pread``)."""
    def seek_data(offset: int) -> int | None:
        try:
            return os.lseek(fd, offset, os.SEEK_DATA)  # skips holes: a sparse tail is free
        except OSError as exc:
            if exc.errno == errno.ENXIO:
                return None  # holes only, to the end
            return offset  # no SEEK_DATA here: read on

    return _Scanner(lambda offset, count: os.pread(fd, count, offset),
                    os.fstat(fd).st_size, source, seek_data).scan()


class _Scanner:
    """Validates a journal line by line, reading only what it looks at: the lines, a
    chunk, and past the last good line at most ``TAIL_LIMIT`` bytes, whatever the file's
    length (a journal followed by a GiB of zeros, or of garbage, once took 1 GB of
    memory). Reading stops at the first line that is not a journal line, at the first
    NUL byte (a JSON line never holds one: the zero tail, or damage) and at a line
    longer than ``MAX_LINE``; from there it looks ahead only to tell a torn last line
    (cut, and reported in ``Recovery``) from damage before the end (``JournalError``).
    """

    def __init__(self, read_at: Callable[[int, int], bytes], size: int, source: str,
                 seek_data: Callable[[int], int | None] | None = None) -> None:
        self.read_at = read_at
        self.size = size
        self.source = source
        self.seek_data = seek_data
        self.start = 0
        self.data = b""
        """The bytes of the file from ``start`` that are read and still needed."""

    def _fill(self, pos: int, length: int) -> None:
        """Have [pos, pos + length) in ``data`` (or up to the end of the file)."""
        end = min(self.size, pos + length)
        if self.start <= pos and end <= self.start + len(self.data):
            return
        if self.start <= pos <= self.start + len(self.data):
            self.data = self.data[pos - self.start:]
        else:
            self.data = b""
        self.start = pos
        while self.start + len(self.data) < end:
            chunk = self.read_at(self.start + len(self.data),
                                 max(_CHUNK, end - self.start - len(self.data)))
            if not chunk:
                self.size = self.start + len(self.data)  # the file is shorter than it said
                return
            self.data += chunk

    def _stop(self, pos: int, limit: int, nul: bool = True) -> tuple[int, bytes]:
        """The first newline (or NUL, with `nul`) at or after `pos`, looking at most
        `limit` bytes: (its offset, the byte), or (where the look ended, b"") at the end
        of the file or of the limit."""
        scanned = pos
        end = min(self.size, pos + limit)
        while scanned < end:
            self._fill(pos, scanned - pos + 1)
            window_end = min(end, self.start + len(self.data))
            if window_end <= scanned:
                break
            newline = self.data.find(b"\n", scanned - self.start, window_end - self.start)
            zero = self.data.find(b"\0", scanned - self.start, window_end - self.start) \
                if nul else -1
            found = [i for i in (newline, zero) if i >= 0]
            if found:
                at = min(found)
                return self.start + at, self.data[at:at + 1]
            scanned = window_end
        return min(scanned, self.size), b""

    def _text(self, pos: int, end: int) -> bytes:
        self._fill(pos, end - pos)
        return self.data[pos - self.start:end - self.start]

    def next_data(self, pos: int) -> int | None:
        """The offset of the first non-zero byte at or after `pos`, looking at most
        ``TAIL_LIMIT`` bytes on; None if there is none that near."""
        limit = min(self.size, pos + TAIL_LIMIT)
        while pos < limit:
            if self.seek_data is not None:
                found = self.seek_data(pos)
                if found is None or found >= limit:
                    return None
                pos = found
            chunk = self.read_at(pos, min(_CHUNK, limit - pos))
            if not chunk:
                return None
            rest = chunk.lstrip(b"\0")
            if rest:
                return pos + len(chunk) - len(rest)
            pos += len(chunk)
        return None

    def _last_data(self, pos: int, limit: int) -> int:
        """One past the last non-zero byte of [pos, pos + limit) (the end of the file
        reached)."""
        end = min(self.size, pos + limit)
        return pos + len(self._text(pos, end).rstrip(b"\0"))

    def scan(self) -> JournalContents:
        source = self.source
        pos, kind = self._stop(0, MAX_LINE + 1)
        if kind != b"\n":
            if pos == 0 and self.next_data(0) is None:
                raise JournalError(f"{source}: empty file, no journal header")
            if pos > MAX_LINE:
                raise JournalError(f"{source}:1: a line longer than {MAX_LINE} bytes, not a "
                                   "journal header; the file was left untouched")
            raise JournalError(f"{source}:1: the header line is incomplete (no newline)")
        parsed, why = _parse_line(self._text(0, pos))
        header = _journal_header(parsed) if why is None else why
        if isinstance(header, str):
            raise JournalError(f"{source}:1: bad journal header: {header}")
        entries: list[dict[str, JSON]] = []
        pos += 1
        line_no = 1
        data, base, nul = b"", 0, -1
        while True:
            line_no += 1
            # The usual line, whole in the bytes read already, before their first NUL.
            if data is not self.data:
                data, base = self.data, self.start
                nul = data.find(b"\0", pos - base)
                if nul < 0:
                    nul = len(data)
            at = pos - base
            newline = data.find(b"\n", at, nul)
            if 0 <= newline - at <= MAX_LINE:
                obj, why = _parse_line(data[at:newline])
                action = _entry_action(obj, len(entries) + 1) if why is None else why
                if not isinstance(action, str):
                    entries.append(action)
                    pos = base + newline + 1
                    continue
            end, kind = self._stop(pos, MAX_LINE + 1)
            if kind == b"\n":
                obj, why = _parse_line(self._text(pos, end))
                action = _entry_action(obj, len(entries) + 1) if why is None else why
                if not isinstance(action, str):
                    entries.append(action)
                    pos = end + 1
                    continue
                return self._bad_line(header, entries, pos, end, line_no, action)
            if end - pos > MAX_LINE:
                raise JournalError(f"{source}:{line_no}: a line longer than {MAX_LINE} "
                                   "bytes, not a journal line; the file was left untouched")
            after = end if kind == b"\0" else None
            if after is not None:
                after = self.next_data(end)
            if after is None:  # the end of the file, or only zeros from here on
                if end == pos:
                    return JournalContents(header, entries, pos, Recovery())
                dropped = end - pos  # a torn write: always the last line
                return JournalContents(header, entries, pos, Recovery(
                    dropped, line_no, f"incomplete line ({dropped} bytes, no newline)"))
            # zeros inside a line, then more: a torn write (a later block written, an
            # earlier one not), or damage; its newline decides
            newline, kind = self._stop(after, pos + MAX_LINE + TAIL_LIMIT - after, nul=False)
            if kind == b"\n":
                why = _parse_line(self._text(pos, newline))[1] or "NUL bytes in the line"
                return self._bad_line(header, entries, pos, newline, line_no, why)
            if newline >= self.size or self.next_data(newline) is None:
                dropped = self._last_data(pos, newline - pos) - pos
                return JournalContents(header, entries, pos, Recovery(
                    dropped, line_no, f"incomplete line ({dropped} bytes, no newline)"))
            raise JournalError(f"{source}:{line_no}: damaged line (NUL bytes, then more than "
                               f"{MAX_LINE + TAIL_LIMIT} bytes without a newline); the file "
                               "was left untouched")

    def _bad_line(self, header: dict[str, JSON], entries: list[dict[str, JSON]], pos: int,
                  end: int, line_no: int, why: str) -> JournalContents:
        """A line that is not a good journal line, ending at `end` (its newline): the
        last line (nothing but zeros after it), cut; damage otherwise."""
        if self.next_data(end + 1) is not None:
            raise JournalError(
                f"{self.source}:{line_no}: damaged line before the end of the journal: "
                f"{why}; the file was left untouched")
        return JournalContents(header, entries, pos, Recovery(end + 1 - pos, line_no, why))


def data_sync(fd: int) -> None:
    """Make the file's data durable: ``os.fdatasync`` (the size and block map of a
    journal appended in place do not change), ``os.fsync`` where there is none."""
    getattr(os, "fdatasync", os.fsync)(fd)


class _Fsync:
    """One ``data_sync``; ``wait`` returns the OSError it raised, if any.

    ``wait_started`` is the hand-over to the helper thread: that thread needs the GIL to
    return from its queue and call the sync, and the loop thread, rendering, holds it;
    without waiting for the start the sync began only when the loop next let the GIL go
    (at the end of the render, or after the interpreter's 5 ms switch interval), so the
    render and the sync hardly overlapped (measured: a fifth of the syncs started only
    once the frame was rendered, a tenth more than 4.5 ms late)."""

    __slots__ = ("_done", "_started", "error", "fd")

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.error: OSError | None = None
        self._done = threading.Event()
        self._started = threading.Event()

    def run(self) -> None:
        self._started.set()
        try:
            data_sync(self.fd)
        except OSError as exc:
            self.error = exc
        finally:
            self._done.set()

    def wait(self) -> OSError | None:
        self._done.wait()
        return self.error

    def wait_started(self) -> None:
        """Block until the helper thread is about to call the sync (it then lets the GIL
        go inside the system call, and this thread carries on)."""
        self._started.wait()


class _SyncThread:
    """The helper thread that runs fsyncs handed to it, one at a time. Started on first
    use; blocked on its queue, it costs nothing while the rig is idle."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[_Fsync] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def submit(self, job: _Fsync) -> None:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._serve, name="journal-fsync",
                                                daemon=True)
                self._thread.start()
        self._jobs.put(job)

    def _serve(self) -> None:
        while True:
            self._jobs.get().run()


_SYNC_THREAD = _SyncThread()


class PendingAppend(Frozen):
    """A line written by ``begin_append`` whose fsync may still be running (one per
    input: its own ``__init__``, see :mod:`valueclass`)."""

    __slots__ = ("fsync", "length", "seq", "stored")
    seq: int
    length: int
    stored: dict[str, JSON]
    fsync: _Fsync

    def __init__(self, seq: int, length: int, stored: dict[str, JSON], fsync: _Fsync) -> None:
        set_field(self, "seq", seq)
        set_field(self, "length", length)
        set_field(self, "stored", stored)
        set_field(self, "fsync", fsync)


class Journal:
    """An open journal, ready to append. Create with ``create`` or ``open``."""

    def __init__(self, path: Path, fd: int, header: dict[str, JSON],
                 entries: list[dict[str, JSON]], size: int, allocated: int | None = None
                 ) -> None:
        self.path = path
        self._fd: int | None = fd
        self._header = header
        self._entries = entries
        self._size = size
        self._allocated = size if allocated is None else allocated
        """The file's length on disk: good lines, then zeros up to here."""
        self._broken: str | None = None
        self._pending: PendingAppend | None = None

    # -- construction --------------------------------------------------------------
    @classmethod
    def create(cls, path: str | os.PathLike[str], header: Mapping[str, JSON]) -> Journal:
        """Start a new journal at `path` with `header` (needs "game" and "created").

        The format, version and seq fields are added here. Refuses an existing file.
        """
        path = Path(path)
        for key in _RESERVED:
            if key in header:
                raise ValueError(f"the journal header field {key!r} is set by the journal")
        full: dict[str, JSON] = {"format": FORMAT, "version": VERSION, "seq": 0, **header}
        why = _journal_header(full)
        if isinstance(why, str):
            raise ValueError(why)
        line = _encode(full)  # ValueError/TypeError for non-JSON values, before any I/O
        try:
            fd = open_state_file(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
        except FileExistsError as exc:
            raise JournalError(
                f"journal {path} already exists; refusing to overwrite it"
            ) from exc
        except OSError as exc:
            raise JournalWriteError(_describe_os_error("create", path, exc), exc.errno) from exc
        allocated = _rounded_up(len(line) + 1)
        try:
            _write_all(fd, line + bytes(allocated - len(line)))
            os.fsync(fd)
            fsync_directory(path.parent)
        except OSError as exc:
            os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(path)
            message = _describe_os_error("create", path, exc) + _space_needed(
                exc, path.parent, allocated, "a new game needs")
            raise JournalWriteError(message, exc.errno) from exc
        return cls(path, fd, full, [], len(line), allocated)

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> tuple[Journal, Recovery]:
        """Open an existing journal to continue it, cutting a torn last line.

        Raises ``JournalError`` for a bad header or damage before the last line (the file
        is left untouched), ``JournalWriteError`` if the file cannot be opened for writing
        or cut.
        """
        path = Path(path)
        try:
            fd = open_state_file(path, os.O_RDWR)
        except FileNotFoundError as exc:
            raise JournalError(f"no journal at {path}") from exc
        except OSError as exc:
            if exc.errno == errno.ELOOP:  # not the disk's fault: set it aside, follow nothing
                raise JournalError(f"journal {path} {exc.strerror}") from exc
            raise JournalWriteError(_describe_os_error("open", path, exc), exc.errno) from exc
        try:
            _make_private(fd)
            contents = _scan_file(fd, str(path))
            allocated = os.fstat(fd).st_size
            if not contents.recovery.clean:
                allocated = contents.good_size
                try:
                    os.ftruncate(fd, contents.good_size)
                    os.fsync(fd)
                except OSError as exc:
                    raise JournalWriteError(
                        _describe_os_error("repair", path, exc), exc.errno
                    ) from exc
        except BaseException:
            os.close(fd)
            raise
        journal = cls(path, fd, contents.header, list(contents.entries), contents.good_size,
                      allocated)
        return journal, contents.recovery

    # -- use -----------------------------------------------------------------------
    @property
    def header(self) -> dict[str, JSON]:
        return dict(self._header)

    @property
    def entries(self) -> list[dict[str, JSON]]:
        """The journaled actions in order (action JSON, as given to ``append``)."""
        return list(self._entries)

    @property
    def seq(self) -> int:
        """The sequence number of the last entry (0 when only the header is there)."""
        return len(self._entries)

    @property
    def size(self) -> int:
        """Bytes of good journal on disk."""
        return self._size

    @property
    def closed(self) -> bool:
        return self._fd is None

    def append(self, action: Mapping[str, JSON]) -> int:
        """Durably record one accepted input; returns its sequence number.

        The line is on disk (fsync done) when this returns. On failure raises
        ``JournalWriteError`` with nothing of the failed line left in the file.
        """
        return self.finish_append(self.begin_append(action, background=False))

    @property
    def pending(self) -> PendingAppend | None:
        """The line ``begin_append`` wrote that ``finish_append`` has not settled."""
        return self._pending

    def begin_append(self, action: Mapping[str, JSON], *, background: bool = True
                     ) -> PendingAppend:
        """Write one input's line (a single ``os.write``) and start its fsync, on the
        helper thread when ``background``. Settle it with ``finish_append`` before
        acknowledging the input; an earlier unsettled line is settled first (its error
        raised). A failed write is rolled back and raised here."""
        if self._pending is not None:
            self.finish_append(self._pending)
        if self._fd is None:
            raise JournalError(f"journal {self.path} is closed")
        if self._broken is not None:
            raise JournalWriteError(
                f"journal {self.path} is unusable after an earlier failure "
                f"({self._broken}); reopen it"
            )
        if not isinstance(action, Mapping):
            raise TypeError(f"an action is a JSON object, not {type(action).__name__}")
        seq = len(self._entries) + 1
        action_copy = dict(action)
        line = _encode({"seq": seq, "action": action_copy})
        # Round-trip now so the in-memory entry equals what a later open reads back.
        stored: dict[str, JSON] = json.loads(line)["action"]
        fd = self._fd
        try:
            if self._size + len(line) >= self._allocated:
                self._extend(self._size + len(line) + 1)
            _write_all(fd, line, self._size)
        except OSError as exc:
            message = _describe_os_error("write to", self.path, exc) + _space_needed(
                exc, self.path.parent, max(len(line), _rounded_up(self._size + len(line) + 1)
                                           - self._allocated), "the game needs")
            self._roll_back(message)
            raise JournalWriteError(message, exc.errno) from exc
        job = _Fsync(fd)
        self._pending = PendingAppend(seq, len(line), stored, job)
        if background:
            _SYNC_THREAD.submit(job)
            job.wait_started()
        else:
            job.run()
        return self._pending

    def finish_append(self, pending: PendingAppend) -> int:
        """Wait until ``pending``'s fsync is done; then the input counts and its sequence
        number is returned. If the fsync failed the line is rolled back and
        ``JournalWriteError`` raised, as ``append`` does."""
        if pending is not self._pending:
            raise JournalError(f"journal {self.path}: that append is already settled")
        error = pending.fsync.wait()
        self._pending = None
        if error is not None:
            message = _describe_os_error("write to", self.path, error)
            self._roll_back(message)
            raise JournalWriteError(message, error.errno) from error
        self._size += pending.length
        self._entries.append(pending.stored)
        return pending.seq

    def _extend(self, needed: int) -> None:
        """Make the zero tail reach at least `needed` bytes: zeros written after the file's
        end, then a full fsync (the size changed). Rare: once a ``PREALLOCATE``."""
        assert self._fd is not None
        allocated = _rounded_up(needed)
        _write_all(self._fd, bytes(allocated - self._allocated), self._allocated)
        os.fsync(self._fd)
        self._allocated = allocated

    def _roll_back(self, message: str) -> None:
        """Cut the file back to the last good line after a failed append (the zero tail
        goes too; the next append makes it again)."""
        assert self._fd is not None
        self._allocated = self._size
        try:
            os.ftruncate(self._fd, self._size)
            os.fsync(self._fd)
        except OSError as exc:
            self._broken = f"{message}; rolling back also failed: {exc.strerror or exc}"

    def close(self) -> None:
        """Close the file, after settling a pending append (a failed one is rolled back
        and not raised: there is nobody left to tell) and cutting the zero tail off,
        so a closed journal is plain JSON Lines (readers skip a tail left by a crash)."""
        if self._pending is not None:
            with contextlib.suppress(JournalError):
                self.finish_append(self._pending)
        if self._fd is not None:
            fd, self._fd = self._fd, None
            try:
                if self._allocated != self._size and self._broken is None:
                    os.ftruncate(fd, self._size)
                    os.fsync(fd)
            except OSError:
                pass  # the tail stays; it reads as the end of the journal
            finally:
                os.close(fd)

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Journal({str(self.path)!r}, seq={self.seq})"


def _rounded_up(size: int) -> int:
    """The next whole number of ``PREALLOCATE`` bytes at or above `size`."""
    return -(-size // PREALLOCATE) * PREALLOCATE


_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def archive_name(header: Mapping[str, JSON]) -> str:
    """A file name for a finished game: creation time and game name, e.g.
    ``2026-11-29T17-15-00Z-tenfour.jsonl``."""
    created = str(header.get("created", "game"))
    game = header.get("game")
    name = game.get("game") if isinstance(game, Mapping) else None
    stem = _UNSAFE.sub("-", created.replace(":", "-")).strip("-") or "game"
    if isinstance(name, str) and name:
        stem = f"{stem}-{_UNSAFE.sub('-', name).strip('-')}"
    return f"{stem}.jsonl"


_NUMBERED = re.compile(r"(\d{6,})-")
"""A filed game's name: its number (six digits or more), a dash, the rest."""


def filed_number(name: str) -> int | None:
    """The number a filed game's name starts with (``000012-...`` -> 12); None for a
    name without one (filed by an older version, by its date)."""
    match = _NUMBERED.match(name)
    return int(match.group(1)) if match else None


def next_number(directory: str | os.PathLike[str]) -> int:
    """One more than the highest number filed in `directory` (1 when there is none or
    no directory): it only grows, whatever the clock says."""
    try:
        names = os.listdir(directory)
    except FileNotFoundError:
        return 1
    numbers = [n for n in map(filed_number, names) if n is not None]
    return max(numbers, default=0) + 1


def filed_games(directory: str | os.PathLike[str]) -> list[Path]:
    """The journals in `directory` (``games/``), oldest first: the unnumbered ones an
    older version filed (by name, which was their date), then the numbered ones by
    number. The clock plays no part, so a clock that went back cannot reorder them."""
    folder = Path(directory)
    try:
        names = [n for n in os.listdir(folder) if n.endswith(".jsonl")]
    except FileNotFoundError:
        return []

    def order(name: str) -> tuple[int, str]:
        number = filed_number(name)
        return (-1 if number is None else number, name)

    return [folder / name for name in sorted(names, key=order)]


def archive(path: str | os.PathLike[str], directory: str | os.PathLike[str],
            name: str | None = None, *, numbered: bool = True) -> Path:
    """Move a finished game's journal into `directory` (e.g. ``<state>/games``).

    Close the ``Journal`` first. The name defaults to ``archive_name(header)``; with
    `numbered` (the default) it is filed as ``NNNNNN-<name>``, ``NNNNNN`` from
    :func:`next_number`, so the order of the files never depends on the clock. An
    existing file is never overwritten
    (``-2``, ``-3``... is added). Uses ``os.replace`` and fsyncs both directories, so
    after a power cut the journal is in exactly one of the two places. Returns the new path.
    """
    src = Path(path)
    dest_dir = Path(directory)
    if name is None:
        name = archive_name(read_journal(src).header)
    try:
        _archive_directory(dest_dir)
    except OSError as exc:
        raise JournalWriteError(
            _describe_os_error("make the archive directory for", src, exc), exc.errno
        ) from exc
    if numbered:
        try:
            name = f"{next_number(dest_dir):06d}-{name}"
        except OSError as exc:
            raise JournalWriteError(_describe_os_error("archive", src, exc), exc.errno) \
                from exc
    stem, dot, ext = name.rpartition(".")
    if not dot:
        stem, ext = name, ""
    try:
        dest = dest_dir / name
        counter = 2
        while os.path.lexists(dest):
            dest = dest_dir / (f"{stem}-{counter}.{ext}" if ext else f"{stem}-{counter}")
            counter += 1
        os.replace(src, dest)
        fsync_directory(dest_dir)
        if dest_dir.resolve() != src.parent.resolve():
            fsync_directory(src.parent)
    except OSError as exc:
        raise JournalWriteError(_describe_os_error("archive", src, exc), exc.errno) from exc
    return dest


def _archive_directory(directory: Path) -> None:
    """Make `directory` if it is missing; refuse anything there that is not a plain
    directory (a file, or a link that would file the game somewhere else)."""

    try:
        mode = os.lstat(directory).st_mode
    except FileNotFoundError:
        make_private_dir(directory)
        fsync_directory(directory.parent)
        return
    if not stat.S_ISDIR(mode):
        what = "a symbolic link" if stat.S_ISLNK(mode) else "not a directory"
        raise NotADirectoryError(errno.ENOTDIR, f"{directory} is {what}", str(directory))
