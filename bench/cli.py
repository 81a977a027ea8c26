"""What `python -m bench` and `cbrig bench` run (their arguments are rig/commands/bench.py's,
so that `cbrig bench --help` imports no benchmark code)."""

from __future__ import annotations

import argparse
import json
import sys

from rig.commands.bench import SECTION_NAMES, add_arguments

__all__ = ["SECTION_NAMES", "add_arguments", "run", "run_counted", "run_paired"]


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
