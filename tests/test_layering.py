"""The layers of the checkout, enforced: which package may import which, and no cycles.

The rules, over every import statement (function-level and ``if TYPE_CHECKING:`` ones
included; cycles count only imports that run):

- the house reads top-down (issue 45): bench/ > cbrig/ (the game API, its battery and the
  shipped games, cbrig/games/) > rig/ > engine/, hardware/ > valueclass/; every import
  between packages runs down these storeys (bench/import_graph.py's ``STOREYS``): the rig
  finds the games by name, as it finds an installed one, and never imports them;
- ``engine/`` (the rules) imports neither ``hardware/`` nor ``rig/``;
- ``hardware/`` (the drivers) imports neither ``engine/`` nor ``rig/``;
- no two rooms of rig/ (its subpackages; its loose modules are one) import each other
  at run time;
- no import cycle among the modules of engine/, hardware/, rig/ and cbrig/.

A small AST walk (bench/import_graph.py), not import-linter: the rules run in the arm64
CI job under qemu, where every extra wheel is a download (import-linter needs grimp, a
compiled extension); the cycle rule is over modules across packages, which
import-linter's contracts do not state (its acyclic contract covers siblings of one
package); and the walk is what the closing note's before/after graph is drawn with, so the
test and the measurement cannot disagree. A failure names the file, line, import and rule.
"""

from __future__ import annotations

from pathlib import Path

from bench.import_graph import (
    CHECKOUT,
    Edge,
    build,
    cycle_edges,
    cycles,
    edges_of,
    module_files,
    room_of,
    top,
    upward,
)

EDGES = build()
FILES = module_files()


def _where(edge: Edge, rule: str) -> str:
    path = FILES[edge.importer].relative_to(CHECKOUT)
    return f"{path}:{edge.line}: {edge.importer} imports {edge.imported} ({edge.scope}): {rule}"


def _forbidden(source: str, targets: tuple[str, ...], rule: str) -> list[str]:
    return [_where(e, rule) for e in EDGES
            if top(e.importer) == source and top(e.imported) in targets]


def test_every_arrow_between_packages_runs_down_the_storeys() -> None:
    assert {top(m) for m in FILES} >= {"rig", "cbrig", "engine", "hardware", "valueclass"}
    assert any(top(e.importer) == "cbrig" and top(e.imported) == "rig" for e in EDGES), \
        "cbrig imports no rig module: the walk does not see cbrig/"
    rule = "the house reads top-down: bench > cbrig > rig > engine, hardware > valueclass"
    found = [_where(e, rule) for e in upward(EDGES)]
    assert found == [], "\n".join(found)


def test_upward_sees_an_arrow_that_runs_back_up() -> None:
    assert upward([Edge("rig.registry", "cbrig.games.tenfour", 1, "function"),
                   Edge("engine.api", "hardware.events", 2, "module"),
                   Edge("cbrig.game", "rig.gametype", 3, "module")]) == [
        Edge("rig.registry", "cbrig.games.tenfour", 1, "function"),
        Edge("engine.api", "hardware.events", 2, "module")]


def test_no_two_rig_rooms_import_each_other_at_run_time() -> None:
    between: dict[tuple[str, str], list[Edge]] = {}
    for e in EDGES:
        if e.runs and top(e.importer) == top(e.imported) == "rig" \
                and room_of(e.importer) != room_of(e.imported):
            between.setdefault((room_of(e.importer), room_of(e.imported)), []).append(e)
    found = [_where(e, f"rooms {a} and {b} import each other")
             for (a, b), edges in sorted(between.items()) if (b, a) in between for e in edges]
    assert found == [], "\n".join(found)


def test_engine_imports_neither_hardware_nor_rig() -> None:
    found = _forbidden("engine", ("hardware", "rig"), "engine/ imports neither hardware/ nor rig/")
    assert found == [], "\n".join(found)


def test_hardware_imports_neither_engine_nor_rig() -> None:
    found = _forbidden("hardware", ("engine", "rig"), "hardware/ imports neither engine/ nor rig/")
    assert found == [], "\n".join(found)


def test_no_import_cycle() -> None:
    found = [f"{_where(e, 'no import cycle')} [cycle of {len(component)}: "
             f"{', '.join(component)}]"
             for component in cycles(EDGES) for e in cycle_edges(EDGES, component)]
    assert found == [], "\n".join(found)


# -- the walk itself: what it must see, so a rule above cannot pass by seeing nothing ------


def _tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_the_walk_sees_function_level_relative_and_type_only_imports(tmp_path: Path) -> None:
    _tree(tmp_path, {
        "rig/__init__.py": "",
        "rig/a.py": "from typing import TYPE_CHECKING\n"
                    "if TYPE_CHECKING:\n    from rig.c import C\n"
                    "def f():\n    from . import b\n",
        "rig/b.py": "import rig.a\n",
        "rig/c.py": "from rig.a import f\n",
        "hardware/__init__.py": "",
        "hardware/d.py": "def g():\n    from engine.x import thing\n",
        "engine/__init__.py": "",
        "engine/x.py": "thing = 1\n",
    })
    modules = module_files(tmp_path)
    edges = [e for name, path in modules.items() for e in edges_of(name, path, modules)]
    assert sorted(edges) == sorted([
        Edge("rig.a", "rig.c", 3, "type-only"),
        Edge("rig.a", "rig.b", 5, "function"),
        Edge("rig.b", "rig.a", 1, "module"),
        Edge("rig.c", "rig.a", 1, "module"),
        Edge("hardware.d", "engine.x", 2, "function"),
    ])
    # a -> b runs (in a function) and closes a cycle; a -> c is for types only and does not
    assert cycles(edges) == [["rig.a", "rig.b"]]


def test_the_running_rig_imports_nothing_of_the_desktop() -> None:
    """rig/desktop/ (the emulated rig, the terminal) stands on rig/core/ (the running
    rig), never the other way (issue 45: the autopilot took the emulated rig's class; it
    now plays any rig with a session, a controller and a loop)."""
    rule = "rig.core imports nothing of rig.desktop"
    found = [_where(e, rule) for e in EDGES
             if e.importer.startswith("rig.core.") and e.imported.startswith("rig.desktop")]
    assert found == [], "\n".join(found)
