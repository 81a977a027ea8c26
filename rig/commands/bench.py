"""`cbrig bench [--quick] [--json]`: measure the performance budget (see bench/)."""

from __future__ import annotations

import argparse

from bench.cli import add_arguments as bench_arguments
from bench.cli import run as bench_run


def add_arguments(parser: argparse.ArgumentParser) -> None:
    bench_arguments(parser)


def run(args: argparse.Namespace) -> int:
    return bench_run(args)
