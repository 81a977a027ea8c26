"""The part table (wiring/parts.toml): each supported part's outline, holes and features.

One table for the wiring and the case, so the two can never name different parts. It
is validated on load like every data file here (engine.datafile): each mistake names
the file, line and field, and all of them are reported at once. Pure Python: the table
loads on a Pi without the case extra.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.datafile import Checker, parse_toml
from engine.errors import DataError
from valueclass import Frozen

TABLE_PATH = Path(__file__).resolve().parents[3] / "wiring" / "parts.toml"
"""The shipped table, in the checkout beside the code (`cbrig case build --parts` for
another)."""

ROLES = ("pi", "display", "encoder", "reader", "antenna", "buzzer", "led", "amplifier",
         "speaker")
MOUNTS = ("screws", "clamp", "nut", "socket", "press")
EDGES = ("bottom", "top", "left", "right")
SCREWS = ("", "M2", "M2.5", "M3")

Box2 = tuple[float, float, float, float]
"""x, y, width, height on a board."""


class Connector(Frozen):
    """A socket on a board's edge that a plug must reach through the case wall."""

    name: str
    edge: str
    at: float
    width: float
    height: float
    plug: tuple[float, float]
    overhang: float
    """How far the socket's body reaches past the board's edge."""
    depth: float
    """How far the socket's body reaches in from the board's edge."""


class Part(Frozen):
    id: str
    name: str
    wiring: str
    """The name wiring/README.md and PARTS.md use ("" for a part they do not list)."""
    role: str
    choice: str
    """The config value that picks this part (display.driver, reader.type, case.pi...)."""
    source: str
    tolerance: float
    size: tuple[float, float]
    """Outline (x, y); a round part's is its diameter twice."""
    thickness: float
    above: float
    below: float
    holes: tuple[tuple[float, float], ...]
    hole_diameter: float
    screw: str
    mount: str
    round: bool = False
    connectors: tuple[Connector, ...] = ()
    window: Box2 | None = None
    antenna: Box2 | None = None
    read_range: float = 0.0
    antenna_part: str = ""
    shaft: tuple[float, float] | None = None
    body: tuple[float, float, float] | None = None
    bushing_diameter: float = 0.0
    bushing_length: float = 0.0
    shaft_diameter: float = 0.0
    shaft_flat: float = 0.0
    shaft_length: float = 0.0
    nut: tuple[float, float] | None = None
    flange: float = 0.0
    header: tuple[str, float] | None = None
    """A right-angle pin header leaving the board at this edge, and how far the Dupont
    housings on it reach beyond the edge."""

    @property
    def diameter(self) -> float:
        return self.size[0]


class PartTable(Frozen):
    parts: tuple[Part, ...]
    source: str

    def by_id(self, part_id: str) -> Part:
        for part in self.parts:
            if part.id == part_id:
                return part
        raise KeyError(part_id)

    def choose(self, role: str, choice: str) -> Part:
        """The part of `role` the config value `choice` picks (KeyError naming the choices)."""
        for part in self.parts:
            if part.role == role and part.choice == choice:
                return part
        offered = ", ".join(p.choice for p in self.parts if p.role == role)
        raise KeyError(f"no {role} part {choice!r} in {self.source} (it has {offered})")

    def choices(self, role: str) -> tuple[str, ...]:
        return tuple(p.choice for p in self.parts if p.role == role)

    def wiring_names(self) -> set[str]:
        return {p.wiring for p in self.parts if p.wiring}


_REQUIRED: dict[str, type | tuple[type, ...]] = {
    "id": str, "name": str, "wiring": str, "role": str, "choice": str, "source": str,
    "tolerance": (int, float), "thickness": (int, float), "above": (int, float),
    "below": (int, float), "holes": list, "hole_diameter": (int, float), "screw": str,
    "mount": str,
}
_OPTIONAL: dict[str, type | tuple[type, ...]] = {
    "size": list, "diameter": (int, float), "connectors": list, "window": list,
    "antenna": list, "read_range": (int, float), "antenna_part": str, "shaft": list,
    "body": list, "bushing_diameter": (int, float), "bushing_length": (int, float),
    "shaft_diameter": (int, float), "shaft_flat": (int, float), "shaft_length": (int, float),
    "nut": list, "flange": (int, float), "header": list,
}
_CONNECTOR_KEYS = ("name", "edge", "at", "width", "height", "plug", "overhang", "depth")


