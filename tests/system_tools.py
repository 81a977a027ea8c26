"""Debian tools the suite tests with (Chromium, pdftoppm, systemd-nspawn, shellcheck...).

A test that needs a real part asks for it here. As root on Debian the part is installed
(`apt-get update` once per run, then `apt-get install -y`); where that cannot happen
the test FAILS and names the command that installs the part. Nothing here skips: a
suite that skips its real parts would pass green without having tried them.
"""

from __future__ import annotations

import ast
import fcntl
import os
import re
import shutil
import subprocess
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

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
    "e2fsck": ("e2fsprogs", "replays the Pi image's data journal after a power cut"),
    "mcopy": ("mtools", "the Pi image's FAT partition, unmounted"),
    "mkfs.vfat": ("dosfstools", "makes the Pi image's FAT partition"),
    "sfdisk": ("fdisk", "partitions the Pi image"),
    "xz": ("xz-utils", "the Pi image's .xz"),
    "tar": ("tar", "unpacks the Pi image's cached Debian part"),
}
"""Every Debian package the suite may install, by the command it is wanted for: the
banner before a run names them (tests/test_system_tools.py holds that every package a
test asks for is here)."""

NEEDS_ROOT: dict[str, str] = {
    "tests/appliance/test_appliance.py":
        "boots the appliance in a container with systemd-nspawn",
    "tests/appliance/test_prerequisites.py::"
    "test_a_cold_machine_can_build_the_arm64_root_file_system":
        "builds a Debian root file system (mmdebstrap) and registers binfmt_misc",
    "tests/image/test_boot.py":
        "builds the Pi image (mmdebstrap, chroot, file owners, binfmt_misc) and boots it",
    "tests/daemon/test_refused_display.py::test_an_immutable_journal_is_named_with_its_fix":
        "makes a journal immutable (chattr +i needs CAP_LINUX_IMMUTABLE)",
    "tests/daemon/test_refused_display.py::"
    "test_the_refused_start_replaces_the_old_picture_on_the_oled":
        "makes a journal immutable (chattr +i needs CAP_LINUX_IMMUTABLE)",
}
"""The tests that fail when not run as root, whatever is installed, and why
(tests/test_system_tools.py holds that every test failing on `geteuid() != 0` is here)."""

_lock = threading.Lock()
_updated = False


def _sudo() -> str:
    return "" if os.geteuid() == 0 else "sudo "


def install_command(packages: list[str] | tuple[str, ...]) -> str:
    """The command that installs `packages` here (with sudo when not root)."""
    return (f"{_sudo()}apt-get update && {_sudo()}apt-get install -y --no-install-recommends "
            + " ".join(packages))


def _missing_packages() -> list[str]:
    return sorted({package for command, (package, _) in TOOLS.items()
                   if shutil.which(command) is None})


_UPGRADE = re.compile(r"^Inst (\S+) \[([^\]]+)\] \((\S+)", re.M)


def upgrades(packages: list[str]) -> list[str]:
    """The installed packages that installing `packages` would upgrade ("name old -> new"),
    as `apt-get -s install` says with the package lists as they are now (issue 47:
    systemd-container brings systemd, libsystemd0, libudev1 up to its own version)."""
    if not packages or shutil.which("apt-get") is None:
        return []
    sim = _apt("-s", "install", "--no-install-recommends", *packages)
    return [f"{name} {old} -> {new}" for name, old, new in _UPGRADE.findall(sim.stdout or "")]


def asked_by_tests() -> dict[str, set[str]]:
    """Debian package -> the test files (relative paths) whose calls ask for it
    (require_command(s)/find_commands with literal packages), read from their source."""
    asking = {"require_command", "require_commands", "find_commands"}
    found: dict[str, set[str]] = {}
    for path in sorted(ROOT.glob("tests/**/*.py")):
        name = path.relative_to(ROOT).as_posix()
        if name in ("tests/system_tools.py", "tests/test_system_tools.py"):
            continue
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        except (OSError, SyntaxError):
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or getattr(
                    node.func, "id", getattr(node.func, "attr", "")) not in asking:
                continue
            for inner in ast.walk(node):
                values = inner.values if isinstance(inner, ast.Dict) else (
                    inner.args[1:2] if inner is node else [])
                for value in values:
                    if isinstance(value, ast.Constant) and isinstance(value.value, str):
                        found.setdefault(value.value, set()).add(name)
    return found


def _asking(askers: set[str], files: set[str]) -> set[str]:
    """The selected test files an asking file stands for: itself, or (a conftest.py)
    every selected file in its folder, named by the folder."""
    out = set()
    for asker in askers:
        if asker.endswith("/conftest.py"):
            folder = asker.removesuffix("conftest.py")
            if any(f.startswith(folder) for f in files):
                out.add(folder)
        elif asker in files:
            out.add(asker)
    return out


