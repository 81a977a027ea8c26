"""Rebuild a game from a journal's header and inputs; a bad input names its line."""

from __future__ import annotations

from collections.abc import Sequence

from engine.api import JSON, Action, Game, State
from engine.errors import IllegalAction
from rig.gamebuild import game_from_identity
from valueclass import Frozen

FIRST_ENTRY_LINE = 2
"""Line 1 of a journal is its header."""


class ReplayError(Exception):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


TAKE_BACK = "take_back"
"""A journal entry that takes back the input before it (RULINGS G5): a menu choice or a
card tap, never a spin or a virtual draw (the controller only offers those)."""


def take_back_entry() -> dict[str, JSON]:
    return {"kind": TAKE_BACK}


ABANDON = "abandon"
"""A journal's last entry when the table abandoned the game (RULINGS G7): not an input
of the game; the game stands as it was, and is filed like a finished one."""


def abandon_entry() -> dict[str, JSON]:
    return {"kind": ABANDON}


def abandoned(entries: Sequence[dict[str, JSON]]) -> bool:
    """Whether the journal's game was abandoned (its last entry says so)."""
    return bool(entries) and entries[-1].get("kind") == ABANDON


def effective_inputs(entries: Sequence[dict[str, JSON]]
                     ) -> list[tuple[int, dict[str, JSON]]]:
    """The inputs that stand, each with its journal line: a take-back removes the
    input before it (which may itself follow an earlier take-back); an abandon ends
    the journal and is no input."""
    out: list[tuple[int, dict[str, JSON]]] = []
    for index, entry in enumerate(entries):
        line = FIRST_ENTRY_LINE + index
        if index and entries[index - 1].get("kind") == ABANDON:
            raise ReplayError(line, "an input after the game was abandoned")
        if entry.get("kind") == ABANDON:
            if set(entry) != {"kind"}:
                raise ReplayError(line, f"an abandon has no fields, not {sorted(entry)}")
        elif entry.get("kind") == TAKE_BACK:
            if set(entry) != {"kind"}:
                raise ReplayError(line, f"a take-back has no fields, not {sorted(entry)}")
            if not out:
                raise ReplayError(line, "a take-back with no input before it")
            out.pop()
        else:
            out.append((line, entry))
    return out


def replay(header: dict[str, JSON], entries: Sequence[dict[str, JSON]]) -> tuple[Game, State]:
    """The game a header describes and the state its inputs lead to."""
    game = game_from_identity(header["game"])
    return game, replay_inputs(game, effective_inputs(entries))


def replay_inputs(game: Game, inputs: Sequence[tuple[int, dict[str, JSON]]]) -> State:
    state = game.new_initial_state()
    for line, entry in inputs:
        try:
            state.apply(game.action_from_json(entry))
        except IllegalAction as exc:
            raise ReplayError(line, f"the journal's input was refused: {exc}") from exc
    return state


class Step(Frozen):
    """One journal entry in words, as `cbrig replay` lists it."""

    line: int
    kind: str
    """"input", "correction", "take back" or "abandon"."""
    text: str


def describe_input(state: State, action: Action) -> str:
    """An input in the words its menu row showed. The journal keeps a move without its
    previews (where it ends, whom it bumps, how far a Smokey goes: they are worked out,
    not chosen), so the legal move equal to it, which has them, is described."""
    if not state.is_chance_node() and not action.KIND.startswith("correct"):
        action = next((a for a in state.legal_actions() if a == action), action)
    return state.describe(action)


def journal_steps(game: Game, entries: Sequence[dict[str, JSON]]) -> list[Step]:
    """Every entry of a journal in the screen's words, in order: a correction says what
    it set, a take-back names the line it takes back and what that line did (G5), an
    abandon says so (G7)."""
    state = game.new_initial_state()
    standing: list[tuple[int, str, State]] = []  # line, words, the state before it
    steps = []
    for index, entry in enumerate(entries):
        line = FIRST_ENTRY_LINE + index
        if entry.get("kind") == TAKE_BACK:
            if not standing:
                raise ReplayError(line, "a take-back with no input before it")
            undone, words, state = standing.pop()
            steps.append(Step(line, "take back", f"take back line {undone}: {words}"))
            continue
        if entry.get("kind") == ABANDON:
            steps.append(Step(line, "abandon", "the table abandoned the game here"))
            continue
        action = game.action_from_json(entry)
        words = describe_input(state, action)
        before = state.clone()
        try:
            state.apply(action)
        except IllegalAction as exc:
            raise ReplayError(line, f"the journal's input was refused: {exc}") from exc
        standing.append((line, words, before))
        correction = action.KIND.startswith("correct")  # as the controller tells them
        steps.append(Step(line, "correction" if correction else "input",
                          f"correction: {words}" if correction else words))
    return steps
