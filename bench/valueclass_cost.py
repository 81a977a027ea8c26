"""What a value class costs, `@dataclass` against `valueclass.Frozen`/`Record`
(docs/PERFORMANCE.md, "Value classes"): `python -m bench.valueclass_cost [N]`.

* import: CPU time (`process_time`) to import a module of N classes of 4 fields (2 with
  defaults), its support module (`dataclasses`, `valueclass`) imported already; median
  of 15 fresh interpreters, bytecode cached (as on an installed rig);
* per operation: ns, the best of 5 x 200,000 (`timeit`), for creating an instance
  (positional, by name), comparing two, hashing one, reading a field.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import timeit
from pathlib import Path
from typing import Any

KINDS = {
    "dataclass frozen": ("from dataclasses import dataclass", "@dataclass(frozen=True)\n", ""),
    "dataclass": ("from dataclasses import dataclass", "@dataclass\n", ""),
    "Frozen": ("from valueclass import Frozen", "", "(Frozen)"),
    "Record": ("from valueclass import Record", "", "(Record)"),
}
OWN_INIT = '''
from valueclass import Frozen, set_field

class C0(Frozen):
    __slots__ = ("a", "b", "c", "d")
    a: int
    b: str
    c: float
    d: tuple[int, ...]

    def __init__(self, a: int, b: str, c: float = 0.0, d: tuple[int, ...] = ()) -> None:
        set_field(self, "a", a)
        set_field(self, "b", b)
        set_field(self, "c", c)
        set_field(self, "d", d)
'''


def module_text(kind: str, n: int) -> str:
    head, decorator, base = KINDS[kind]
    classes = "".join(f"{decorator}class C{i}{base}:\n    a: int\n    b: str\n"
                      f"    c: float = 0.0\n    d: tuple[int, ...] = ()\n\n" for i in range(n))
    return f"from __future__ import annotations\n{head}\n\n{classes}"


def import_ms(directory: Path, support: str, module: str, runs: int = 15) -> float:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(directory / "pycache")
    env["PYTHONPATH"] = os.pathsep.join([str(directory), str(Path(__file__).parents[1])])
    code = (f"import time, typing\nimport {support}\nc = time.process_time()\n"
            f"import {module}\nprint(time.process_time() - c)")
    command = [sys.executable, "-c", code]
    subprocess.run(command, env=env, check=True, capture_output=True)  # writes the .pyc
    return statistics.median(
        float(subprocess.run(command, env=env, check=True, capture_output=True,
                             text=True).stdout) for _ in range(runs)) * 1000


def per_operation_ns(cls: Any) -> dict[str, float]:
    names = {"C": cls, "x": cls(1, "s"), "y": cls(1, "s")}
    statements = {"C(1, 's')": "C(1, 's')", "C(a=1, b='s', c=2.0)": "C(a=1, b='s', c=2.0)",
                  "x == y": "x == y", "x.a": "x.a"}
    if getattr(cls, "__hash__", None) is not None:
        statements["hash(x)"] = "hash(x)"
    return {label: min(timeit.repeat(stmt, globals=names, number=200_000, repeat=5))
            / 200_000 * 1e9 for label, stmt in statements.items()}


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    with tempfile.TemporaryDirectory() as temp:
        directory = Path(temp)
        modules = {}
        for number, kind in enumerate(KINDS):
            (directory / f"m{number}.py").write_text(module_text(kind, n), encoding="utf-8")
            modules[kind] = f"m{number}"
        (directory / "m_own.py").write_text(OWN_INIT, encoding="utf-8")
        print(f"import of a module of {n} classes, CPU ms (per class):")
        for kind, module in modules.items():
            support = "dataclasses" if kind.startswith("dataclass") else "valueclass"
            ms = import_ms(directory, support, module)
            print(f"  {kind:17} {ms:6.2f} ({ms / n:.3f})")
        print(f"  support module: dataclasses {import_ms(directory, 'typing', 'dataclasses'):.2f}"
              f", valueclass {import_ms(directory, 'typing', 'valueclass'):.2f}")
        sys.path[:0] = [str(directory), str(Path(__file__).parents[1])]
        import importlib

        print("per operation, ns:")
        for kind, module in [*modules.items(), ("Frozen, own __init__", "m_own")]:
            row = per_operation_ns(importlib.import_module(module).C0)
            print(f"  {kind:21}", "  ".join(f"{k} {v:.0f}" for k, v in row.items()))


if __name__ == "__main__":
    main()
