"""One table per extension point, found the way games are (issue 45).

A :class:`Table` holds the kinds of one extension point (card readers, displays, voice
effects): the built-in ones by the dotted path of the record each module defines
(``"hardware.rfid.rdm6300:READER"``), and any installed package's by an entry point in
the table's group, as gpiozero finds its pin factories::

    [project.entry-points."cbrig.readers"]
    myreader = "mypackage.reader:READER"

So a new kind is one module of its own (its record and its code) inside the project, or
a package outside it with one line in its ``pyproject.toml``: no other file names it.
A built-in name is found without listing the installed packages (importlib.metadata
costs tens of ms: the rig's start reads only its configured kinds); an installed kind
that does not load, or is not a kind, is left out with one line on stderr naming it,
why and the fix, and the rest go on.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Generic, TypeVar

K = TypeVar("K")


def load_path(path: str) -> object:
    """The object ``module:NAME`` names."""
    module, _, name = path.partition(":")
    found: object = getattr(importlib.import_module(module), name)
    return found


class Table(Generic[K]):
    """The kinds of one extension point, by name."""

    def __init__(self, what: str, group: str, built_in: Mapping[str, str],
                 check: Callable[[object], K], battery: str) -> None:
        self.what = what
        """What a kind is, in words ("card reader")."""
        self.group = group
        """The entry point group installed kinds are named in."""
        self.built_in = dict(built_in)
        """Name -> ``module:NAME`` of each built-in kind's record."""
        self.check = check
        """The kind an object is, or TypeError saying what it lacks."""
        self.battery = battery
        """The battery any kind runs on itself (a refusal's fix names it)."""
        self._kinds: dict[str, K] = {}
        self._installed: dict[str, str] | None = None
        self.refused: list[str] = []
        """One line for each installed kind left out."""

    def _installed_paths(self) -> dict[str, str]:
        if self._installed is None:
            from importlib.metadata import entry_points

            self._installed = {point.name: point.value
                               for point in entry_points(group=self.group)
                               if point.name not in self.built_in}
        return self._installed

    def add(self, name: str, kind: K) -> K:
        """A kind registered by hand (a test, or a program embedding the rig)."""
        self._kinds[name] = kind
        return kind

    def find(self, name: str) -> K | None:
        """The kind called `name`, or None (an installed one that cannot load is said
        once on stderr and is None)."""
        if name in self._kinds:
            return self._kinds[name]
        path = self.built_in.get(name)
        installed = path is None
        if installed:
            path = self._installed_paths().get(name)
        if path is None:
            return None
        try:
            kind = self.check(load_path(path))
        except Exception as exc:
            if not installed:
                raise
            self._installed_paths().pop(name, None)
            self.refused.append(f"cbrig: {self.what} {name!r} ({self.group}: {path}) "
                                f"refused: {type(exc).__name__}: {exc} (fix: run "
                                f"{self.battery} on it)")
            print(self.refused[-1], file=sys.stderr)
            return None
        self._kinds[name] = kind
        return kind

    def get(self, name: str) -> K:
        """The kind called `name`; ValueError naming the ones there are."""
        found = self.find(name)
        if found is None:
            raise ValueError(f"unknown {self.what} {name!r}; choose one of "
                             f"{', '.join(self.names())}")
        return found

    def names(self) -> tuple[str, ...]:
        """Every kind's name: the built-in ones first, then the installed ones that
        load (this lists the installed packages)."""
        installed = [name for name in list(self._installed_paths())
                     if self.find(name) is not None]
        added = [name for name in self._kinds if name not in self.built_in
                 and name not in installed]
        return (*self.built_in, *added, *installed)

    def forget(self, name: str) -> None:
        """Take a hand-registered kind out again (tests)."""
        self._kinds.pop(name, None)
