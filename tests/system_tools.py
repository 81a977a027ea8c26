"""Debian tools the suite tests with (Chromium, pdftoppm, systemd-nspawn, shellcheck...).

A test that needs a real part asks for it here. As root on Debian the part is installed
(`apt-get update` once per run, then `apt-get install -y`); where that cannot happen
the test FAILS and names the command that installs the part. Nothing here skips: a
suite that skips its real parts would pass green without having tried them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading

import pytest

NO_INSTALL = "CBRIG_TEST_NO_INSTALL"
"""Set (to anything but "" or "0") to run the suite without installing or caching
anything on this system: a test whose tool is missing then fails and names the command
that installs it, exactly as on a machine that is not root."""

TOOLS: dict[str, tuple[str, str]] = {
    # command -> (Debian package, what the suite uses it for)
    "chromium": ("chromium", "the browser rig and the phone pages, headless"),
    "chromedriver": ("chromium-driver", "drives Chromium (selenium)"),
    "pdftoppm": ("poppler-utils", "printed sheets turned into pictures"),
    "pdftotext": ("poppler-utils", "printed sheets read back as text"),
    "tmux": ("tmux", "the terminal emulator on a pseudo-terminal"),
    "espeak-ng": ("espeak-ng", "the voice's synthesizer"),
    "sox": ("sox", "the radio effect and sound measurements"),
    "aplay": ("alsa-utils", "the speaker's real backend"),
    "shellcheck": ("shellcheck", "the install scripts"),
    "systemd-analyze": ("systemd", "the unit file's checks"),
    "setpriv": ("util-linux", "runs the daemon as another user"),
    "chattr": ("e2fsprogs", "makes a journal immutable (a refused start)"),
    "prusa-slicer": ("prusa-slicer", "slices every printed part of the case"),
    "mmdebstrap": ("mmdebstrap", "builds the appliance's Debian root file system"),
    "arch-test": ("arch-test", "mmdebstrap's foreign-architecture check (arm64 job)"),
    "systemd-nspawn": ("systemd-container", "boots the appliance under a real systemd"),
    "qemu-aarch64-static": ("qemu-user-static", "the arm64 job's emulation"),
    "mount": ("mount", "binfmt_misc for the arm64 job"),
    "qemu-system-aarch64": ("qemu-system-arm", "boots the Pi image as a Raspberry Pi 3 B"),
    "debugfs": ("e2fsprogs", "reads and writes the Pi image's ext4 partitions unmounted"),
    "mcopy": ("mtools", "the Pi image's FAT partition, unmounted"),
    "mkfs.vfat": ("dosfstools", "makes the Pi image's FAT partition"),
    "sfdisk": ("fdisk", "partitions the Pi image"),
    "xz": ("xz-utils", "the Pi image's .xz"),
    "tar": ("tar", "unpacks the Pi image's cached Debian part"),
}
"""Every Debian package the suite may install, by the command it is wanted for: the
banner before a run names them (tests/test_system_tools.py holds that every package a
test asks for is here)."""

_lock = threading.Lock()
_updated = False


def plan() -> str:
    """What this run may install and cache, said before it starts ("" when nothing)."""
    if os.environ.get(NO_INSTALL, "") not in ("", "0"):
        return (f"cbrig tests: {NO_INSTALL} is set: nothing will be installed or cached; "
                "a test whose tool is missing fails and names the command that installs it.")
    if os.geteuid() != 0:
        return ""
    missing = sorted({package for command, (package, _) in TOOLS.items()
                      if shutil.which(command) is None})
    cache = os.environ.get("CBRIG_CI_CACHE", "/var/cache/cbrig-ci")
    listed = " ".join(missing) if missing else "none (all present)"
    return (
        "cbrig tests: running as root, the suite installs the Debian packages it tests "
        "with when they are missing (apt-get update once, then apt-get install -y "
        f"--no-install-recommends, with their dependencies); missing now: {listed}. "
        "The container tests build Debian root file systems and keep them in "
        f"{cache} (about 240 MB each, reused by later runs; CBRIG_CI_CACHE moves it). "
        f"To run without changing this system: {NO_INSTALL}=1.")


def _apt(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    return subprocess.run(
        ["apt-get", "-q", "-o", "DPkg::Lock::Timeout=600", *args],
        capture_output=True, text=True, env=env, check=False)


def _install(packages: tuple[str, ...]) -> str:
    """Install `packages`; return "" on success, else why not."""
    global _updated
    if os.environ.get(NO_INSTALL, "") not in ("", "0"):
        return f"{NO_INSTALL} is set"
    if os.geteuid() != 0:
        return "not running as root"
    if shutil.which("apt-get") is None:
        return "no apt-get on this machine"
    with _lock:
        if not _updated:
            update = _apt("update")
            if update.returncode != 0:
                return f"apt-get update failed: {update.stderr.strip()[-400:]}"
            _updated = True
        result = _apt("install", "-y", "--no-install-recommends", *packages)
    if result.returncode != 0:
        return f"apt-get install failed: {result.stderr.strip()[-400:]}"
    return ""


def find_commands(commands: dict[str, str]) -> tuple[dict[str, str], str]:
    """Paths of `commands` (command -> Debian package), installing the missing ones;
    and "" when all are there, else the reason and the install command (for scripts)."""
    missing = {cmd: pkg for cmd, pkg in commands.items() if shutil.which(cmd) is None}
    problem = ""
    if missing:
        packages = tuple(sorted(set(missing.values())))
        why = _install(packages)
        still = [cmd for cmd in missing if shutil.which(cmd) is None]
        if still:
            problem = (f"{', '.join(still)} not available "
                       f"({why or 'installed, still not on PATH'}); "
                       f"install with: apt-get update && apt-get install -y {' '.join(packages)}")
    paths = {cmd: shutil.which(cmd) for cmd in commands}
    return {cmd: path for cmd, path in paths.items() if path is not None}, problem


def require_commands(commands: dict[str, str]) -> dict[str, str]:
    """Paths of `commands` (command -> Debian package), installing the missing ones.

    Fails the calling test with the install command when a command cannot be had.
    """
    paths, problem = find_commands(commands)
    if problem:
        pytest.fail(problem, pytrace=False)
    return paths


def require_command(command: str, package: str) -> str:
    """The path of one command from one Debian package (see `require_commands`)."""
    return require_commands({command: package})[command]
