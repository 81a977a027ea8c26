"""The ids of pieces and places that are not in the board data.

Kept apart from `game.py` so that the state and the names can import them at run time
while importing the game itself for its type only (as Bump 'Em does): the game module
imports the state, never the other way round.
"""

from __future__ import annotations

SMOKEYS: tuple[str, ...] = ("smokey1", "smokey2")
BEAR = "bear"
PARK = "park"
HOME = "home"
SIDE = "side:"
"""The prefix of a side-of-the-road location ("side:R13")."""
