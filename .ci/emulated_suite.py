"""The whole suite on the Pi's own architecture, under qemu-user emulation.

    python3 .ci/emulated_suite.py arm64    # CI runs this beside the README's test command
    .venv/bin/python .ci/emulated_suite.py armhf    # on demand (docs/INSTALL.md)

In a Debian bookworm root file system of that architecture (built by mmdebstrap, cached
like the appliance test's: tests/appliance/rootfs.py), with commands run by
`systemd-nspawn --pipe --as-pid2` and the kernel handing ARM binaries to qemu
(tests/appliance/emulation.py), it installs the project as the README says with the
`[pi]` extra docs/INSTALL.md installs on a Pi, runs systemd/install.sh's virtualenv and
pip step into a scratch directory (INSTALL.md's install, without a systemd to start),
and runs the test suite on what the Pi's architecture can change: the engine, the
hardware, the rig's core, daemon, journal, config, updates, voice and install. Left to
the x86 job, which runs the whole suite: tests that cannot run here (the appliance tests
boot a container with systemd-nspawn, which cannot nest inside this emulated one;
Chromium), and the desktop's extras a Pi never runs (the print kit, the benches, the
terminal emulator, the image maker, the checks on the source text): DESELECTED by marker,
DESELECTED_PATHS by path, each with why. The deselection is printed, never silent.

Exits 0 when everything passed; otherwise 1 with the reason (no root, no emulation, a
failed install, failed tests). Needs root (mmdebstrap, systemd-nspawn, binfmt_misc).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from collections import deque
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests import slowdown  # noqa: E402
from tests.appliance import emulation, rootfs  # noqa: E402
from tests.system_tools import find_commands  # noqa: E402

SUITE_PACKAGES = ("python3", "python3-venv", "git", "ca-certificates", "systemd",
                  "shellcheck", "poppler-utils", "espeak-ng", "sox", "alsa-utils")
"""What the suite needs inside: Python and the tools its tests get through
tests/system_tools.py. Built into the cached root file system so each run does not
install them again; one missing here is still installed by the test that needs it.
The voice's three (what systemd/install.sh installs on a Pi) are here because the voice
tests synthesize real audio on the Pi's architecture. No Chromium: the browser tests are
deselected here (DESELECTED), and it is the largest part of the build."""

SOURCE_BUILD_PACKAGES = {
    "armhf": ("build-essential", "python3-dev", "libjpeg62-turbo-dev", "zlib1g-dev",
              "libfreetype-dev"),
}
"""PyPI has no 32-bit ARM wheel of Pillow, nor of librt (which mypy, a test tool, needs):
pip builds them from source here (a Pi on Raspberry Pi OS gets ARM wheels from its own
index instead, which this machine cannot reach). The same list as systemd/install.sh's."""

DESELECTED = {
    "appliance": "they boot Debian with systemd-nspawn, which cannot nest inside this "
                 "emulated container; the x86 job (.ci/run's first command) runs them",
    "browser": "Chromium crashes under qemu-user (its child processes die of SIGSEGV, "
               "--single-process of SIGTRAP after minutes: qemu-user lacks the ptrace and "
               "signal handling its sandbox and crash handler use), so chromedriver never "
               "answers; the x86 job runs them, and the page is the same JavaScript on a Pi",
    "case": "the printable enclosure is built on a desktop, never on a Pi: its CAD library "
            "(the case extra, manifold3d) is pulled into the test extra on x86_64 only; the "
            "x86 job runs them",
    "recognizer": "the radio voice's intelligibility is measured with pocketsphinx, an "
                  "offline recognizer (the test extra on x86_64 only: a 38 MB package with "
                  "its model, and minutes of decoding under emulation); the effect is the "
                  "same sox chain on a Pi, and the x86 job runs them",
    "pi_image": "they build the Pi image with mmdebstrap (whose arm64 root needs qemu-user, "
                "which cannot run inside this emulated container) and boot it in "
                "qemu-system-aarch64; the image is the same whichever machine built it, "
                "and the x86 job runs them",
}
"""Markers (pyproject.toml) the emulated job deselects, each with why: printed, never
silent. The rest of the suite runs."""
DESELECTED_PATHS = {
    "the print kit (board art, PDF sheets) is made and printed on a desktop, never on a Pi":
        ("tests/boardart/",),
    "the benches' own runs (timing, paired trees, the quick bench, the thinking bench) are "
    "a developer's tools on a desktop; the counted budgets stay here, as the bytes a rig "
    "holds are the Pi's":
        ("tests/bench/test_ai_benches.py", "tests/bench/test_bench_gate.py",
         "tests/bench/test_bench_outside_the_product.py", "tests/bench/test_bench_paired.py",
         "tests/bench/test_bench_quick.py", "tests/bench/test_journal_sync.py",
         "tests/bench/test_lean_start.py", "tests/bench/test_progress.py",
         "tests/bench/test_thinking_bench.py", "tests/bench/test_turnabout.py"),
    "the terminal emulator is the desktop's stand-in for the rig's hardware (cbrig "
    "emulate on a pty); the rig it drives is tested here through tests/rig":
        ("tests/rig/test_terminal_emulator.py",),
    "the Pi image is built on a Debian desktop (cbrig image build), not on a Pi":
        ("tests/image/test_disk_reproducible.py", "tests/image/test_layer.py"),
    "checks on the source text and the docs (ruff, mypy, layering, imports, changelog, "
    "the docs walk, .ci/run itself) judge the same files on any machine":
        ("tests/test_static.py", "tests/test_layering.py", "tests/test_imports_at_top.py",
         "tests/test_no_bare_timeouts.py", "tests/test_changelog.py",
         "tests/test_docs_walk.py", "tests/test_ci_run.py"),
}
"""Paths (files, or folders ending in /) the emulated job deselects (pytest --deselect,
so they count among the deselected), each group with why: printed, never silent. Every
one is the desktop's, not the Pi's, and the x86 job runs it; what a Pi runs stays here."""
DESELECT = " and ".join(f"not {marker}" for marker in DESELECTED)
DESELECT_PATHS = " ".join(f"--deselect {path}" for paths in DESELECTED_PATHS.values()
                          for path in paths)
