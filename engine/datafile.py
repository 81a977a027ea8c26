"""Parse TOML data files and point each mistake at its line.

tomllib gives values but not positions; owners edit these files by hand, so every
problem must name the line. `Locator` recovers positions from the text itself for the
usual layout (tables, arrays of tables, one `key = value` per line).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, TypeVar, overload

from engine.errors import DataError, Problem

if TYPE_CHECKING:  # only the type checker needs these names
    class TomlDate(Protocol):
        """A date, time or date-time as ``tomllib`` gives it (each has ``isoformat``).
        Named by its shape, so the pure engine names no clock module, not even for the
        checker; a reader that wants the class narrows with ``isinstance``."""

        def isoformat(self) -> str: ...

    TomlValue: TypeAlias = (dict[str, "TomlValue"] | list["TomlValue"] | str | int | float
                            | bool | TomlDate)
    """A value ``tomllib`` gives: JSON's kinds without null, with dates and times."""

T = TypeVar("T")

_HEADER = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_.\-\"' ]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-\"']+)\s*=")
_LINE_IN_ERROR = re.compile(r"line (\d+)")


class Locator:
    """Maps a field path such as ("space", 3, "route") to the line that holds it."""

    def __init__(self, text: str) -> None:
        self._lines: dict[tuple[str | int, ...], int] = {}
        self._implied: dict[tuple[str | int, ...], int] = {}
        counters: dict[str, int] = {}
        table: tuple[str | int, ...] = ()
        for number, raw in enumerate(text.splitlines(), start=1):
            header = _HEADER.match(raw)
            if header and not raw.lstrip().startswith("#"):
                name = header.group(2).replace('"', "").replace("'", "")
                parts: tuple[str | int, ...] = tuple(name.split("."))
                if header.group(1) == "[[":
                    index = counters.get(name, 0)
                    counters[name] = index + 1
                    table = (*parts, index)
                else:
                    table = parts
                self._lines.setdefault(table, number)
                for end in range(1, len(table)):  # [a.b] also locates a, unless [a] does
                    self._implied.setdefault(table[:end], number)
                continue
            key = _KEY.match(raw)
            if key:
                self._lines.setdefault((*table, key.group(1).strip("\"'")), number)

    def line(self, *path: str | int) -> int | None:
        """The line of the deepest known prefix of `path` (a list item maps to its key)."""
        for end in range(len(path), 0, -1):
            prefix = tuple(path[:end])
            found = self._lines.get(prefix, self._implied.get(prefix))
            if found is not None:
                return found
        return None


NESTING_SHOWN = 100
"""Arrays and inline tables nested deeper than this are where a too-deep file is shown
to be wrong (the parser itself gives up at a few hundred levels, with no line)."""
TOO_DEEP = "values nested too deeply (arrays or tables inside each other)"


def parse_toml(text: str, source: str) -> tuple[dict[str, TomlValue], Locator]:
    """Parse `text`; a syntax error, or nesting too deep for the parser, becomes a
    located `DataError`."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        match = _LINE_IN_ERROR.search(str(exc))
        line = int(match.group(1)) if match else None
        raise DataError([Problem(source, line, "syntax", str(exc))]) from exc
    except RecursionError:  # x = [[[[...]]]]: tomllib recurses once per level
        raise DataError([Problem(source, nesting_line(text), "syntax", TOO_DEEP)]) from None
    return data, Locator(text)


def nesting_line(text: str, limit: int = NESTING_SHOWN) -> int | None:
    """The first line where brackets and braces are open more than `limit` deep (quoted
    strings and comments skipped), or None. For a file too deep to parse: only the line
    is wanted, so the scan is a plain count, no parser."""
    depth = 0
    line = 1
    quote = ""
    comment = False
    for char in text:
        if char == "\n":
            line += 1
            comment = False
        elif comment:
            continue
        elif quote:
            if char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char == "#":
            comment = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return line
        elif char in "]}":
            depth -= 1
    return None


class Checker:
    """Collects every problem in a file before failing, so one run shows them all."""

    def __init__(self, source: str, locator: Locator) -> None:
        self.source = source
        self.locator = locator
        self.problems: list[Problem] = []

    def fail(self, message: str, *path: str | int) -> None:
        name = ".".join(str(p) if isinstance(p, str) else f"[{p}]" for p in path)
        self.problems.append(
            Problem(self.source, self.locator.line(*path), name.replace(".[", "["), message)
        )

    @overload
    def require(self, table: Mapping[str, object], key: str, kind: type[T],
                *path: str | int) -> T | None: ...

    @overload
    def require(self, table: Mapping[str, object], key: str, kind: tuple[type, ...],
                *path: str | int) -> object: ...

    def require(self, table: Mapping[str, object], key: str, kind: type | tuple[type, ...],
                *path: str | int) -> object:
        """Fetch `table[key]` of the given type, recording a problem (and None) if not."""
        if key not in table:
            self.fail("missing", *path, key)
            return None
        value = table[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds:
            self.fail(f"expected {_names(kinds)}, got {value!r}", *path, key)
            return None
        if not isinstance(value, kinds):
            self.fail(f"expected {_names(kinds)}, got {value!r}", *path, key)
            return None
        return value

    def unknown_keys(self, table: Mapping[str, Any], allowed: Collection[str],
                     *path: str | int, what: str = "field") -> None:
        """Report each key of `table` (at `path`) that is not `allowed`, naming the
        allowed key it was probably meant to be, or else all of them."""
        for key in sorted(set(table) - set(allowed)):
            self.fail(f"unknown {what}{did_you_mean(key, allowed, list_all=True)}", *path, key)

    def tables(self, data: Mapping[str, Any], key: str, allowed: Collection[str], *,
               required: str | None = None) -> list[tuple[int, dict[str, Any]]]:
        """The `[[key]]` array of tables as (index, table) pairs, the one loop every
        loader runs: reports an array that is missing or empty (with the message
        `required`; None: optional), a value that is not an array, each entry that is
        not a table and each unknown field (with a "did you mean")."""
        value = data.get(key)
        if value is None or value == []:
            if required is not None:
                self.fail(required, key)
            return []
        if not isinstance(value, list):
            self.fail(f"expected [[{key}]] tables, got {value!r}", key)
            return []
        found: list[tuple[int, dict[str, Any]]] = []
        for i, table in enumerate(value):
            if not isinstance(table, dict):
                self.fail(f"expected a table, got {table!r}", key, i)
                continue
            self.unknown_keys(table, allowed, key, i)
            found.append((i, table))
        return found

    def done(self) -> None:
        """Raise the collected problems, if any."""
        if self.problems:
            raise DataError(self.problems)


def did_you_mean(name: str, choices: Collection[str], *, list_all: bool = False) -> str:
    """"; did you mean 'x'?" for the choice closest to a mistyped `name`; with no close
    one, "; expected a, b or c" when `list_all`, else nothing."""
    import difflib  # only when a file is wrong: not on every load

    close = difflib.get_close_matches(name, list(choices), n=1)
    if close:
        return f"; did you mean {close[0]!r}?"
    if not list_all or not choices:
        return ""
    names = sorted(choices)
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
    return f"; expected {listed}"


def _names(kinds: tuple[type, ...]) -> str:
    words = {int: "an integer", str: "a string", bool: "true or false", list: "a list",
             dict: "a table", float: "a number"}
    return " or ".join(words.get(k, k.__name__) for k in kinds)
