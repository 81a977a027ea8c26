"""Program versions beside the image's own, and the trial that rolls a bad one back.

The layout and the unit's hooks are in docs/IMAGE.md ("Updates that roll back"). In
short: the base venv (``/opt/cbrig/venv``, on the read-only root) never changes; an
update is a venv of its own in ``<root>/versions/<version>/`` (root: the data partition's
``/var/lib/cbrig-update``), ``<root>/current`` is a symbolic link to the one that runs
(absent: the base), swapped atomically, and ``<root>/state.json`` says whether it is on
trial. The launcher (``systemd/cbrig-launch``) starts ``current``; the hooks of
``cbrig.service`` (run as root from the base venv, so a broken update cannot stop its
own rollback) count the trial's start and keep the version once it reached READY, or
put the previous one back.

A new venv is made with ``--without-pip``; a ``.pth`` file puts the base venv's
site-packages after its own, so the dependencies the image carries are used as they are
and the update brings only what is new (its bundle's wheels; ``pip --no-index``: no
network). Only root writes here; ``status`` reads.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from rig.statedir import atomic_write, fsync_directory
from rig.update.notice import read_notice, update_root, write_notice
from valueclass import Frozen

log = logging.getLogger(__name__)

BASE_VARIABLE = "CBRIG_BASE_VENV"
DEFAULT_BASE = Path("/opt/cbrig/venv")
BASE = "base"
"""How the state names the base venv's version."""
COMPLETE = ".cbrig-complete"
"""In a version's venv: written once it is installed and passed its self-test."""
UPDATE_SUFFIXES = (".whl", ".tar", ".tar.gz", ".tgz", ".tar.xz", ".tar.bz2")
WHEEL = re.compile(r"cbrig-(?P<version>[0-9][0-9A-Za-z.+!_]*)-[^/]*\.whl")
MAX_ATTEMPTS = 2
"""Boots that may try one update file (a power cut during the install is one)."""
NO_RESTART = ("69", "73", "78")
"""cbrig.service's RestartPreventExitStatus=: after such a trial start, the rolled-back
version is started by the hook itself (systemd would leave the unit down)."""
SELFTEST_SECONDS = 600.0


class UpdateError(Exception):
    """An update that cannot be installed (the message says why)."""


def base_venv() -> Path:
    """The image's venv: ``$CBRIG_BASE_VENV``, else /opt/cbrig/venv."""
    value = os.environ.get(BASE_VARIABLE, "")
    return Path(value) if value else DEFAULT_BASE


class TrialState(Frozen):
    """``state.json``: what runs, what it replaced, and the trial."""

    current: str = BASE
    previous: str | None = None
    trial: bool = False
    trial_starts: int = 0
    """Trial starts begun (the ``start`` hook); one not confirmed by READY fails it."""

    def to_json(self) -> bytes:
        return (json.dumps({"current": self.current, "previous": self.previous,
                            "trial": self.trial, "trial_starts": self.trial_starts},
                           indent=1) + "\n").encode()


