"""Arguments shared by `python -m bench` and `cbrig bench`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

SECTION_NAMES = ("calibration", "engine", "input_to_frame", "frame_render", "bus", "daemon",
                 "voice", "counted", "voice_pace")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quick", action="store_true",
                        help="short run for CI (well under a minute)")
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
    from bench import progress

    if getattr(args, "counted", False):
        return run_counted(args)
    if getattr(args, "paired", False) or getattr(args, "against", None):
        return run_paired(args)
    from bench.runner import run as run_bench
    from bench.runner import summary

    if sys.stderr.isatty() and not args.json:
        progress.start()  # lines on stderr while it runs: a full run takes minutes
    try:
        report = run_bench(quick=args.quick, only=args.only, journal_dir=args.journal_dir)
    finally:
        progress.stop()
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(summary(report))
    return int(report["gate"]["exit_code"])


def run_counted(args: argparse.Namespace) -> int:
    from bench import counted

    counts = counted.measure()
    verdict = counted.judge(counts, counted.load_budgets())
    if args.json:
        print(json.dumps({"counted": counts, "counted_budgets": verdict}, indent=2))
    else:
        print("\n".join(counted.summary_lines(verdict)))
    return int(verdict["exit_code"])


def run_paired(args: argparse.Namespace) -> int:
    from bench import progress, turnabout

    if sys.stderr.isatty() and not args.json:
        progress.start()
    try:
        report = turnabout.run(args.against, quick=args.quick, pairs=args.pairs,
                               threshold=turnabout.DEFAULT_THRESHOLD if args.threshold is None
                               else args.threshold)
    except turnabout.BaselineError as error:
        print(f"cbrig bench --paired: {error}", file=sys.stderr)
        return 2
    finally:
        progress.stop()
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print("\n".join(turnabout.summary_lines(report)))
    return int(report["exit_code"])
