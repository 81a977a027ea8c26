"""The config as every command loads it: one ``--config`` argument, one way to report
its mistakes, and one exit status for a bad config (78, EX_CONFIG from sysexits.h,
which systemd shows as a configuration error)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from rig.commands import EXIT_CONFIG, ConfigRefused
from rig.config import ConfigError, RigConfig, load_config
from rig.safetext import safe_print, shown

CONFIG_LOOKUP = ("$CONFIGURATION_DIRECTORY/config.toml under systemd, else "
                 "~/.config/cbrig/config.toml, else /etc/cbrig/config.toml, the first that "
                 "exists; none: the built-in defaults")

__all__ = ["CONFIG_LOOKUP", "EXIT_CONFIG", "ConfigRefused", "add_config_argument",
           "command_config", "plural", "report_problems"]


def plural(count: int, noun: str) -> str:
    """"1 problem", "2 problems"."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def add_config_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, default=None, metavar="FILE",
                        help=f"the rig config (default: {CONFIG_LOOKUP})")


def report_problems(exc: ConfigError, stream: TextIO | None = None) -> None:
    """Each mistake on its own line (file:line: field: message), then the count."""
    out = stream if stream is not None else sys.stderr
    for problem in exc.problems:
        print(shown(problem, 400), file=out)
    print(f"{plural(len(exc.problems), 'problem')} found", file=sys.stderr)


def command_config(path: Path | None, command: str) -> RigConfig:
    """The config `command` runs with; ConfigRefused (cbrig exits 78) after saying what is
    wrong with it."""
    try:
        return load_config(path)
    except ConfigError as exc:
        print(f"cbrig {command}: the config has mistakes:", file=sys.stderr)
        report_problems(exc)
    except OSError as exc:
        safe_print(f"cbrig {command}: cannot read the config: {exc}", file=sys.stderr)
    raise ConfigRefused(command)
