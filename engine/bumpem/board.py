"""The Bump 'Em board: a loop track, per-colour start, home stretch, finish and pit row.

Nothing of the published board is known beyond the rulebook (RULINGS.md B1), so the
board is data an owner edits to match the physical copy. `load_board` validates the
whole file and names the line and field of every mistake. Track spaces are numbered
1..N in the file and in position ids ("T1"); the rules use 0-based indices.

Position ids (used by corrections, previews and `layout`):
  "T<n>"               track space n (1..N)
  "pit:<colour>"       a colour's pit row (holds any number of cars)
  "home:<colour>:<j>"  step j (1..K) of a colour's home stretch
  "finish:<colour>"    a colour's finish area (holds any number of cars)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from engine.datafile import Checker, parse_toml

if TYPE_CHECKING:
    from engine.bumpem.kinds import SpotKind

KNOWN_COLOURS: tuple[str, ...] = ("red", "blue", "yellow", "green")
"""Colours a board may name; the file's order of [[colour]] tables is the seating order."""

SLIDE_LENGTH = 6
"""Spaces an oil slick slides a car forward (rulebook: "slide forward six spaces")."""

MIN_TRACK = 16
"""Shortest track accepted: longer than any move (12 ahead, 9 back), so no move can come
round the loop to the space it started from."""

_TOP_KEYS = {"name", "track_length", "home_stretch_length", "cars_per_player", "turbo",
             "colour", "oil_slick"}
_COLOUR_KEYS = {"name", "start", "home_entrance"}
_OIL_KEYS = {"space", "colour"}


@dataclass(frozen=True)
class Board:
    """A validated board. Track indices here are 0-based; ids and the file are 1-based."""

    name: str
    track_length: int
    home_length: int
    cars_per_player: int
    colours: tuple[str, ...]
    start: Mapping[str, int]
    entrance: Mapping[str, int]
    oil: Mapping[int, str]
    turbo: frozenset[int]


def track_id(index: int) -> str:
    """Position id of 0-based track index `index`."""
    return f"T{index + 1}"


def load_board(text: str, source: str) -> Board:
    """Parse and validate a board file; raise DataError listing every problem."""
    data, locator = parse_toml(text, source)
    check = Checker(source, locator)
    check.unknown_keys(data, _TOP_KEYS)
    name = data.get("name", "")
    if not isinstance(name, str):
        check.fail(f"expected a string, got {name!r}", "name")
        name = ""
    n = _positive(check, data, "track_length", MIN_TRACK)
    k = _positive(check, data, "home_stretch_length", 1)
    cars = _positive(check, data, "cars_per_player", 1)
    colours, start, entrance = _colours(check, data, n)
    oil = _oil_slicks(check, data, n, colours, start, entrance)
    turbo = _turbos(check, data, n, start, oil)
    check.done()
    assert n is not None and k is not None and cars is not None
    return Board(name=name, track_length=n, home_length=k, cars_per_player=cars,
                 colours=tuple(colours), start=start, entrance=entrance, oil=oil,
                 turbo=frozenset(turbo))


def _positive(check: Checker, table: Mapping[str, Any], key: str, least: int) -> int | None:
    value = check.require(table, key, int)
    if value is None:
        return None
    if value < least:
        check.fail(f"must be at least {least}, got {value}", key)
        return None
    return int(value)


def _space(check: Checker, value: Any, n: int | None, *path: str | int) -> int | None:
    """A 1-based track space number from the file as a 0-based index, or None."""
    if isinstance(value, bool) or not isinstance(value, int):
        check.fail(f"expected a track space number, got {value!r}", *path)
        return None
    if n is not None and not 1 <= value <= n:
        check.fail(f"unknown position: track spaces are 1..{n}, got {value}", *path)
        return None
    return value - 1


def _colours(check: Checker, data: Mapping[str, Any], n: int | None
             ) -> tuple[list[str], dict[str, int], dict[str, int]]:
    colours: list[str] = []
    start: dict[str, int] = {}
    entrance: dict[str, int] = {}
    tables = check.tables(data, "colour", _COLOUR_KEYS,
                          required="expected [[colour]] tables (2 to 4 of them)")
    if not tables:
        return colours, start, entrance
    count = len(data["colour"])
    if count < 2 or count > len(KNOWN_COLOURS):
        check.fail(f"expected 2 to {len(KNOWN_COLOURS)} colours, got {count}", "colour")
    used_start: dict[int, str] = {}
    for i, table in tables:
        name = check.require(table, "name", str, "colour", i)
        if name is not None and name not in KNOWN_COLOURS:
            check.fail(f"unknown colour {name!r}; use {', '.join(KNOWN_COLOURS)}",
                       "colour", i, "name")
            name = None
        if name is not None and name in colours:
            check.fail(f"duplicate colour {name!r}", "colour", i, "name")
            name = None
        s = _space(check, table["start"], n, "colour", i, "start") if "start" in table else None
        if "start" not in table:
            check.fail("missing", "colour", i, "start")
        e = None
        if "home_entrance" not in table:
            check.fail("missing", "colour", i, "home_entrance")
        else:
            e = _space(check, table["home_entrance"], n, "colour", i, "home_entrance")
        if s is not None and s in used_start:
            check.fail(f"duplicate position: T{s + 1} is already {used_start[s]}'s start",
                       "colour", i, "start")
            s = None
        if name is None:
            continue
        colours.append(name)
        if s is not None:
            used_start[s] = name
            start[name] = s
        if e is not None:
            entrance[name] = e
    if n is not None:
        _check_entrances(check, tables, colours, start, entrance, n)
    return colours, start, entrance


