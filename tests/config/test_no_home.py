"""A user with no passwd entry and no HOME (a bare uid: `setpriv --reuid`, a container):
every command used to end in "RuntimeError: Could not determine home directory"."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.slowdown import hang

NO_HOME = """
import os, pwd, sys
os.environ.pop("HOME", None)
for name in ("XDG_CONFIG_HOME", "XDG_STATE_HOME", "CONFIGURATION_DIRECTORY",
             "STATE_DIRECTORY"):
    os.environ.pop(name, None)
def nobody(uid):
    raise KeyError(f"getpwuid(): uid not found: {uid}")
pwd.getpwuid = nobody
os.geteuid = lambda: 54321  # not root: root's default state is /var/lib/cbrig anyway
from rig.cli import main
sys.exit(main(sys.argv[1:]))
"""


def without_home(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", NO_HOME, *args], capture_output=True,
                          text=True, timeout=hang(), cwd=cwd)


@pytest.mark.parametrize("command", [("config", "show"), ("config", "check"),
                                     ("cards", "show")], ids=" ".join)
def test_commands_run_without_a_home_directory(tmp_path, command):
    result = without_home(*command, cwd=tmp_path)
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    assert "home directory" not in result.stderr or "no home" in result.stderr
    assert result.returncode == 0, result.stderr


def test_a_tilde_path_without_a_home_is_a_config_problem(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[state]\ndirectory = "~/games"\n')
    result = without_home("run", "--config", str(config), cwd=tmp_path)
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    assert result.returncode == 78
    assert f"{config}:2: state.directory: " in result.stderr
    assert "no home directory" in result.stderr


def test_emulate_without_a_home_asks_for_a_state_directory(tmp_path):
    result = without_home("emulate", "--web", "--port", "0", cwd=tmp_path)
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    assert result.returncode == 2
    assert "--state DIR" in result.stderr and "no home directory" in result.stderr
