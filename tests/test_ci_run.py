"""`.ci/run`: the README's test command first, unchanged, then the arm64 job."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _commands(script: Path) -> list[str]:
    """The script's command lines, without comments, `set` and the `cd` to the checkout."""
    lines = [line.strip() for line in script.read_text().splitlines()]
    return [line for line in lines if line and not line.startswith(("#", "set ", "cd "))]


def test_ci_runs_the_readme_test_command_first_then_the_arm64_suite() -> None:
    readme = (ROOT / "README.md").read_text()
    test_command = next(line for line in readme.splitlines()
                        if line.startswith("python3 -m venv") and "pytest" in line)
    assert _commands(ROOT / ".ci" / "run") == [
        test_command, ".venv/bin/python .ci/emulated_suite.py arm64"]
