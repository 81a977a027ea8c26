"""Imports sit at the top of rig/'s files, so the top of a file says what it needs
(issue 39). An import inside a function is allowed only for a reason measured or named
here, and every one is listed in one place, tests/lazy_imports.txt:

- ``start-up``: the file is loaded by ``cbrig run`` before READY=1, or by every command
  as it starts (the command line, each game's registration, the config check), measured
  here (the daemon is started and its imports read; the registry is asked for every
  game; a config is checked): what such a file imports it imports where it is needed,
  so each start loads only what it uses;
- ``library``: a library outside the project (Pillow, reportlab, manifold3d, numpy...):
  an optional extra, or one only the code that draws or prints needs;
- ``optional``: guarded by try/except (a part that may be missing);
- ``conditional``: the only statement of a branch that needs it;
- ``types``: for the type checker only;
- ``extra``: a module of the project that needs an optional extra (the case's CAD
  library), imported once the command has checked the extra is there;
- ``bench``: the benchmark code (bench/), imported only by the command that runs it, so
  that it is never in the product's import graph (issue 45).
"""

from __future__ import annotations

import ast
import os
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LIST = ROOT / "tests" / "lazy_imports.txt"
OWN = {"engine", "hardware", "rig", "valueclass", "bench"}
REASONS = {"start-up", "library", "optional", "conditional", "types", "extra", "bench"}
NEEDS_AN_EXTRA = ("rig.maker.case",)
"""Packages of the project whose modules import an optional extra at their top."""


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_module(dotted: str) -> bool:
    base = ROOT.joinpath(*dotted.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def _targets(node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    return [*(f"{base}.{a.name}" for a in node.names if _is_module(f"{base}.{a.name}")),
            base]


def _statement(node: ast.Import | ast.ImportFrom) -> str:
    names = ", ".join(f"{a.name} as {a.asname}" if a.asname else a.name for a in node.names)
    if isinstance(node, ast.Import):
        return f"import {names}"
    return f"from {'.' * node.level}{node.module or ''} import {names}"


def function_imports() -> list[tuple[str, str, ast.Import | ast.ImportFrom, list[ast.AST]]]:
    """(module, statement, node, enclosing nodes innermost first) for every import inside
    a function in rig/ and the shipped games (cbrig/games/)."""
    found = []
    for path in sorted([*(ROOT / "rig").rglob("*.py"), *(ROOT / "cbrig" / "games").rglob("*.py")]):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        parents: dict[int, ast.AST] = {}
        for parent in ast.walk(tree):
            for child in ast.iter_child_nodes(parent):
                parents[id(child)] = parent
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            chain: list[ast.AST] = []
            current: ast.AST = node
            while id(current) in parents:
                current = parents[id(current)]
                chain.append(current)
            if any(isinstance(c, (ast.FunctionDef, ast.AsyncFunctionDef)) for c in chain):
                found.append((_module_name(path), _statement(node), node, chain))
    return found


def listed() -> Counter[tuple[str, str, str]]:
    rows: Counter[tuple[str, str, str]] = Counter()
    for number, line in enumerate(LIST.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        module, statement, reason = (part.strip() for part in line.split("|"))
        assert reason in REASONS, f"{LIST.name}:{number}: no such reason {reason!r}"
        rows[(module, statement, reason)] += 1
    return rows


def test_every_import_inside_a_function_is_listed_with_its_reason() -> None:
    in_code = Counter((m, s) for m, s, _, _ in function_imports())
    in_list = Counter({(m, s): n for (m, s, _), n in listed().items()})
    missing = in_code - in_list
    stale = in_list - in_code
    assert not missing, ("imports inside functions that tests/lazy_imports.txt does not "
                         "list (move them to the top of the file, or list them with a "
                         f"reason): {sorted(missing)}")
    assert not stale, f"rows of tests/lazy_imports.txt no code has: {sorted(stale)}"


def _fits(reason: str, node: ast.Import | ast.ImportFrom, chain: list[ast.AST],
          starts: list[set[str]], module: str) -> bool:
    function = next(c for c in chain if isinstance(c, (ast.FunctionDef, ast.AsyncFunctionDef)))
    inner = chain[:chain.index(function)]
    targets = _targets(node)
    if reason == "types":
        return any(isinstance(c, ast.If) and "TYPE_CHECKING" in ast.dump(c.test) for c in inner)
    if reason == "optional":
        return any(isinstance(c, ast.Try) for c in inner)
    if reason == "extra":
        return all(t.startswith(NEEDS_AN_EXTRA) for t in targets)
    if reason == "bench":
        return module == "rig.commands.bench" and all(t.split(".")[0] == "bench"
                                                        for t in targets)
    if reason == "library":
        root = targets[-1].split(".")[0]
        return root not in OWN and root not in sys.stdlib_module_names
    if reason == "conditional":
        block = next((getattr(chain[0], f) for f in ("body", "orelse")
                      if any(s is node for s in getattr(chain[0], f, []))), [])
        return bool(inner) and all(isinstance(s, (ast.Import, ast.ImportFrom, ast.Pass))
                                   for s in block)
    return any(module in loaded for loaded in starts)  # start-up


@pytest.fixture(scope="module")
def loaded_by_ready() -> list[set[str]]:
    """What each measured start loads: `cbrig run` (mock hardware, with an OLED and
    without) by READY=1, and every command as it starts."""
    return [*(_loaded_by_ready(oled) for oled in (False, True)), _loaded_by_every_command()]


def _loaded_by_ready(oled: bool) -> set[str]:
    from bench.daemon import Workdir, start_daemon

    work = Workdir()
    try:
        work.reset_state()
        log = work.root / "importtime.txt"
        with open(log, "wb") as err:
            daemon = start_daemon(work, {"PYTHONPROFILEIMPORTTIME": "1"}, stderr=err,
                                  oled=oled)
            at_ready = os.path.getsize(log)
            daemon.stop()
        text = log.read_bytes()[:at_ready].decode("utf-8", "replace")
    finally:
        work.cleanup()
    found = {line.split("|", 2)[2].strip() for line in text.splitlines()
             if line.startswith("import time:") and "self [us]" not in line}
    assert "rig.cli" in found and "rig.core.daemon" in found
    return found


def _loaded_by_every_command() -> set[str]:
    """What every command loads before it starts its work: the command line and the
    registration of each game (its rules, screens and drawings load on first use)."""
    import subprocess

    code = ("import sys, contextlib, io, rig.cli\n"
            "from rig import registry\n"
            "for name in registry.names():\n"
            "    registry.entry(name)\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    rig.cli.main(['config', 'check', 'wiring/config.toml'])\n"
            "print(' '.join(sorted(sys.modules)))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, cwd=ROOT)
    return set(result.stdout.split())


def test_each_listed_reason_holds(loaded_by_ready: list[set[str]]) -> None:
    """A "start-up" import whose module READY loads anyway, a "library" that is the
    project's own: each is a reason that no longer holds, and the import moves up."""
    reasons = {(m, s): r for (m, s, r) in listed()}
    wrong = [f"{m}: {s} ({reasons[(m, s)]})" for m, s, node, chain in function_imports()
             if (m, s) in reasons
             and not _fits(reasons[(m, s)], node, chain, loaded_by_ready, m)]
    assert not wrong, f"reasons that do not hold (move these to the top): {wrong}"
