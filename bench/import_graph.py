"""Who imports whom among the rig's own packages, found by reading the source, not by running it.

    python -m bench.import_graph                 # the report: cycles and the layering arrows
    python -m bench.import_graph --json          # the whole graph, one edge per import statement

Every ``import`` statement counts, wherever it sits: at module level, inside a function (the
rig defers heavy imports that way, and a deferred import still closes a cycle at run time),
or under ``if TYPE_CHECKING:`` (marked ``type-only``: it never runs, so cycles leave it out,
but a layer that names another layer in its types still depends on it). Imports built from
strings (``importlib.import_module(f"...")``, entry points) are not seen: they are how a
registry finds its games on purpose. Importing ``a.b.c`` also runs ``a/b/__init__.py``;
that implicit arrow is left out (as grimp does), or every package whose ``__init__`` imports
one of its own modules would be a cycle.

tests/test_layering.py holds the rules over this graph; this module only builds and prints it.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Literal, NamedTuple

CHECKOUT = Path(__file__).resolve().parents[1]
LAYERED = ("engine", "hardware", "rig", "valueclass", "cbrig")
"""The packages whose modules are nodes; an import of anything else (stdlib, PIL) is no arrow."""

STOREYS: dict[str, int] = {"valueclass": 0, "engine": 1, "hardware": 1, "rig": 2, "cbrig": 3,
                           "bench": 4}
"""The house top-down (issue 45): each package imports only the ones on a lower storey.
cbrig (the game API, its battery and the shipped games in cbrig/games/) stands on the rig,
which finds the games by name; bench/ stands on all of them and nothing imports it."""

Scope = Literal["module", "function", "type-only"]


class Edge(NamedTuple):
    importer: str
    imported: str
    line: int
    scope: Scope

    @property
    def runs(self) -> bool:
        """Whether this import executes when the program runs (type-only ones never do)."""
        return self.scope != "type-only"


def module_files(root: Path = CHECKOUT, packages: Sequence[str] = LAYERED) -> dict[str, Path]:
    """Every module of ``packages`` under ``root``, by dotted name (a package by its own name)."""
    found: dict[str, Path] = {}
    for package in packages:
        base = root / package
        if not (base / "__init__.py").is_file():
            continue
        for path in sorted(base.rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST) -> Iterator[tuple[ast.Import | ast.ImportFrom, Scope]]:
    """Each import statement with where it sits; a function inside a TYPE_CHECKING block
    cannot happen, so type-only wins over function."""
    def walk(node: ast.AST, scope: Scope) -> Iterator[tuple[ast.Import | ast.ImportFrom, Scope]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                yield child, scope
            elif isinstance(child, ast.If) and _is_type_checking(child.test):
                for part in child.body:
                    yield from walk(ast.Module(body=[part], type_ignores=[]), "type-only")
                for part in child.orelse:
                    yield from walk(ast.Module(body=[part], type_ignores=[]), scope)
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                yield from walk(child, "type-only" if scope == "type-only" else "function")
            else:
                yield from walk(child, scope)
    yield from walk(tree, "module")


def _base(importer: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module a ``from`` import names before its ``import`` list."""
    if node.level == 0:
        return node.module or ""
    parts = importer.split(".")
    if not is_package:
        parts = parts[:-1]
    parts = parts[:len(parts) - (node.level - 1)]
    return ".".join([*parts, *([node.module] if node.module else [])])


