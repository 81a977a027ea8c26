"""Typed rejections: an illegal input names its reason and leaves the state untouched."""

from __future__ import annotations

from enum import Enum

from valueclass import Frozen


class EngineError(Exception):
    """Root of every error the engine raises on purpose."""


class Reason(Enum):
    """Why an input was refused; the rig shows the reason to the table."""

    NOT_YOUR_TURN = "not your turn"
    NOT_LEGAL_NOW = "not legal now"
    IMPOSSIBLE_OUTCOME = "impossible outcome"
    GAME_OVER = "game over"
    MALFORMED = "malformed input"


class IllegalAction(EngineError, ValueError):
    """An action the rules do not allow here. The state was not changed."""

    def __init__(self, reason: Reason, detail: str) -> None:
        super().__init__(f"{reason.value}: {detail}")
        self.reason = reason
        self.detail = detail


class Problem(Frozen):
    """One mistake in a data file, located for the person who has to fix it."""

    source: str
    line: int | None
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.source}:{self.line}" if self.line is not None else self.source
        return f"{where}: {self.field}: {self.message}"


class DataError(EngineError, ValueError):
    """A board, band, deck or ticket file that does not describe a playable game."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))
