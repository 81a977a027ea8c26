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
    assert "apt-get install -y --no-install-recommends cbrig-no-such-pkg" in problem
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


def test_not_root_the_hints_say_sudo_and_the_banner_lists_the_tests_that_will_fail(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 47: a non-root run was red with no word up front and install lines without
    sudo. Before the first test it now names each selected test that will fail, why, and
    the one command (with sudo) that installs what they lack."""
    monkeypatch.delenv(system_tools.NO_INSTALL, raising=False)
    monkeypatch.setattr(system_tools.os, "geteuid", lambda: 1000)
    monkeypatch.setattr(system_tools.shutil, "which",
                        lambda command: None if command in ("tmux", "chromium")
                        else f"/usr/bin/{command}")
    _, problem = system_tools.find_commands({"tmux": "tmux"})
    assert "install with: sudo apt-get update && sudo apt-get install -y" in problem
    selected = {"tests/rig/test_terminal_emulator.py::test_a", "tests/web/test_pages.py::b",
                "tests/appliance/test_appliance.py::test_boot", "tests/engine/test_x.py::c"}
    said = system_tools.will_fail(selected)
    lines = said.splitlines()
    assert lines[0].startswith("cbrig tests: not running as root, so nothing is installed")
    assert "  tests/rig/test_terminal_emulator.py: no tmux (Debian tmux)" in lines
    assert "  tests/web/: no chromium (Debian chromium)" in lines  # asked by its conftest
    assert any(line.startswith("  tests/appliance/test_appliance.py: needs root") for line in lines)
    assert ("Install what they lack first: sudo apt-get update && sudo apt-get install -y "
            "--no-install-recommends chromium tmux") in lines
    assert "engine" not in said  # a test that needs nothing is not named
    # a selection that needs nothing missing hears nothing; root hears nothing here
    assert system_tools.will_fail({"tests/engine/test_x.py::c"}) == ""
    monkeypatch.setattr(system_tools.os, "geteuid", lambda: 0)
    assert system_tools.will_fail(selected) == ""


def test_every_test_that_fails_unprivileged_is_in_the_needs_root_table() -> None:
    """A test that fails on `geteuid() != 0` or says it needs root is named in
    NEEDS_ROOT (so the banner can say so before it runs), and each entry exists."""
    import re

    for path in ROOT.glob("tests/**/test_*.py"):
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(ROOT).as_posix()
        if name == "tests/test_system_tools.py":
            continue
        for match in re.finditer(r"needs root|geteuid\(\) != 0:\n\s+pytest\.fail", text):
            before = text[:match.start()]
            test = re.findall(r"^def (test_\w+)", before, re.M)
            fixture = re.findall(r"^def (\w+)", before, re.M)
            assert any(key == name or key.startswith(f"{name}::") for key in
                       system_tools.NEEDS_ROOT), (name, (test or fixture)[-1:])
    for key in system_tools.NEEDS_ROOT:
        file, _, test = key.partition("::")
        assert (ROOT / file).is_file() and (not test or f"def {test}(" in (
            ROOT / file).read_text(encoding="utf-8")), key


def test_as_root_the_banner_says_which_installed_packages_installing_upgrades(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 47: systemd-container upgraded the host's systemd, libsystemd0, libudev1:
    the banner now says so before it installs, from `apt-get -s install`."""
    simulated = (
        "NOTE: This is only a simulation!\n"
        "Inst libsystemd0 [252.17-1~deb12u1] (252.19-1~deb12u1 Debian:12.7/stable [amd64])\n"
        "Inst systemd [252.17-1~deb12u1] (252.19-1~deb12u1 Debian:12.7/stable [amd64])\n"
        "Inst systemd-container (252.19-1~deb12u1 Debian:12.7/stable [amd64])\n"
        "Conf systemd (252.19-1~deb12u1 Debian:12.7/stable [amd64])\n")
    asked: list[tuple[str, ...]] = []

    def apt(*args: str) -> subprocess.CompletedProcess[str]:
        asked.append(args)
        return subprocess.CompletedProcess(["apt-get", *args], 0, simulated, "")

    monkeypatch.delenv(system_tools.NO_INSTALL, raising=False)
    monkeypatch.setattr(system_tools, "_apt", apt)
    monkeypatch.setattr(system_tools.os, "geteuid", lambda: 0)
    real_which = system_tools.shutil.which
    monkeypatch.setattr(system_tools.shutil, "which",
                        lambda command: None if command == "systemd-nspawn"
                        else real_which(command) or f"/usr/bin/{command}")
    said = system_tools.plan()
    assert asked == [("-s", "install", "--no-install-recommends", "systemd-container")]
    assert ("Installing them also UPGRADES these installed packages (apt-get -s install "
            "says so now; apt-get update may add more): libsystemd0 252.17-1~deb12u1 -> "
            "252.19-1~deb12u1, systemd 252.17-1~deb12u1 -> 252.19-1~deb12u1.") in said
    assert said.index("UPGRADES") < said.index("To run without changing this system")


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
