"""Why a start of the rig is refused, and what it tells the owner: the exit codes, the
refusals, the state directory's lock, the words that name the cause and the fix, and the
screens the daemon leaves on the display when it stops or cannot start (rig.core.daemon)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from rig.screens.screen import Screen

if TYPE_CHECKING:  # the game modules are imported when first needed (a resumed game,
    # the first game started) or right after READY (see Daemon.start); the devices, the
    # web and the voice when they are built

    pass


EXIT_FAILED = 1


EXIT_HARDWARE = 69
"""EX_UNAVAILABLE: the hardware could not be set up; restarting will not mend it."""


EXIT_UNWRITABLE = 73
"""EX_CANTCREAT: a file the rig needs cannot be used here; fix it, nothing was moved."""


EXIT_BUSY = 75
"""EX_TEMPFAIL: another daemon holds the state directory's lock."""


class StartRefused(Exception):
    """The daemon must not start; the message says what to fix."""

    exit_code = EXIT_FAILED
    short = "Cannot start."
    """A few words for the display (the log has the whole message): the cause and its
    fix when known (`short` given), else the kind of failure."""
    drawn = True
    """Say it on the display (not when the display is another daemon's)."""

    def __init__(self, message: str = "", short: str | None = None) -> None:
        super().__init__(message)
        if short:
            self.short = short


class StateBusy(StartRefused):
    exit_code = EXIT_BUSY
    short = "Another cbrig runs."
    drawn = False  # the running one owns the display


class HardwareUnavailable(StartRefused):
    exit_code = EXIT_HARDWARE
    short = "Pins, knobs or reader not set up."


class StateUnwritable(StartRefused):
    exit_code = EXIT_UNWRITABLE
    short = "State cannot be written."


class HeaderError(Exception):
    """A journal header whose seats (levels, hints) do not fit its game."""


def goodbye_screen(game: str | None = None) -> Screen:
    """What stays on the OLED after the daemon stops: the game's own sign-off."""
    from rig.registry import DEFAULT_GAME, find

    found = find(game or DEFAULT_GAME)
    sign_off = found.sign_off if found is not None else "Game saved."
    return Screen(title="CB RIG", big="RIG OFF", lines=(sign_off, "Game saved."),
                  footer="power off is safe")


def refused_screen(refused: StartRefused) -> Screen:
    """What stays on the OLED when the daemon could not start: what kind of failure,
    and where the whole message is (no knob works now, so it must fit one screen)."""
    return Screen(title="CB RIG", big="NO START", alert=True,
                  lines=(refused.short, "journalctl -u cbrig"),
                  footer=f"exit status {refused.exit_code}")


def lock_state_directory(directory: Path) -> int:
    """Hold an exclusive lock on the state directory for the life of this process.

    Two daemons on one journal both took inputs and corrupted it; the second now stops
    here, before it opens anything. The lock is on the directory itself (read access is
    enough, so a read-only state still starts and says why at START) and goes with the
    process, even after SIGKILL.
    """
    import fcntl

    try:
        fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        raise StateUnwritable(f"cannot open the state directory {directory}: "
                              f"{exc.strerror or exc}",
                              _cause_words(exc, "State dir")) from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        os.close(fd)
        raise StateBusy(f"another cbrig is already running on {directory}; stop it first "
                        "(systemctl status cbrig)") from exc
    return fd


def _user() -> str:
    """The user this process runs as, by name when it has one (for a chown advice)."""
    import getpass

    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return str(os.geteuid())


FS_IMMUTABLE_FL = 0x10


FS_APPEND_FL = 0x20


def _locked_flag(path: Path) -> str:
    """"immutable" or "append-only" when `path` carries that file attribute (``chattr
    +i``/``+a``: even root may not open it for writing, and no chown mends it), else ""."""
    import fcntl
    import struct
    import sys

    size = struct.calcsize("l")  # FS_IOC_GETFLAGS is _IOR('f', 1, long)
    request = 0x80006601 | (size << 16)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return ""
    try:
        flags = int.from_bytes(fcntl.ioctl(fd, request, bytes(size))[:4], sys.byteorder)
    except OSError:  # a file system without attributes
        return ""
    finally:
        os.close(fd)
    if flags & FS_IMMUTABLE_FL:
        return "immutable"
    return "append-only" if flags & FS_APPEND_FL else ""


def _cause_words(exc: OSError, what: str, path: Path | None = None) -> str:
    """The cause of an unwritable state file and its fix, in the few words the refused
    start's screen has room for (the log has the whole message)."""
    import errno

    if exc.errno == errno.EPERM and path is not None:
        flag = _locked_flag(path)
        if flag:
            return f"{what} {flag}: chattr -{flag[0]}"
    return {errno.EACCES: f"{what} not writable: chown",
            errno.EPERM: f"{what} not writable: chown",
            errno.EROFS: "Disk is read-only: remount it",
            errno.ENOSPC: "The disk is full: free space",
            errno.EDQUOT: "Disk quota used up: free space",
            errno.EIO: "Disk read/write error: check it",
            errno.ENOTDIR: f"{what}: not a directory"}.get(exc.errno or -1, "")


def _fix_advice(current: Path, exc: OSError) -> str:
    """What to tell a person whose healthy journal the rig cannot write: the fix that
    matches the error (a chown for a permission, a remount for a read-only mount, a
    chattr for an immutable file)."""
    import errno

    flag = _locked_flag(current) if exc.errno == errno.EPERM else ""
    if flag:
        return (f"{exc}; the file is {flag} (chattr +{flag[0]}); the game in progress was "
                f"left in place. Fix: sudo chattr -{flag[0]} {current}, then start again")
    if exc.errno in (errno.EACCES, errno.EPERM):
        fix = f"sudo chown {_user()}: {current} (and its directory)"
    elif exc.errno == errno.EROFS:
        fix = "remount the file system writable"
    else:
        fix = "mend what the message names"
    return f"{exc}; the game in progress was left in place. Fix: {fix}, then start again"


def _filing_why(exc: OSError) -> str:
    """Why games/ did not take a journal, in a few words after its path."""
    import errno

    return {errno.ENOTDIR: "is not a directory", errno.EACCES: "is not writable",
            errno.EPERM: "is not writable", errno.EROFS: "is on a read-only disk",
            errno.ENOSPC: "is on a full disk"}.get(exc.errno or -1, "cannot take it")


def _filing_fix(games: Path, exc: OSError) -> str:
    """The command that lets games/ take finished games again."""
    import errno

    if exc.errno == errno.ENOTDIR:
        return f"sudo mv {games} {games}.old"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return f"sudo chown -R {_user()}: {games}"
    if exc.errno == errno.EROFS:
        return "remount the file system writable"
    return f"make {games} a writable directory"
