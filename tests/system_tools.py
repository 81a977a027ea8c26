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

_lock = threading.Lock()
_updated = False


def _apt(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    return subprocess.run(
        ["apt-get", "-q", "-o", "DPkg::Lock::Timeout=600", *args],
        capture_output=True, text=True, env=env, check=False)


def _install(packages: tuple[str, ...]) -> str:
    """Install `packages`; return "" on success, else why not."""
    global _updated
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
