"""`python -m bench [--quick] [--json]`: the same as `cbrig bench`."""

from __future__ import annotations

import argparse

from bench.cli import run
from rig.commands.bench import add_arguments


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench",
                                     description="measure the cb-rig performance budget")
    add_arguments(parser)
    return run(parser.parse_args())


if __name__ == "__main__":
    raise SystemExit(main())
