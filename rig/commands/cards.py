"""`cbrig cards enroll`: tap each Mike card (or ticket card) and save which tag it is."""

from __future__ import annotations

import argparse
import queue
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", required=True)
    enroll = sub.add_parser("enroll", help="walk through the deck and save the tag map")
    enroll.add_argument("--config", type=Path, default=None)
    enroll.add_argument("--game", choices=["tenfour", "bumpem"], default=None)
    enroll.add_argument("--out", type=Path, default=None,
                        help="tag map file (default: the config's reader.cards)")
    show = sub.add_parser("show", help="print the enrolled tags")
    show.add_argument("--config", type=Path, default=None)


def run(args: argparse.Namespace) -> int:
    from rig.config import ConfigError, load_config
    from rig.daemon import load_card_map

    try:
        config = load_config(args.config)
    except (ConfigError, OSError) as exc:
        print(f"cbrig cards: {exc}", file=sys.stderr)
        return 78
    out = getattr(args, "out", None) or config.reader.cards
    known = load_card_map(out)
    if args.action == "show":
        for tag, card in sorted(known.items(), key=lambda i: i[1]):
            print(f"{card}  {tag}")
        return 0
    if config.reader.type == "none":
        print("cbrig cards: no reader configured ([reader] type = \"none\")", file=sys.stderr)
        return 2
    from hardware.devices import make_protocol
    from hardware.rfid.reader import CardReader
    from rig.enroll import enroll, save_card_map
    from rig.games import build_game
    from rig.views import view_for

    game = build_game(args.game or config.game.name, players=config.game.players)
    view = view_for(game)
    cards = [(card, card) for card in view.card_ids(game)]
    texts = {c.id: c.text for c in getattr(getattr(game, "deck", None), "cards", ())}
    cards = [(card, texts.get(card, card)) for card, _ in cards]
    events: queue.Queue[object] = queue.Queue()
    reader = CardReader("enroll", events.put, make_protocol(config.reader.type),
                        url=config.reader.port)
    reader.start()
    tags = dict(known)
    try:
        enroll(cards, events, input, print, tags)
    except (KeyboardInterrupt, EOFError):
        print("\nstopped; saving what was enrolled")
    finally:
        reader.stop()
    save_card_map(out, tags)
    print(f"saved {len(tags)} tags to {out}")
    return 0