def load_parts(path: str | Path | None = None) -> PartTable:
    """Load and validate the part table; DataError lists every mistake."""
    path = Path(path) if path is not None else TABLE_PATH
    return parse_parts(path.read_text(encoding="utf-8"), str(path))


def parse_parts(text: str, source: str) -> PartTable:
    data, locator = parse_toml(text, source)
    check = Checker(source, locator)
    check.unknown_keys(data, ("part",), what="table")
    parts: list[tuple[int, Part]] = []
    for i, table in check.tables(data, "part", (*_REQUIRED, *_OPTIONAL),
                                 required="no [[part]] tables"):
        part = _part(check, i, table)
        if part is not None:
            parts.append((i, part))
    _cross_check(check, parts)
    check.done()
    return PartTable(tuple(part for _, part in parts), source)


def _numbers(check: Checker, value: Any, count: int, *path: str | int) -> tuple[float, ...] | None:
    """`value` as `count` numbers (each >= 0), else a problem and None."""
    if (not isinstance(value, list) or len(value) != count
            or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)):
        check.fail(f"expected {count} numbers, got {value!r}", *path)
        return None
    if any(v < 0 for v in value):
        check.fail(f"negative size in {value!r}", *path)
        return None
    return tuple(float(v) for v in value)


def _part(check: Checker, i: int, t: dict[str, Any]) -> Part | None:
    at = ("part", i)
    before = len(check.problems)
    values: dict[str, Any] = {}
    for key, kind in _REQUIRED.items():
        values[key] = check.require(t, key, kind, *at)
    for key in ("tolerance", "thickness", "above", "below", "hole_diameter"):
        if isinstance(values[key], int | float) and values[key] < 0:
            check.fail(f"{values[key]} is negative", *at, key)
    for key, options in (("role", ROLES), ("mount", MOUNTS), ("screw", SCREWS)):
        if isinstance(values[key], str) and values[key] not in options:
            check.fail(f"{values[key]!r} is not one of {', '.join(map(repr, options))}",
                       *at, key)
    for key, kind in _OPTIONAL.items():
        if key in t:
            check.require(t, key, kind, *at)
    size: tuple[float, ...] | None
    round_part = "diameter" in t
    if round_part == ("size" in t):
        check.fail("give either size = [x, y] or diameter", *at, "size")
        return None
    if round_part:
        d = t["diameter"]
        size = (float(d), float(d)) if isinstance(d, int | float) and d > 0 else None
        if size is None:
            check.fail(f"expected a positive diameter, got {d!r}", *at, "diameter")
    else:
        size = _numbers(check, t["size"], 2, *at, "size")
    if size is None or any(v is None for v in values.values()):
        return None
    holes = _holes(check, t["holes"], size, *at)
    if values["mount"] == "screws" and not holes:
        check.fail("a part mounted by screws needs its holes", *at, "holes")
    if holes and values["hole_diameter"] <= 0:
        check.fail("holes need a hole_diameter above 0", *at, "hole_diameter")
    if values["mount"] in ("screws", "clamp") and not values["screw"]:
        check.fail(f"mount {values['mount']!r} needs a screw size", *at, "screw")
    extra: dict[str, Any] = {}
    for key in ("window", "antenna"):
        if key in t:
            box = _numbers(check, t[key], 4, *at, key)
            if box is not None:
                if box[0] + box[2] > size[0] + 1e-6 or box[1] + box[3] > size[1] + 1e-6:
                    check.fail(f"{key} {list(box)} reaches outside the {size[0]} x {size[1]} "
                               "outline", *at, key)
                extra[key] = box
    for key, count in (("shaft", 2), ("body", 3), ("nut", 2)):
        if key in t:
            found = _numbers(check, t[key], count, *at, key)
            if found is not None:
                extra[key] = found
    for key in ("read_range", "bushing_diameter", "bushing_length", "shaft_diameter",
                "shaft_flat", "shaft_length", "flange"):
        if isinstance(t.get(key), int | float):
            extra[key] = float(t[key])
    if "header" in t:
        raw = t["header"]
        if (isinstance(raw, list) and len(raw) == 2 and raw[0] in EDGES
                and isinstance(raw[1], int | float) and not isinstance(raw[1], bool)
                and raw[1] >= 0):
            extra["header"] = (str(raw[0]), float(raw[1]))
        else:
            check.fail(f"expected [edge, reach] with edge one of {', '.join(EDGES)}, got "
                       f"{raw!r}", *at, "header")
    if isinstance(t.get("antenna_part"), str):
        extra["antenna_part"] = t["antenna_part"]
    if values["role"] == "encoder":
        for key in ("shaft", "body", "nut", "bushing_diameter", "bushing_length",
                    "shaft_diameter", "shaft_flat", "shaft_length"):
            if key not in extra:
                check.fail("an encoder needs it", *at, key)
        if 0 < extra.get("shaft_flat", 0) >= extra.get("shaft_diameter", 0) > 0:
            check.fail("the D flat must be less than the shaft diameter", *at, "shaft_flat")
    if values["role"] == "display" and "window" not in extra:
        check.fail("a display needs its window (the active area)", *at, "window")
    if values["role"] == "reader" and "read_range" not in extra:
        check.fail("a reader needs its read_range", *at, "read_range")
    connectors = _connectors(check, t.get("connectors", []), size, *at)
    if len(check.problems) > before:
        return None
    values["holes"] = holes
    return Part(**values, size=(size[0], size[1]), round=round_part,
                connectors=connectors, **extra)


