"""systemd/install.sh and uninstall.sh: shellcheck, dry runs and DESTDIR installs."""

from __future__ import annotations

import os
import shutil
import socket
import stat
import subprocess
from pathlib import Path

import pytest

from tests.slowdown import hang
from tests.system_tools import require_command

REPO = Path(__file__).resolve().parents[2]
INSTALL = REPO / "systemd" / "install.sh"
UNINSTALL = REPO / "systemd" / "uninstall.sh"


def sh(script: Path, *args: str, env: dict[str, str] | None = None,
       timeout: float = hang()) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(script), *args], capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL,
                          env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", **(env or {})})


def files_under(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


def test_scripts_are_shellcheck_clean() -> None:
    shellcheck = require_command("shellcheck", "shellcheck")
    library = INSTALL.parent / "lib.sh"
    result = subprocess.run([shellcheck, "-x", str(INSTALL), str(UNINSTALL), str(library)],
                            capture_output=True, text=True, cwd=INSTALL.parent.parent)
    assert result.returncode == 0, result.stdout


def test_scripts_are_strict_and_executable() -> None:
    for script in (INSTALL, UNINSTALL):
        text = script.read_text()
        assert text.startswith("#!/usr/bin/env bash\n")
        assert "\nset -euo pipefail\n" in text
        assert script.stat().st_mode & stat.S_IXUSR
        assert subprocess.run(["bash", "-n", str(script)]).returncode == 0


def test_install_dry_run_changes_nothing_and_lists_every_step(tmp_path: Path) -> None:
    result = sh(INSTALL, "--dry-run", "--destdir", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert files_under(tmp_path) == set()
    out = result.stdout
    assert f"+ install -m 0644 {REPO}/wiring/config.toml {tmp_path}/etc/cbrig/config.toml" in out
    assert f"+ install -m 0644 {REPO}/systemd/cbrig.service " \
           f"{tmp_path}/etc/systemd/system/cbrig.service" in out
    assert f"+ install -d -m 0750 {tmp_path}/var/lib/cbrig" in out
    assert f"-m venv --system-site-packages {tmp_path}/opt/cbrig/venv" in out
    assert f"+ copy {REPO} to a temporary directory, without --exclude=./.git" in out
    assert "pip wheel --no-deps --wheel-dir <tmp>/dist <tmp>/src" in out
    assert "(if a dependency has no wheel here) apt-get install -y build-essential" in out
    assert "pip install --no-deps --force-reinstall <tmp>/dist/cbrig-*.whl" in out
    assert f"+ ln -sfn /opt/cbrig/venv/bin/cbrig {tmp_path}/usr/local/bin/cbrig" in out
    assert "skipped (DESTDIR): systemctl enable cbrig.service" in out
    assert "skipped (DESTDIR): systemctl restart cbrig.service" in out
    assert "skipped (DESTDIR): user" in out or "skipped (DESTDIR): useradd" in out \
        or "skipped (DESTDIR): usermod" in out


def test_install_dry_run_on_the_real_root_only_prints(tmp_path: Path) -> None:
    before = Path("/etc/systemd/system/cbrig.service").exists()
    result = sh(INSTALL, "--dry-run", "--no-start")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "+ systemctl daemon-reload" in out
    assert "+ systemctl enable cbrig.service" in out
    assert "restart" not in out  # --no-start
    assert "+ useradd --system --user-group --groups gpio,i2c,dialout,audio" in out \
        or "+ usermod --append --groups gpio,i2c,dialout,audio cbrig" in out
    assert Path("/etc/systemd/system/cbrig.service").exists() == before


def test_install_into_destdir_is_idempotent_and_keeps_an_edited_config(tmp_path: Path) -> None:
    root = tmp_path / "root"
    first = sh(INSTALL, "--destdir", str(root), "--no-venv")
    assert first.returncode == 0, first.stderr
    config = root / "etc/cbrig/config.toml"
    assert config.read_text() == (REPO / "wiring/config.toml").read_text()
    unit = root / "etc/systemd/system/cbrig.service"
    assert unit.read_text() == (REPO / "systemd/cbrig.service").read_text()
    state = root / "var/lib/cbrig"
    assert state.is_dir()
    assert stat.S_IMODE(state.stat().st_mode) == 0o750
    for doc in ("INSTALL.md", "wiring.md", "wiring.svg", "PARTS.md"):
        assert (root / "opt/cbrig/doc" / doc).is_file()
    installed = files_under(root)

    config.write_text("[game]\nplayers = 3\n")
    second = sh(INSTALL, "--destdir", str(root), "--no-venv")
    assert second.returncode == 0, second.stderr
    assert "keeping the existing /etc/cbrig/config.toml" in second.stdout
    assert config.read_text() == "[game]\nplayers = 3\n"
    assert files_under(root) == installed


def test_uninstall_keeps_state_unless_purged(tmp_path: Path) -> None:
    root = tmp_path / "root"
    assert sh(INSTALL, "--destdir", str(root), "--no-venv").returncode == 0
    journal = root / "var/lib/cbrig/current.jsonl"
    journal.write_text("{}\n")

    dry = sh(UNINSTALL, "--dry-run", "--destdir", str(root))
    assert dry.returncode == 0, dry.stderr
    assert f"+ rm -rf {root}/opt/cbrig" in dry.stdout
    assert (root / "opt/cbrig").exists()

    result = sh(UNINSTALL, "--destdir", str(root))
    assert result.returncode == 0, result.stderr
    assert not (root / "etc/systemd/system/cbrig.service").exists()
    assert not (root / "opt/cbrig").exists()
    assert not (root / "etc/cbrig").exists()
    assert journal.read_text() == "{}\n"
    assert (root / "var/lib/cbrig/config.toml.saved").read_text() == \
        (REPO / "wiring/config.toml").read_text()
    assert "skipped (DESTDIR): systemctl disable --now cbrig.service" in result.stdout

    again = sh(UNINSTALL, "--destdir", str(root))
    assert again.returncode == 0, again.stderr
    assert journal.exists()

    purged = sh(UNINSTALL, "--destdir", str(root), "--purge")
    assert purged.returncode == 0, purged.stderr
    assert not (root / "var/lib/cbrig").exists()


@pytest.mark.parametrize("script", [INSTALL, UNINSTALL])
def test_unknown_options_are_refused(script: Path) -> None:
    result = sh(script, "--frobnicate")
    assert result.returncode == 2
    assert "unknown option --frobnicate" in result.stderr


@pytest.mark.parametrize(("script", "args", "refusal"), [
    (INSTALL, ("--no-venv", "--purge"), "install.sh: unknown option --purge (see --help)"),
    (UNINSTALL, ("--boot",), "uninstall.sh: unknown option --boot (see --help)"),
    (INSTALL, ("--dry-run=1",), "install.sh: unknown option --dry-run=1 (see --help)"),
    (UNINSTALL, ("",), "uninstall.sh: unknown option  (see --help)"),
    (INSTALL, ("--destdir",), "install.sh: --destdir needs a directory"),
    (UNINSTALL, ("--destdir",), "uninstall.sh: --destdir needs a directory"),
    (INSTALL, ("--destdir=/x", "--boot-dir"), "install.sh: --boot-dir needs a directory"),
])
def test_each_script_refuses_what_is_not_its_own(script: Path, args: tuple[str, ...],
                                                 refusal: str) -> None:
    """One parser (systemd/lib.sh) for both: each knows only its own options."""
    result = sh(script, *args)
    assert result.returncode == 2
    assert result.stderr.strip() == refusal
    assert result.stdout == ""


def test_install_takes_a_directory_with_equals_or_apart(tmp_path: Path) -> None:
    apart = sh(INSTALL, "--dry-run", "--no-venv", "--no-boot", "--boot-dir", "/b",
               "--destdir", f"{tmp_path}/")
    joined = sh(INSTALL, "--dry-run", "--no-venv", "--no-boot", "--boot-dir=/b",
                f"--destdir={tmp_path}")
    assert apart.returncode == joined.returncode == 0, apart.stderr + joined.stderr
    assert apart.stdout == joined.stdout
    assert f"+ install -d -m 0755 {tmp_path}/etc/cbrig\n" in apart.stdout
    assert "boot options: /b\nleft alone (--no-boot)" in apart.stdout
    assert "virtualenv: skipped (--no-venv)" in apart.stdout


def test_uninstall_takes_a_directory_with_equals_or_apart(tmp_path: Path) -> None:
    (tmp_path / "etc/cbrig").mkdir(parents=True)
    (tmp_path / "var/lib/cbrig").mkdir(parents=True)
    apart = sh(UNINSTALL, "--dry-run", "--purge", "--destdir", f"{tmp_path}/")
    joined = sh(UNINSTALL, "--dry-run", "--purge", f"--destdir={tmp_path}")
    assert apart.returncode == joined.returncode == 0, apart.stderr + joined.stderr
    assert apart.stdout == joined.stdout
    assert f"+ rm -rf {tmp_path}/var/lib/cbrig\n" in apart.stdout, "--purge took effect"
    assert (tmp_path / "var/lib/cbrig").is_dir(), "a dry run"


@pytest.mark.parametrize("script", [INSTALL, UNINSTALL])
def test_help(script: Path) -> None:
    result = sh(script, "--help")
    assert result.returncode == 0
    assert "--dry-run" in result.stdout
    assert "--destdir" in result.stdout
    assert "set -euo" not in result.stdout


def _not_source(directory: str, names: list[str]) -> set[str]:
    """What an owner's clone holds besides the sources: caches, and FIFOs or sockets
    (lgpio leaves .lgd-nfy0 in the working directory of a test that imports it)."""
    ignored = set(shutil.ignore_patterns(
        ".git", ".venv", "build", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis",
    )(directory, names))
    special = {name for name in names
               if stat.S_ISFIFO(mode := os.lstat(os.path.join(directory, name)).st_mode)
               or stat.S_ISSOCK(mode)}
    return ignored | special


def _checkout_copy(dest: Path) -> Path:
    """The checkout as an owner's clone would hold it (sources, no virtualenv), with the
    FIFO and a socket a run on the Pi leaves behind, which install.sh must not copy."""
    shutil.copytree(REPO, dest, ignore=_not_source)
    os.mkfifo(dest / ".lgd-nfy0")
    with socket.socket(socket.AF_UNIX) as left_open:
        left_open.bind(str(dest / "rig" / ".notify"))
    return dest


def test_a_reinstall_builds_from_a_clean_copy_and_drops_a_deleted_module(
        tmp_path: Path) -> None:
    """Nothing is written into the clone (no build/, no *.egg-info left by root), and a
    module deleted from the clone is gone from the virtualenv after the reinstall."""
    clone = _checkout_copy(tmp_path / "cb-rig")
    probe = clone / "rig" / "obsolete_probe.py"
    probe.write_text('"""A module that a later version deletes."""\n')
    before = files_under(clone)
    root = tmp_path / "root"
    # Dependencies are pip's business; only the program itself is tried here.
    env = {"PIP_NO_DEPS": "1", "HOME": str(tmp_path / "home")}
    script = clone / "systemd" / "install.sh"
    first = sh(script, "--destdir", str(root), "--no-start", env=env, timeout=hang(600))
    assert first.returncode == 0, first.stdout + first.stderr
    assert "socket ignored" not in first.stderr, "the copy skips sockets and FIFOs"
    venv = root / "opt/cbrig/venv"
    installed = list(venv.glob("lib/python*/site-packages/rig/obsolete_probe.py"))
    assert len(installed) == 1
    assert files_under(clone) == before
    link = root / "usr/local/bin/cbrig"
    assert link.is_symlink() and str(link.readlink()) == "/opt/cbrig/venv/bin/cbrig"
    assert (venv / "bin/cbrig").is_file()

    probe.unlink()
    second = sh(script, "--destdir", str(root), "--no-start", env=env, timeout=hang(600))
    assert second.returncode == 0, second.stdout + second.stderr
    assert not installed[0].exists()
    assert (installed[0].parent / "cli.py").is_file()
    assert files_under(clone) == before - {"rig/obsolete_probe.py"}


FAKE_SYSTEMCTL = """#!/bin/sh
echo "$*" >> "$CALLS"
case "$1" in
    restart) exit "${RESTART_STATUS:-0}" ;;
    is-active) [ "${ACTIVE:-active}" = active ] || { [ "$2" = --quiet ] || echo "$ACTIVE"; exit 3; }
               [ "$2" = --quiet ] || echo active ;;
    status) echo "cbrig.service - cb-rig"; echo "Main PID: 42 (code=exited, status=69)"; exit 3 ;;
esac
"""


def _start_and_check(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """lib.sh's start_and_check against a fake systemctl (a real one would start the
    service on this machine)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "systemctl"
    fake.write_text(FAKE_SYSTEMCTL)
    fake.chmod(0o755)
    library = INSTALL.parent / "lib.sh"
    script = f'DRY_RUN=0; DESTDIR=""; . "{library}"; start_and_check cbrig.service'
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=hang(),
                          env={"PATH": f"{bin_dir}:/usr/bin:/bin",
                               "CALLS": str(tmp_path / "calls"), **env})


def test_install_says_when_the_service_did_not_come_up(tmp_path: Path) -> None:
    """The daemon exits before READY (a hardware set-up failure): install.sh used to end
    "==> done" all the same."""
    result = _start_and_check(tmp_path, RESTART_STATUS="1", ACTIVE="failed")
    assert result.returncode == 1
    assert "cbrig.service did not come up (failed)" in result.stderr
    assert "status=69" in result.stderr, "systemd's status is shown"
    assert "journalctl -u cbrig.service" in result.stderr


def test_install_says_when_the_service_is_up(tmp_path: Path) -> None:
    result = _start_and_check(tmp_path)
    assert result.returncode == 0, result.stderr
    assert "cbrig.service is up" in result.stdout
    calls = (tmp_path / "calls").read_text().splitlines()
    assert calls == ["restart cbrig.service", "is-active --quiet cbrig.service"]


def test_install_checks_a_service_that_went_down_after_starting(tmp_path: Path) -> None:
    result = _start_and_check(tmp_path, ACTIVE="activating")
    assert result.returncode == 1
    assert "did not come up (activating)" in result.stderr


FAKE_APT = """#!/bin/sh
echo "$*" >> "$APT_LOG"
case "$1" in
    update) [ "$LISTS_BROKEN" = 1 ] || touch "$APT_LISTS"; exit 0 ;;
    install) [ -e "$APT_LISTS" ] || { echo "E: Unable to locate package $4" >&2; exit 100; } ;;
esac
"""


def _apt_install(tmp_path: Path, lists_broken: bool) -> tuple[int, list[str]]:
    """lib.sh's apt_install against a fake apt-get that knows no package until
    `apt-get update` has run (a machine whose package lists were never fetched)."""
    fake = tmp_path / "bin" / "apt-get"
    fake.parent.mkdir()
    fake.write_text(FAKE_APT)
    fake.chmod(0o755)
    log = tmp_path / "apt.log"
    script = (f'DESTDIR= DRY_RUN=0; . "{REPO / "systemd" / "lib.sh"}"; '
              'apt_install espeak-ng sox')
    result = subprocess.run(
        ["bash", "-c", script], capture_output=True, text=True, timeout=hang(),
        env={"PATH": f"{fake.parent}:/usr/bin:/bin", "APT_LOG": str(log),
             "APT_LISTS": str(tmp_path / "lists"), "LISTS_BROKEN": "1" if lists_broken else ""})
    return result.returncode, log.read_text().splitlines()


def test_apt_install_fetches_the_package_lists_when_they_are_missing(tmp_path: Path) -> None:
    code, calls = _apt_install(tmp_path, lists_broken=False)
    assert code == 0
    assert [c.split()[0] for c in calls] == ["install", "update", "install"]
    assert calls[-1].endswith("espeak-ng sox")


def test_apt_install_updates_once_and_fails_if_that_does_not_help(tmp_path: Path) -> None:
    code, calls = _apt_install(tmp_path, lists_broken=True)
    assert code != 0
    assert [c.split()[0] for c in calls] == ["install", "update", "install"]
