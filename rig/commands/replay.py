"""`cbrig replay FILE`: the game state a journal leads to (the journal is not changed)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from engine.api import JSON, Game
from rig.core.journalread import JournalError, read_journal
from rig.core.replay import ReplayError, abandoned, journal_steps, replay
from rig.gamebuild import GameSetupError
from rig.safetext import safe_print
from rig.screens.views import view_for


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a journal (.jsonl)")
    parser.add_argument("--json", action="store_true", help="print the state as JSON")
    parser.add_argument("--steps", action="store_true",
                        help="list every input, not only the corrections and take-backs")


def run(args: argparse.Namespace) -> int:
    if not Path(args.file).exists():
        safe_print(f"cbrig replay: {args.file}: no such file", file=sys.stderr)
        return 1
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

    view = view_for(game)
    safe_print(f"{len(contents.entries)} inputs replayed")
    _list_steps(game, contents.entries, every=args.steps)
    safe_print(view.title(state))
    if abandoned(contents.entries):
        safe_print("  (abandoned here by the table; filed like a finished game)")
    for line in view.status_lines(state):
        safe_print(f"  {line}")
    for line in view.prompt_lines(state):
        safe_print(f"  > {line}")
    return 0


def _list_steps(game: Game, entries: Sequence[dict[str, JSON]], every: bool) -> None:
    """The corrections and take-backs (G5: a replay shows what was corrected), or with
    `every` each input, one line each with its journal line."""
    steps = journal_steps(game, entries)
    fixes = [step for step in steps if step.kind != "input"]
    corrections = sum(step.kind == "correction" for step in fixes)
    taken_back = sum(step.kind == "take back" for step in fixes)
    safe_print(f"{_count(corrections, 'correction')}, {_count(taken_back, 'take-back')}")
    for step in steps if every else fixes:
        safe_print(f"  line {step.line}: {step.text}")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
