"""Parse TOML data files and point each mistake at its line.

tomllib gives values but not positions; owners edit these files by hand, so every
problem must name the line. `Locator` recovers positions from the text itself for the
usual layout (tables, arrays of tables, one `key = value` per line).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from typing import Any

from engine.errors import DataError, Problem

_HEADER = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_.\-\"' ]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-\"']+)\s*=")
_LINE_IN_ERROR = re.compile(r"line (\d+)")


class Locator:
    """Maps a field path such as ("space", 3, "route") to the line that holds it."""

    def __init__(self, text: str) -> None:
        self._lines: dict[tuple[str | int, ...], int] = {}
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
                continue
            key = _KEY.match(raw)
            if key:
                self._lines.setdefault((*table, key.group(1).strip("\"'")), number)

    def line(self, *path: str | int) -> int | None:
        """The line of the deepest known prefix of `path` (a list item maps to its key)."""
        for end in range(len(path), 0, -1):
            found = self._lines.get(tuple(path[:end]))
            if found is not None:
                return found
        return None


def parse_toml(text: str, source: str) -> tuple[dict[str, Any], Locator]:
    """Parse `text`; a syntax error becomes a located `DataError`."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        match = _LINE_IN_ERROR.search(str(exc))
        line = int(match.group(1)) if match else None
        raise DataError([Problem(source, line, "syntax", str(exc))]) from exc
    return data, Locator(text)


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

    def require(self, table: Mapping[str, Any], key: str, kind: type | tuple[type, ...],
                *path: str | int) -> Any:
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

    def done(self) -> None:
        """Raise the collected problems, if any."""
        if self.problems:
            raise DataError(self.problems)


def _names(kinds: tuple[type, ...]) -> str:
    words = {int: "an integer", str: "a string", bool: "true or false", list: "a list",
             dict: "a table", float: "a number"}
    return " or ".join(words.get(k, k.__name__) for k in kinds)
