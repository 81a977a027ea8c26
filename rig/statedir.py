"""The state directory's modes, making its directories, and opening its files.

Apart from :mod:`rig.core.journal` (which uses them) because the daemon makes the state
directory before its first screen, and the journal (with ``json``) is only needed
after READY unless a game is resumed.

Links are never followed in the state directory. What systemd's ``StateDirectory=``
guarantees (systemd.exec(5)): ``/var/lib/cbrig`` exists, under the root-owned
``/var/lib``, owned by the unit's ``User=``/``Group=`` with ``StateDirectoryMode=``
(0750), and its ownership is fixed recursively at start when it is wrong (without
following links). It guarantees nothing about the entries inside: the service user, or
anything running as it, can put symbolic links there, and the kernel's
``fs.protected_symlinks`` only guards sticky world-writable directories such as /tmp.
The rig also runs there as root (``sudo cbrig run``, ``sudo cbrig cards enroll``), and
as root a followed link would chmod, append to or overwrite any file. So state files are
opened with ``O_NOFOLLOW`` (a link is refused, saying so), new files and temporary files
with ``O_EXCL`` too, and a file is replaced by renaming over the name (which replaces a
link, never writes through it).
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from rig.datafiles import read_bounded

FILE_MODE = 0o600
"""Journals, archives and small state files: the owner only."""
DIR_MODE = 0o700
"""Directories the rig makes for them."""


def make_private_dir(directory: str | os.PathLike[str]) -> None:
    """Make `directory` (and missing parents) with ``DIR_MODE`` for the one it names.

    An existing directory is left as it is: it may be shared (a home directory, /tmp),
    and the files the rig puts in it are private on their own."""
    Path(directory).mkdir(mode=DIR_MODE, parents=True, exist_ok=True)


NOFOLLOW = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
"""Flags for every file the rig opens in its state directory."""


def open_state_file(path: str | os.PathLike[str], flags: int, mode: int = FILE_MODE) -> int:
    """``os.open`` that refuses a symbolic link at `path` (``O_NOFOLLOW``): the error
    then says "is a symbolic link (not followed)" instead of the kernel's ELOOP text."""

    try:
        return os.open(path, flags | NOFOLLOW, mode)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise OSError(errno.ELOOP, "is a symbolic link (the rig does not follow links "
                          "in its state directory: replace it with the file itself)",
                          os.fspath(path)) from None
        raise


def create_new(path: str | os.PathLike[str]) -> int:
    """A new, empty file at `path` for writing, our own (``O_EXCL | O_NOFOLLOW``): for a
    temporary file that is renamed over its name. One left by a crash, or planted (a
    link), is unlinked first: the name goes, never what it points at."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL
    try:
        return open_state_file(path, flags)
    except FileExistsError:
        os.unlink(path)
        return open_state_file(path, flags)


def read_state_text(path: str | os.PathLike[str]) -> str:
    """A small state file's text (the card map, voice.conf, join.conf), refusing a link,
    through the one bounded reader (rig.datafiles.read_bounded): a FIFO, a device, a
    huge or non-UTF-8 file is refused with one line naming it (``DataFileRefused``, an
    OSError), never waited on or read whole."""
    try:
        return read_bounded(path, what="a state file", nofollow=True)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise OSError(errno.ELOOP, "is a symbolic link (the rig does not follow links "
                          "in its state directory: replace it with the file itself)",
                          os.fspath(path)) from None
        raise


def fsync_directory(directory: str | os.PathLike[str]) -> None:
    """Make a directory's entries (a new, renamed or removed file) durable."""
    fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write(path: str | os.PathLike[str], data: bytes) -> None:
    """Replace `path` with `data` all at once (temp file + fsync + os.replace + dir fsync).
    The temp file is created new (``O_EXCL | O_NOFOLLOW``) and renamed over `path`: a
    link at either name is replaced, never written through (see :mod:`rig.statedir`).

    For snapshots and small files (the cards map): after a power cut the file holds
    either the old or the new content, never a mix.
    """
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    fd = create_new(tmp)  # a new file of our own, never a link's target
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        tmp.unlink(missing_ok=True)
        raise
    os.close(fd)
    try:
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_directory(path.parent)
