"""Read the data files (boards, bands, decks, tickets) the engine parses.

The engine takes text, never paths, so it stays pure; this module is where a path or
a shipped default becomes (text, source) for the engine and for error messages.

:func:`read_bounded` is also the one reader of every file the rig reads before READY
(the config, ``<state>/voice.conf``, the card map, ``<state>/join.conf``; issue 44): a
FIFO, a device, a file over the limit or not UTF-8 is refused with one line naming it,
never waited on nor read whole. ``tests/daemon/test_start_opens.py`` watches every
open of a start to READY and fails on one that does not come through here (or is not a
listed exception), so the next file added is covered too.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

DEFAULT_PREFIX = "default:"

MAX_DATA_BYTES = 1024 * 1024
"""The largest data file read (the shipped ones are under 6 KB): a path may name
anything (a config's, or a journal header's that anyone with the state directory's
rights can edit), and reading /dev/zero whole took 4.5 GB before READY."""
MAX_NAME = 255
"""The longest shipped file name (a file system's own limit for one name)."""


class DataFileRefused(OSError):
    """A path that names no data file the rig will read: not a regular file, or larger
    than ``MAX_DATA_BYTES``. An OSError like a missing file, for the same callers."""


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a FIFO"),
          (stat.S_ISSOCK, "a socket"))


def _kind_problem(mode: int, size: int, limit: int = MAX_DATA_BYTES,
                  what: str = "a data file") -> str | None:
    """What is wrong with a file of this mode and size as a data file, or None."""
    if not stat.S_ISREG(mode):
        kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
        return f"is {kind}, not {what}"
    if size > limit:
        return f"is larger than {limit // 1024} KiB ({size} bytes), not {what}"
    return None


def data_file_problem(path: str | os.PathLike[str]) -> str | None:
    """Why `path` cannot be a data file ("no such file", "is a FIFO, not a data file",
    "is larger than 1024 KiB..."), or None when it can. Only stat: nothing is opened,
    so a FIFO or a device is never waited on. `cbrig config check` and the rig's
    reading of a journal header's files both say it in these words."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return "no such file"
    except OSError as exc:
        return f"cannot read: {exc.strerror or exc}"
    return _kind_problem(info.st_mode, info.st_size)


READS = 0
"""Files read through :func:`read_bounded` so far (the start-path test counts them)."""


def read_bounded(path: str | os.PathLike[str], *, limit: int | None = None,
                 what: str = "a data file", nofollow: bool = False) -> str:
    """The UTF-8 text of the regular file at `path`, at most `limit` bytes.

    Opened without blocking (``O_NONBLOCK``: a FIFO with no writer returns at once) and
    checked on the open file (``fstat``: what was checked is what is read), and the
    limit holds on the bytes read too (a file that grows meanwhile). `nofollow`: a
    symbolic link is refused (state files, rig.statedir). Raises ``DataFileRefused``
    (one line: the path and what it is) for anything but a small UTF-8 regular file."""
    global READS
    READS += 1
    if limit is None:
        limit = MAX_DATA_BYTES  # looked up now (tests lower it)
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    if nofollow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
    except OSError:
        os.close(fd)
        raise
    problem = _kind_problem(info.st_mode, info.st_size, limit, what)
    if problem is not None:
        os.close(fd)
        raise DataFileRefused(f"{os.fspath(path)} {problem}")
    with os.fdopen(fd, "rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        problem = _kind_problem(info.st_mode, len(data), limit, what)
    else:
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            problem = f"is not UTF-8 text ({exc.reason} at byte {exc.start})"
    raise DataFileRefused(f"{os.fspath(path)} {problem}")


def default_source(filename: str) -> str:
    """The name a shipped default file goes by in journals and error messages."""
    return f"{DEFAULT_PREFIX}{filename}"


def _shipped(name: str, package: str) -> Path:
    """A file of the game's data package. Its directory, not importlib.resources: the
    package is always installed as files (pip unpacks wheels), and resources costs
    ~10 ms of imports at every start (it matters on a Pi Zero)."""
    import importlib

    module = importlib.import_module(package)
    return Path(next(iter(module.__path__))) / name


def is_shipped(ref: str, package: str) -> bool:
    """``ref`` names a file shipped in the data `package` ("default:NAME", NAME a plain
    file name there: no directory, so a journal header cannot point it anywhere else)."""
    if not ref.startswith(DEFAULT_PREFIX):
        return False
    name = ref[len(DEFAULT_PREFIX):]
    if not name or len(name) > MAX_NAME or "/" in name or "\\" in name or "\0" in name \
            or name in (".", ".."):
        return False
    try:
        return _shipped(name, package).is_file()
    except (OSError, ValueError):  # a name the file system refuses is not shipped
        return False


def read_data(ref: str | Path, package: str) -> tuple[str, str]:
    """Return (text, source) for a shipped default ("default:NAME": a file of the game's
    data `package`, GameFacts.data_package) or a file path.

    Raises FileNotFoundError / OSError with the offending name for the caller to report;
    ``DataFileRefused`` for what is not a regular file of at most ``MAX_DATA_BYTES``.
    """
    ref = str(ref)
    if ref.startswith(DEFAULT_PREFIX):
        name = ref[len(DEFAULT_PREFIX):]
        if not is_shipped(ref, package):
            shown = name if len(name) <= 60 else f"{name[:40]}... ({len(name)} characters)"
            raise FileNotFoundError(f"no shipped data file named {shown!r}")
        return read_bounded(_shipped(name, package)), ref
    path = Path(ref)
    return read_bounded(path), str(path)
