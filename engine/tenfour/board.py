"""The 10-Four board: a clockwise loop of highway spaces and the side spaces around it.

The published layout is unknown (RULINGS.md), so the board is data an owner edits to
match the physical copy. `load_board` validates the whole file and names the line and
field of every mistake; the `Board` it returns carries precomputed adjacency so the
rules never search the loop while a game is played.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.datafile import Checker, parse_toml
from valueclass import Frozen, field, replace

COLOURS: tuple[str, ...] = ("red", "green", "blue", "yellow")
"""The four truck colours, in the default clockwise order of their routes."""


class Route(Frozen):
    """One coloured stretch of the loop; its first space is that colour's start."""

    colour: str
    spaces: tuple[str, ...]


class Trap(Frozen):
    """A Bear Trap: a side space beside three consecutive highway spaces.

    A Smokey steps in from any `entry` space and leaves by one step onto `exit`.
    """

    id: str
    spaces: tuple[str, str, str]
    entry: tuple[str, ...]
    exit: str


class ShortCut(Frozen):
    """A "For Official Use Only" short cut: one space between an entry and an exit."""

    id: str
    entry: str
    exit: str


class Curve(Frozen):
    """A Hammer Up curve: three consecutive highway spaces."""

    id: str
    spaces: tuple[str, str, str]


class BearSpace(Frozen):
    """A Bear In The Air space; the Bear on it watches `route`."""

    id: str
    route: str
    beside: str


class Board(Frozen):
    """A validated board with lookup tables the rules use on every move."""

    name: str
    routes: tuple[Route, ...]
    traps: tuple[Trap, ...]
    shortcuts: tuple[ShortCut, ...]
    curves: tuple[Curve, ...]
    bears: tuple[BearSpace, ...]
    park: str
    loop: tuple[str, ...]
    index: Mapping[str, int]
    route_of: tuple[str, ...]
    """Colour of the route each loop index belongs to."""
    start: Mapping[str, int]
    """Colour -> loop index of that colour's start space."""
    on_curve: tuple[bool, ...]
    traps_at: tuple[tuple[str, ...], ...]
    """Loop index -> ids of the traps whose three spaces include it."""
    xy: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    """Drawing position of every space and side space, in a unit square (y down)."""

    @property
    def size(self) -> int:
        return len(self.loop)

    def trap(self, trap_id: str) -> Trap:
        return next(t for t in self.traps if t.id == trap_id)

    def shortcut(self, shortcut_id: str) -> ShortCut:
        return next(s for s in self.shortcuts if s.id == shortcut_id)

    def bear(self, bear_id: str) -> BearSpace:
        return next(b for b in self.bears if b.id == bear_id)


_FIELDS: dict[str, frozenset[str]] = {
    "board": frozenset({"name"}),
    "route": frozenset({"colour", "spaces"}),
    "trap": frozenset({"id", "spaces", "entry", "exit"}),
    "shortcut": frozenset({"id", "entry", "exit"}),
    "curve": frozenset({"id", "spaces"}),
    "bear": frozenset({"id", "route", "beside"}),
    "park": frozenset({"name"}),
    "layout": frozenset({"at"}),
}
"""Every table of a board file -> the fields it may have."""


def load_board(text: str, source: str) -> Board:
    """Parse and validate a board file; raise DataError listing every problem."""
    data, locator = parse_toml(text, source)
    check = Checker(source, locator)
    parsed = _BoardParser(data, check).parse()
    check.done()
    assert parsed is not None
    return parsed


