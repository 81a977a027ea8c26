"""No benchmark code in the product's import graph (issues 45 and 46): no module of the
product imports bench/ but `cbrig bench` itself, inside the function that runs it, and
no other command (nor `cbrig bench --help`) loads it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bench.import_graph import build, top
from tests.slowdown import scaled

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("engine", "hardware", "rig", "valueclass", "cbrig")


def test_only_the_bench_command_imports_bench_and_only_when_it_runs() -> None:
    arrows = [(e.importer, e.imported, e.scope) for e in build(packages=(*PRODUCT, "bench"))
              if top(e.importer) in PRODUCT and top(e.imported) == "bench"]
    assert arrows, "the bench command no longer imports bench: this test looks at nothing"
    assert {(importer, scope) for importer, _, scope in arrows} == {
        ("rig.commands.bench", "function")}, arrows


def test_commands_load_no_benchmark_code() -> None:
    code = ("import contextlib, io, sys, rig.cli\n"
            "for argv in (['--help'], ['bench', '--help'], ['simulate', '--help']):\n"
            "    with contextlib.redirect_stdout(io.StringIO()), "
            "contextlib.suppress(SystemExit):\n"
            "        rig.cli.main(argv)\n"
            "print(sorted(m for m in sys.modules if m == 'bench' or m.startswith('bench.')))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, cwd=ROOT, timeout=scaled(300))
    assert result.stdout.split() == ["[]"], result.stdout + result.stderr
