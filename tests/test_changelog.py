"""The version moves with the changelog: its top entry is the version pyproject.toml
declares and `cbrig --version` prints (issue 38: 0.1.0 since the start, no changelog)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from rig import version
from rig.cli import main

ROOT = Path(__file__).resolve().parents[1]


def test_the_changelog_s_top_entry_is_the_version_the_program_says(capsys) -> None:
    entries = re.findall(r"^## (\d+\.\d+\.\d+) — (\d{4}-\d{2}-\d{2})",
                         (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"), re.M)
    assert entries, "CHANGELOG.md has no '## X.Y.Z — YYYY-MM-DD' entry"
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert entries[0][0] == declared
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"cbrig {declared}" == f"cbrig {version()}"
    dates = [date for _, date in entries]
    assert dates == sorted(dates, reverse=True), "newest entry first"
