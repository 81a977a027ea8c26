"""Pillow 14 removes ``Image.getdata()``; luma's drivers still call it.

The cap in pyproject.toml keeps a fresh install on a Pillow luma can draw with, and the
warning filter there hides luma's own deprecation warnings only. These tests keep both
honest: the cap stays while the installed luma calls ``getdata``, and the rig's own code
never calls it (the filter would not hide that: it names luma's modules only).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import luma.core
import luma.oled
import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
GETDATA = re.compile(r"\.getdata\(")


def _pillow_requirement() -> str:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pillow = [d for d in project["dependencies"] if d.lower().startswith("pillow")]
    assert len(pillow) == 1, pillow
    return pillow[0]


def _calls_getdata(package: object) -> list[str]:
    folder = Path(getattr(package, "__file__", "")).parent
    return [str(path.relative_to(folder.parent)) for path in sorted(folder.rglob("*.py"))
            if GETDATA.search(path.read_text(encoding="utf-8"))]


def test_pillow_is_capped_below_14_while_luma_calls_getdata() -> None:
    """(When a luma release stops calling it, this passes either way: lift the cap and
    the filter then.)"""
    callers = _calls_getdata(luma.oled) + _calls_getdata(luma.core)
    requirement = _pillow_requirement()
    assert not callers or "<14" in requirement.replace(" ", ""), (
        f"luma still calls Image.getdata() ({', '.join(callers)}), which Pillow 14 "
        f"removes: keep pyproject's Pillow cap below 14 (it says {requirement!r})")


@pytest.mark.parametrize("folder", ["engine", "hardware", "rig", "bench"])
def test_the_rigs_own_code_does_not_call_getdata(folder: str) -> None:
    callers = [str(p.relative_to(ROOT)) for p in sorted((ROOT / folder).rglob("*.py"))
               if GETDATA.search(p.read_text(encoding="utf-8"))]
    assert callers == [], f"Image.getdata() goes in Pillow 14: {callers}"


def test_the_warning_filter_hides_only_luma(recwarn: pytest.WarningsRecorder) -> None:
    """A getdata() call from outside luma still warns under the project's filters."""
    image = Image.new("1", (2, 2))
    getdata = getattr(image, "getdata")  # noqa: B009 - the deprecated call itself
    getdata()
    warned = any("getdata" in str(w.message) for w in recwarn.list)
    assert warned == hasattr(image, "get_flattened_data")  # deprecated from Pillow 12.1
