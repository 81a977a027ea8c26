"""The voice's phrase cache on disk (``<state>/voice/``): clips checked when read, written
whole, capped in size, and the first thing to go when the disk runs short.

Apart from :mod:`rig.voice.narrator` so that the daemon can make room for a game (:func:`give_way`)
without importing the voice (it is light: no synthesis, no rig modules).

- The directory is opened like every state file (rig.statedir): a symbolic link at
  ``<state>/voice`` is refused, said once, and the voice goes on rendering in memory;
  every file inside is opened relative to the directory's descriptor, never through a
  link.
- A clip is a WAV with a digest of its samples in a chunk of its own (``cbrg``): on
  reading, the header, the format, the data size against the file's bytes, a plausible
  length and the digest are checked, and a clip that fails any of them (a truncated
  file, a header alone, noise written over the samples) counts as not cached: it is
  made again and replaces the damaged one.
- Written to a temporary file, fsynced, then renamed over its name: a power cut leaves
  the old clip or the new one, never a renamed file whose blocks were not written.
  A temporary's name carries its writer's pid: one whose writer is no longer running
  (a kill, a crash) is removed when the cache is first used, at the next start, whatever
  its age; one of a live writer of another process is left alone (until ``STALE``:
  a reused pid), and counts against ``CAP`` meanwhile (issue 44: 65 were left by 30
  kills, outside the cap, until a start a minute later).
- At most ``CAP`` bytes: past it, the least recently used clips go (a clip read is
  "used"; its time is its file's mtime, touched at most every ``TOUCH`` seconds so that
  a game does not write to the card for every sentence said).
- It never leaves less than ``FLOOR`` bytes free on its disk: short of that it gives its
  oldest clips back, and keeps no more until there is room (see docs/VOICE.md).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import logging
import os
import stat
import threading
import time
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger(__name__)

CAP = 128 * 1024 * 1024
"""Bytes of clips kept (about 2,000 sentences): the largest whole game measured (Bump 'Em
with four players: 714 distinct sentences, 47 MB with the radio effect; a game of
10-Four says ~240, 14 MB) more than twice over, so the phrases of the last games and
every stock phrase stay, while the card keeps its room (docs/VOICE.md)."""
FLOOR = 8 * 1024 * 1024
"""Free bytes the cache leaves on its disk for the games (a journal takes 64 KiB at a
time, an archived game a few hundred KiB): below it the clips give way."""
TOUCH = 600.0
"""A clip read is marked used (its mtime) when its mark is older than this, seconds."""
STALE = 60.0
"""A temporary file older than this, seconds, was left by a killed writer (even if a
process now has its writer's pid)."""
MIN_SECONDS = 0.02
MAX_SECONDS = 60.0
"""A clip's plausible length: a sentence is a second or a few, never a minute."""
RATES = (8000, 11025, 16000, 22050, 24000, 32000, 44100, 48000)
DIGEST = b"cbrg"
"""The chunk that holds the first 16 bytes of the samples' SHA-256."""
_FLAGS = os.O_NOFOLLOW | os.O_CLOEXEC | getattr(os, "O_NONBLOCK", 0)
"""Clips are opened without following a link, and without waiting on a FIFO."""


def disk_free(fd: int) -> int:
    """Bytes an unprivileged writer may still use on the file system of ``fd``."""
    st = os.fstatvfs(fd)
    return st.f_bavail * st.f_frsize


def clip_wav(rate: int, pcm: bytes) -> bytes:
    """A mono 16-bit WAV of ``pcm`` with its digest chunk (before the data)."""
    pcm = pcm[: len(pcm) // 2 * 2]
    fmt = (1).to_bytes(2, "little") + (1).to_bytes(2, "little") + rate.to_bytes(4, "little") \
        + (rate * 2).to_bytes(4, "little") + (2).to_bytes(2, "little") \
        + (16).to_bytes(2, "little")
    digest = hashlib.sha256(pcm).digest()[:16]
    body = (b"WAVE" + b"fmt " + len(fmt).to_bytes(4, "little") + fmt
            + DIGEST + len(digest).to_bytes(4, "little") + digest
            + b"data" + len(pcm).to_bytes(4, "little") + pcm)
    return b"RIFF" + len(body).to_bytes(4, "little") + body


class Damaged(ValueError):
    """A cached clip that must be made again (the reason says why)."""


def clip_of_wav(data: bytes) -> tuple[int, bytes]:
    """(rate, samples) of a cached clip, or Damaged saying what is wrong with it."""
    if len(data) < 12 or data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise Damaged("not a WAV")
    if int.from_bytes(data[4:8], "little") != len(data) - 8:
        raise Damaged(f"RIFF size {int.from_bytes(data[4:8], 'little')}, "
                      f"{len(data) - 8} bytes there")
    at, rate, digest = 12, 0, b""
    while at + 8 <= len(data):
        chunk, size = data[at:at + 4], int.from_bytes(data[at + 4:at + 8], "little")
        body = data[at + 8:at + 8 + size]
        if len(body) != size:
            raise Damaged(f"{chunk!r} chunk of {size} bytes, {len(body)} there")
        if chunk == b"fmt ":
            if len(body) < 16:
                raise Damaged("short format chunk")
            kind = int.from_bytes(body[0:2], "little")
            channels = int.from_bytes(body[2:4], "little")
            rate = int.from_bytes(body[4:8], "little")
            bits = int.from_bytes(body[14:16], "little")
            if (kind, channels, bits) != (1, 1, 16) or rate not in RATES:
                raise Damaged(f"format {kind}, {channels} channels of {bits} bits at "
                              f"{rate} Hz, not mono 16-bit PCM")
        elif chunk == DIGEST:
            digest = body
        elif chunk == b"data":
            if not rate:
                raise Damaged("data before the format")
            if at + 8 + size != len(data) or size % 2:
                raise Damaged(f"{size} bytes of data in a file of {len(data)}")
            seconds = size / 2 / rate
            if not MIN_SECONDS <= seconds <= MAX_SECONDS:
                raise Damaged(f"{seconds:.2f} s long")
            if hashlib.sha256(body).digest()[:16] != digest:
                raise Damaged("the samples do not match their digest")
            return rate, body
        at += 8 + size + (size & 1)
    raise Damaged("no data")


class ClipCache:
    """The clips of one directory (module doc). Safe to share between the speaker's
    worker and the renders ahead; another process on the same directory is tolerated
    (its clips are read, counted and evicted like ours)."""

    def __init__(self, directory: Path, cap: int = CAP, floor: int = FLOOR,
                 free: Callable[[int], int] | None = None) -> None:
        self.directory = directory
        self.cap = cap
        self.floor = floor
        self.free = free or disk_free
        """Free bytes on the directory's disk (tests give a small disk)."""
        self.clock: Callable[[], float] = time.time
        self._fd: int | None = None
        self._opened = False
        self._off = ""
        """Why the cache is off ("" while it works): said once in the log."""
        self._total: int | None = None
        """Bytes of clips kept; None until counted (by :meth:`prepare` or the first
        write: a read never waits for the count)."""
        self._open_lock = threading.Lock()
        self._lock = threading.Lock()
        """Guards the count and the directory's listing (writes, evictions)."""
        self._temporaries = 0
        """Bytes of other live writers' temporaries, counted against the cap."""
        self.damaged = 0
        """Clips found damaged and so made again (tests count them)."""

    # -- opening ------------------------------------------------------------------------
    def _dir(self) -> int | None:
        """The directory's descriptor, opened (and made) on first use; None when the
        cache is off."""
        if self._opened:
            return self._fd
        with self._open_lock:
            if not self._opened:
                try:
                    self._fd = self._open()
                except OSError as exc:
                    self._turn_off(_why(self.directory, exc))
                self._opened = True
            return self._fd

    def prepare(self) -> None:
        """Open the directory, remove the temporaries a kill left and count the clips:
        done at start on a thread of its own (a scan of 2,000 clips is 45 ms on a
        desktop, several times that on a Pi), so the first sentence said waits for
        none of it."""
        if self._dir() is not None:
            with self._lock:
                self._counted()

    def _counted(self) -> int:
        """The bytes kept, counted on first need (stale temporaries go then); under
        ``_lock``."""
        if self._total is None:
            self._total = sum(size for _name, _used, size in self._clips(tidy=True)) \
                + self._temporaries
        return self._total

    def _open(self) -> int:
        """The directory made if missing (its parent, the state directory, too) and
        opened without following a link."""
        if not self.directory.parent.is_dir():
            self.directory.parent.mkdir(mode=0o700, parents=True)
        with contextlib.suppress(FileExistsError):
            os.mkdir(self.directory, 0o700)
        return os.open(self.directory, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
                       | os.O_CLOEXEC)

    def _turn_off(self, why: str) -> None:
        if not self._off:
            self._off = why
            log.warning("voice cache off: %s; phrases are made again each time", why)

    def usable(self) -> bool:
        """Whether clips can be kept (opens the directory on first use)."""
        return self._dir() is not None

    @property
    def off(self) -> str:
        return self._off

    def close(self) -> None:
        with self._open_lock:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None

    # -- reading and writing --------------------------------------------------------------
    def get(self, key: str) -> tuple[int, bytes] | None:
        """(rate, samples) of the clip ``key``, or None: not cached, or damaged (then
        it is made again and replaces this one)."""
        fd = self._dir()
        if fd is None:
            return None
        try:
            clip = os.open(f"{key}.wav", os.O_RDONLY | _FLAGS, dir_fd=fd)
        except OSError:
            return None  # not cached yet (or a link: made again, written over it)
        try:
            info = os.fstat(clip)
            if not stat.S_ISREG(info.st_mode) or info.st_size > _MAX_BYTES:
                raise Damaged("not a regular file of a clip's size")
            data = _read_all(clip, info.st_size)
            found = clip_of_wav(data)
            if self.clock() - info.st_mtime > TOUCH:
                with contextlib.suppress(OSError):
                    os.utime(clip)  # used now (LRU)
            return found
        except Damaged as exc:
            self.damaged += 1
            log.info("voice cache: %s.wav is damaged (%s); made again", key, exc)
            return None
        except OSError:
            return None
        finally:
            os.close(clip)

    def put(self, key: str, rate: int, pcm: bytes) -> None:
        """Keep the clip ``key``: whole (fsync, then rename) or not at all."""
        fd = self._dir()
        if fd is None:
            return
        data = clip_wav(rate, pcm)
        tmp = ""
        try:
            if not self._room(fd, len(data)):
                return
            tmp = f".{key}.{os.getpid()}.{threading.get_ident()}.tmp"
            handle = _create(tmp, fd)
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(handle, view):]
                os.fsync(handle)  # the blocks on the card before the name points at them
            finally:
                os.close(handle)
            os.replace(tmp, f"{key}.wav", src_dir_fd=fd, dst_dir_fd=fd)
        except OSError as exc:
            if tmp:
                with contextlib.suppress(OSError):
                    os.unlink(tmp, dir_fd=fd)
            self._turn_off(f"cannot write {self.directory} ({exc.strerror or exc})")
            with self._open_lock:
                if self._fd is not None:
                    os.close(self._fd)
                    self._fd = None
            return
        with self._lock:
            self._total = self._counted() + len(data)
            over = self._total > self.cap
        if over:
            self.evict(self.cap * 9 // 10)

    def _room(self, fd: int, size: int) -> bool:
        """Whether a clip of ``size`` bytes leaves ``floor`` free, giving way first."""
        if self.free(fd) - size >= self.floor:
            return True
        self.give_way(self.floor + size)
        return self.free(fd) - size >= self.floor

    # -- making room ----------------------------------------------------------------------
    def evict(self, target: int) -> int:
        """Remove the least recently used clips until at most ``target`` bytes are kept;
        the bytes removed."""
        fd = self._dir()
        if fd is None:
            return 0
        with self._lock:
            clips = sorted(self._clips(), key=lambda c: c[1])
            total = sum(size for _name, _used, size in clips)
            removed = 0
            for name, _used, size in clips:
                if total - removed <= target:
                    break
                with contextlib.suppress(OSError):
                    os.unlink(name, dir_fd=fd)
                    removed += size
            self._total = total - removed
        if removed:
            log.info("voice cache: %d KiB of the least recently used clips removed "
                     "(cap %d MiB)", removed // 1024, self.cap // (1024 * 1024))
        return removed

    def give_way(self, needed: int) -> int:
        """Remove the least recently used clips until ``needed`` bytes are free on the
        disk (or no clip is left); the bytes removed."""
        fd = self._dir()
        if fd is None or self.free(fd) >= needed:
            return 0
        removed = 0
        with self._lock:
            for name, _used, size in sorted(self._clips(), key=lambda c: c[1]):
                if self.free(fd) >= needed:
                    break
                with contextlib.suppress(OSError):
                    os.unlink(name, dir_fd=fd)
                    removed += size
            self._total = None  # counted again when next needed
        if removed:
            log.warning("voice cache: %d KiB of clips removed: the disk is short of space "
                        "(%d KiB free)", removed // 1024, self.free(fd) // 1024)
        return removed

    def _clips(self, tidy: bool = False) -> list[tuple[str, float, int]]:
        """(name, last used, bytes) of every clip; ``tidy``: stale temporaries removed."""
        assert self._fd is not None
        found: list[tuple[str, float, int]] = []
        now = self.clock()
        temporaries = 0
        with os.scandir(self._fd) as entries:
            for entry in entries:
                try:
                    info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                if tidy and entry.name.endswith(".tmp"):
                    if _writer_gone(entry.name) or now - info.st_mtime > STALE:
                        with contextlib.suppress(OSError):
                            os.unlink(entry.name, dir_fd=self._fd)
                        log.info("voice cache: %s left by a killed writer removed", entry.name)
                    else:
                        temporaries += info.st_size
                elif entry.name.endswith(".wav") and stat.S_ISREG(info.st_mode):
                    found.append((entry.name, info.st_mtime, info.st_size))
        if tidy:
            self._temporaries = temporaries
        return found


def _writer_gone(name: str) -> bool:
    """Whether the process that wrote the temporary ``.KEY.PID.THREAD.tmp`` has ended
    (so the file cannot be being written). Ours is never gone; a name without a pid is
    not ours to judge (its age decides)."""
    parts = name.split(".")
    if len(parts) < 5 or not parts[-3].isdigit():
        return False
    pid = int(parts[-3])
    if pid == os.getpid() or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False  # alive, another user's
    return False


_MAX_BYTES = 44 + 8 + 16 + int(MAX_SECONDS * max(RATES) * 2)
"""The largest plausible clip file; anything bigger is not read."""


def _create(name: str, directory: int) -> int:
    """A new file of our own (``O_EXCL``, no link followed); one already there under
    the name (planted, or left by a crash of a process with our pid) is unlinked first:
    the name goes, never what it points at."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        return os.open(name, flags, 0o600, dir_fd=directory)
    except FileExistsError:
        os.unlink(name, dir_fd=directory)
        return os.open(name, flags, 0o600, dir_fd=directory)


def _read_all(fd: int, size: int) -> bytes:
    parts: list[bytes] = []
    left = size + 1  # one more: a file that grew is seen
    while left > 0:
        part = os.read(fd, left)
        if not part:
            break
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


def _why(directory: Path, exc: OSError) -> str:
    """Why the directory cannot be used, in the words the state files use."""
    if exc.errno in (errno.ELOOP, errno.ENOTDIR) and directory.is_symlink():
        return (f"{directory} is a symbolic link (not followed: the rig does not follow "
                "links in its state directory; replace it with a directory)")
    return f"cannot write {directory} ({exc.strerror or exc})"


def give_way(directory: Path, needed: int = FLOOR) -> int:
    """Before a game is refused for space: remove the least recently used voice clips
    in ``directory`` until ``needed`` bytes are free (or none is left); the bytes
    removed. The daemon calls it before it creates a game's journal; a cache that
    does not exist is left alone (nothing is made)."""
    try:  # the common case, a disk with room, costs one statvfs on the START press
        fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return 0  # no cache (or a link: not ours to empty)
    try:
        if disk_free(fd) >= needed:
            return 0
    finally:
        os.close(fd)
    cache = ClipCache(directory)
    try:
        return cache.give_way(needed)
    finally:
        cache.close()


__all__ = ["CAP", "FLOOR", "ClipCache", "Damaged", "clip_of_wav", "clip_wav", "disk_free",
           "give_way"]
