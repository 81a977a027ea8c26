"""The index of the games the rig plays: which games there are, found once per process.

Where the games come from: each folder of ``cbrig/games/`` registers its game when it is
imported (``ENTRY = register(GameEntry(...))`` in its ``__init__.py``, which loads no
rules, views or PIL); a game installed as its own package names its entry in the
``cbrig.games`` entry point group; ``CBRIG_GAMES`` names ``module:ENTRY`` for a
development run. This module names no game and imports none back: it finds them. What an
entry holds is :mod:`rig.gametype`'s. docs/ENGINE_CONTRACT.md, "How to add a game", walks
through.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache, partial
from typing import TYPE_CHECKING

from rig.datafiles import default_source, read_data
from rig.gametype import GameEntry, api_problem
from rig.moved import MovedName

if TYPE_CHECKING:
    from engine.api import Game

    DEFAULT_GAME: str
    """The game a config without ``[game] name``, the setup menu and ``--game`` start
    with: the built-in game first by its entry's ``order`` (:func:`default_game`, read on
    first use of this name, so the registry names no game)."""
DEFAULT_PLAYERS = 3
"""How many play when nothing says (the Pi's config and wiring/config.toml, so the setup
menu's start; ``cbrig emulate``; ``cbrig demo``). Three is the smallest table at which
both games play their standard rules: 10-Four for two is a variant of its own (two trucks
each, no Bear In The Air: RULINGS T12), which a first game should not meet first; and
three plays, and a watched demo ends, sooner than four. A test keeps every built-in
game's default variant seating this many."""
PLUGINS_VARIABLE = "CBRIG_GAMES"
"""Environment variable naming extra entries to register, ``module:NAME`` comma separated."""
ENTRY_POINT_GROUP = "cbrig.games"
"""The entry point group an installed game package declares its entry in (its value:
``package.module:ENTRY``), as gpiozero finds pin factories."""
BUILT_IN_PACKAGE = "cbrig.games"
"""The package holding one package per built-in game: the shipped games stand on the game
API (``cbrig.game``) like an outside one, above the rig, so the rig finds them by name."""


class UnknownGame(ValueError):
    """A game name no entry has (the message lists the known ones)."""


def all_player_counts() -> tuple[int, ...]:
    """Every player count some registered game seats (what ``--players`` and the config's
    ``players`` may be before the game is known)."""
    return tuple(sorted({n for game in entries() for n in game.player_counts}))


# -- the registry -------------------------------------------------------------------------

_ENTRIES: dict[str, GameEntry] = {}
_plugins_loaded = False
_REFUSED: list[str] = []
"""The one-line refusals of the installed games that could not play (:func:`refusals`)."""


def register(entry: GameEntry) -> GameEntry:
    """Add a game (its name must be new); returns the entry, so a module can say
    ``ENTRY = register(GameEntry(...))``."""
    if entry.name in _ENTRIES and _ENTRIES[entry.name] is not entry:
        raise ValueError(f"a game named {entry.name!r} is already registered")
    _ENTRIES[entry.name] = entry
    return entry


def unregister(name: str) -> None:
    """Take a game out again (tests that register one of their own)."""
    _ENTRIES.pop(name, None)


@contextmanager
def registered(entry: GameEntry) -> Iterator[GameEntry]:
    """The game registered for the duration of a ``with`` block."""
    register(entry)
    try:
        yield entry
    finally:
        unregister(entry.name)


@cache
def built_in_names() -> tuple[str, ...]:
    """The folders of ``cbrig/games/`` (one per built-in game), by name: a directory
    listing, so that knowing them imports no game."""
    spec = importlib.util.find_spec(BUILT_IN_PACKAGE)
    folders = spec.submodule_search_locations if spec is not None else None
    return tuple(sorted(item.name for folder in folders or () for item in os.scandir(folder)
                        if item.is_dir()
                        and os.path.isfile(os.path.join(item.path, "__init__.py"))))


@cache
def default_game() -> str:
    """The built-in game that comes first by its entry's ``order`` (then its name):
    what a config without ``[game] name``, the setup menu and ``--game`` start with.
    Reading it registers the built-in games (their lean ``__init__``s), nothing more."""
    built_in = [entry for entry in map(find, built_in_names()) if entry is not None]
    return min(built_in, key=lambda game: (game.order, game.name)).name


def __getattr__(name: str) -> object:
    if name == "DEFAULT_GAME":
        return default_game()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _load_built_in(name: str) -> None:
    """Import the game's folder, which registers its entry."""
    if name not in _ENTRIES and name in built_in_names():
        importlib.import_module(f"{BUILT_IN_PACKAGE}.{name}")


def _load_plugins() -> None:
    """Register the entries ``CBRIG_GAMES`` names and the installed packages' entry
    points, once per process (importlib.metadata costs tens of ms: only when a name is
    not a built-in one, or every game is listed). A game that cannot play is refused
    with one line on stderr (:func:`refusals`), and the rig goes on with the others."""
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    for spec in filter(None, (s.strip() for s in os.environ.get(PLUGINS_VARIABLE, "")
                              .split(","))):
        module_name, _, attribute = spec.partition(":")
        _adopt(partial(_named, module_name, attribute or "ENTRY"),
               f"{PLUGINS_VARIABLE}: {spec}", module_name)
    from importlib.metadata import entry_points

    for point in entry_points(group=ENTRY_POINT_GROUP):
        _adopt(point.load, f"entry point {point.name} = {point.value}", point.name)


def _named(module: str, attribute: str) -> object:
    found: object = getattr(importlib.import_module(module), attribute)
    return found


def _adopt(load: Callable[[], object], where: str, name: str) -> None:
    """Load, check and register one installed game; refuse it with one line (naming the
    game, the part and the fix) when any of its parts cannot load; say on one line each
    old module name it still imports."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", MovedName)
        problem = _adopted(load, where)
    if problem is not None:
        _REFUSED.append(f"cbrig: game {name!r} refused: {problem}")
        print(_REFUSED[-1], file=sys.stderr)
    homes = {}
    removed = []
    for warning in caught:
        if isinstance(warning.message, MovedName):
            homes[warning.message.old] = warning.message.new
            removed.append(warning.message.removed_in)
        else:
            warnings.warn_explicit(warning.message, warning.category, warning.filename,
                                   warning.lineno)
    if homes:
        olds = ", ".join(f"{old} (now {new})" for old, new in homes.items())
        print(f"cbrig: game {name!r} imports old module names, kept until cbrig "
              f"{min(removed, key=_release)}: {olds};"
              " import them from cbrig.game, the game API", file=sys.stderr)


def _release(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def _adopted(load: Callable[[], object], where: str) -> str | None:
    """Register what `load` gives; why not, with the fix, or None."""
    try:
        found = load()
    except Exception as exc:
        return f"{where} failed to load: {_failure(exc)}"
    if not isinstance(found, GameEntry):
        return (f"{where} is a {type(found).__name__}, not a GameEntry (fix: point the "
                "entry point at the GameEntry the game registers)")
    problem = api_problem(found)
    if problem is not None:
        return (f"{problem} (fix: install the game's release for this cbrig, or a cbrig "
                "that gives the API it needs)")
    if found.name in _ENTRIES:
        return None  # a built-in game or one registered already keeps its name
    register(found)
    for part, check in _parts(found):
        try:
            check()
        except Exception as exc:
            unregister(found.name)
            return f"its {part} failed: {_failure(exc)}"
    return None


def _parts(entry: GameEntry) -> list[tuple[str, Callable[[], object]]]:
    """Each part of an installed game, as a check that loads it (the rules and view on a
    game built from its shipped data, for its first variant and player count)."""
    variant = entry.facts.variants[0]
    built: list[Game] = []

    def build() -> None:
        texts = {role: read_data(default_source(filename), entry.facts.data_package)
                 for role, filename in entry.facts.data_roles.items()}
        built.append(entry.build()(players=variant.players[0], variant=variant.name,
                                   data=texts))

    def view() -> None:
        game = built[0]
        entry.view(game).title(game.new_initial_state())

    parts: list[tuple[str, Callable[[], object]]] = [("rules", build), ("view", view)]
    for part, loader in (("board tools", entry.board), ("live board", entry.live),
                         ("print sheets", entry.printout), ("speech", entry.speech)):
        if loader is not None:
            parts.append((part, loader))
    return parts


def _failure(exc: BaseException) -> str:
    """An exception in one line, with the fix."""
    said = f"{type(exc).__name__}: {exc}"
    if isinstance(exc, ModuleNotFoundError) and exc.name is not None:
        if exc.name.split(".")[0] in ("rig", "cbrig"):
            return (f"{said} (fix: import it from cbrig.game, the game API; CHANGELOG.md: "
                    "\"What breaks and how to move\")")
        return f"{said} (fix: install {exc.name.split('.')[0]} beside the game)"
    return (f"{said} (fix: run cbrig.conformance.check_game on the game, which names the "
            "part and the step)")


def refusals() -> tuple[str, ...]:
    """The one-line refusals of installed games that could not play, in load order."""
    return tuple(_REFUSED)


def entries() -> tuple[GameEntry, ...]:
    """Every registered game, the built-in ones first, each kind by its entry's
    ``order`` and then its name (so the default game comes first)."""
    built_in = built_in_names()
    for name in built_in:
        _load_built_in(name)
    _load_plugins()
    return tuple(sorted(_ENTRIES.values(),
                        key=lambda e: (e.name not in built_in, e.order, e.name)))


def names() -> tuple[str, ...]:
    return tuple(entry.name for entry in entries())


def find(name: str) -> GameEntry | None:
    """The entry of `name`, or None; a built-in game is found without listing the
    installed ones (the config check reads this on every start)."""
    if name not in _ENTRIES:
        _load_built_in(name)
    if name not in _ENTRIES:
        _load_plugins()
    return _ENTRIES.get(name)


def titles() -> str:
    """Every registered game's title, as people list them ("A, B and C"; "A, a; B and C"
    when a title has a comma of its own)."""
    words = [game.title for game in entries()]
    between = "; " if any("," in word for word in words) else ", "
    return between.join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)


def entry(name: str) -> GameEntry:
    """The entry of `name`; UnknownGame lists the games there are."""
    found = find(name)
    if found is None:
        raise UnknownGame(f"unknown game {name!r}; choose one of {', '.join(names())}")
    return found


def data_roles() -> tuple[str, ...]:
    """Every data file role any game has, in registration order."""
    roles: dict[str, None] = {}
    for game in entries():
        roles.update(dict.fromkeys(game.facts.data_roles))
    return tuple(roles)


def game_help(default: str | None = None) -> str:
    """``--game``'s help: each name with its title, the default marked."""
    default = default or default_game()
    words = [f"{game.name} ({game.title}{', the default' if game.name == default else ''})"
             for game in entries()]
    return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]
