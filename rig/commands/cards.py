"""`cbrig cards enroll` and `cbrig cards show`: the tag -> card map of the deck in use.

`enroll` walks the configured game's deck (``[game.data] deck`` when set) and asks for
each card to be tapped on the configured reader. The rig's setup menu does the same on
the OLED ("Enrol cards") while the service keeps the reader; this is the terminal way,
with the service stopped.
"""

from __future__ import annotations

import argparse
import queue
import sys
from pathlib import Path

from rig import registry
from rig.commands._config import EXIT_CONFIG, add_config_argument, command_config, plural
from rig.config import RigConfig
from rig.core.enroll import deck_cards, enroll, save_card_map
from rig.core.service import load_card_map
from rig.gamebuild import GameSetupError, build_game
from rig.owner.readercheck import (
    add_reader_arguments,
    connected,
    lacks_reader,
    open_reader,
    reader_settings,
)
from rig.safetext import safe_print


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    enroll = sub.add_parser("enroll", help="walk through the deck and save the tag map",
                            description="Tap each card of the configured deck in turn and "
                                        "save which tag it is.")
    add_config_argument(enroll)
    enroll.add_argument("--game", choices=registry.names(), default=None,
                        help="the game whose cards to enrol (default: the config's game)")
    enroll.add_argument("--out", type=Path, default=None, metavar="FILE",
                        help="tag map file (default: the config's reader.cards)")
    enroll.add_argument("--timeout", type=float, default=None, metavar="S",
                        help="stop when no card is tapped for S seconds (default: wait)")
    add_reader_arguments(enroll)
    show = sub.add_parser("show", help="print the enrolled tags",
                          description="Print each enrolled card and its tag.")
    add_config_argument(show)
    show.add_argument("--out", type=Path, default=None, metavar="FILE",
                      help="tag map file (default: the config's reader.cards)")


def run(args: argparse.Namespace) -> int:
    config = command_config(args.config, "cards")
    out = args.out or config.reader.cards
    known = load_card_map(out)
    if args.action == "show":
        if not known:
            safe_print(f"no cards enrolled in {out} (enrol them with: cbrig cards enroll, or "
                  "\"Enrol cards\" on the rig's setup menu)")
            return 0
        for tag, card in sorted(known.items(), key=lambda i: i[1]):
            safe_print(f"{card}  {tag}")
        safe_print(f"{plural(len(known), 'card')} enrolled in {out}")
        return 0
    return _enroll(args, config, out, known)


def _enroll(args: argparse.Namespace, config: object, out: Path,
            known: dict[str, str]) -> int:
    assert isinstance(config, RigConfig)
    if lacks_reader(config, args, "cards"):
        return EXIT_CONFIG
    game_cfg = config.game
    name = args.game or game_cfg.name
    same = name == game_cfg.name
    try:
        game = build_game(name, players=game_cfg.players,
                          variant=(game_cfg.variant or None) if same else None,
                          data=dict(game_cfg.data) if same else None,
                          options=dict(game_cfg.options) if same else None)
    except (GameSetupError, ValueError) as exc:
        safe_print(f"cbrig cards: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    cards = deck_cards(game)
    settings = reader_settings(config.reader, args)
    events: queue.Queue[object] = queue.Queue()
    reader = open_reader(settings, events.put, name="enroll")
    reader.start()
    tags = dict(known)
    try:
        status = connected(events, settings, "cards")
        if status is None:
            return 1
        safe_print(f"{len(cards)} cards to enrol, reader {status.message}; "
              "Ctrl-C stops and saves what was enrolled")
        enroll(cards, events, input, safe_print, tags, timeout=args.timeout)
    except (KeyboardInterrupt, EOFError):
        safe_print("\nstopped; saving what was enrolled", keep_newlines=True)
    finally:
        reader.stop()
    try:
        save_card_map(out, tags)
    except OSError as exc:
        safe_print(f"cbrig cards: cannot save {out}: {exc.strerror or exc} (run it as the "
              "service user: sudo -u cbrig cbrig cards enroll, or give --out)",
              file=sys.stderr)
        return 1
    safe_print(f"saved {plural(len(tags), 'tag')} to {out}")
    return 0