class _BoardParser:
    """Reads each table, recording problems instead of stopping at the first."""

    def __init__(self, data: dict[str, Any], check: Checker) -> None:
        self.data = data
        self.check = check
        self.ids: dict[str, str] = {}
        """Every id used so far -> what it names, to catch duplicates across tables."""
        self.loop: list[str] = []
        self.index: dict[str, int] = {}

    def parse(self) -> Board | None:
        name = self._name()
        routes = self._routes()
        traps = self._traps()
        shortcuts = self._shortcuts()
        curves = self._curves()
        bears = self._bears(routes)
        park = self._park()
        self._known_tables()
        if self.check.problems:
            return None
        route_of: list[str] = []
        for route in routes:
            route_of.extend([route.colour] * len(route.spaces))
        start = {route.colour: self.index[route.spaces[0]] for route in routes}
        on_curve = [False] * len(self.loop)
        for curve in curves:
            for space in curve.spaces:
                on_curve[self.index[space]] = True
        traps_at: list[list[str]] = [[] for _ in self.loop]
        for trap in traps:
            for space in trap.spaces:
                traps_at[self.index[space]].append(trap.id)
        board = Board(
            name=name, routes=tuple(routes), traps=tuple(traps),
            shortcuts=tuple(shortcuts), curves=tuple(curves), bears=tuple(bears), park=park,
            loop=tuple(self.loop), index=dict(self.index), route_of=tuple(route_of),
            start=start, on_curve=tuple(on_curve),
            traps_at=tuple(tuple(t) for t in traps_at),
        )
        positions = square_layout(board)
        positions.update(self._overrides())
        if self.check.problems:
            return None
        return replace(board, xy=positions)

    # -- sections -------------------------------------------------------------------

    def _name(self) -> str:
        table = self.data.get("board", {})
        if not isinstance(table, dict):
            self.check.fail("expected a table", "board")
            return ""
        self.check.unknown_keys(table, _FIELDS["board"], "board")
        name = table.get("name", "10-Four board")
        if not isinstance(name, str):
            self.check.fail(f"expected a string, got {name!r}", "board", "name")
            return ""
        return name

    def _list_of_tables(self, key: str, required: bool) -> list[tuple[int, dict[str, Any]]]:
        return self.check.tables(self.data, key, _FIELDS[key],
                                 required=f"no [[{key}]] tables" if required else None)

    def _claim(self, ident: Any, what: str, *path: str | int) -> str | None:
        """Register a new id; report a wrong type, an empty id or a duplicate."""
        if not isinstance(ident, str) or not ident.strip():
            self.check.fail(f"expected a non-empty string id, got {ident!r}", *path)
            return None
        if ident.lower() == "park" or ident.startswith("side:") or ident == "home":
            self.check.fail(f"{ident!r} is reserved", *path)
            return None
        if ident in self.ids:
            self.check.fail(f"duplicate id {ident!r} (already a {self.ids[ident]})", *path)
            return None
        self.ids[ident] = what
        return ident

    def _routes(self) -> list[Route]:
        routes: list[Route] = []
        seen: set[str] = set()
        for i, table in self._list_of_tables("route", required=True):
            colour = self.check.require(table, "colour", str, "route", i)
            spaces = self.check.require(table, "spaces", list, "route", i)
            if colour is not None and colour not in COLOURS:
                self.check.fail(f"unknown colour {colour!r}; use one of {', '.join(COLOURS)}",
                                "route", i, "colour")
                colour = None
            elif colour is not None and colour in seen:
                self.check.fail(f"a second {colour} route", "route", i, "colour")
                colour = None
            if colour is not None:
                seen.add(colour)
            if spaces is not None and not spaces:
                self.check.fail("a route needs at least one space", "route", i, "spaces")
            good: list[str] = []
            for space in spaces or []:
                ident = self._claim(space, "highway space", "route", i, "spaces")
                if ident is not None:
                    good.append(ident)
                    self.index[ident] = len(self.loop)
                    self.loop.append(ident)
            if colour is not None and good and len(good) == len(spaces or []):
                routes.append(Route(colour, tuple(good)))
        missing = [c for c in COLOURS if c not in seen]
        if missing and "route" in self.data:
            self.check.fail(f"no route for {', '.join(missing)}; the board needs all four",
                            "route")
        return routes

    def _space(self, value: Any, *path: str | int) -> str | None:
        """A reference to an existing highway space."""
        if not isinstance(value, str):
            self.check.fail(f"expected a space id, got {value!r}", *path)
            return None
        if value not in self.index:
            self.check.fail(f"unknown highway space {value!r}", *path)
            return None
        return value

    def _three_consecutive(self, value: Any, *path: str | int) -> tuple[str, str, str] | None:
        """Three existing highway spaces, each the clockwise successor of the one before."""
        if not isinstance(value, list) or len(value) != 3:
            self.check.fail(f"expected a list of three space ids, got {value!r}", *path)
            return None
        spaces = [self._space(v, *path) for v in value]
        if any(s is None for s in spaces):
            return None
        a, b, c = (self.index[s] for s in spaces if s is not None)
        n = len(self.loop)
        if b != (a + 1) % n or c != (b + 1) % n:
            self.check.fail(f"{value!r} are not three consecutive spaces clockwise", *path)
            return None
        return (value[0], value[1], value[2])

    def _traps(self) -> list[Trap]:
        traps: list[Trap] = []
        for i, table in self._list_of_tables("trap", required=True):
            ident = self._claim(table.get("id"), "Bear Trap", "trap", i, "id")
            spaces = self._three_consecutive(table.get("spaces"), "trap", i, "spaces")
            entry: list[str] = list(spaces) if spaces else []
            if "entry" in table:
                raw = table["entry"]
                if not isinstance(raw, list) or not raw:
                    self.check.fail("expected a non-empty list of space ids", "trap", i, "entry")
                    entry = []
                else:
                    found = [self._space(v, "trap", i, "entry") for v in raw]
                    entry = [s for s in found if s is not None]
            exit_space: str | None = None
            if "exit" in table:
                exit_space = self._space(table["exit"], "trap", i, "exit")
            elif spaces:
                exit_space = self.loop[(self.index[spaces[2]] + 1) % len(self.loop)]
            if ident and spaces and entry and exit_space:
                traps.append(Trap(ident, spaces, tuple(entry), exit_space))
        return traps

    def _shortcuts(self) -> list[ShortCut]:
        cuts: list[ShortCut] = []
        for i, table in self._list_of_tables("shortcut", required=False):
            ident = self._claim(table.get("id"), "short cut", "shortcut", i, "id")
            entry = self._space(table.get("entry"), "shortcut", i, "entry")
            exit_space = self._space(table.get("exit"), "shortcut", i, "exit")
            if entry and exit_space:
                ahead = (self.index[exit_space] - self.index[entry]) % len(self.loop)
                if ahead < 3:
                    self.check.fail(
                        f"exit {exit_space!r} is only {ahead} spaces after entry {entry!r}; "
                        "a short cut must save at least one step", "shortcut", i, "exit")
                    continue
            if ident and entry and exit_space:
                cuts.append(ShortCut(ident, entry, exit_space))
        return cuts

    def _curves(self) -> list[Curve]:
        curves: list[Curve] = []
        for i, table in self._list_of_tables("curve", required=False):
            ident = self._claim(table.get("id"), "Hammer Up curve", "curve", i, "id")
            spaces = self._three_consecutive(table.get("spaces"), "curve", i, "spaces")
            if ident and spaces:
                curves.append(Curve(ident, spaces))
        return curves

    def _bears(self, routes: list[Route]) -> list[BearSpace]:
        bears: list[BearSpace] = []
        colours = {r.colour for r in routes}
        for i, table in self._list_of_tables("bear", required=True):
            ident = self._claim(table.get("id"), "Bear space", "bear", i, "id")
            route = self.check.require(table, "route", str, "bear", i)
            if route is not None and route not in COLOURS:
                self.check.fail(f"unknown route {route!r}", "bear", i, "route")
                route = None
            beside = self._space(table.get("beside"), "bear", i, "beside")
            if beside and route and beside in self.index and colours == set(COLOURS):
                owner = next(r.colour for r in routes if beside in r.spaces)
                if owner != route:
                    self.check.fail(f"{beside!r} is on the {owner} route, not {route}",
                                    "bear", i, "beside")
                    continue
            if ident and route and beside:
                bears.append(BearSpace(ident, route, beside))
        watched = {b.route for b in bears}
        raw_routes = self.data.get("route")
        for route_index, table in enumerate(raw_routes if isinstance(raw_routes, list) else []):
            colour = table.get("colour") if isinstance(table, dict) else None
            if colour in colours and colour not in watched:
                self.check.fail(f"the {colour} route has no Bear space", "route", route_index,
                                "colour")
        return bears

    def _park(self) -> str:
        table = self.data.get("park")
        if table is None:
            return "Yellowstone Park"
        if not isinstance(table, dict):
            self.check.fail("expected a table", "park")
            return ""
        self.check.unknown_keys(table, _FIELDS["park"], "park")
        name = table.get("name", "Yellowstone Park")
        if not isinstance(name, str):
            self.check.fail(f"expected a string, got {name!r}", "park", "name")
            return ""
        return name

    def _overrides(self) -> dict[str, tuple[float, float]]:
        """`[layout.at]` ID = [x, y] places a space by hand (unit square, y down)."""
        layout = self.data.get("layout", {})
        if not isinstance(layout, dict):
            self.check.fail("expected a table", "layout")
            return {}
        self.check.unknown_keys(layout, _FIELDS["layout"], "layout")
        at = layout.get("at", {})
        if not isinstance(at, dict):
            self.check.fail("expected a table", "layout", "at")
            return {}
        out: dict[str, tuple[float, float]] = {}
        for ident, value in at.items():
            if ident not in self.ids:
                self.check.fail(f"unknown id {ident!r}", "layout", "at", ident)
                continue
            ok = (isinstance(value, list) and len(value) == 2
                  and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value))
            if not ok:
                self.check.fail(f"expected [x, y] numbers, got {value!r}", "layout", "at", ident)
                continue
            out[ident] = (float(value[0]), float(value[1]))
        return out

    def _known_tables(self) -> None:
        self.check.unknown_keys(self.data, _FIELDS, what="table")


