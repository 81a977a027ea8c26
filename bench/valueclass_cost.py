"""What a value class costs, in each form the project could use (docs/PERFORMANCE.md,
"Value classes per place"): ``python -m bench.valueclass_cost [N]``.

* definition: CPU time (``process_time``) to import a module of N classes of 4 fields
  (2 with defaults), median of 15 fresh interpreters, bytecode cached (as on an
  installed rig), twice: with only the form's support module imported before, and on
  the rig's real start path, after gpiozero (``hardware.pins.import_pin_module``),
  which imports ``dataclasses``, ``inspect`` and ``typing`` itself;
* support: the support module's own import, alone;
* per operation: ns, the best of 5 x 200,000 (``timeit``), for making an instance
  (positional, by name), comparing two, hashing one, reading a field.

Forms: ``typing.NamedTuple``; a plain ``__slots__`` class with hand-written
``__init__``/``__eq__``/``__hash__``/``__repr__`` (mutable: a frozen one would store
through ``object.__setattr__``); ``@dataclass(frozen=True, slots=True)``;
``@dataclass(frozen=True)``; ``@dataclass``; ``valueclass.Frozen`` and ``Record`` (the
shared ``__init__``), and a ``Frozen`` with its own ``__init__``.
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

FIELDS = "    a: int\n    b: str\n    c: float = 0.0\n    d: tuple[int, ...] = ()\n"

SLOTS_CLASS = '''class C{i}:
    __slots__ = ("a", "b", "c", "d")

    def __init__(self, a, b, c=0.0, d=()):
        self.a = a
        self.b = b
        self.c = c
        self.d = d

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.a, self.b, self.c, self.d) == (other.a, other.b, other.c, other.d)

    def __hash__(self):
        return hash((self.a, self.b, self.c, self.d))

    def __repr__(self):
        return f"C{i}(a={{self.a!r}}, b={{self.b!r}}, c={{self.c!r}}, d={{self.d!r}})"

'''

OWN_INIT_CLASS = '''class C{i}(Frozen):
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

FORMS: dict[str, tuple[str, str]] = {
    # form -> (support import, one class's text with {i})
    "NamedTuple": ("from typing import NamedTuple", "class C{i}(NamedTuple):\n" + FIELDS),
    "__slots__ class": ("", SLOTS_CLASS),
    "dataclass frozen slots": ("from dataclasses import dataclass",
                               "@dataclass(frozen=True, slots=True)\nclass C{i}:\n" + FIELDS),
    "dataclass frozen": ("from dataclasses import dataclass",
                         "@dataclass(frozen=True)\nclass C{i}:\n" + FIELDS),
    "dataclass": ("from dataclasses import dataclass", "@dataclass\nclass C{i}:\n" + FIELDS),
    "Frozen": ("from valueclass import Frozen", "class C{i}(Frozen):\n" + FIELDS),
    "Record": ("from valueclass import Record", "class C{i}(Record):\n" + FIELDS),
    "Frozen, own __init__": ("from valueclass import Frozen, set_field", OWN_INIT_CLASS),
}
SUPPORT = {"NamedTuple": "typing", "__slots__ class": "", "dataclass frozen slots": "dataclasses",
           "dataclass frozen": "dataclasses", "dataclass": "dataclasses", "Frozen": "valueclass",
           "Record": "valueclass", "Frozen, own __init__": "valueclass"}
GPIOZERO = "from hardware.pins import import_pin_module\nimport_pin_module('gpiozero')"
"""The rig's start path up to the pins: what is imported by then comes for free."""


def module_text(form: str, n: int) -> str:
    head, body = FORMS[form]
    return ("from __future__ import annotations\n" + head + "\n\n"
            + "".join(body.format(i=i) for i in range(n)))


def import_ms(directory: Path, before: str, module: str, runs: int = 15) -> float:
    """Median CPU ms of `import module` in a fresh interpreter after `before` ran."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(directory / "pycache")
    env["PYTHONPATH"] = os.pathsep.join([str(directory), str(Path(__file__).parents[1])])
    code = (f"import time\n{before}\nc = time.process_time()\n"
            f"import {module}\nprint(time.process_time() - c)")
    command = [sys.executable, "-c", code]
    subprocess.run(command, env=env, check=True, capture_output=True)  # writes the .pyc
    return statistics.median(
        float(subprocess.run(command, env=env, check=True, capture_output=True,
                             text=True).stdout) for _ in range(runs)) * 1000


def per_operation_ns(cls: Any) -> dict[str, float]:
    names = {"C": cls, "x": cls(1, "s"), "y": cls(1, "s")}
    statements = {"C(1, 's')": "C(1, 's')", "C(a=1, b='s', c=2.0)": "C(a=1, b='s', c=2.0)",
                  "x == y": "x == y", "hash(x)": "hash(x)", "x.a": "x.a"}
    if getattr(cls, "__hash__", None) is None:
        del statements["hash(x)"]
    return {label: min(timeit.repeat(stmt, globals=names, number=200_000, repeat=5))
            / 200_000 * 1e9 for label, stmt in statements.items()}


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    with tempfile.TemporaryDirectory() as temp:
        directory = Path(temp)
        modules = {}
        for number, form in enumerate(FORMS):
            (directory / f"m{number}.py").write_text(module_text(form, n), encoding="utf-8")
            modules[form] = f"m{number}"
        print(f"definition of {n} classes, CPU ms: support imported before | after gpiozero "
              "(the start path)")
        for form, module in modules.items():
            support = SUPPORT[form]
            alone = import_ms(directory, f"import {support}" if support else "", module)
            start = import_ms(directory, GPIOZERO + (f"\nimport {support}" if support else ""),
                              module)
            print(f"  {form:23} {alone:6.2f} | {start:6.2f}   ({start / n:.3f} a class)")
        print("support module alone, CPU ms | after gpiozero:")
        for support in ("dataclasses", "valueclass"):
            print(f"  {support:12} {import_ms(directory, 'import typing', support):6.2f} | "
                  f"{import_ms(directory, GPIOZERO, support):6.2f}")
        sys.path[:0] = [str(directory), str(Path(__file__).parents[1])]
        import importlib

        print("per operation, ns:")
        for form, module in modules.items():
            row = per_operation_ns(importlib.import_module(module).C0)
            print(f"  {form:23}", "  ".join(f"{k} {v:.0f}" for k, v in row.items()))


if __name__ == "__main__":
    main()
