"""`cbrig run`: the daemon (see rig.core.daemon)."""

from __future__ import annotations

import argparse
import logging
import os

from rig.commands._config import add_config_argument, command_config
from rig.config import load_config_forgiving
from rig.core.daemon import run_daemon
from rig.logs import setup_logging
from rig.safetext import shown
from rig.update.notice import take_update_notice

log = logging.getLogger(__name__)

CONFIG_ERRORS = ("refuse", "show")
CONFIG_ERRORS_VARIABLE = "CBRIG_CONFIG_ERRORS"
"""The environment setting for ``--config-errors`` (the option wins)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_argument(parser)
    parser.add_argument(
        "--config-errors", choices=CONFIG_ERRORS, default=None,
        help="a config with mistakes: refuse to start (exit 78, the default), or show the "
             "mistakes on the display and in the log and start with the defaults for what "
             f"is wrong (the Pi image; also ${CONFIG_ERRORS_VARIABLE}=show)")
    parser.add_argument("--autoplay", type=int, default=None, metavar="SEED",
                        help=argparse.SUPPRESS)
    parser.add_argument("--crash-at", type=int, default=None, metavar="INPUTS",
                        help=argparse.SUPPRESS)


def config_errors_mode(option: str | None) -> str:
    """``--config-errors``, else ``$CBRIG_CONFIG_ERRORS`` when it names a mode, else
    "refuse"."""
    if option is not None:
        return option
    value = os.environ.get(CONFIG_ERRORS_VARIABLE, "").strip().lower()
    return value if value in CONFIG_ERRORS else "refuse"


def run(args: argparse.Namespace) -> int:
    notices: list[str] = []
    if config_errors_mode(args.config_errors) == "show":
        forgiven = load_config_forgiving(args.config)
        config = forgiven.config
        setup_logging(config.daemon.log_level)
        for problem in forgiven.problems:
            log.error("config: %s", shown(problem, 400))
        if forgiven.problems:
            log.error("config has %d mistake(s): started with %s (fix the file, then "
                      "restart)", len(forgiven.problems), forgiven.used)
            notices.append(forgiven.notice())
    else:
        config = command_config(args.config, "run")
        setup_logging(config.daemon.log_level)
    update = take_update_notice(config.state.directory)
    if update:
        log.warning("%s", update)
        notices.append(update)

    return run_daemon(config, autoplay=args.autoplay, crash_at=args.crash_at,
                      notices=tuple(notices))
