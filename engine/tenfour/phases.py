"""The phases a 10-Four turn walks through, named once for every rules module.

"draw" (chance) -> "spin" (chance) -> the automatic truck move (or "choose" in the
two-player game) -> "police" after BREAK ONE NINE. Kept apart from `state.py` so the
rules modules (police, trucks, turns, corrections) set a phase without importing the
state at run time.
"""

from __future__ import annotations

START_SPIN = "start_spin"
PLACE = "place_smokey"
DECLARE = "declare_truck"
DRAW = "draw"
SPIN = "spin"
CHOOSE = "choose_truck"
POLICE = "police"
OVER = "over"
PHASES = (START_SPIN, PLACE, DECLARE, DRAW, SPIN, CHOOSE, POLICE, OVER)
CHANCE_PHASES = frozenset((START_SPIN, DRAW, SPIN))