def _check_entrances(check: Checker, tables: list[tuple[int, dict[str, Any]]],
                     colours: list[str], start: dict[str, int], entrance: dict[str, int],
                     n: int) -> None:
    """Each home entrance lies before its own start, with no other start in between."""
    index = {name: i for i, table in tables
             for name in [table.get("name")] if isinstance(name, str)}
    seen: dict[int, str] = {}
    for colour in colours:
        if colour not in entrance or colour not in start:
            continue
        e, s = entrance[colour], start[colour]
        i = index[colour]
        if e in seen:
            check.fail(f"duplicate position: T{e + 1} is already {seen[e]}'s home entrance",
                       "colour", i, "home_entrance")
            continue
        seen[e] = colour
        gap = (s - e) % n
        others = [(st - e) % n for c, st in start.items() if c != colour]
        if e == s or any(0 < o <= gap for o in others) or gap > n // 2:
            check.fail(f"home entrance T{e + 1} is not before {colour}'s start T{s + 1} "
                       "(it must come shortly before it, with no other start between)",
                       "colour", i, "home_entrance")


def _oil_slicks(check: Checker, data: Mapping[str, Any], n: int | None, colours: list[str],
                start: dict[str, int], entrance: dict[str, int]) -> dict[int, str]:
    oil: dict[int, str] = {}
    starts = {s: c for c, s in start.items()}
    for i, table in check.tables(data, "oil_slick", _OIL_KEYS):
        colour = check.require(table, "colour", str, "oil_slick", i)
        if colour is not None and colour not in colours:
            check.fail(f"unknown colour {colour!r}; the board's colours are "
                       f"{', '.join(colours)}", "oil_slick", i, "colour")
            colour = None
        if "space" not in table:
            check.fail("missing", "oil_slick", i, "space")
            continue
        space = _space(check, table["space"], n, "oil_slick", i, "space")
        if space is None or colour is None or n is None:
            continue
        if space in oil:
            check.fail(f"duplicate position: T{space + 1} already has an oil slick",
                       "oil_slick", i, "space")
            continue
        if space in starts:
            check.fail(f"an oil slick cannot be on {starts[space]}'s start space T{space + 1}",
                       "oil_slick", i, "space")
            continue
        for other, e in entrance.items():
            if other != colour and (e - space) % n < SLIDE_LENGTH:
                check.fail(f"the slide from T{space + 1} would carry {other} cars past "
                           f"their home entrance T{e + 1}", "oil_slick", i, "space")
        oil[space] = colour
    return oil


def _turbos(check: Checker, data: Mapping[str, Any], n: int | None, start: dict[str, int],
            oil: dict[int, str]) -> set[int]:
    turbo: set[int] = set()
    raw = data.get("turbo", [])
    if not isinstance(raw, list):
        check.fail(f"expected a list of track spaces, got {raw!r}", "turbo")
        return turbo
    starts = {s: c for c, s in start.items()}
    for value in raw:
        space = _space(check, value, n, "turbo")
        if space is None:
            continue
        if space in turbo:
            check.fail(f"duplicate position: T{space + 1} listed twice", "turbo")
        elif space in starts:
            check.fail(f"a turbo space cannot be {starts[space]}'s start space T{space + 1}",
                       "turbo")
        elif space in oil:
            check.fail(f"T{space + 1} is already an oil slick", "turbo")
        else:
            turbo.add(space)
    return turbo


class Spot(NamedTuple):
    """One drawable position: where it is (0..1 both ways), its label and what it is."""

    position_id: str
    x: float
    y: float
    label: str
    kind: SpotKind
    colour: str
    """The colour a space belongs to (start, oil slick, home, finish, pit), else ""."""


def _perimeter(t: float) -> tuple[float, float]:
    """A point on a square loop inset in the unit square; t in [0, 1) runs clockwise."""
    lo, hi = 0.1, 0.9
    side = hi - lo
    d = (t % 1.0) * 4
    if d < 1:
        return lo + side * d, lo
    if d < 2:
        return hi, lo + side * (d - 1)
    if d < 3:
        return hi - side * (d - 2), hi
    return lo, hi - side * (d - 3)


def layout(board: Board) -> list[Spot]:
    """Every position of `board` with drawing coordinates: pure data for a renderer.

    The track runs clockwise around a square; each home stretch runs from its entrance
    toward the centre and ends in the finish area; each pit row sits outside the start.
    """
    n = board.track_length
    spots: list[Spot] = []
    starts = {s: c for c, s in board.start.items()}
    for i in range(n):
        x, y = _perimeter(i / n)
        kind: SpotKind
        if i in starts:
            kind, colour = "start", starts[i]
        elif i in board.oil:
            kind, colour = "oil", board.oil[i]
        elif i in board.turbo:
            kind, colour = "turbo", ""
        else:
            kind, colour = "track", ""
        spots.append(Spot(track_id(i), round(x, 4), round(y, 4), str(i + 1), kind, colour))
    for colour in board.colours:
        ex, ey = _perimeter(board.entrance[colour] / n)
        k = board.home_length
        for j in range(1, k + 2):
            f = j / (k + 2)
            x, y = ex + (0.5 - ex) * f * 0.8, ey + (0.5 - ey) * f * 0.8
            if j <= k:
                spots.append(Spot(f"home:{colour}:{j}", round(x, 4), round(y, 4), f"H{j}",
                                  "home", colour))
            else:
                spots.append(Spot(f"finish:{colour}", round(x, 4), round(y, 4), "Finish",
                                  "finish", colour))
        sx, sy = _perimeter(board.start[colour] / n)
        px, py = 0.5 + (sx - 0.5) * 1.12, 0.5 + (sy - 0.5) * 1.12
        spots.append(Spot(f"pit:{colour}", round(px, 4), round(py, 4), "Pit", "pit", colour))
    return spots
