"""`cbrig bench [--quick] [--json] [--counted] [--paired [--against REF]]`: measure the
performance budget (see bench/ and docs/PERFORMANCE.md).

The benchmark code (bench/) is imported only when the command runs: it is never in the
product's import graph (issue 45), not even for `cbrig bench --help`. It ships in the
wheel all the same: the rig on a Pi is installed from its wheel, and measuring the Pi
(`cbrig bench --only calibration`, docs/PERFORMANCE.md) is done there.
"""

from __future__ import annotations

import argparse
from pathlib import Path

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
    from bench.cli import run as bench_run

    return bench_run(args)
