"""Build a configured game from its name, data files and options, or from a journal header.

Which games exist, and what each needs, is `rig.registry`'s; this module turns an entry
and the files on disk into a built game (and a journal header back into the same game).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING

from rig import gametype, registry
from rig.datafiles import default_source, read_data

if TYPE_CHECKING:
    from engine.api import JSON, Game


class _Names(Mapping[str, str]):
    """A live read-only view of the registry: game name -> one of its entry's fields."""

    def __init__(self, field: str) -> None:
        self.field = field

    def __getitem__(self, name: str) -> str:
        found = registry.find(name)
        if found is None:
            raise KeyError(name)
        value: str = getattr(found, self.field)
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(registry.names())

    def __len__(self) -> int:
        return len(registry.names())


GAME_MODULES: Mapping[str, str] = _Names("info_name")
"""Game name -> its facts module (VARIANTS, PLAYER_COUNTS, DATA_ROLES, OPTIONS...)."""


class GameSetupError(ValueError):
    """A game that cannot be built as asked (unknown name, missing file, hash mismatch)."""


def game_entry(name: str) -> gametype.GameEntry:
    """The registry's entry of `name`; GameSetupError when there is none."""
    try:
        return registry.entry(name)
    except registry.UnknownGame as exc:
        raise GameSetupError(str(exc)) from None


def game_module(name: str) -> ModuleType:
    """The game's facts module (variants, player counts, data roles, options): reading it
    loads none of the rules."""
    import importlib

    return importlib.import_module(game_entry(name).info_name)


def build_game(
    name: str,
    *,
    players: int,
    variant: str | None = None,
    data: Mapping[str, str] | None = None,
    options: Mapping[str, object] | None = None,
    seats: Sequence[str] | None = None,
) -> Game:
    """Build `name` with shipped defaults, overriding any data role with a file path."""
    game = game_entry(name)
    refs = {role: default_source(filename)
            for role, filename in game.facts.data_roles.items()}
    for role, ref in (data or {}).items():
        if role not in refs:
            raise GameSetupError(f"{name} has no data file role {role!r}; it has {sorted(refs)}")
        if ref:
            refs[role] = str(ref)
    texts: dict[str, tuple[str, str]] = {}
    for role, ref in refs.items():
        try:
            texts[role] = read_data(ref, game.facts.data_package)
        except OSError as exc:
            raise GameSetupError(f"cannot read the {role} file {ref}: {exc}") from exc
    build = game.build()
    if variant is not None:
        return build(players=players, variant=variant, data=texts, options=options, seats=seats)
    return _first_fitting_variant(game, players, texts, options, seats)


def _first_fitting_variant(game: gametype.GameEntry, players: int,
                           texts: dict[str, tuple[str, str]],
                           options: Mapping[str, object] | None,
                           seats: Sequence[str] | None) -> Game:
    """The first variant the registry says takes this many players (10-Four's 2 ->
    two-player); when none does, each variant's own refusal, in the game's words."""
    build = game.build()
    fitting = game.variant_for(players)
    errors = []
    for variant in [fitting] if fitting is not None else game.variants:
        try:
            return build(players=players, variant=variant, data=texts, options=options,
                         seats=seats)
        except ValueError as exc:
            if type(exc) is not ValueError:  # a DataError: the files are wrong, say so
                raise
            errors.append(f"{variant}: {exc}")
    raise GameSetupError("; ".join(errors))