def _holes(check: Checker, raw: Any, size: tuple[float, ...],
           *at: str | int) -> tuple[tuple[float, float], ...]:
    holes: list[tuple[float, float]] = []
    for hole in raw if isinstance(raw, list) else []:
        xy = _numbers(check, hole, 2, *at, "holes")
        if xy is None:
            continue
        if not (0 < xy[0] < size[0] and 0 < xy[1] < size[1]):
            check.fail(f"hole {list(xy)} is outside the {size[0]} x {size[1]} outline",
                       *at, "holes")
            continue
        holes.append((xy[0], xy[1]))
    return tuple(holes)


def _connectors(check: Checker, raw: Any, size: tuple[float, ...],
                *at: str | int) -> tuple[Connector, ...]:
    found: list[Connector] = []
    for j, c in enumerate(raw if isinstance(raw, list) else []):
        where = (*at, "connectors")
        if not isinstance(c, dict):
            check.fail(f"connector {j + 1}: expected a table, got {c!r}", *where)
            continue
        missing = [k for k in _CONNECTOR_KEYS if k not in c]
        unknown = sorted(set(c) - set(_CONNECTOR_KEYS))
        if missing or unknown:
            check.fail(f"connector {j + 1}: missing {missing}, unknown {unknown}", *where)
            continue
        plug = _numbers(check, c["plug"], 2, *where)
        numbers = [c[k] for k in ("at", "width", "height", "depth")]
        if (plug is None or c["edge"] not in EDGES
                or not all(isinstance(n, int | float) and n > 0 for n in numbers)
                or not isinstance(c["overhang"], int | float) or c["overhang"] < 0):
            check.fail(f"connector {j + 1}: edge one of {', '.join(EDGES)}; at, width, "
                       "height and depth positive numbers, overhang 0 or more", *where)
            continue
        along = size[0] if c["edge"] in ("bottom", "top") else size[1]
        if not 0 < c["at"] < along:
            check.fail(f"connector {c['name']!r}: at {c['at']} is off its {along} mm edge",
                       *where)
            continue
        found.append(Connector(str(c["name"]), c["edge"], float(c["at"]), float(c["width"]),
                               float(c["height"]), (plug[0], plug[1]), float(c["overhang"]),
                               float(c["depth"])))
    return tuple(found)


def _cross_check(check: Checker, parts: list[tuple[int, Part]]) -> None:
    seen: dict[str, int] = {}
    picks: set[tuple[str, str]] = set()
    for i, part in parts:
        if part.id in seen:
            check.fail(f"id {part.id!r} is used twice", "part", i, "id")
        seen[part.id] = i
        if (part.role, part.choice) in picks:
            check.fail(f"two {part.role} parts are picked by {part.choice!r}", "part", i,
                       "choice")
        picks.add((part.role, part.choice))
    for i, part in parts:
        if part.antenna_part and part.antenna_part not in seen:
            check.fail(f"no part {part.antenna_part!r} in the table", "part", i,
                       "antenna_part")
        if part.role == "reader" and part.antenna is None and not part.antenna_part:
            check.fail("a reader needs an antenna area or an antenna_part", "part", i,
                       "antenna")


__all__ = ["ROLES", "TABLE_PATH", "Connector", "DataError", "Part", "PartTable",
           "load_parts", "parse_parts"]