WHY_DESELECTED_PATHS = "; ".join(f"{', '.join(paths)}: {why}"
                                 for why, paths in DESELECTED_PATHS.items())
WHY_DESELECTED = "; ".join(f"{marker} tests: {why}" for marker, why in DESELECTED.items())
CHECKOUT = "/root/cb-rig"
INNER = f"""
set -euo pipefail
cd {CHECKOUT}
phase() {{ printf '\\n== [%4ds] %s\\n' "$SECONDS" "$*"; }}
phase "$(uname -m): $(. /etc/os-release; echo "$PRETTY_NAME"), $(python3 --version)"
phase "README's install, with INSTALL.md's [pi] extra"
python3 -m venv .venv && .venv/bin/pip install -q -e '.[test,pi]'
phase "INSTALL.md's install: systemd/install.sh's virtualenv and pip install <checkout>[pi]"
systemd/install.sh --destdir /tmp/pi-root | grep -v '^skipped' | tail -n 4
/tmp/pi-root/opt/cbrig/venv/bin/python -c 'import lgpio, PIL, luma.oled, gpiozero, serial'
/tmp/pi-root/opt/cbrig/venv/bin/cbrig config check wiring/config.toml
phase "the suite, deselected: -m '{DESELECT}' ({WHY_DESELECTED})"
phase "and deselected by path, the desktop's: {WHY_DESELECTED_PATHS}"
chmod 711 /root  # the checkout is in /root: tests/update/test_not_root.py runs its venv as nobody
.venv/bin/python -m pytest -q -m '{DESELECT}' {DESELECT_PATHS}
phase "done"
"""


def inner(tests: list[str]) -> str:
    """The script run inside: the whole suite, or only `tests` (shell-quoted)."""
    if not tests:
        return INNER
    import shlex

    return INNER.replace(".venv/bin/python -m pytest -q -m", ".venv/bin/python -m pytest -q "
                         + shlex.join(tests) + " -m")


SUITE_TIMEOUT = 60 * 60
SLOWDOWN = 10
"""qemu-user translates every ARM instruction: CPU-bound Python runs about ten times as
long as natively. The suite's timeouts sized for a native machine scale by it
(tests/slowdown.py); a hang still fails, only later."""


def suite_recipe(arch: emulation.Arch) -> rootfs.Recipe:
    """The root file system the suite runs in for `arch`."""
    return rootfs.Recipe(arch=arch.debian,
                         packages=SUITE_PACKAGES + SOURCE_BUILD_PACKAGES.get(arch.debian, ()))


def required_tools(arch: emulation.Arch) -> dict[str, str]:
    """Every command (-> Debian package) this job needs on the host for `arch`."""
    return rootfs.build_tools(arch.debian) | emulation.tools(arch)


def fail(message: str) -> int:
    print(f"emulated suite: FAILED: {message}", file=sys.stderr, flush=True)
    return 1


