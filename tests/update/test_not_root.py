"""`cbrig update` run by a user who may not write the update directory says so in one
line, with what to do, and exits 77 (EX_NOPERM), not with a traceback (issue 42)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.system_tools import require_command

BASE = Path(sys.executable).parents[1]


@pytest.fixture()
def shared() -> Iterator[Path]:
    """A folder any user can reach (pytest's tmp_path is root's own when root runs)."""
    folder = Path(tempfile.mkdtemp(prefix="cbrig-not-root-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        for path in (folder, *folder.rglob("*")):
            if path.is_dir() and not path.is_symlink():
                path.chmod(0o755)
        shutil.rmtree(folder)


def as_a_user(*args: str) -> subprocess.CompletedProcess[str]:
    """`cbrig update ARGS` as a user who is not root: nobody when the suite runs as root."""
    command = [sys.executable, "-m", "rig.cli", "update", *args]
    if os.geteuid() == 0:
        setpriv = require_command("setpriv", "util-linux")
        command = [setpriv, "--reuid", "65534", "--regid", "65534", "--clear-groups",
                   *command]
    return subprocess.run(command, capture_output=True, text=True, check=False,
                          cwd="/", env={**os.environ, "HOME": "/nonexistent"})


@pytest.mark.parametrize("action", [("install", "cbrig-9.9.9-py3-none-any.whl"),
                                    ("consume", "updates"), ("rollback",)])
def test_an_update_directory_this_user_cannot_write_is_named_in_one_line(
        shared: Path, action: tuple[str, ...]) -> None:
    root = shared / "cbrig-update"
    (root / "versions").mkdir(parents=True)
    (shared / "updates").mkdir()
    root.chmod(0o555)
    args = [str(shared / a) if a != "rollback" else a for a in action[1:]]
    result = as_a_user("--root", str(root), "--base", str(BASE), action[0], *args)
    assert result.returncode == 77, result
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert lines[0].startswith(f"cbrig update {action[0]}: {root} is not writable by ")
    assert "run it as root (sudo " in lines[0]
    assert sorted(p.name for p in root.iterdir()) == ["versions"]  # nothing written


def test_a_missing_update_directory_names_the_parent_it_cannot_make_it_in(
        shared: Path) -> None:
    parent = shared / "var-lib"
    parent.mkdir()
    parent.chmod(0o555)
    result = as_a_user("--root", str(parent / "cbrig-update"), "--base", str(BASE),
                       "install", str(shared / "cbrig-9.9.9-py3-none-any.whl"))
    assert result.returncode == 77, result
    assert result.stderr.startswith(f"cbrig update install: {parent} is not writable by ")
    assert not (parent / "cbrig-update").exists()


def test_status_only_reads_and_works_for_any_user(shared: Path) -> None:
    root = shared / "cbrig-update"
    (root / "versions").mkdir(parents=True)
    root.chmod(0o555)
    result = as_a_user("--root", str(root), "--base", str(BASE), "status")
    assert result.returncode == 0, result
    assert "installed: none" in result.stdout
