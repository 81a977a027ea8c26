"""Reading a journal: its format, limits and errors, parsing its lines into the header
and the entries, and scanning an open file for the good part (a torn last line is cut
off, damage before it is refused). rig.core.journal writes; this reads."""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from valueclass import Frozen

if TYPE_CHECKING:
    from engine.api import JSON


FORMAT = "cbrig-journal"


VERSION = 1


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
