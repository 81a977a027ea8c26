"""Computer players: a level name -> a chooser over legal actions.

Pure and deterministic for a given rng: the rig and the simulator pass the randomness in.

Levels, weakest first: `easy` (any legal action, equally likely), `medium` (the best
action by each game's analytic one-ply evaluation, `engine.<game>.ai.strong_choice`) and
`hard` (`engine.search` over the real engine with `medium` inside, `hard_choice`). The
names the rig used before, `random` and `strong`, stay accepted as aliases so journals
and configs that name them keep working.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence

from engine.api import Action, State
from engine.selfplay import Chooser, Rng, random_choice

LEVELS = ("easy", "medium", "hard")
ALIASES = {"random": "easy", "strong": "medium"}
"""Old level names -> the level they now mean."""
KNOWN = (*LEVELS, *ALIASES)
"""Every name `chooser_for` accepts."""


def canonical_level(level: str) -> str:
    """The level a name means (an alias -> its level); ValueError names the known levels."""
    found = ALIASES.get(level, level)
    if found not in LEVELS:
        raise ValueError(f"unknown computer level {level!r}; choose one of {', '.join(LEVELS)}"
                         f" (or the older {', '.join(ALIASES)})")
    return found


def chooser_for(game_name: str, level: str, budget: int | None = None, *,
                ai: str | None = None) -> Chooser:
    """The chooser for `level` in `game_name`; `budget` is `hard`'s samples per decision
    (None: the game's `HARD_BUDGET`). `ai` is the dotted module holding the game's
    `strong_choice` and `hard_choice` (None: `engine.<game_name>.ai`, where the built-in
    games keep them; the rig passes its registry entry's)."""
    found = canonical_level(level)
    if found == "easy":
        return random_choice
    module = importlib.import_module(ai or f"engine.{game_name}.ai")
    if found == "medium":
        chooser: Chooser = module.strong_choice
        return chooser
    hard = module.hard_choice
    if budget is None:
        default: Chooser = hard
        return default

    def choose(state: State, legal: Sequence[Action], rng: Rng) -> Action:
        action: Action = hard(state, legal, rng, budget)
        return action

    return choose
