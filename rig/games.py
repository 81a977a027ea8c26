"""Build a configured game from its name, data files and options, or from a journal header.

The one place that knows which game packages exist; everything else asks here.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any

from engine.api import Game
from rig.datafiles import default_source, read_data

GAME_MODULES: dict[str, str] = {"tenfour": "engine.tenfour", "bumpem": "engine.bumpem"}
GAME_TITLES: dict[str, str] = {"tenfour": "10-Four, Good Buddy", "bumpem": "Bump 'Em"}


class GameSetupError(ValueError):
    """A game that cannot be built as asked (unknown name, missing file, hash mismatch)."""


def game_module(name: str) -> ModuleType:
    if name not in GAME_MODULES:
        raise GameSetupError(f"unknown game {name!r}; choose one of {', '.join(GAME_MODULES)}")
    return importlib.import_module(GAME_MODULES[name])


def build_game(
    name: str,
    *,
    players: int,
    variant: str | None = None,
    data: Mapping[str, str] | None = None,
    options: Mapping[str, Any] | None = None,
    seats: Sequence[str] | None = None,
) -> Game:
    """Build `name` with shipped defaults, overriding any data role with a file path."""
    module = game_module(name)
    refs = {role: default_source(filename) for role, filename in module.DATA_ROLES.items()}
    for role, ref in (data or {}).items():
        if role not in refs:
            raise GameSetupError(f"{name} has no data file role {role!r}; it has {sorted(refs)}")
        if ref:
            refs[role] = str(ref)
    texts: dict[str, tuple[str, str]] = {}
    for role, ref in refs.items():
        try:
            texts[role] = read_data(ref)
        except OSError as exc:
            raise GameSetupError(f"cannot read the {role} file {ref}: {exc}") from exc
    if variant is not None:
        return module.build(  # type: ignore[no-any-return]
            players=players, variant=variant, data=texts, options=options, seats=seats
        )
    return _first_fitting_variant(module, players, texts, options, seats)


def _first_fitting_variant(module: ModuleType, players: int, texts: dict[str, tuple[str, str]],
                           options: Mapping[str, Any] | None,
                           seats: Sequence[str] | None) -> Game:
    """The game's first variant that takes this many players (10-Four's 2 -> two-player)."""
    errors = []
    for variant in module.VARIANTS:
        try:
            return module.build(  # type: ignore[no-any-return]
                players=players, variant=variant, data=texts, options=options, seats=seats
            )
        except ValueError as exc:
            if type(exc) is not ValueError:  # a DataError: the files are wrong, say so
                raise
            errors.append(f"{variant}: {exc}")
    raise GameSetupError("; ".join(errors))


def game_from_identity(identity: Mapping[str, Any]) -> Game:
    """Rebuild the exact game a journal header describes, refusing changed data files."""
    try:
        name = identity["game"]
        module = game_module(name)
        texts: dict[str, tuple[str, str]] = {}
        for role, info in identity["data"].items():
            text, source = read_data(info["source"])
            digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
            if digest != info["sha256"]:
                raise GameSetupError(
                    f"the {role} file {source} changed since this game began "
                    f"(sha256 {digest[:12]}, journal says {info['sha256'][:12]})"
                )
            texts[role] = (text, source)
        return module.build(  # type: ignore[no-any-return]
            players=identity["players"],
            variant=identity["variant"],
            data=texts,
            options=identity.get("options"),
            seats=identity.get("seats"),
        )
    except (KeyError, TypeError) as exc:
        raise GameSetupError(f"journal header does not describe a game: missing {exc}") from exc
    except OSError as exc:
        raise GameSetupError(f"cannot read a data file named in the journal: {exc}") from exc