def _known(name: str, modules: dict[str, Path]) -> str | None:
    """``name`` if it is a module, else its longest prefix that is one (an attribute's home)."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def edges_of(importer: str, path: Path, modules: dict[str, Path]) -> Iterator[Edge]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    for node, scope in _imports(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = _base(importer, is_package, node)
            targets = [f"{base}.{alias.name}" if alias.name != "*" else base
                       for alias in node.names]
        known = dict.fromkeys(_known(target, modules) for target in targets)
        for module in known:
            if module is not None and module != importer:
                yield Edge(importer, module, node.lineno, scope)


def build(root: Path = CHECKOUT, packages: Sequence[str] = LAYERED) -> list[Edge]:
    """One edge per (statement, imported module) over every module of ``packages``."""
    modules = module_files(root, packages)
    return [edge for name, path in modules.items() for edge in edges_of(name, path, modules)]


def cycles(edges: Iterable[Edge]) -> list[list[str]]:
    """The strongly connected components with more than one module, over imports that run.

    Tarjan's algorithm, iterative so a deep package cannot hit the recursion limit."""
    graph: dict[str, set[str]] = {}
    for edge in edges:
        if edge.runs:
            graph.setdefault(edge.importer, set()).add(edge.imported)
            graph.setdefault(edge.imported, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def cycle_edges(edges: Sequence[Edge], component: Sequence[str]) -> list[Edge]:
    """The imports that run between members of one cycle: the statements to cut."""
    members = set(component)
    return [e for e in edges if e.runs and e.importer in members and e.imported in members]


def top(module: str) -> str:
    return module.split(".", 1)[0]


def game_names(root: Path = CHECKOUT) -> list[str]:
    """The shipped games: the engine's subpackages that have an ``info`` module."""
    return sorted(p.parent.name for p in (root / "engine").glob("*/info.py"))


def game_of(module: str, games: Sequence[str]) -> str | None:
    """Which game a module belongs to: its folder ``cbrig.games.<name>`` (``rig.games.<name>``
    before issue 45 moved them above the rig), or (the layout
    before game folders) a name part such as ``view_tenfour`` or ``boardart.bumpem``."""
    parts = module.split(".")
    if parts[0] not in ("rig", "cbrig"):
        return None
    if len(parts) > 2 and parts[1] == "games":
        return parts[2]
    if parts[0] != "rig":
        return None
    for part in parts[1:]:
        for game in games:
            if re.search(rf"(^|_){game}($|_)", part):
                return game
    return None


def upward(edges: Iterable[Edge]) -> list[Edge]:
    """The arrows between packages that do not run down the storeys of :data:`STOREYS`."""
    return [e for e in edges if top(e.importer) != top(e.imported)
            and STOREYS.get(top(e.importer), 0) <= STOREYS.get(top(e.imported), 0)]


def arrows(edges: Iterable[Edge], source: str, target: str) -> list[Edge]:
    return [e for e in edges if top(e.importer) == source and top(e.imported) == target]


def _line(edge: Edge) -> str:
    return f"  {edge.importer}:{edge.line} -> {edge.imported} ({edge.scope})"


def report(edges: list[Edge], root: Path = CHECKOUT) -> str:
    modules = module_files(root)
    games = game_names(root)
    out = [f"{len(modules)} modules, {len(edges)} import arrows "
           f"({sum(e.scope == 'module' for e in edges)} module-level, "
           f"{sum(e.scope == 'function' for e in edges)} in functions, "
           f"{sum(e.scope == 'type-only' for e in edges)} type-only)", ""]
    found = cycles(edges)
    out.append(f"cycles (strongly connected components over imports that run): {len(found)}")
    for component in found:
        out.append(f"- {len(component)} modules: {', '.join(component)}")
        out.extend(_line(e) for e in cycle_edges(edges, component))
    for source, targets in (("hardware", ("engine", "rig")), ("engine", ("rig", "hardware"))):
        for target in targets:
            found_arrows = arrows(edges, source, target)
            out.append("")
            out.append(f"{source} -> {target}: {len(found_arrows)}")
            out.extend(_line(e) for e in found_arrows)
    up = upward(edges)
    out.append("")
    out.append(f"arrows between packages that run back up (bench > cbrig > rig > engine, "
               f"hardware > valueclass): {len(up)}")
    out.extend(_line(e) for e in up)
    into_games = [e for e in edges if top(e.importer) == "rig"
                  and game_of(e.importer, games) is None
                  and game_of(e.imported, games) is not None]
    out.append("")
    out.append(f"shared rig -> game-specific rig modules ({', '.join(games)}): {len(into_games)}")
    out.extend(_line(e) for e in into_games)
    out.append("")
    out.append(rooms_report(edges, root).rstrip("\n"))
    return "\n".join(out) + "\n"


def room_of(module: str, root: Path = CHECKOUT) -> str:
    """The room of a rig module: ``rig.<package>`` for a module in a subpackage of rig/,
    else ``rig`` (a module directly in rig/, shared by the rooms); rig/cli.py is the
    command line's."""
    if module == "rig.cli":  # the command line: the top of rig.commands, not shared
        return "rig.commands"
    parts = module.split(".")
    return ".".join(parts[:2]) if len(parts) > 2 or (
        len(parts) == 2 and (root / "rig" / parts[1]).is_dir()) else parts[0]


def floors(edges: Iterable[Edge], modules: Iterable[str]) -> dict[str, int]:
    """Each module's floor: 0 for one that imports nothing of the graph at run time, else
    one above the highest it imports (the graph has no cycle: ``cycles`` says)."""
    imports: dict[str, set[str]] = {m: set() for m in modules}
    for edge in edges:
        if edge.runs and edge.importer in imports and edge.imported in imports:
            imports[edge.importer].add(edge.imported)
    floor: dict[str, int] = {}

    def of(module: str, seen: frozenset[str] = frozenset()) -> int:
        if module not in floor:
            below = [of(m, seen | {module}) for m in imports[module] if m not in seen]
            floor[module] = 1 + max(below) if below else 0
        return floor[module]

    for module in imports:
        of(module)
    return floor


def rooms_report(edges: list[Edge], root: Path = CHECKOUT) -> str:
    """rig/ as rooms: how many modules sit directly in rig/, each room's size, the floors
    of its module graph, and the arrows between rooms (both ways named)."""
    modules = [m for m in module_files(root) if top(m) == "rig"]
    rooms: dict[str, int] = {}
    for module in modules:
        rooms[room_of(module, root)] = rooms.get(room_of(module, root), 0) + 1
    rig_edges = [e for e in edges if e.runs and top(e.importer) == top(e.imported) == "rig"]
    between: dict[tuple[str, str], int] = {}
    for edge in rig_edges:
        pair = (room_of(edge.importer, root), room_of(edge.imported, root))
        if pair[0] != pair[1]:
            between[pair] = between.get(pair, 0) + 1
    both = sorted({tuple(sorted(p)) for p in between if (p[1], p[0]) in between})
    height = max(floors(rig_edges, modules).values(), default=-1) + 1
    out = [f"rig/: {len(modules)} modules, {rooms.get('rig', 0)} directly in rig/, "
           f"{len(rooms) - ('rig' in rooms)} rooms, {height} floors, "
           f"{sum(between.values())} arrows between rooms ({len(between)} pairs), "
           f"{len(both)} pairs of rooms importing each other"]
    out += [f"  {room}: {count} modules" for room, count in sorted(rooms.items())]
    out += [f"  {a} <-> {b}: {between[(a, b)]} and {between[(b, a)]}" for a, b in both]
    return "\n".join(out) + "\n"


def graph_json(edges: list[Edge], root: Path = CHECKOUT) -> str:
    modules = module_files(root)
    return json.dumps({
        "modules": {name: sorted({e.imported for e in edges if e.importer == name})
                    for name in modules},
        "edges": [edge._asdict() for edge in edges],
        "cycles": cycles(edges),
    }, indent=1) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.import_graph",
                                     description="the import graph of engine/, hardware/, rig/")
    parser.add_argument("--json", action="store_true", help="the whole graph as JSON")
    parser.add_argument("--root", type=Path, default=CHECKOUT, help="the checkout to read")
    args = parser.parse_args(argv)
    edges = build(args.root)
    sys.stdout.write(graph_json(edges, args.root) if args.json else report(edges, args.root))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
