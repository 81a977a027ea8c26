"""No class over 400 lines, no module over 700 (issue 45: the house reads top-down).

The limits are named here, once: `CLASS_LINES`, `MODULE_LINES` and the packages they hold
for (`PACKAGES`). A class counts from its ``class`` line to its last line (decorators
and the lines after it are not its); a module counts every line of its file. A part that
grows past a limit is split by idea (see README's Layout), not given a higher limit.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("rig", "cbrig", "engine", "hardware", "valueclass")
CLASS_LINES = 400
MODULE_LINES = 700


def oversized(path: Path, text: str) -> list[str]:
    """What in one module is over its limit, as "path: what N lines" lines."""
    found = []
    lines = len(text.splitlines())
    if lines > MODULE_LINES:
        found.append(f"{path}: module {lines} lines")
    for node in ast.walk(ast.parse(text, filename=str(path))):
        if isinstance(node, ast.ClassDef):
            assert node.end_lineno is not None
            size = node.end_lineno - node.lineno + 1
            if size > CLASS_LINES:
                found.append(f"{path}:{node.lineno}: class {node.name} {size} lines")
    return found


def test_no_class_or_module_over_its_limit() -> None:
    modules = [path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))]
    assert len(modules) > 100, "the walk found the packages"
    found = [line for path in modules
             for line in oversized(path.relative_to(ROOT), path.read_text(encoding="utf-8"))]
    assert not found, (f"over the limits (class {CLASS_LINES} lines, module {MODULE_LINES}); "
                       "split by idea:\n" + "\n".join(found))


def test_the_walk_sees_a_class_and_a_module_over_the_limits() -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(CLASS_LINES))
    big_class = f"class Big:\n{body}\n"
    assert oversized(Path("big.py"), big_class) == [f"big.py:1: class Big {CLASS_LINES + 1} lines"]
    nested = "def outer():\n" + "\n".join("    " + line for line in big_class.splitlines())
    assert [line.split(": ", 1)[1] for line in oversized(Path("n.py"), nested)] == [
        f"class Big {CLASS_LINES + 1} lines"], "a class inside a function counts too"
    assert oversized(Path("ok.py"), "class Small:\n" + "    x = 1\n" * (CLASS_LINES - 1)) == []
    long_module = "x = 1\n" * (MODULE_LINES + 1)
    assert oversized(Path("long.py"), long_module) == [f"long.py: module {MODULE_LINES + 1} lines"]
    assert oversized(Path("ok.py"), "x = 1\n" * MODULE_LINES) == []
