"""Where the commands write their files when not told: one folder, `./cbrig-out/`.

`cbrig print`, `cbrig board copy` / `show` and `cbrig case build` all default into it,
so a run in a checkout leaves nothing untracked but this folder, which the checkout's
.gitignore ignores (issue 47: PDFs, a board copy and the case's folder were left loose).
"""

from __future__ import annotations

import sys
from pathlib import Path

OUT_DIR = Path("cbrig-out")
"""Relative to the current directory."""


def cbrig_command() -> str:
    """The `cbrig` a hint should name: this interpreter's own (``.venv/bin/cbrig``) when it
    runs from a virtualenv, as typed from here; else ``cbrig``."""
    if sys.prefix == sys.base_prefix:
        return "cbrig"
    folder = Path(sys.prefix) / "bin"
    try:
        return f"{folder.relative_to(Path.cwd())}/cbrig"
    except ValueError:
        return f"{folder}/cbrig"


__all__ = ["OUT_DIR", "cbrig_command"]
