"""`cbrig bench [--quick] [--json]`: measure the performance budget (see bench/)."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from bench.cli import add_arguments as bench_arguments

    bench_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from bench.cli import run as bench_run

    return bench_run(args)
