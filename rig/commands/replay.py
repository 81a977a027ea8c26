"""`cbrig replay FILE`: the game state a journal leads to (the journal is not changed)."""

from __future__ import annotations

import argparse
import json
import sys

from rig.games import GameSetupError
from rig.journal import JournalError, read_journal
from rig.replay import ReplayError, abandoned, replay
from rig.safetext import safe_print


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a journal (.jsonl)")
    parser.add_argument("--json", action="store_true", help="print the state as JSON")


def run(args: argparse.Namespace) -> int:
    try:
        contents = read_journal(args.file)
        game, state = replay(contents.header, contents.entries)
    except (JournalError, ReplayError, GameSetupError) as exc:
        message = str(exc)
        where = "" if message.startswith(str(args.file)) else f"{args.file}: "
        safe_print(f"cbrig replay: {where}{message}", file=sys.stderr)
        return 1
    if not contents.recovery.clean:
        safe_print(f"cbrig replay: note: {contents.recovery} (ignored here; the daemon cuts it)",
              file=sys.stderr)
    if args.json:
        safe_print(json.dumps({"inputs": len(contents.entries), "state": state.to_json()},
                         sort_keys=True))
        return 0
    from rig.views import view_for

    view = view_for(game)
    safe_print(f"{len(contents.entries)} inputs replayed")
    safe_print(view.title(state))
    if abandoned(contents.entries):
        safe_print("  (abandoned here by the table; filed like a finished game)")
    for line in view.status_lines(state):
        safe_print(f"  {line}")
    for line in view.prompt_lines(state):
        safe_print(f"  > {line}")
    return 0
