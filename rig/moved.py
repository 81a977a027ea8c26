"""The rig's old module names, kept working for a while (issue 45): one table and a
finder on ``sys.meta_path``.

cbrig 0.2.0 put ``rig/`` in rooms (``rig.views`` became ``rig.screens.views``,
``rig.printout.sheets`` became ``rig.maker.printout.sheets``...). A game written against
the release before imports the old names; each is still found, as the very module at its
new home (one module, never a second copy), with a :class:`MovedName` warning (a
DeprecationWarning) naming the new home and ``cbrig.game``, which a game imports from
instead. The old names go in cbrig :data:`REMOVED_IN`; the CHANGELOG's "What breaks and
how to move" lists them.

The finder answers only for the names in :data:`MOVED` (and the modules inside the moved
packages), so every other import goes on as before; it is first on ``sys.meta_path``, so
``rig.printout.sheets`` is never loaded again under its old name from the new folder.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Mapping, Sequence
from importlib.machinery import ModuleSpec
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from importlib.abc import Loader

REMOVED_IN = "0.4.0"
"""The release that drops the old names (0.3.x keeps them: one minor version)."""

_ROOMS: Mapping[str, tuple[str, ...]] = {
    "rig.core": ("app", "autopilot", "collector", "computer", "controller", "corrections",
                 "daemon", "enroll", "journal", "loop", "modes", "replay", "sdnotify",
                 "session", "setup_menu"),
    "rig.desktop": ("desk", "emulated", "script", "terminal"),
    "rig.maker": ("boardart", "case", "printout"),
    "rig.owner": ("readercheck", "selftest"),
    "rig.screens": ("render", "screen", "views"),
    "rig.voice": ("espeak", "speech"),
}

MOVED_IN_0_2: Mapping[str, str] = MappingProxyType({
    **{f"rig.{name}": f"{room}.{name}" for room, names in _ROOMS.items() for name in names},
    "rig.voicecache": "rig.voice.cache",
    "rig.voicecontrol": "rig.voice.control",
})
"""Old module name -> its home since cbrig 0.2.0 (``git show fb078d4 --stat``). The old
``rig.voice`` module is the package ``rig.voice`` now: its names are found there too
(``rig/voice/__init__.py``), from ``rig.voice.narrator``."""

MOVED_AFTER_0_3: Mapping[str, str] = MappingProxyType({
    "rig.games": "cbrig.games",
    "rig.web.publish": "rig.core.publish",
    "rig.web.browserdesk": "rig.desktop.browserdesk",
})
"""Old module name -> its home since the release after cbrig 0.3.0 (issue 45: the house
reads top-down, each package standing on the ones below it). Kept one minor version longer
than the 0.2.0 names: they go in :data:`REMOVED_AFTER_0_3_IN`."""

REMOVED_AFTER_0_3_IN = "0.5.0"
"""The release that drops the names of :data:`MOVED_AFTER_0_3`."""

MOVED: Mapping[str, str] = MappingProxyType({**MOVED_IN_0_2, **MOVED_AFTER_0_3})
"""Every old module name the finder answers for -> its home now."""


class MovedName(DeprecationWarning):
    """An old module name was imported: the message names its new home."""

    def __init__(self, old: str, new: str) -> None:
        super().__init__(message(old, new))
        self.old, self.new = old, new
        self.removed_in = removed_in(old)


def new_home(name: str) -> str | None:
    """Where the old module `name` (or a module inside an old package) lives now."""
    head = _moved_by(name)
    return None if head is None else MOVED[head] + name[len(head):]


def _moved_by(name: str) -> str | None:
    """The old name of :data:`MOVED` that `name` is or lies inside."""
    head = name
    while head.count("."):
        if head in MOVED:
            return head
        head = head.rpartition(".")[0]
    return None


def removed_in(old: str) -> str:
    """The release that drops the old name `old`."""
    return REMOVED_AFTER_0_3_IN if _moved_by(old) in MOVED_AFTER_0_3 else REMOVED_IN


def message(old: str, new: str) -> str:
    """What the warning says."""
    when = "after cbrig 0.3.0" if _moved_by(old) in MOVED_AFTER_0_3 else "in cbrig 0.2.0"
    return (f"{old} moved to {new} {when} and the old name goes in cbrig "
            f"{removed_in(old)}: import from cbrig.game (the game API) instead, or from {new}")


class _Alias:
    """The loader of an old name: the module at its new home, its own spec kept."""

    def __init__(self, home: str) -> None:
        self.home = home
        self.spec: ModuleSpec | None = None

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        module = importlib.import_module(self.home)
        self.spec = module.__spec__
        # stacklevel 2: the import statement (warnings skips the import system's frames)
        warnings.warn(MovedName(spec.name, self.home), stacklevel=2)
        return module

    def exec_module(self, module: ModuleType) -> None:
        module.__spec__ = self.spec  # the import system set the old name's: put it back


class MovedFinder:
    """Finds the old names of :data:`MOVED` (a ``sys.meta_path`` finder)."""

    def find_spec(self, name: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        home = new_home(name)
        if home is None:
            return None
        return ModuleSpec(name, cast("Loader", _Alias(home)))


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once)."""
    if not any(isinstance(finder, MovedFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, MovedFinder())
