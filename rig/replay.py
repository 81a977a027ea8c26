"""Rebuild a game from a journal's header and inputs; a bad input names its line."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.api import Game, State
from engine.errors import IllegalAction
from rig.games import game_from_identity

FIRST_ENTRY_LINE = 2
"""Line 1 of a journal is its header."""


class ReplayError(Exception):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


def replay(header: Mapping[str, Any], entries: Sequence[Mapping[str, Any]]) -> tuple[Game, State]:
    """The game a header describes and the state its inputs lead to."""
    game = game_from_identity(header["game"])
    state = game.new_initial_state()
    for index, entry in enumerate(entries):
        line = FIRST_ENTRY_LINE + index
        try:
            state.apply(game.action_from_json(entry))
        except IllegalAction as exc:
            raise ReplayError(line, f"the journal's input was refused: {exc}") from exc
    return game, state
