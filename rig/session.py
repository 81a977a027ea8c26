"""A game in progress: its state and, when persisted, its journal.

An input is tried on a copy of the state first, then written and fsynced to the
journal, and only then becomes the state: nothing is acknowledged that a power cut
could lose, and a refused or unsaved input changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.api import Action, Event, Game, State
from rig.journal import Journal
from rig.replay import replay


@dataclass
class Resumed:
    """What recovery found, for the display to say."""

    steps: int
    dropped_bytes: int = 0
    reason: str = ""


@dataclass
class Session:
    game: Game
    state: State
    journal: Journal | None = None
    steps: int = 0
    resumed: Resumed | None = None
    last_action: Action | None = None

    @classmethod
    def start(cls, game: Game, journal_path: Path | None, header_extra: dict[str, Any]
              | None = None) -> Session:
        journal = None
        if journal_path is not None:
            header = {"game": game.identity(), **(header_extra or {})}
            journal = Journal.create(journal_path, header)
        return cls(game=game, state=game.new_initial_state(), journal=journal)

    @classmethod
    def resume(cls, journal_path: Path) -> Session:
        """Rebuild the game in `journal_path`; a torn last line is cut and reported."""
        journal, recovery = Journal.open(journal_path)
        try:
            game, state = replay(journal.header, journal.entries)
        except Exception:
            journal.close()
            raise
        steps = len(journal.entries)
        return cls(game=game, state=state, journal=journal, steps=steps,
                   resumed=Resumed(steps=steps, dropped_bytes=recovery.dropped_bytes,
                                   reason=recovery.reason or ""))

    def apply(self, action: Action, player: int | None = None) -> list[Event]:
        """Validate, persist, then commit. Raises IllegalAction or the journal's error."""
        trial = self.state.clone()
        events = trial.apply(action, player)
        if self.journal is not None:
            self.journal.append(action.to_json())
        self.state = trial
        self.steps += 1
        self.last_action = action
        return events

    def close(self) -> None:
        if self.journal is not None:
            self.journal.close()
