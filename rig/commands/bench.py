"""`cbrig bench [--quick] [--json] [--counted] [--paired [--against REF]]`: measure the
performance budget (see bench/ and docs/PERFORMANCE.md).

The benchmark code (bench/) stands above the rig: it imports the rig, the rig never
imports it (issue 45: no benchmark code in the product's import graph). This command
finds it by name when it runs, as the registry finds a game, so not even `cbrig bench
--help` loads it. It ships in the wheel all the same: the rig on a Pi is installed from
its wheel, and measuring the Pi (`cbrig bench --only calibration`, docs/PERFORMANCE.md)
is done there.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

BENCH_MODULE = "bench.cli"
"""Where the benchmarks' `run(args)` is, found by name when the command runs."""

SECTION_NAMES = ("calibration", "engine", "input_to_frame", "frame_render", "bus", "daemon",
                 "voice", "counted", "voice_pace")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quick", action="store_true",
                        help="short run (CI; and a shorter --paired)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--only", action="append", choices=SECTION_NAMES, default=None,
                        help="run only this section (repeatable); no target check "
                             "(the calibration always runs); voice_pace (the voice at "
                             "the table's pace, minutes) runs only when named")
    parser.add_argument("--counted", action="store_true",
                        help="only the counted budgets (bench/budgets.toml): instructions "
                             "and calls per engine step and per input, bus bytes, modules "
                             "and calls to READY; the same on any machine at any load")
    parser.add_argument("--paired", action="store_true",
                        help="the engine's speed as a ratio against a baseline, the two "
                             "trees turn about in one run (needs a git checkout)")
    parser.add_argument("--against", metavar="REF", default=None,
                        help="the baseline commit or tag of --paired (implies it; default: "
                             "the last release)")
    parser.add_argument("--pairs", type=int, default=None,
                        help="--paired: pairs of turns (default 8 quick, 14 full)")
    parser.add_argument("--threshold", type=float, default=None,
                        help="--paired: fail when the whole interval of the ratio is "
                             "below 1 - THRESHOLD (default 0.05)")
    parser.add_argument("--journal-dir", type=Path, default=None,
                        help="where the input-to-frame journal goes (default: the temp "
                             "dir; put it on the filesystem the rig's state lives on)")


def run(args: argparse.Namespace) -> int:
    try:
        bench = importlib.import_module(BENCH_MODULE)
    except ModuleNotFoundError as error:
        if error.name is None or BENCH_MODULE.split(".")[0] != error.name.split(".")[0]:
            raise
        print(f"cbrig bench: the benchmarks ({BENCH_MODULE}) are not installed: install "
              "cbrig from its wheel or run it from a checkout", file=sys.stderr)
        return 2
    return int(bench.run(args))
