"""The suite says what it installs, and installs nothing when asked not to (issue 38)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests import system_tools

ROOT = Path(__file__).resolve().parents[1]
ASKING = {"require_command", "require_commands", "find_commands"}


def _asked_packages() -> set[str]:
    """Every Debian package named in a literal that tests/ or .ci/ hand to the tools."""
    packages: set[str] = set()
    for path in [*ROOT.glob("tests/**/*.py"), *ROOT.glob(".ci/*.py")]:
        if path.resolve() == Path(__file__).resolve():
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name not in ASKING:
                continue
            if name == "require_command" and len(node.args) == 2:
                if isinstance(node.args[1], ast.Constant):
                    packages.add(str(node.args[1].value))
                continue
            for inner in ast.walk(node):
                if isinstance(inner, ast.Dict):
                    packages |= {str(v.value) for v in inner.values
                                 if isinstance(v, ast.Constant)}
    for path in ROOT.glob("tests/appliance/*.py"):  # the tools' own tables
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.FunctionDef) and node.name in {"tools", "build_tools"}:
                packages |= {str(v.value) for d in ast.walk(node) if isinstance(d, ast.Dict)
                             for v in d.values if isinstance(v, ast.Constant)}
    return packages


def test_every_package_a_test_asks_for_is_in_the_banner_s_table() -> None:
    listed = {package for package, _ in system_tools.TOOLS.values()}
    asked = _asked_packages()
    assert asked, "the scan found no package: it no longer sees the tools' calls"
    assert asked <= listed, f"add to tests/system_tools.TOOLS: {sorted(asked - listed)}"


def test_with_no_install_set_nothing_is_installed_and_the_test_names_the_command(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, ...]] = []
    monkeypatch.setattr(system_tools, "_apt", lambda *args: calls.append(args))
    monkeypatch.setenv(system_tools.NO_INSTALL, "1")
    paths, problem = system_tools.find_commands({"cbrig-no-such-tool": "cbrig-no-such-pkg"})
    assert paths == {} and calls == []
    assert "CBRIG_TEST_NO_INSTALL is set" in problem
    assert "apt-get install -y cbrig-no-such-pkg" in problem
    assert "CBRIG_TEST_NO_INSTALL" in system_tools.plan()


def test_as_root_the_plan_names_the_missing_packages_and_the_cache(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(system_tools.NO_INSTALL, raising=False)
    monkeypatch.delenv("CBRIG_CI_CACHE", raising=False)
    monkeypatch.setattr(system_tools.os, "geteuid", lambda: 0)
    monkeypatch.setattr(system_tools.shutil, "which",
                        lambda command: None if command == "tmux" else f"/usr/bin/{command}")
    said = system_tools.plan()
    assert "missing now: tmux." in said
    assert "/var/cache/cbrig-ci" in said and "CBRIG_TEST_NO_INSTALL=1" in said
    monkeypatch.setattr(system_tools.os, "geteuid", lambda: 1000)
    assert system_tools.plan() == ""


def test_the_run_says_it_before_it_starts(tmp_path: Path) -> None:
    """A real pytest run through the suite's conftest: the plan is its first output."""
    (tmp_path / "test_nothing.py").write_text("def test_one():\n    assert True\n")
    (tmp_path / "conftest.py").write_text(
        "from tests.conftest import pytest_configure  # noqa: F401\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT), system_tools.NO_INSTALL: "1"}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
        capture_output=True, text=True, cwd=tmp_path, check=False, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stderr.replace("\n", " ").startswith(
        "cbrig tests: CBRIG_TEST_NO_INSTALL is set: nothing will be installed")
