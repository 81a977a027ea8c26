"""The stable identifiers of 10-Four that the rig keys its screens, sounds and counters
on: prompt kinds and event kinds, as `Literal` types so mypy checks every comparison.

`engine.api` keeps `kind: str` (a game outside the repo brings kinds of its own); a
10-Four prompt narrows it to `PromptKind`, and the tables of events below to `EventKind`.
"""

from __future__ import annotations

from typing import Literal, TypeAlias

PromptKind: TypeAlias = Literal[
    "start_spin", "place_smokey", "declare_truck", "draw", "spin", "choose_truck",
    "release", "police", "over",
]
"""What the table is asked for (`words.prompt`)."""

CatchKind: TypeAlias = Literal["smokey_catch", "trap_catch"]
"""A Smokey's catch on the highway (T5) or from a Bear Trap (T6)."""

EventKind: TypeAlias = Literal[
    CatchKind,
    "spin", "start_tie", "start_order", "smokey_placed", "turn", "lost_turn", "reshuffle",
    "hammer_up", "card_draw", "break_one_nine", "truck_move", "bear_catch", "winner",
    "back_on_road", "park_exit", "smokey_exact_move", "smokey_trap_move", "shortcut_move",
    "bear_move", "correction",
]
"""Every kind of event `TenFourState.apply` reports."""
