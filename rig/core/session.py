"""A game in progress: its state and, when persisted, its journal.

An input is tried on a copy of the state first, then written and fsynced to the
journal, and only then becomes the state: nothing is acknowledged that a power cut
could lose, and a refused or unsaved input changes nothing.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from engine.api import JSON, Action, Event, Game, State
from rig import version
from rig.core.journal import Journal
from rig.core.journalread import JournalError
from rig.core.replay import (
    abandon_entry,
    abandoned,
    effective_inputs,
    replay,
    replay_inputs,
    take_back_entry,
)
from valueclass import Record, field


class Resumed(Record):
    """What recovery found, for the display to say."""

    steps: int
    dropped_bytes: int = 0
    reason: str = ""


class Session(Record):
    game: Game
    state: State
    journal: Journal | None = None
    steps: int = 0
    resumed: Resumed | None = None
    last_action: Action | None = None
    history: list[dict[str, JSON]] = field(default_factory=list)
    """The inputs that stand (taken-back ones removed), as journaled."""
    abandoned: bool = False
    """The table abandoned this game (RULINGS G7): it takes no more input, and is
    filed like a finished one."""

    def __post_init__(self) -> None:
        self._previous: State | None = None
        """The state before the last input that stands, when known (see
        state_before_last)."""
        self._before: tuple[State, int, Action | None, State | None] | None = None
        """What to put back if the input whose fsync is running fails to save."""

    @classmethod
    def start(cls, game: Game, journal_path: Path | None, header_extra: dict[str, JSON]
              | None = None) -> Session:
        journal = None
        if journal_path is not None:
            # The program that wrote it, for whoever reads the journal later.
            header = {"game": game.identity(), "cbrig": version(), **(header_extra or {})}
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
        history = [dict(entry) for _, entry in effective_inputs(journal.entries)]
        return cls(game=game, state=state, journal=journal, steps=steps, history=history,
                   abandoned=abandoned(journal.entries),
                   resumed=Resumed(steps=steps, dropped_bytes=recovery.dropped_bytes,
                                   reason=recovery.reason or ""))

    def apply(self, action: Action, player: int | None = None, *,
              defer_sync: bool = False) -> list[Event]:
        """Validate, persist, then commit. Raises IllegalAction or the journal's error.

        With ``defer_sync`` the line is written and its fsync runs on a helper thread;
        the state moves on at once so the caller can prepare the next frame from it, and
        must call :meth:`wait_durable` before showing or acknowledging anything: if the
        fsync failed, that puts the state back and raises.
        """
        self.wait_durable()
        if self.abandoned:
            raise ValueError("the game was abandoned: it takes no more input")
        trial = self.state.clone()
        events = trial.apply(action, player)
        stored = action.to_json()
        if self.journal is not None:
            if defer_sync:
                self.journal.begin_append(stored)
                self._before = (self.state, self.steps, self.last_action, self._previous)
            else:
                self.journal.append(stored)
        self._previous = self.state
        self.state = trial
        self.steps += 1
        self.last_action = action
        self.history.append(stored)
        return events

    def state_before_last(self) -> State:
        """The state the last standing input was applied to (replayed if unknown)."""
        if self._previous is None:
            inputs = list(enumerate(self.history[:-1]))
            self._previous = replay_inputs(self.game, inputs)
        return self._previous

    def take_back(self) -> None:
        """Take back the last standing input (RULINGS G5): journaled like any input, so
        a replay takes it back too; the game goes back to the state before it."""
        self.wait_durable()
        if not self.history:
            raise ValueError("there is no input to take back")
        before = self.state_before_last()
        if self.journal is not None:
            self.journal.append(take_back_entry())
        self.history.pop()
        self.state = before.clone()
        self._previous = None
        self.steps += 1
        self.last_action = None

    def abandon(self) -> None:
        """Abandon the game (RULINGS G7): journaled like any input, so a rig that stops
        before filing it files it at the next start instead of resuming it."""
        self.wait_durable()
        if self.abandoned:
            raise ValueError("the game is already abandoned")
        if self.journal is not None:
            self.journal.append(abandon_entry())
        self.steps += 1
        self.abandoned = True

    @property
    def saving(self) -> bool:
        """An input applied with ``defer_sync`` is not yet known to be on disk."""
        return self._before is not None

    def wait_durable(self) -> None:
        """Block until the last input's fsync is done; if it failed, the game is put
        back as it was before that input and the journal's error raised."""
        if self._before is None or self.journal is None:
            return
        before, self._before = self._before, None
        pending = self.journal.pending
        if pending is None:
            return
        try:
            self.journal.finish_append(pending)
        except Exception:
            self.state, self.steps, self.last_action, self._previous = before
            self.history.pop()
            raise

    def close(self) -> None:
        if self.journal is not None:
            with contextlib.suppress(JournalError):
                self.wait_durable()
            self.journal.close()
