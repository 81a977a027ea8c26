"""CI's own scripts (.ci/*.py) loaded as modules, for the tests that read their tables
(what the arm64 job deselects, which tools it needs): they are scripts, not a package."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def emulated_suite() -> ModuleType:
    """.ci/emulated_suite.py, loaded once per process."""
    spec = importlib.util.spec_from_file_location("emulated_suite",
                                                  ROOT / ".ci" / "emulated_suite.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("emulated_suite", module)
    spec.loader.exec_module(module)
    return module
