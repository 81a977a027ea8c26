"""`cbrig run`: the daemon (see rig.daemon)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

EXIT_CONFIG = 78
"""EX_CONFIG from sysexits.h: systemd shows it as a configuration error."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, default=None,
                        help="TOML config (default /etc/cbrig/config.toml, or built-in defaults)")
    parser.add_argument("--autoplay", type=int, default=None, metavar="SEED",
                        help=argparse.SUPPRESS)
    parser.add_argument("--crash-at", type=int, default=None, metavar="INPUTS",
                        help=argparse.SUPPRESS)


def run(args: argparse.Namespace) -> int:
    from rig.config import ConfigError, load_config
    from rig.safetext import safe_print

    try:
        config = load_config(args.config)
    except ConfigError as exc:
        safe_print(f"cbrig run: the config has mistakes:\n{exc}", file=sys.stderr,
                   keep_newlines=True)
        return EXIT_CONFIG
    except OSError as exc:
        safe_print(f"cbrig run: cannot read the config: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    from rig.logs import setup_logging

    setup_logging(config.daemon.log_level)
    from rig.daemon import run_daemon

    return run_daemon(config, autoplay=args.autoplay, crash_at=args.crash_at)
