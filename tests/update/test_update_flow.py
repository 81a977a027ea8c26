"""Updates that roll back, on the desktop, without systemd (docs/IMAGE.md, "Updates that
roll back"): real venvs built from real wheels of this checkout into a fake update
directory, the checkout's own venv standing for the image's base venv.

Three wheels are built from copies of the checkout: 9.1.0 as it is; 9.2.0 whose `cbrig
run` exits 1 at once (its self-test passes: the failure shows only when it starts); 9.3.0
whose self-test fails. The unit's part is played by `start_like_systemd`: the hooks
(`cbrig update hook ...`, from the base) around the launcher (systemd/cbrig-launch)
running `cbrig run`, READY read from a notify socket as systemd reads it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
import tomllib
from pathlib import Path

import pytest

from rig.update.notice import take_update_notice
from rig.update.versions import BASE, Versions, update_version, version_key
from tests.daemon.helpers import NotifySocket, write_config
from tests.slowdown import scaled

REPO = Path(__file__).resolve().parents[2]
LAUNCHER = REPO / "systemd" / "cbrig-launch"
BASE_VENV = Path(sys.prefix)
BASE_VERSION = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml")
                            .read_text())["project"]["version"]
"""The checkout's own version: the base venv's. The updates are made-up later ones."""
PACKAGES = ("cbrig", "engine", "hardware", "rig", "bench", "valueclass")


def _build_wheel(work: Path, version: str, patch: tuple[str, str, str] | None) -> Path:
    """A wheel of this checkout at `version`, with one source edit (file, old, new)."""
    source = work / f"src-{version}"
    source.mkdir(parents=True)
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(REPO / name, source / name)
    for package in PACKAGES:
        shutil.copytree(REPO / package, source / package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    pyproject = source / "pyproject.toml"
    text = pyproject.read_text()
    assert f'version = "{BASE_VERSION}"' in text
    pyproject.write_text(text.replace(f'version = "{BASE_VERSION}"', f'version = "{version}"', 1))
    if patch is not None:
        path, old, new = patch
        edited = (source / path).read_text()
        assert old in edited, (path, old)
        (source / path).write_text(edited.replace(old, new, 1))
    out = work / "wheels"
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir",
         str(out), str(source)], capture_output=True, text=True, timeout=scaled(600))
    assert result.returncode == 0, result.stderr[-2000:]
    [wheel] = out.glob(f"cbrig-{version}-*.whl")
    return wheel


FAILING_START = ("rig/commands/run.py", "    notices: list[str] = []\n",
                 "    raise SystemExit(1)  # this build cannot start\n")
"""The edit that makes a build whose `cbrig run` exits 1 at once (its self-test passes)."""
FAILING_SELFTEST = ("rig/commands/selftest.py", '    print("software self-test:")\n',
                    "    return 1  # this build fails its self-test\n")


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    work = tmp_path_factory.mktemp("wheels")
    return {
        "9.1.0": _build_wheel(work, "9.1.0", None),
        "9.2.0": _build_wheel(work, "9.2.0", FAILING_START),
        "9.3.0": _build_wheel(work, "9.3.0", FAILING_SELFTEST),
    }


class Rig:
    """A fake Pi: the update directory, the rig's config and state, the base venv."""

    def __init__(self, tmp_path: Path) -> None:
        self.root = tmp_path / "var-lib-cbrig-update"
        self.config = write_config(tmp_path, game="bumpem", players=2)
        self.state = tmp_path / "state"
        self.env = {k: v for k, v in os.environ.items()
                    if k not in {"NOTIFY_SOCKET", "WATCHDOG_USEC", "EXIT_STATUS"}}
        self.env.update(CBRIG_UPDATE_ROOT=str(self.root), CBRIG_BASE_VENV=str(BASE_VENV))
        self.tmp = tmp_path

    def update(self, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
        """`cbrig update ...` as root would run it: the base venv's code."""
        return subprocess.run([str(BASE_VENV / "bin" / "cbrig"), "update", *args],
                              capture_output=True, text=True, env={**self.env, **env},
                              timeout=scaled(900))

    def launch(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(LAUNCHER), *args], capture_output=True, text=True,
                              env=self.env, timeout=scaled(120))

    def versions(self) -> Versions:
        return Versions(self.root, BASE_VENV, say=lambda text: None)

    def start_like_systemd(self) -> tuple[str, str]:
        """One start of cbrig.service with the image's drop-in (systemd/image.conf):
        ExecStartPre hook, the launcher's `cbrig run` until READY=1 or its exit, then
        ExecStartPost (READY) or ExecStopPost (failed) hooks, and a stop. ("ready" or
        "failed", the daemon's log)."""
        assert self.update("hook", "start").returncode == 0
        notify = NotifySocket(self.tmp / "notify",
                              timeout=0.5)  # not a hang deadline: a poll (the loop's is scaled)
        process = subprocess.Popen(
            [str(LAUNCHER), "run", "--config", str(self.config), "--config-errors=show"],
            env={**self.env, "NOTIFY_SOCKET": str(notify.path)},
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        ready = False
        try:
            deadline = time.monotonic() + scaled(120)  # only ends a hang
            while process.poll() is None and not ready and time.monotonic() < deadline:
                try:
                    ready = "READY=1" in notify.next()
                except TimeoutError:
                    continue
            if ready:
                assert self.update("hook", "ready").returncode == 0
                process.terminate()
            elif process.poll() is None:
                process.kill()
            _, log = process.communicate(timeout=scaled(60))
        finally:
            notify.close()
            (self.tmp / "notify").unlink()
        stopped = self.update("hook", "stopped", EXIT_STATUS=str(process.returncode))
        assert stopped.returncode == 0, stopped.stderr
        return ("ready" if ready else "failed"), log

    def running_version(self) -> str:
        said = self.launch("--version")
        assert said.returncode == 0, said.stderr
        return said.stdout.strip().removeprefix("cbrig ")


def test_install_fail_rollback_on_the_desktop(tmp_path, wheels):
    rig = Rig(tmp_path)
    assert rig.running_version() == BASE_VERSION, "no update: the launcher runs the base"

    # 9.1.0: installed beside the base, self-tested, on trial, kept once READY.
    first = rig.update("install", str(wheels["9.1.0"]))
    assert first.returncode == 0, first.stdout + first.stderr
    assert os.readlink(rig.root / "current") == "versions/9.1.0"
    assert rig.versions().state().trial
    assert rig.running_version() == "9.1.0"
    outcome, log = rig.start_like_systemd()
    assert outcome == "ready"
    state = rig.versions().state()
    assert (state.current, state.previous, state.trial) == ("9.1.0", BASE, False)
    assert f"Updated to 9.1.0 (was {BASE_VERSION})" in log, "the new version says so at its start"
    assert take_update_notice(rig.state, rig.root) == "", "once"

    # 9.2.0 passes its self-test but its first start fails: back on 9.1.0 by itself.
    second = rig.update("install", str(wheels["9.2.0"]))  # while 9.1.0 runs
    assert second.returncode == 0, second.stdout + second.stderr
    assert rig.running_version() == "9.2.0"
    # `systemctl restart cbrig` into the trial first stops 9.1.0: its ExecStopPost is no
    # failed trial start (none began), so 9.2.0 stays on trial.
    assert rig.update("hook", "stopped", EXIT_STATUS="0").returncode == 0
    assert rig.versions().state().trial and rig.running_version() == "9.2.0"
    outcome, log = rig.start_like_systemd()
    assert outcome == "failed", log
    assert rig.running_version() == "9.1.0"
    assert not (rig.root / "versions" / "9.2.0").exists(), "the failed venv is removed"
    outcome, log = rig.start_like_systemd()
    assert outcome == "ready", "the version rolled back to starts"
    assert "Update 9.2.0 failed: back on 9.1.0." in log, "and says so (log, setup screen)"
    assert take_update_notice(rig.state, rig.root) == "", "said once"

    # 9.3.0 fails its self-test: never made current.
    third = rig.update("install", str(wheels["9.3.0"]))
    assert third.returncode == 1
    assert "Update 9.3.0 failed its self-test: still on 9.1.0" in third.stdout
    assert rig.running_version() == "9.1.0"
    assert not (rig.root / "versions" / "9.3.0").exists()

    status = rig.update("status")
    assert status.returncode == 0
    assert "current:   9.1.0" in status.stdout and f"base:      {BASE_VERSION}" in status.stdout
    assert "installed: 9.1.0" in status.stdout

    # By hand: back to the base.
    assert rig.update("rollback").returncode == 0
    assert not (rig.root / "current").exists()
    assert rig.running_version() == BASE_VERSION
    assert rig.update("rollback").returncode == 1, "nothing before the base"


def test_a_trial_start_cut_short_by_a_power_cut_rolls_back_at_the_next_start(
        tmp_path, wheels):
    rig = Rig(tmp_path)
    assert rig.update("install", str(wheels["9.1.0"])).returncode == 0
    assert rig.update("hook", "start").returncode == 0  # the trial start begins...
    # ... and the power goes: no READY, no ExecStopPost. At the next boot:
    assert rig.update("hook", "start").returncode == 0
    assert rig.versions().current() == BASE
    assert rig.running_version() == BASE_VERSION
    assert take_update_notice(rig.state, rig.root).startswith(
        f"Update 9.1.0 failed: back on {BASE_VERSION}.")


def test_a_journal_written_by_one_version_is_read_by_the_other(tmp_path, wheels):
    """The format is version 1 in both: the old program's journal replays in the new,
    and a journal of 0.2.0's layout is what every version's self-test reads."""
    from rig.config import load_config
    from rig.core.daemon import Daemon
    from tests.daemon.helpers import Quiet
    from tests.daemon.test_journal_faults import play_to_game_over

    rig = Rig(tmp_path)
    config = load_config(rig.config)
    daemon = Daemon(config=config, notifier=Quiet())
    try:
        daemon.start()
        play_to_game_over(daemon)  # written by this checkout's code (the base)
    finally:
        daemon.stop()
    assert rig.update("install", str(wheels["9.1.0"])).returncode == 0
    replayed = rig.launch("replay", str(config.state.current))
    assert replayed.returncode == 0, replayed.stderr
    assert rig.running_version() == "9.1.0"


def test_updates_on_the_boot_partition_are_taken_once(tmp_path, wheels):
    rig = Rig(tmp_path)
    updates = tmp_path / "boot-firmware" / "cbrig" / "updates"
    updates.mkdir(parents=True)
    bundle = updates / "cbrig-update-9.1.0.tar"
    with tarfile.open(bundle, "w") as tar:  # the project's update bundle: wheels inside
        tar.add(wheels["9.1.0"], arcname=f"wheels/{wheels['9.1.0'].name}")
    shutil.copy(wheels["9.3.0"], updates)
    (updates / "notes.txt").write_text("not an update\n")
    assert update_version(bundle) == "9.1.0"

    first = rig.update("consume", str(updates))
    assert first.returncode == 1, "the newest, 9.3.0, fails its self-test"
    consumed = json.loads((rig.root / "consumed.json").read_text())
    assert sorted(entry["result"] for entry in consumed.values()) == [
        "failed", "skipped: 9.3.0 is newer"]
    assert rig.running_version() == BASE_VERSION

    (updates / wheels["9.3.0"].name).unlink()  # the owner takes it away; the bundle stays
    again = rig.update("consume", str(updates))
    assert again.returncode == 0
    assert rig.running_version() == BASE_VERSION, "the bundle was taken already: skipped"

    fresh = updates / "cbrig-update-9.1.0-again.tar"
    with tarfile.open(fresh, "w") as tar:
        tar.add(wheels["9.1.0"], arcname=wheels["9.1.0"].name)
        tar.add(LAUNCHER, arcname="README")  # anything else in a bundle is left out
    taken = rig.update("consume", str(updates))
    assert taken.returncode == 0, taken.stdout + taken.stderr
    assert rig.running_version() == "9.1.0"
    assert rig.update("consume", str(updates)).returncode == 0
    assert rig.versions().state().trial, "not installed twice: still its first trial"


def test_versions_order_as_numbers():
    assert sorted(["0.10.0", "0.2.0", "1.0.0", "1.0.0rc1", "0.9.1"], key=version_key) == [
        "0.2.0", "0.9.1", "0.10.0", "1.0.0rc1", "1.0.0"]


def test_the_update_directory_is_readable_by_the_service_user_whatever_the_umask(tmp_path):
    """cbrig.service's hooks run with the unit's UMask=0077: what they make must still
    be readable by the service user (the launcher runs `current`, the daemon reads the
    notice)."""
    root = tmp_path / "var-lib-cbrig-update"
    old = os.umask(0o077)
    try:
        with Versions(root, BASE_VENV, say=lambda text: None).locked():
            pass
        assert root.stat().st_mode & 0o777 == 0o755
        os.umask(0o077)
        root.chmod(0o700)
        with Versions(root, BASE_VENV, say=lambda text: None).locked():
            pass
        assert root.stat().st_mode & 0o777 == 0o755
    finally:
        os.umask(old)


def test_hooks_outside_a_trial_write_nothing(tmp_path):
    root = tmp_path / "var-lib-cbrig-update"
    versions = Versions(root, BASE_VENV, say=lambda text: None)
    versions.hook_start()
    versions.hook_ready()
    assert versions.hook_stopped("1") is False
    assert not root.exists(), "an image without updates: the hooks touch nothing"


def test_cbrig_run_does_not_load_the_update_machinery():
    code = ("import sys, rig.commands.run; "
            "print(sorted(m for m in sys.modules if m.startswith('rig.update')))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=scaled(60), check=True)
    assert result.stdout.strip() == "['rig.update', 'rig.update.notice']"


def _on_trial(root: Path, version: str, starts: int) -> None:
    """An update directory as `cbrig update install` leaves it, `version` on trial."""
    venv = root / "versions" / version
    (venv / "bin").mkdir(parents=True)
    (venv / ".cbrig-complete").write_text(f"{version}\n")
    (root / "current").symlink_to(f"versions/{version}")
    (root / "state.json").write_text(json.dumps({"current": version, "previous": "base",
                                                 "trial": True, "trial_starts": starts}))


def test_a_trial_start_that_exits_where_systemd_would_not_restart_is_restarted(tmp_path):
    """RestartPreventExitStatus=69 73 78: systemd leaves the unit down after these, so the
    ExecStopPost hook starts it again itself once it rolled back."""
    calls: list[list[str]] = []

    def run(command: list[str], **_: object) -> subprocess.CompletedProcess[str]:
        calls.append(command)
        return subprocess.CompletedProcess(command, 0, "", "")

    root = tmp_path / "update"
    _on_trial(root, "0.7.0", starts=1)
    versions = Versions(root, BASE_VENV, run=run, say=lambda text: None)
    assert versions.hook_stopped("78", "cbrig.service") is True
    assert versions.current() == BASE and not (root / "versions" / "0.7.0").exists()
    assert calls == [["systemctl", "--no-block", "start", "cbrig.service"]]

    calls.clear()
    _on_trial(tmp_path / "again", "0.7.0", starts=1)
    again = Versions(tmp_path / "again", BASE_VENV, run=run, say=lambda text: None)
    assert again.hook_stopped("1", "cbrig.service") is True
    assert calls == [], "exit 1: systemd's Restart=on-failure starts it"
