"""`.ci/run`: the README's test command, unchanged, and the arm64 job beside it; the run
fails when either does."""

from __future__ import annotations

import subprocess
from pathlib import Path

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


def _outcome(x86_exit: int, arm64_exit: int, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """.ci/run's own lines with both jobs replaced by commands that exit as told."""
    script = RUN.read_text()
    script = script.replace('cd "$(dirname "$0")/.."', f"cd {tmp_path}")
    script = script.replace("python3 .ci/emulated_suite.py arm64",
                            f"sh -c 'echo arm64 said this; exit {arm64_exit}'")
    script = script.replace(_readme_test_command(), f"sh -c 'exit {x86_exit}'")
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True,
                          timeout=hang(), check=False)


def test_the_run_fails_when_either_job_fails_and_shows_the_arm64_output(tmp_path: Path) -> None:
    outcomes = {(x86, arm): _outcome(x86, arm, tmp_path) for x86 in (0, 1) for arm in (0, 3)}
    assert {pair: result.returncode != 0 for pair, result in outcomes.items()} == {
        (0, 0): False, (0, 3): True, (1, 0): True, (1, 3): True}
    assert all("arm64 said this" in result.stdout for result in outcomes.values())
    assert "the test command exited 1, the arm64 job 3" in outcomes[(1, 3)].stdout