def game_from_identity(identity: JSON) -> Game:
    """Rebuild the exact game a journal header describes, refusing changed data files.

    Anything a header may hold is checked before the engine sees it, and whatever the
    engine then refuses is a ``GameSetupError`` too: a hand-edited or damaged header is
    reported (and set aside by the daemon), never a crash at every start. A data file
    that exists but cannot be read is ``DataFileUnreadable``: the journal is fine, the
    machine is not.
    """
    if not isinstance(identity, Mapping):
        raise GameSetupError("journal header: 'game' is not an object")
    name = identity.get("game")
    if not isinstance(name, str):
        raise GameSetupError(f"journal header: game name is {name!r}, not a name")
    game = game_entry(name)
    players, variant, options, seats = _identity_fields(identity)
    try:
        texts: dict[str, tuple[str, str]] = {}
        for role, (named, sha256) in _identity_data(identity, game).items():
            text, source = read_data(named, game.facts.data_package)
            import hashlib  # only to check a journal's data files: not on every start

            digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
            if digest != sha256:
                raise GameSetupError(
                    f"the {role} file {source} changed since this game began "
                    f"(sha256 {digest[:12]}, journal says {sha256[:12]})"
                )
            texts[role] = (text, source)
    except OSError as exc:
        raise DataFileUnreadable(
            f"cannot read a data file named in the journal: {exc}") from exc
    try:
        return game.build()(players=players, variant=variant, data=texts, options=options,
                            seats=seats)
    except GameSetupError:
        raise
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise GameSetupError(f"journal header does not describe a playable game: {exc}") \
            from exc


class DataFileUnreadable(GameSetupError):
    """A data file a journal names exists in the header but cannot be read here (missing
    mount, permissions): nothing is wrong with the journal itself."""


def _identity_fields(identity: Mapping[str, JSON]
                     ) -> tuple[int, str, Mapping[str, JSON] | None, list[str] | None]:
    """The players, variant, options and seats of a header's game identity, in the JSON
    shape the game's build takes (the engine checks the values)."""
    players = identity.get("players")
    if not isinstance(players, int) or isinstance(players, bool):
        raise GameSetupError(f"journal header: players is {players!r}, not a number")
    variant = identity.get("variant")
    if not isinstance(variant, str):
        raise GameSetupError(f"journal header: variant is {variant!r}")
    options = identity.get("options")
    if options is not None and not isinstance(options, Mapping):
        raise GameSetupError(f"journal header: options is {options!r}, not an object")
    given = identity.get("seats")
    if given is None:
        return players, variant, options, None
    seats = [seat for seat in given if isinstance(seat, str)] if isinstance(given, list) else []
    if not isinstance(given, list) or len(seats) != len(given):
        raise GameSetupError(f"journal header: seats is {given!r}, not a list of names")
    return players, variant, options, seats


def _identity_data(identity: Mapping[str, JSON], game: gametype.GameEntry
                   ) -> dict[str, tuple[str, str]]:
    """The header's data files: exactly the game's roles, each a source and a sha256."""
    data = identity.get("data")
    if not isinstance(data, Mapping):
        raise GameSetupError(f"journal header: data is {data!r}, not an object")
    roles = set(game.facts.data_roles)
    if set(data) != roles:
        raise GameSetupError(
            f"journal header: data roles are {sorted(data)}, {identity['game']} has "
            f"{sorted(roles)}")
    files: dict[str, tuple[str, str]] = {}
    for role, info in data.items():
        source = info.get("source") if isinstance(info, Mapping) else None
        sha256 = info.get("sha256") if isinstance(info, Mapping) else None
        if not (isinstance(source, str) and isinstance(sha256, str)):
            raise GameSetupError(
                f"journal header: data {role!r} needs a source and a sha256, not {info!r}")
        _check_source(role, source, game.facts.data_package)
        files[role] = (source, sha256)
    return files


def _check_source(role: str, source: str, package: str) -> None:
    """A header's data file is a shipped one ("default:NAME") or an absolute path (the
    config's paths are made absolute). Anything else is a damaged or hand-edited header
    (``default8tenfour_bands.toml``: one byte changed), set aside like any other; only a
    file at an absolute path that cannot be read is the machine's fault."""
    from pathlib import PurePath

    from rig.datafiles import DEFAULT_PREFIX, is_shipped

    if source.startswith(DEFAULT_PREFIX):
        if not is_shipped(source, package):
            raise GameSetupError(f"journal header: the {role} file {source!r} is not a file "
                                 "this rig ships")
    elif not PurePath(source).is_absolute():
        raise GameSetupError(f"journal header: the {role} file {source!r} is neither a "
                             "shipped file (default:NAME) nor an absolute path")
