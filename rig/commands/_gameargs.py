"""Arguments shared by the commands that start a game (emulate, demo)."""

from __future__ import annotations

import argparse

from rig import registry
from rig.controller import Seat


def add_game_arguments(parser: argparse.ArgumentParser, default_players: int = 4) -> None:
    parser.add_argument("--game", choices=registry.names(), default=registry.DEFAULT_GAME,
                        help=registry.game_help())
    parser.add_argument("--players", type=int, default=default_players,
                        help=f"how many play, 2 to 4 (default {default_players})")
    parser.add_argument("--variant", default=None,
                        help="e.g. two-player for 10-Four with 2 players (chosen automatically)")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed the chance source (spins, draws) for a repeatable game")
    parser.add_argument("--seats", default=None,
                        help="per seat: human, easy, medium or hard, comma separated")
    parser.add_argument("--no-turbo", action="store_true", help="Bump 'Em without turbo")


def variant_for(args: argparse.Namespace) -> str | None:
    if args.variant:
        return str(args.variant)
    return registry.entry(args.game).special_variant(args.players)


def options_for(args: argparse.Namespace) -> dict[str, object]:
    return {"turbo": False} if getattr(args, "no_turbo", False) else {}


def seats_for(args: argparse.Namespace, seed: int | None) -> list[Seat] | None:
    if not args.seats:
        return None
    from engine.players import KNOWN, LEVELS
    from rig.computer import seat_for
    from rig.games import build_game

    levels = [s.strip() for s in args.seats.split(",")]
    if len(levels) != args.players:
        raise ValueError(f"--seats names {len(levels)} seats for {args.players} players")
    for level in levels:
        if level != "human" and level not in KNOWN:
            raise ValueError(f"--seats: unknown seat {level!r}; choose one of human, "
                             f"{', '.join(LEVELS)}")
    game = build_game(args.game, players=args.players, variant=variant_for(args),
                      options=options_for(args))
    return [seat_for(args.game, level, seed=(seed or 0) + i, game=game)
            for i, level in enumerate(levels)]
