"""`cbrig run`: the daemon (see rig.core.daemon)."""

from __future__ import annotations

import argparse

from rig.commands._config import add_config_argument, command_config
from rig.core.daemon import run_daemon
from rig.logs import setup_logging


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_argument(parser)
    parser.add_argument("--autoplay", type=int, default=None, metavar="SEED",
                        help=argparse.SUPPRESS)
    parser.add_argument("--crash-at", type=int, default=None, metavar="INPUTS",
                        help=argparse.SUPPRESS)


def run(args: argparse.Namespace) -> int:
    config = command_config(args.config, "run")

    setup_logging(config.daemon.log_level)

    return run_daemon(config, autoplay=args.autoplay, crash_at=args.crash_at)
