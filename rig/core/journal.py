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
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from rig.core.journalread import (
    FORMAT,
    MAX_LINE,
    PREALLOCATE,
    VERSION,
    JournalError,
    JournalWriteError,
    Recovery,
    _describe_os_error,
    _journal_header,
    _scan_file,
)
from rig.statedir import (
    FILE_MODE,
    fsync_directory,
    open_state_file,
)
from valueclass import Frozen, set_field

if TYPE_CHECKING:
    from engine.api import JSON

CURRENT_NAME = "current.jsonl"
"""The game in progress, inside the state directory."""
GAMES_DIR = "games"
"""Finished games, inside the state directory."""

_RESERVED = ("format", "version", "seq")


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


