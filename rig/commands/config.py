"""`cbrig config check [FILE]` and `cbrig config show [FILE] [--defaults]`."""

from __future__ import annotations

import argparse
import sys

from rig.config import (
    DEFAULT_PATH,
    ConfigError,
    RigConfig,
    default_config,
    dump_config,
    load_config,
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    check = sub.add_parser("check", help="validate a config file, listing every mistake")
    check.add_argument("file", nargs="?", default=str(DEFAULT_PATH),
                       help=f"the config file (default {DEFAULT_PATH})")
    show = sub.add_parser("show", help="print the effective config as TOML")
    show.add_argument("file", nargs="?", default=None,
                      help=f"the config file (default {DEFAULT_PATH} if it exists)")
    show.add_argument("--defaults", action="store_true",
                      help="print the built-in defaults instead of a file's settings")


def summary(config: RigConfig) -> str:
    game = config.game
    levels = ", ".join(game.levels)
    pins = config.pins
    extras = "".join(
        f", {name} {number}" for name, number in (("buzzer", pins.buzzer), ("led", pins.led))
        if number is not None
    )
    reader = config.reader
    reader_text = ("no reader (virtual shuffled deck)" if reader.type == "none"
                   else f"{reader.type} on {reader.port} at {reader.baud} baud")
    display = config.display
    display_text = (f"{display.driver} at 0x{display.address:02X} on i2c-{display.i2c_port}"
                    if display.driver in ("ssd1306", "sh1106") else display.driver)
    return "\n".join([
        f"{config.source}: OK",
        f"  game:    {game.name}{' ' + game.variant if game.variant else ''}, "
        f"{game.players} players ({levels}), hints {'on' if game.hints else 'off'}",
        f"  pins:    {pins.backend}: hi {pins.hi_a}/{pins.hi_b}/{pins.hi_button}, "
        f"lo {pins.lo_a}/{pins.lo_b}/{pins.lo_button}{extras}",
        f"  encoder: {config.encoder.edges_per_detent} edges per detent",
        f"  reader:  {reader_text}",
        f"  display: {display_text}",
        f"  state:   {config.state.directory}",
    ])


def run(args: argparse.Namespace) -> int:
    try:
        if args.action == "check":
            config = load_config(args.file)
            print(summary(config))
            return 0
        config = default_config() if args.defaults else load_config(args.file)
        sys.stdout.write(dump_config(config))
        return 0
    except ConfigError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr if args.action == "show" else sys.stdout)
        count = len(exc.problems)
        print(f"{count} problem{'s' if count != 1 else ''} found", file=sys.stderr)
        return 1