def copy_checkout(root: Path) -> int:
    """The working tree (tracked and new files, not ignored ones) into the container."""
    listing = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                              "--exclude-standard"], cwd=REPO, capture_output=True, check=True)
    count = 0
    for raw in filter(None, listing.stdout.split(b"\0")):
        name = os.fsdecode(raw)
        source = REPO / name
        if not source.is_file():
            continue
        target = root / CHECKOUT.lstrip("/") / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(source.read_bytes())
        target.chmod(source.stat().st_mode & 0o777)
        count += 1
    return count


def nspawn_command(nspawn: str, root: Path, *argv: str) -> list[str]:
    environment = rootfs.passed_environment()
    return [nspawn, "--quiet", "--pipe", "--as-pid2", "--register=no", "--keep-unit",
            f"--directory={root}", f"--chdir={CHECKOUT}", "--setenv=CI=true",
            f"--setenv={slowdown.ENVIRONMENT}={SLOWDOWN}",
            *(f"--setenv={k}={v}" for k, v in environment.items()),
            *(f"--bind-ro={p}" for p in rootfs.local_find_links(environment)), *argv]


def run_streamed(command: list[str], timeout: float) -> tuple[int, list[str]]:
    """Run `command`, echoing its output as it comes; its exit code and last lines."""
    tail: deque[str] = deque(maxlen=400)
    deadline = time.monotonic() + timeout
    with subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, errors="replace") as process:
        assert process.stdout is not None
        for line in process.stdout:
            print(line, end="", flush=True)
            tail.append(line.rstrip("\n"))
            if time.monotonic() > deadline:
                process.kill()
                tail.append(f"(killed: still running after {timeout:.0f} s)")
                break
        code = process.wait()
    return code, list(tail)


def summary(lines: list[str]) -> str:
    """pytest's last line ("712 passed, 2 deselected in 301.2s") if it got that far."""
    pattern = re.compile(r"^=*\s*\d+ \w+.* in [\d.]+s")
    return next((line.strip("= ") for line in reversed(lines) if pattern.search(line)), "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("arch", choices=sorted(emulation.ARCHES))
    parser.add_argument("tests", nargs="*", help="only these test paths or node ids (a "
                        "developer's quick check of a few tests on the architecture; CI "
                        "names none and runs the whole suite)")
    args = parser.parse_args(argv)
    arch = emulation.ARCHES[args.arch]
    started = time.monotonic()
    print(f"emulated suite: {arch.debian} ({arch.machine}) under qemu-user", flush=True)

    if os.geteuid() != 0:
        return fail("needs root (mmdebstrap, systemd-nspawn and binfmt_misc)")
    tools, problem = find_commands(required_tools(arch))
    if problem:
        return fail(problem)
    try:
        print(f"emulation: {emulation.ensure_binfmt(arch)}", flush=True)
    except emulation.EmulationError as exc:
        return fail(f"this machine cannot emulate {arch.debian}: {exc}")

    recipe = suite_recipe(arch)
    cached = recipe.tarball().exists()
    try:
        tarball = rootfs.cached_tarball(recipe, tools["mmdebstrap"])
    except rootfs.RootfsError as exc:
        return fail(f"cannot build the {arch.debian} root file system: {exc}")
    built = time.monotonic()
    print(f"root file system: {tarball} ({'cached' if cached else 'built'} in "
          f"{built - started:.0f} s)", flush=True)
    root = rootfs.unpack(tarball)
    try:
        rootfs.copy_host_config(root)
        files = copy_checkout(root)
        print(f"checkout: {files} files copied to {CHECKOUT}", flush=True)
        probe = subprocess.run(nspawn_command(tools["systemd-nspawn"], root, "uname", "-m"),
                               capture_output=True, text=True, timeout=300, check=False)
        if probe.stdout.strip() != arch.machine:
            return fail(f"the {arch.debian} container does not run: `uname -m` said "
                        f"{probe.stdout.strip()!r} (exit {probe.returncode}) "
                        f"{probe.stderr.strip()[-600:]}")
        code, tail = run_streamed(
            nspawn_command(tools["systemd-nspawn"], root, "bash", "-c", inner(args.tests)),
            SUITE_TIMEOUT)
    finally:
        rootfs.remove(root)
    total = time.monotonic() - started
    result = summary(tail) or "no pytest summary"
    print(f"\nemulated suite: {arch.debian}: {result}; {total:.0f} s in all "
          f"(root file system {built - started:.0f} s)", flush=True)
    if code != 0:
        return fail(f"exit {code} inside the {arch.debian} container: {result}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
