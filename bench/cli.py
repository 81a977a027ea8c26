"""Arguments shared by `python -m bench` and `cbrig bench`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

SECTION_NAMES = ("calibration", "engine", "input_to_frame", "frame_render", "bus", "daemon",
                 "voice", "voice_pace")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quick", action="store_true",
                        help="short run for CI (well under a minute)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--only", action="append", choices=SECTION_NAMES, default=None,
                        help="run only this section (repeatable); no target check "
                             "(the calibration always runs); voice_pace (the voice at "
                             "the table's pace, minutes) runs only when named")
    parser.add_argument("--journal-dir", type=Path, default=None,
                        help="where the input-to-frame journal goes (default: the temp "
                             "dir; put it on the filesystem the rig's state lives on)")


def run(args: argparse.Namespace) -> int:
    from bench import progress
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
