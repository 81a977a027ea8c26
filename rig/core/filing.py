"""Filing finished games: the numbered names in the state directory's games/ folder and
moving a journal there (rig.core.journal writes the journal; this files it)."""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from rig.statedir import (
    fsync_directory,
    make_private_dir,
)

if TYPE_CHECKING:
    from engine.api import JSON
from rig.core.journalread import JournalWriteError, _describe_os_error, read_journal

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
