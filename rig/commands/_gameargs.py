"""Arguments shared by the commands that start a game (emulate, demo)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from rig import gametype, registry
from rig.core.computer import seat_for
from rig.core.controller import Seat
from rig.gamebuild import build_game


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    players = registry.DEFAULT_PLAYERS
    parser.add_argument("--game", choices=registry.names(), default=registry.DEFAULT_GAME,
                        help=registry.game_help())
    parser.add_argument("--players", type=int, default=players,
                        help=f"how many play, {gametype.count_words(registry.all_player_counts())}"
                             f" (default {players}, as on the Pi)")
    parser.add_argument("--variant", default=None, help=variant_help())
    parser.add_argument("--seed", type=int, default=None,
                        help="seed the chance source (spins, draws) for a repeatable game")
    parser.add_argument("--seats", default=None,
                        help="per seat: human, easy, medium or hard, comma separated")


def variant_help() -> str:
    """``--variant``'s help, with an example from the registry: the first game whose
    player counts need a variant other than its default (chosen automatically)."""
    for game in registry.entries():
        for players in game.player_counts:
            special = game.special_variant(players)
            if special is not None:
                return (f"the game's variant, chosen automatically from the players (e.g. "
                        f"{special} for {game.title} with {players})")
    return "the game's variant (default: the first that fits the players)"


def check_game_arguments(args: argparse.Namespace) -> None:
    """ValueError naming what the game registry allows, when --players, --variant or
    --seats cannot make a game of --game: checked once the command line is parsed, before
    a banner, a setup menu or a state directory."""
    game = registry.entry(args.game)
    problem = game.players_problem(args.players, args.variant or None)
    if problem:
        raise ValueError(problem)
    if not args.seats:
        return
    levels = seat_levels(args)
    if len(levels) != args.players:
        raise ValueError(f"--seats names {len(levels)} seats for {args.players} players")
    for seat, level in enumerate(levels, 1):
        problem = game.level_problem(level)
        if problem:
            raise ValueError(f"--seats: seat {seat} is {problem}")


def seat_levels(args: argparse.Namespace) -> tuple[str, ...]:
    """--seats as a tuple of levels (empty when not given)."""
    return tuple(s.strip() for s in args.seats.split(",")) if args.seats else ()


def variant_for(args: argparse.Namespace) -> str | None:
    if args.variant:
        return str(args.variant)
    return registry.entry(args.game).special_variant(args.players)


OPTION_PREFIX = "option_"
"""Where a rule option's flag keeps its value in the parsed arguments."""


def chosen_game(argv: Sequence[str]) -> str:
    """The --game a command line names (the default when none): read before the
    parser is built, so that it offers that game's rule options and no other's."""
    early = argparse.ArgumentParser(add_help=False)
    early.add_argument("--game", default=registry.DEFAULT_GAME)
    known, _ = early.parse_known_args(list(argv))
    return str(known.game)


def add_option_flags(parser: argparse.ArgumentParser, game: str) -> None:
    """One flag per rule option of `game`, from its facts: ``--no-NAME`` for an option
    on by default, ``--NAME`` for one off, ``--NAME VALUE`` for a number or a word."""
    found = registry.find(game)
    if found is None:
        return  # --game's own choices say what is wrong
    group = parser.add_argument_group(f"{found.title} rule options")
    for option in found.facts.rule_options:
        flag = option.name.replace("_", "-")
        dest = OPTION_PREFIX + option.name
        help_text = option.help or option.name.replace("_", " ")
        if isinstance(option.default, bool):
            if option.default:
                group.add_argument(f"--no-{flag}", dest=dest, action="store_false",
                                   default=None, help=f"off: {help_text}")
            else:
                group.add_argument(f"--{flag}", dest=dest, action="store_true",
                                   default=None, help=f"on: {help_text}")
        elif isinstance(option.default, int | float | str):
            group.add_argument(f"--{flag}", dest=dest, type=type(option.default),
                               default=None, metavar=type(option.default).__name__.upper(),
                               help=f"{help_text} (default {option.default})")


def options_for(args: argparse.Namespace) -> dict[str, bool | int | float | str]:
    """The rule options the command line sets (the game's defaults for the rest): each
    flag's value is a bool, int, float or str, as its option's default is."""
    return {key.removeprefix(OPTION_PREFIX): value for key, value in vars(args).items()
            if key.startswith(OPTION_PREFIX) and isinstance(value, bool | int | float | str)}


def seats_for(args: argparse.Namespace, seed: int | None) -> list[Seat] | None:
    if not args.seats:
        return None

    check_game_arguments(args)
    levels = seat_levels(args)
    game = build_game(args.game, players=args.players, variant=variant_for(args),
                      options=options_for(args))
    return [seat_for(args.game, level, seed=(seed or 0) + i, game=game)
            for i, level in enumerate(levels)]
