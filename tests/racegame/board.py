"""Race to 20's track: loaded from its own data file, summarised and drawn."""

from __future__ import annotations

import tomllib

from cbrig.game import (
    BLACK,
    FILL,
    INK,
    BoardGeometry,
    BoardTools,
    DataError,
    Frozen,
    Label,
    Problem,
    Space,
    finish,
    grid_slots,
    piece_mm,
)

PITCH_MM = 18.0


class Track(Frozen):
    name: str
    spaces: int
    per_row: int


def load_board(text: str, source: str) -> Track:
    """The track, or DataError naming each mistake."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError([Problem(source, None, "syntax", f"not TOML: {exc}")]) from exc
    problems = []
    for key in ("spaces", "per_row"):
        value = data.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or value < 2:
            problems.append(Problem(source, None, key, "a whole number of 2 or more"))
    if problems:
        raise DataError(problems)
    return Track(str(data.get("name", "track")), int(data["spaces"]), int(data["per_row"]))


def summary(track: Track) -> list[str]:
    return [track.name, f"{track.spaces} spaces, {track.per_row} a row"]


def geometry(track: Track) -> BoardGeometry:
    """The spaces in rows, START first; each space holds a piece of every runner."""
    side = PITCH_MM * 0.9
    spaces = []
    for number in range(track.spaces):
        row, column = divmod(number, track.per_row)
        x, y = column * PITCH_MM, row * PITCH_MM
        colour = "green" if number == 0 else "red" if number == track.spaces - 1 else "yellow"
        words = "START" if number == 0 else str(number)
        spaces.append(Space(str(number), "space", colour, "rect", x, y, side, side,
                            FILL[colour], INK[colour],
                            labels=(Label(words, x, y - side / 3, 3.0, BLACK, True),),
                            slots=grid_slots(x, y + 2, side * 0.8, side * 0.5, 3, 2)))
    return finish("race", track.name, side, piece_mm(side) / 2, spaces, [], [], [],
                  (0.0, track.spaces // track.per_row * PITCH_MM + PITCH_MM))


TOOLS = BoardTools(Track, load_board, summary, geometry)
"""``cbrig board``, ``cbrig print`` and the live board (found by folder_parts)."""
