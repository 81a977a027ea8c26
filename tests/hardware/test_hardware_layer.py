"""hardware/ sits below the rig and beside the engine: it imports neither (not even inside
a function), so a driver can be tried, tested and reused without the games; the value
classes it shares with them live in `valueclass`, which imports only the standard
library. Read from the source (ast), so an import that only runs on some path counts."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def imported_modules(path: Path) -> set[str]:
    """Every module an import statement in ``path`` names, wherever it stands."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def imports_of(package: str) -> dict[str, set[str]]:
    return {str(path.relative_to(ROOT)): imported_modules(path)
            for path in sorted((ROOT / package).rglob("*.py"))}


def test_hardware_imports_neither_engine_nor_rig() -> None:
    upward = {path: sorted(name for name in names if name.split(".")[0] in ("engine", "rig"))
              for path, names in imports_of("hardware").items()}
    assert {path: names for path, names in upward.items() if names} == {}


def test_valueclass_imports_only_the_standard_library() -> None:
    for path, names in imports_of("valueclass").items():
        outside = sorted(name for name in names
                         if name.split(".")[0] not in sys.stdlib_module_names)
        assert outside == [], path


def test_the_check_sees_an_import_inside_a_function(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from engine.api import State\n    import rig.core.loop\n")
    assert imported_modules(module) == {"engine.api", "rig.core.loop"}