def plan() -> str:
    """What this run may install and cache, said before it starts ("" when nothing)."""
    if os.environ.get(NO_INSTALL, "") not in ("", "0"):
        return (f"cbrig tests: {NO_INSTALL} is set: nothing will be installed or cached; "
                "a test whose tool is missing fails and names the command that installs it.")
    if os.geteuid() != 0:
        return ""
    missing = _missing_packages()
    cache = os.environ.get("CBRIG_CI_CACHE", "/var/cache/cbrig-ci")
    listed = " ".join(missing) if missing else "none (all present)"
    raised = upgrades(missing)
    upgrade = (" Installing them also UPGRADES these installed packages (apt-get -s "
               f"install says so now; apt-get update may add more): {', '.join(raised)}."
               if raised else "")
    return (
        "cbrig tests: running as root, the suite installs the Debian packages it tests "
        "with when they are missing (apt-get update once, then apt-get install -y "
        f"--no-install-recommends, with their dependencies); missing now: {listed}."
        f"{upgrade} The container tests build Debian root file systems and keep them in "
        f"{cache} (about 240 MB each, reused by later runs; CBRIG_CI_CACHE moves it). "
        f"To run without changing this system: {NO_INSTALL}=1.")


def will_fail(selected: set[str]) -> str:
    """Said after collection, before the first test, when this run cannot install (not
    root, or NO_INSTALL): which of the `selected` tests (node ids) will fail and why, and
    the command that installs what they miss ("" when none will)."""
    if os.geteuid() == 0 and os.environ.get(NO_INSTALL, "") in ("", "0"):
        return ""
    files = {node.split("::")[0] for node in selected}
    lines = []
    wanted: set[str] = set()
    asked = asked_by_tests()
    for package in _missing_packages():
        tests = sorted(_asking(asked.get(package, set()), files))
        if tests:
            commands = ", ".join(c for c, (p, _) in TOOLS.items() if p == package)
            lines.append(f"  {', '.join(tests)}: no {commands} (Debian {package})")
            wanted.add(package)
    if os.geteuid() != 0:
        for test, why in NEEDS_ROOT.items():
            if test in selected or test in files:
                lines.append(f"  {test}: needs root, it {why}")
    if not lines:
        return ""
    who = "not running as root" if os.geteuid() != 0 else f"{NO_INSTALL} is set"
    said = [f"cbrig tests: {who}, so nothing is installed, and these tests will FAIL "
            "(each names what it lacks):", *lines]
    if wanted:
        said.append(f"Install what they lack first: {install_command(sorted(wanted))}")
    if os.geteuid() != 0:
        said.append("Or run the suite as root (sudo .venv/bin/python -m pytest -q), which "
                    "installs what is missing itself.")
    return "\n".join(said)


APT_LOCK = Path("/run/lock/cbrig-apt.lock")
"""Held around every apt-get this project's test tooling runs. .ci/run runs the arm64 job
beside the x86 suite, and both may install what they lack at once: apt's own lock
makes a second `apt-get update` fail at once ("Could not get lock"), where this one
makes it wait its turn."""


def _apt(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    APT_LOCK.parent.mkdir(parents=True, exist_ok=True)
    with APT_LOCK.open("a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
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
                       f"install with: {install_command(packages)}")
    paths = {cmd: shutil.which(cmd) for cmd in commands}
    return {cmd: path for cmd, path in paths.items() if path is not None}, problem


def scratch_home(folder: Path) -> dict[str, str]:
    """The environment with HOME and the XDG folders in `folder` (made): a browser or a
    sound tool started with it writes its profile, caches and cookies there, not in the
    user's home (issue 47: ~/.config/chromium was left behind)."""
    env = dict(os.environ)
    for key, sub in (("HOME", ""), ("XDG_CONFIG_HOME", ".config"),
                     ("XDG_CACHE_HOME", ".cache"), ("XDG_DATA_HOME", ".local/share")):
        path = folder / sub
        path.mkdir(parents=True, exist_ok=True)
        env[key] = str(path)
    return env


def require_commands(commands: dict[str, str]) -> dict[str, str]:
    """Paths of `commands` (command -> Debian package), installing the missing ones.

    Fails the calling test with the install command when a command cannot be had.
    """
    paths, problem = find_commands(commands)
    if problem:
        import pytest  # only a test fails: .ci/emulated_suite.py runs this module without pytest

        pytest.fail(problem, pytrace=False)
    return paths


def require_command(command: str, package: str) -> str:
    """The path of one command from one Debian package (see `require_commands`)."""
    return require_commands({command: package})[command]
