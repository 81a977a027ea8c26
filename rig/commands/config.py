"""`cbrig config check [FILE]` and `cbrig config show [FILE] [--defaults]`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.api import Game
from engine.errors import DataError, Problem
from rig.commands._config import CONFIG_LOOKUP, ConfigRefused, plural, report_problems
from rig.config import (
    ConfigError,
    RigConfig,
    default_config,
    dump_config,
    load_config,
)
from rig.safetext import safe_print, shown


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    check = sub.add_parser("check", help="validate a config file, listing every mistake")
    check.add_argument("file", nargs="?", default=None,
                       help=f"the config file (default: {CONFIG_LOOKUP})")
    show = sub.add_parser("show", help="print the effective config as TOML")
    show.add_argument("file", nargs="?", default=None,
                      help=f"the config file (default: {CONFIG_LOOKUP})")
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
                   else f"{reader.type} on {shown(reader.port)} at {reader.baud} baud")
    display = config.display
    display_text = (f"{display.driver} at 0x{display.address:02X} on i2c-{display.i2c_port}"
                    if display.driver in ("ssd1306", "sh1106") else display.driver)
    return "\n".join([
        f"{shown(config.source)}: OK",
        f"  game:    {game.name}{' ' + game.variant if game.variant else ''}, "
        f"{game.players} players ({levels}), hints {'on' if game.hints else 'off'}",
        f"  pins:    {pins.backend}: hi {pins.hi_a}/{pins.hi_b}/{pins.hi_button}, "
        f"lo {pins.lo_a}/{pins.lo_b}/{pins.lo_button}{extras}",
        f"  encoder: {config.encoder.edges_per_detent} edges per detent",
        f"  reader:  {reader_text}",
        f"  display: {display_text}",
        f"  state:   {shown(config.state.directory)}",
    ])


def pointed_files(config: RigConfig) -> tuple[list[Problem], list[str]]:
    """Load what the config points at, as the rig will at START: the game with its
    board, bands, deck or tickets (shipped or from ``[game.data]``), the state
    directory and the card map. Returns the problems, and notes about what is fine."""
    from rig.gamebuild import GameSetupError, build_game

    problems: list[Problem] = []
    notes: list[str] = []
    game = config.game
    source = config.source
    try:
        built = build_game(game.name, players=game.players, variant=game.variant or None,
                           data=dict(game.data), options=dict(game.options),
                           seats=game.seats or None)
    except DataError as exc:
        problems.extend(exc.problems)
        built = None
    except (GameSetupError, ValueError) as exc:
        problems.append(Problem(source, None, "game", str(exc)))
        built = None
    if built is not None:
        files = ", ".join(f"{role} {shown(path)}" for role, path in sorted(game.data.items()))
        notes.append(f"data:    {files or 'the shipped files'}: they load")
    problems.extend(_state_problems(config))
    problems.extend(_card_map_problems(config, built, notes))
    return problems, notes


def _state_problems(config: RigConfig) -> list[Problem]:
    directory = config.state.directory
    if directory.exists() and not directory.is_dir():
        return [Problem(config.source, None, "state.directory",
                        f"{directory} is not a directory")]
    for parent in directory.parents:
        if parent.exists():
            if not parent.is_dir():
                return [Problem(config.source, None, "state.directory",
                                f"{parent} is not a directory")]
            break
    return []


def _card_map_problems(config: RigConfig, game: Game | None,
                       notes: list[str]) -> list[Problem]:
    from engine.datafile import parse_toml
    from engine.errors import DataError

    path: Path = config.reader.cards
    if config.reader.type == "none" or not path.exists():
        return []
    try:
        tags = parse_toml(path.read_text(encoding="utf-8"), str(path))[0].get("tags", {})
    except DataError as exc:
        return exc.problems
    except (OSError, UnicodeDecodeError) as exc:
        return [Problem(str(path), None, "tags", f"cannot read the card map: {exc}")]
    if game is not None and isinstance(tags, dict):
        from rig.screens.views import view_for

        deck = set(view_for(game).card_ids())
        strangers = sorted({str(card) for card in tags.values()} - deck)
        if strangers:
            notes.append(f"cards:   {plural(len(strangers), 'enrolled card')} not in this deck "
                         f"({' '.join(strangers[:6])}): enrol the cards again")
    return []


def run(args: argparse.Namespace) -> int:
    try:
        if args.action == "check":
            return _check(args.file)
        config = default_config() if args.defaults else load_config(args.file)
        sys.stdout.write(dump_config(config))
        return 0
    except ConfigError as exc:
        report_problems(exc, sys.stderr if args.action == "show" else sys.stdout)
        raise ConfigRefused(f"config {args.action}") from exc


def _check(file: str | None) -> int:
    config = load_config(file)
    problems, notes = pointed_files(config)
    if problems:
        raise ConfigError(problems)
    print(summary(config))
    for note in notes:
        safe_print(f"  {note}")
    return 0
