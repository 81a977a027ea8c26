"""No benchmark code in the product's import graph (issues 45 and 46): no module of the
product imports bench/ (bench stands above the rig; `cbrig bench` finds it by name when
it runs), and no command (nor `cbrig bench --help`) loads it but `cbrig bench` running."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

from bench.import_graph import build, top
from tests.slowdown import scaled

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("engine", "hardware", "rig", "valueclass", "cbrig")


def test_no_module_of_the_product_imports_bench() -> None:
    edges = build(packages=(*PRODUCT, "bench"))
    into_the_rig = [e for e in edges if top(e.importer) == "bench" and top(e.imported) == "rig"]
    assert into_the_rig, "bench imports no rig module: this test looks at nothing"
    arrows = [(e.importer, e.imported, e.scope) for e in edges
              if top(e.importer) in PRODUCT and top(e.imported) == "bench"]
    assert arrows == [], arrows


def test_the_bench_command_runs_the_benchmarks_it_names() -> None:
    from rig.commands import bench as command

    assert importlib.import_module(command.BENCH_MODULE).run is not None


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


def test_without_the_benchmarks_the_command_says_so_in_one_line(monkeypatch, capsys) -> None:
    import argparse

    from rig.commands import bench as command

    monkeypatch.setattr(command, "BENCH_MODULE", "no_such_bench_package.cli")
    assert command.run(argparse.Namespace()) == 2
    said = capsys.readouterr().err.splitlines()
    assert said == ["cbrig bench: the benchmarks (no_such_bench_package.cli) are not "
                    "installed: install cbrig from its wheel or run it from a checkout"]
