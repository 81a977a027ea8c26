"""The static checks the developers' guide asks for, run by the suite so CI enforces them.

ruff over the whole checkout, and mypy with pyproject's configuration (strict on
``cbrig/``, ``engine/``, ``hardware/`` and ``rig/``). A new ``type: ignore`` in cbrig/,
rig/ or hardware/, an untyped public function or a lint slip fails CI, not only a
reviewer's eye.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[1]
TYPED_PACKAGES = ("cbrig", "engine", "hardware", "rig")


def _run(*args: str, cwd: Path = CHECKOUT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=cwd, capture_output=True,
                          text=True, check=False)


def test_ruff_finds_nothing() -> None:
    result = _run("ruff", "check", "--no-cache", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_packages_type_check(tmp_path: Path) -> None:
    result = _run("mypy", "--cache-dir", str(tmp_path / "mypy-cache"), *TYPED_PACKAGES)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success" in result.stdout


def test_no_type_ignore_in_rig_or_hardware() -> None:
    found = [f"{path.relative_to(CHECKOUT)}:{number}"
             for package in ("cbrig", "rig", "hardware")
             for path in sorted((CHECKOUT / package).rglob("*.py"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if "type: ignore" in line]
    assert found == []
