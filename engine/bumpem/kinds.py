"""The stable identifiers of Bump 'Em that the rig keys its screens, drawings and
counters on, as `Literal` types so mypy checks every comparison.

`engine.api` keeps `kind: str` (a game outside the repo brings kinds of its own); Bump
'Em's prompt narrows it to `PromptKind`, a move's effects to `EffectKind`, the spaces of
the board drawing to `SpotKind`, and the tables of events to `EventKind`.
"""

from __future__ import annotations

from typing import Literal, TypeAlias

PromptKind: TypeAlias = Literal["ticket", "move", "over"]
"""What the table is asked for (`BumpemState.prompt`)."""

EffectKind: TypeAlias = Literal["entry", "bump", "zoom", "slide", "swap", "home", "finish"]
"""What a move did to one car (`rules.Effect`)."""

SpotKind: TypeAlias = Literal["track", "start", "oil", "turbo", "home", "finish", "pit"]
"""The role of a drawn position on the board (`board.Spot`)."""

EventKind: TypeAlias = Literal[
    "turn", "ticket", "extra_ticket", "reshuffle", "lost_ticket", "forced_move", "move",
    "swap", "split", "backward_move", "bump_ticket", "entry", "bump", "oil_slide",
    "turbo_zoom", "home_stretch_entry", "finish", "winner", "correction",
]
"""Every kind of event `BumpemState.apply` reports."""
