"""Places and cars named as the board shows them (RULINGS G4).

Cars of one colour look the same on the table, so a car is named by where it stands:
"Red car at T35", "Red car in pit", "Red car in home stretch 3", never "car 2".
A track space's printed label is its position id ("T35"): `cbrig print` prints exactly
these labels (`position_label`) and the live board uses them.

Position ids (engine/bumpem/board.py): "T<n>", "pit:<colour>", "home:<colour>:<j>",
"finish:<colour>".
"""

from __future__ import annotations


def colour_word(colour: str) -> str:
    return colour.capitalize()


_OFF_TRACK: tuple[tuple[str, str, str], ...] = (
    # id prefix, printed label, words ("{n}" is the home-stretch step)
    ("pit:", "Pit", "pit"),
    ("finish:", "Finish", "finish"),
    ("home:", "{n}", "home stretch {n}"),
)
"""The places off the track, in one table so the printed label and the words agree (a
home-stretch square prints its step under a HOME STRETCH caption: the screen's words)."""


def _off_track(position_id: str, column: int) -> str:
    for prefix, *forms in _OFF_TRACK:
        if position_id.startswith(prefix):
            return forms[column - 1].format(n=position_id.rsplit(":", 1)[1])
    return position_id


def position_label(position_id: str) -> str:
    """The short label printed on the board: "T35", "Pit", "3" (a home-stretch step,
    printed under HOME STRETCH), "Finish"."""
    return _off_track(position_id, 1)


def position_name(position_id: str) -> str:
    """A place in words: "T35", "pit", "home stretch 3", "finish"."""
    return _off_track(position_id, 2)


def position_phrase(position_id: str) -> str:
    """The place with its preposition: "at T35", "in pit", "in home stretch 3",
    "in finish"."""
    name = position_name(position_id)
    return f"at {name}" if position_id.startswith("T") else f"in {name}"


def destination_phrase(position_id: str) -> str:
    """Where a move ends: "to T35", "to pit", "to home stretch 3", "to finish"."""
    return f"to {position_name(position_id)}"


def car_at(colour: str, position_id: str) -> str:
    """"Red car at T35", "Blue car in pit": the physical car a person can find."""
    return f"{colour_word(colour)} car {position_phrase(position_id)}"


def position_rank(position_id: str, track_length: int, start: int = 0) -> int:
    """Sort key in board order for one colour: pit, the track from `start` (0-based)
    round the loop, the home stretch, finish."""
    if position_id.startswith("pit:"):
        return -1
    if position_id.startswith("home:"):
        return track_length + int(position_id.rsplit(":", 1)[1])
    if position_id.startswith("finish:"):
        return 10 * track_length
    return (int(position_id[1:]) - 1 - start) % track_length
