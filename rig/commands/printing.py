"""`cbrig print WHAT`: print-ready PDFs of the board, cards, pieces and quick reference.

The data files are the ones the rig plays with: the config's `[game.data]` files (when
the config is for this game), overridden by `--ROLE FILE`, one option per data role of
the registered games (`--board/--deck/--bands/--tickets`), where FILE may be "default"
for the shipped file. So the board on the table and the board in the rig are the same
by construction.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

from engine.errors import DataError
from rig import registry
from rig.commands._config import command_config
from rig.commands._out import OUT_DIR
from rig.extras import missing
from rig.gamebuild import GameSetupError, build_game
from rig.maker.printout.sheets import SHEETS, print_tools

WHAT = ("board", "cards", "pieces", "reference", "all")
PAPER_NAMES = ("a4", "letter", "a3", "a2")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("what", choices=WHAT, help="what to print (all: every sheet)")
    parser.add_argument("--game", choices=registry.names(), default=None,
                        help="default: the config's game")
    parser.add_argument("--config", type=Path, default=None,
                        help="rig config whose [game.data] files to print")
    for role in registry.data_roles():  # every game's data files: --board, --deck...
        parser.add_argument(f"--{role}", default=None, metavar="FILE",
                            help=f'the {role} file, or "default" for the shipped one')
    parser.add_argument("--paper", choices=PAPER_NAMES, default="a4",
                        help="a4/letter: the board tiled; a3/a2: one sheet if it fits")
    parser.add_argument("--tile", action="store_true",
                        help="tile the board even when it fits one sheet")
    parser.add_argument("--out", type=Path, default=None,
                        help=f"the PDF (one sheet kind) or folder (all); default: "
                             f"./{OUT_DIR}/GAME-KIND.pdf")


def run(args: argparse.Namespace) -> int:
    config = command_config(args.config, "print")
    game_name = args.game or config.game.name
    same = config.game.name == game_name
    data = dict(config.game.data) if same else {}
    for role in registry.data_roles():
        value = getattr(args, role)
        if value is not None:
            data[role] = "" if value == "default" else value
    try:
        game = build_game(game_name, players=print_tools(game_name).players, data=data,
                          options=dict(config.game.options) if same else None)
    except DataError as exc:
        for problem in exc.problems:
            print(problem)
        return 1
    except (GameSetupError, ValueError) as exc:
        print(f"cbrig print: {exc}", file=sys.stderr)
        return 2
    if importlib.util.find_spec("reportlab") is None:
        print(missing("print", "the PDF library (reportlab)", "print"), file=sys.stderr)
        return 2

    kinds = [k for k in WHAT if k != "all"] if args.what == "all" else [args.what]
    if not print_tools(game_name).has_cards and "cards" in kinds:
        if args.what == "cards":
            print(f"cbrig print: {registry.entry(game_name).title} has no cards to print",
                  file=sys.stderr)
            return 2
        kinds.remove("cards")  # all: every sheet the game has
    shown = sys.stderr.isatty()  # progress on a terminal; a script reads stdout only
    for number, kind in enumerate(kinds, 1):
        path = _out_path(args, game_name, kind)
        writer = SHEETS[kind]
        if shown:
            print(f"cbrig print: [{number}/{len(kinds)}] {kind}...", file=sys.stderr,
                  flush=True)
        try:
            note = writer(game_name, game, str(path), args.paper, args.tile)
        except (OSError, ValueError) as exc:
            print(f"cbrig print: cannot write {path}: {exc}", file=sys.stderr)
            return 2
        print(f"{path}: {note}")
    return 0


def _out_path(args: argparse.Namespace, game: str, kind: str) -> Path:
    """One sheet kind: --out or ./cbrig-out/GAME-KIND.pdf; all: each GAME-KIND.pdf in the
    --out folder or ./cbrig-out (the same names either way)."""
    out: Path | None = args.out
    if args.what == "all" or out is None:
        folder = out or OUT_DIR
        folder.mkdir(parents=True, exist_ok=True)
        return folder / f"{game}-{kind}.pdf"
    return out