def square_layout(board: Board) -> dict[str, tuple[float, float]]:
    """Place the loop evenly round a square (clockwise from the top-left corner).

    The last loop space sits on the top-left corner, so with four routes of equal length
    each route runs along one side and ends on the next corner. Side spaces go beside
    what they serve: traps outside the loop, short cuts and Bear spaces inside it.
    """
    n = board.size
    pos: dict[str, tuple[float, float]] = {}
    for i, space in enumerate(board.loop):
        pos[space] = _perimeter(((i + 1) % n) / n)
    for trap in board.traps:
        x, y = pos[trap.spaces[1]]
        pos[trap.id] = _push(x, y, 0.07)
    for cut in board.shortcuts:
        (x1, y1), (x2, y2) = pos[cut.entry], pos[cut.exit]
        pos[cut.id] = _push((x1 + x2) / 2, (y1 + y2) / 2, -0.06)
    for bear in board.bears:
        x, y = pos[bear.beside]
        pos[bear.id] = _push(x, y, -0.12)
    return pos


def _perimeter(t: float) -> tuple[float, float]:
    """Point at fraction t of the way clockwise round the unit square from (0, 0)."""
    side, along = divmod(t * 4, 1.0)
    if side == 0:
        return (along, 0.0)
    if side == 1:
        return (1.0, along)
    if side == 2:
        return (1.0 - along, 1.0)
    return (0.0, 1.0 - along)


def _push(x: float, y: float, outward: float) -> tuple[float, float]:
    """Move a point away from (positive) or toward (negative) the square's centre."""
    dx, dy = x - 0.5, y - 0.5
    length = max(abs(dx), abs(dy)) or 1.0
    return (x + outward * dx / length, y + outward * dy / length)
