"""`.ci/run`: the README's test command, unchanged, the arm64 job beside it and the Pi
image's Debian part started first; the run fails when any of them does, shows what each
said, and leaves no log file behind."""

from __future__ import annotations

import os
import subprocess
import tomllib
from pathlib import Path

from tests.ciscript import emulated_suite
from tests.slowdown import hang

ROOT = Path(__file__).resolve().parents[1]
RUN = ROOT / ".ci" / "run"


def _readme_test_command() -> str:
    readme = (ROOT / "README.md").read_text()
    return next(line for line in readme.splitlines()
                if line.startswith("python3 -m venv") and "pytest" in line)


def _commands() -> list[str]:
    """The script's command lines, without comments."""
    lines = [line.strip() for line in RUN.read_text().splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


def test_ci_runs_the_readme_test_command_unchanged() -> None:
    command = _readme_test_command()
    assert [line for line in _commands() if line.startswith(command)] == [
        f"{command} || x86=$?"]


def test_the_arm64_job_starts_before_the_test_command_and_is_waited_for() -> None:
    commands = _commands()
    started = commands.index('python3 .ci/emulated_suite.py arm64 >"$arm64_log" 2>&1 &')
    tested = next(i for i, line in enumerate(commands) if line.startswith(_readme_test_command()))
    assert started < tested < commands.index('wait "$arm64_job" || arm64=$?')


def test_the_image_part_starts_first_and_is_waited_for() -> None:
    commands = _commands()
    started = commands.index('python3 .ci/image_part.py >"$image_log" 2>&1 &')
    arm64 = commands.index('python3 .ci/emulated_suite.py arm64 >"$arm64_log" 2>&1 &')
    tested = next(i for i, line in enumerate(commands) if line.startswith(_readme_test_command()))
    assert started < arm64 < tested < commands.index('wait "$image_job" || image=$?')


def _outcome(x86_exit: int, arm64_exit: int, tmp_path: Path,
             image_exit: int = 0) -> subprocess.CompletedProcess[str]:
    """.ci/run's own lines with the jobs replaced by commands that exit as told; its
    temporary files go to tmp_path/tmp (TMPDIR)."""
    script = RUN.read_text()
    script = script.replace('cd "$(dirname "$0")/.."', f"cd {tmp_path}")
    script = script.replace("python3 .ci/emulated_suite.py arm64",
                            f"sh -c 'echo arm64 said this; exit {arm64_exit}'")
    script = script.replace("python3 .ci/image_part.py",
                            f"sh -c 'echo image part said this; exit {image_exit}'")
    script = script.replace(_readme_test_command(), f"sh -c 'exit {x86_exit}'")
    temp = tmp_path / "tmp"
    temp.mkdir(exist_ok=True)
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True,
                          timeout=hang(), check=False, env=dict(os.environ, TMPDIR=str(temp)))


def test_the_run_fails_when_any_job_fails_and_shows_each_job_s_output(tmp_path: Path) -> None:
    outcomes = {(x86, arm, image): _outcome(x86, arm, tmp_path, image)
                for x86 in (0, 1) for arm in (0, 3) for image in (0, 5)}
    assert {key: result.returncode != 0 for key, result in outcomes.items()} == {
        key: key != (0, 0, 0) for key in outcomes}
    assert all("arm64 said this" in result.stdout and "image part said this" in result.stdout
               for result in outcomes.values())
    assert ("the test command exited 1, the arm64 job 3, the image part 5"
            in outcomes[(1, 3, 5)].stdout)


def test_the_run_leaves_no_log_file_behind(tmp_path: Path) -> None:
    for x86, arm64 in ((0, 0), (1, 3)):
        _outcome(x86, arm64, tmp_path)
        assert list((tmp_path / "tmp").iterdir()) == []


def test_the_arm64_job_deselects_only_paths_that_exist_and_says_why_for_each() -> None:
    suite = emulated_suite()
    paths = [path for group in suite.DESELECTED_PATHS.values() for path in group]
    assert paths and all(why.strip() for why in suite.DESELECTED_PATHS)
    missing = [path for path in paths if not (ROOT / path).exists()
               or path.endswith("/") != (ROOT / path).is_dir()]
    assert missing == []
    pytest_line = next(line for line in suite.INNER.splitlines()
                       if line.startswith(".venv/bin/python -m pytest"))
    assert pytest_line.split()[-2 * len(paths):] == [
        word for path in paths for word in ("--deselect", path)]
    printed = next(line for line in suite.INNER.splitlines() if "deselected by path" in line)
    assert all(path in printed and why in printed
               for why, group in suite.DESELECTED_PATHS.items() for path in group)


def test_what_the_arm64_job_deselects_the_x86_job_runs() -> None:
    """The README's test command has no -m, -k, --deselect or --ignore of its own, and
    pytest's configuration adds none: the x86 job runs every test the arm64 job leaves."""
    command = _readme_test_command()
    pytest_args = command.split("pytest", 1)[1].split()
    assert pytest_args == ["-q"]
    addopts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"][
        "ini_options"]["addopts"].split()
    assert [word for word in addopts if word.split("=")[0] in (
        "-m", "-k", "--deselect", "--ignore", "--ignore-glob")] == []