class Versions:
    """The update directory: versions, the ``current`` link, the state, the notice."""

    def __init__(self, root: Path | None = None, base: Path | None = None,
                 run: Callable[..., subprocess.CompletedProcess[str]] = subprocess.run,
                 say: Callable[[str], None] = print) -> None:
        self.root = update_root() if root is None else root
        self.base = base_venv() if base is None else base
        self.run = run
        self.say = say

    # -- reading ------------------------------------------------------------------------
    @property
    def versions(self) -> Path:
        return self.root / "versions"

    @property
    def current_link(self) -> Path:
        return self.root / "current"

    def base_version(self) -> str:
        """The base venv's cbrig version, from its installed metadata ("?" if none)."""
        for info in sorted(self.base.glob("lib/python*/site-packages/cbrig-*.dist-info")):
            return info.name[len("cbrig-"):-len(".dist-info")]
        return "?"

    def installed(self) -> list[str]:
        """The versions installed whole (passed their self-test), oldest first."""
        if not self.versions.is_dir():
            return []
        found = [p.name for p in self.versions.iterdir() if (p / COMPLETE).is_file()]
        return sorted(found, key=version_key)

    def current(self) -> str:
        """The version ``current`` names, or ``BASE``."""
        try:
            target = os.readlink(self.current_link)
        except OSError:
            return BASE
        name = Path(target).name
        return name if (self.versions / name / COMPLETE).is_file() else BASE

    def state(self) -> TrialState:
        try:
            data = json.loads((self.root / "state.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return TrialState(current=self.current())
        if not isinstance(data, dict):
            return TrialState(current=self.current())
        state = TrialState(current=str(data.get("current") or BASE),
                           previous=data.get("previous") if isinstance(
                               data.get("previous"), str) else None,
                           trial=data.get("trial") is True,
                           trial_starts=int(data.get("trial_starts") or 0))
        if state.current != self.current():  # the link is the truth (a cut mid-swap)
            return TrialState(current=self.current(), previous=state.previous)
        return state

    def shown(self, version: str) -> str:
        """A version as the table reads it: the base's number, not "base"."""
        return self.base_version() if version == BASE else version

    def status(self) -> str:
        state = self.state()
        lines = [f"base:      {self.base_version()} ({self.base})",
                 f"installed: {', '.join(self.installed()) or 'none'} ({self.versions})",
                 f"current:   {self.shown(state.current)}"
                 + (" (the base)" if state.current == BASE else "")]
        if state.trial:
            lines.append(f"on trial:  yes, {state.trial_starts} start(s) begun, none READY "
                         f"yet; a failed start goes back to {self.shown(state.previous or BASE)}")
        elif state.previous is not None:
            lines.append(f"previous:  {self.shown(state.previous)}")
        notice = read_notice(self.root)
        if notice is not None:
            lines.append(f"last news: {notice[1]}")
        return "\n".join(lines)

    # -- writing ------------------------------------------------------------------------
    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """One ``cbrig update`` at a time (the boot's, an owner's, the hooks). What is
        written here is readable by all (the service user runs the venvs and reads the
        notice), whatever umask the caller has (cbrig.service's hooks inherit 0077)."""
        os.umask(0o022)
        self.root.mkdir(mode=0o755, parents=True, exist_ok=True)
        if self.root.stat().st_mode & 0o777 != 0o755:
            os.chmod(self.root, 0o755)
        fd = os.open(self.root / ".lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    def _save(self, state: TrialState) -> None:
        atomic_write(self.root / "state.json", state.to_json())
        os.chmod(self.root / "state.json", 0o644)

    def _point_at(self, version: str) -> None:
        """Swap ``current`` to `version` at once (a new link renamed over it), or remove
        it for the base."""
        if version == BASE:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.current_link)
        else:
            temporary = self.root / ".current.new"
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
            os.symlink(f"versions/{version}", temporary)
            os.replace(temporary, self.current_link)
        fsync_directory(self.root)

    def _tell(self, message: str, error: bool = False) -> None:
        (log.error if error else log.info)("%s", message)
        self.say(message)
        write_notice(self.root, message)

    def install(self, update: Path, config: Path | None = None) -> int:
        """Install a wheel or a bundle beside what runs, self-test it, and make it
        current, on trial. 0 when it is (or already was) current; 1 when it failed,
        the version that ran before still current."""
        with self.locked(), tempfile.TemporaryDirectory(prefix="cbrig-update-") as work:
            wheelhouse = Path(work)
            version = gather_wheels(update, wheelhouse)
            state = self.state()
            if version == self.shown(state.current) and not state.trial:
                self.say(f"cbrig {version} is already the current version")
                return 0
            # An update over one still on trial (two dropped before a start) falls back
            # to what ran before the trial, the last version known to start.
            before = (state.previous or BASE) if state.trial else state.current
            self.say(f"installing cbrig {version} beside {self.shown(state.current)}")
            venv = self.versions / version
            problem = self._build(venv, wheelhouse, version)
            if problem is None:
                problem = self._selftest(venv, version, config)
            if problem is not None:
                shutil.rmtree(venv, ignore_errors=True)
                self._tell(f"Update {version} failed its self-test: still on "
                           f"{self.shown(before)}. {problem}", error=True)
                return 1
            (venv / COMPLETE).write_text(f"{version}\n")
            fsync_directory(venv)
            self._save(TrialState(current=version, previous=before, trial=True))
            self._point_at(version)
            self._prune(keep={version, before, state.current})
            self._tell(f"Updated to {version} (was {self.shown(before)}); it is on trial "
                       "until it starts.")
            return 0

    def _build(self, venv: Path, wheelhouse: Path, version: str) -> str | None:
        """The venv for `version` at its final path (a venv's scripts name their own
        interpreter's path); None, or what went wrong."""
        shutil.rmtree(venv, ignore_errors=True)
        self.versions.mkdir(mode=0o755, parents=True, exist_ok=True)
        python = self.base / "bin" / "python"
        system_site = _pyvenv_flag(self.base / "pyvenv.cfg", "include-system-site-packages")
        steps: list[Sequence[str]] = [
            [str(python), "-m", "venv", "--without-pip",
             *(["--system-site-packages"] if system_site else []), str(venv)]]
        result = self._step(steps[0])
        if result is not None:
            return result
        site = _site_packages(venv)
        base_site = _site_packages(self.base)
        if site is None or base_site is None:
            return f"no site-packages in {venv} or {self.base}"
        (site / "cbrig-base.pth").write_text(f"{base_site}\n")
        [wheel] = [p for p in wheelhouse.glob("cbrig-*.whl")
                   if _wheel_version(p.name) == version]
        pip = [str(venv / "bin" / "python"), "-m", "pip", "--disable-pip-version-check",
               "--no-cache-dir", "install", "--no-index", "--find-links", str(wheelhouse)]
        # The program itself into this venv (never "already satisfied" by the base's),
        # then whatever it needs that the base venv lacks, from the bundle's wheels.
        for step in ([*pip, "--no-deps", "--ignore-installed", str(wheel)],
                     [*pip, str(wheel)]):
            result = self._step(step)
            if result is not None:
                return result
        return None

    def _step(self, command: Sequence[str]) -> str | None:
        log.info("update: %s", " ".join(command))
        try:
            done = self.run(list(command), capture_output=True, text=True,
                            timeout=SELFTEST_SECONDS, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"{Path(command[0]).name}: {exc}"
        if done.returncode != 0:
            tail = (done.stderr or done.stdout or "").strip().splitlines()[-3:]
            return f"{' '.join(command[:3])} exited {done.returncode}: {' / '.join(tail)}"
        return None

    def _selftest(self, venv: Path, version: str, config: Path | None) -> str | None:
        cbrig = str(venv / "bin" / "cbrig")
        try:
            said = self.run([cbrig, "--version"], capture_output=True, text=True,
                            timeout=SELFTEST_SECONDS, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"cbrig --version: {exc}"
        if said.returncode != 0 or said.stdout.strip() != f"cbrig {version}":
            return (f"cbrig --version said {said.stdout.strip()!r} (exit {said.returncode}), "
                    f"not 'cbrig {version}'")
        return self._step([cbrig, "selftest", "--software",
                           *(["--config", str(config)] if config is not None else [])])

    def _prune(self, keep: set[str]) -> None:
        """Only the current version and the one it replaced stay installed."""
        for venv in self.versions.iterdir():
            if venv.name not in keep:
                shutil.rmtree(venv, ignore_errors=True)

    def rollback(self, why: str = "") -> str | None:
        """Back to the version before the current one (the base when there is none);
        the failed one is removed. What was said, or None when on the base already."""
        state = self.state()
        if state.current == BASE:
            return None
        back = state.previous or BASE
        if back != BASE and back not in self.installed():
            back = BASE
        failed = state.current
        self._save(TrialState(current=back))
        self._point_at(back)
        shutil.rmtree(self.versions / failed, ignore_errors=True)
        message = (f"Update {failed} failed: back on {self.shown(back)}." if why else
                   f"Rolled back from {failed} to {self.shown(back)}.")
        self._tell(message + (f" ({why})" if why else ""), error=bool(why))
        return message

    # -- the unit's hooks -----------------------------------------------------------------
    def hook_start(self) -> None:
        """ExecStartPre=+: count a trial start; a trial start that began before and
        never reached READY (a crash, a hang killed, a power cut) fails the trial."""
        if not self.state().trial:  # the usual start: nothing to write, or to make
            return
        with self.locked():
            state = self.state()
            if not state.trial:
                return
            if state.trial_starts >= 1:
                self.rollback("its first start did not reach READY")
                return
            self._save(TrialState(current=state.current, previous=state.previous,
                                  trial=True, trial_starts=state.trial_starts + 1))

    def hook_ready(self) -> None:
        """ExecStartPost=+ (after READY=1): the version on trial is kept."""
        if not self.state().trial:
            return
        with self.locked():
            state = self.state()
            if state.trial:
                self._save(TrialState(current=state.current, previous=state.previous))
                log.info("update %s reached READY: kept", state.current)
                self.say(f"cbrig {state.current} started: kept")

    def hook_stopped(self, exit_status: str = "", unit: str | None = None) -> bool:
        """ExecStopPost=+: a version on trial whose start began (the ``start`` hook) and
        stopped before READY: roll back now. (A trial whose start has not begun is the
        version before it stopping: ``cbrig update install`` ran while the rig did, and
        the unit is being restarted into the trial.) When systemd would not restart the
        unit after this exit status, start it (the version rolled back to) here. True
        when it rolled back."""
        if not self.state().trial:
            return False
        with self.locked():
            state = self.state()
            if not state.trial or state.trial_starts < 1:
                return False
            how = f"exit status {exit_status}" if exit_status else "it stopped"
            self.rollback(f"its first start failed: {how}")
        if unit and exit_status in NO_RESTART:
            self._step(["systemctl", "--no-block", "start", unit])
        return True

    # -- the boot's updates ----------------------------------------------------------------
    def consume(self, folder: Path, config: Path | None = None) -> int:
        """Install the newest update in `folder` (the FAT's cbrig/updates/) not taken
        before. Files are remembered by SHA-256 in ``consumed.json`` (the FAT is
        read-only, nothing is deleted there); one interrupted twice is given up."""
        with self.locked():
            consumed = self._consumed()
            fresh: list[tuple[tuple[int | str, ...], str, Path, str]] = []
            for path in sorted(folder.iterdir()) if folder.is_dir() else []:
                if not path.is_file() or not path.name.endswith(UPDATE_SUFFIXES):
                    continue
                digest = _sha256(path)
                seen = consumed.get(digest)
                if seen is not None and (seen.get("result") != "started"
                                         or int(seen.get("attempts", 0)) >= MAX_ATTEMPTS):
                    continue
                try:
                    version = update_version(path)
                except UpdateError as exc:
                    consumed[digest] = {"file": path.name, "result": f"refused: {exc}"}
                    self._tell(f"Update {path.name} refused: {exc}", error=True)
                    continue
                fresh.append((version_key(version), version, path, digest))
            if not fresh:
                self._save_consumed(consumed)
                return 0
            fresh.sort()
            *older, (_, version, newest, digest) = fresh
            for _, _older_version, path, old_digest in older:
                consumed[old_digest] = {"file": path.name,
                                        "result": f"skipped: {version} is newer"}
            attempts = int(consumed.get(digest, {}).get("attempts", 0)) + 1
            consumed[digest] = {"file": newest.name, "result": "started",
                                "attempts": attempts}
            self._save_consumed(consumed)
        status = self.install(newest, config)
        with self.locked():
            consumed = self._consumed()
            consumed[digest] = {"file": newest.name, "attempts": attempts,
                                "result": "installed" if status == 0 else "failed"}
            self._save_consumed(consumed)
        return status

    def _consumed(self) -> dict[str, dict[str, str | int]]:
        try:
            data = json.loads((self.root / "consumed.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return {k: v for k, v in data.items() if isinstance(v, dict)} \
            if isinstance(data, dict) else {}

    def _save_consumed(self, consumed: dict[str, dict[str, str | int]]) -> None:
        atomic_write(self.root / "consumed.json",
                     (json.dumps(consumed, indent=1, sort_keys=True) + "\n").encode())
        os.chmod(self.root / "consumed.json", 0o644)


# -- wheels and bundles ----------------------------------------------------------------------

def version_key(version: str) -> tuple[int | str, ...]:
    """Orders versions well enough for ours (0.2.0 < 0.10.0; a non-number part sorts
    before a number: 1.0.0rc1 < 1.0.0)."""
    parts: list[int | str] = []
    for piece in re.findall(r"\d+|[A-Za-z]+", version):
        parts.extend((1, int(piece)) if piece.isdigit() else (0, piece))
    parts.extend((0, "~"))  # the end: after a pre-release's letters, before more numbers
    return tuple(parts)


def _wheel_version(name: str) -> str | None:
    match = WHEEL.fullmatch(name)
    return match.group("version") if match else None


def update_version(path: Path) -> str:
    """The cbrig version a wheel or a bundle brings (UpdateError: none, or several)."""
    if path.name.endswith(".whl"):
        names = [path.name]
    else:
        try:
            with tarfile.open(path) as bundle:
                names = [Path(member.name).name for member in bundle.getmembers()
                         if member.isfile()]
        except (OSError, tarfile.TarError) as exc:
            raise UpdateError(f"{path.name} is not a readable bundle: {exc}") from exc
    versions = {v for v in map(_wheel_version, names) if v is not None}
    if len(versions) != 1:
        raise UpdateError(f"{path.name} holds {len(versions) or 'no'} cbrig wheel(s) "
                          "(a wheel cbrig-X.Y.Z-*.whl, or a bundle with exactly one)")
    return versions.pop()


def gather_wheels(update: Path, wheelhouse: Path) -> str:
    """Copy the update's wheels into `wheelhouse`; the cbrig version it brings."""
    version = update_version(update)
    if update.name.endswith(".whl"):
        shutil.copyfile(update, wheelhouse / update.name)
        return version
    with tarfile.open(update) as bundle:
        for member in bundle.getmembers():
            name = Path(member.name).name
            if not member.isfile() or not name.endswith(".whl") or name.startswith("."):
                continue
            source = bundle.extractfile(member)
            if source is None:
                continue
            with source, open(wheelhouse / name, "wb") as target:
                shutil.copyfileobj(source, target)
    return version


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _site_packages(venv: Path) -> Path | None:
    found = sorted(venv.glob("lib/python*/site-packages"))
    return found[0] if found else None


def _pyvenv_flag(path: Path, key: str) -> bool:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return False
    for line in lines:
        name, _, value = line.partition("=")
        if name.strip() == key:
            return value.strip().lower() == "true"
    return False

