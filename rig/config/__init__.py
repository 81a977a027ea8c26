"""The rig's TOML config (default ``/etc/cbrig/config.toml``).

Every field has a default, so an empty file (or none at all) is a working rig. Every
field is validated and each mistake is reported with the file, line and field, all at
once, as a :class:`ConfigError` (a ``DataError`` of :class:`~engine.errors.Problem`).

Sections: ``[game]`` (with ``[game.data]`` file overrides and ``[game.options]`` rule
options), ``[pins]`` (BCM numbers), ``[encoder]``, ``[reader]``, ``[display]``,
``[state]``, ``[daemon]``, ``[web]`` (the read-only live board, off by default) and
``[case]`` (what the printed enclosure holds: ``cbrig case build``, docs/CASE.md)
and ``[voice]`` (the spoken announcements, rig.voice.narrator).
``dump_config`` writes a config back as TOML that loads to the same ``RigConfig``.
"""

from __future__ import annotations

import datetime
import logging
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from engine.datafile import Checker, parse_toml
from engine.errors import DataError, Problem
from rig.config.checks import (
    FIELDS,
    PIN_FACTORY_VARIABLE,
    Default,
    Read,
    _Builder,
    _json,
    display_drivers,
    environment_pin_factory,
    game_facts,
)
from rig.config.paths import (
    NO_HOME,
    default_config_path,
    default_state_dir,
    home_directory,
    xdg_directory,
)
from rig.config.records import (
    BAUD_RATES,
    CASE_PIS,
    COMPUTER_LEVELS,
    CONFIG_NAME,
    DEFAULT_PATH,
    DEFAULT_STATE_DIR,
    DEFAULTS_SOURCE,
    I2C_DRIVERS,
    I2C_PINS,
    LEVEL_ALIASES,
    LEVELS,
    LOG_LEVELS,
    MAX_BCM,
    MAX_PORT,
    NO_READER_BAUD,
    OPTIONAL_PINS,
    PIN_BACKENDS,
    PIN_NAMES,
    ROTATIONS,
    SECTIONS,
    UART_PINS,
    CaseConfig,
    ConfigError,
    DaemonConfig,
    DisplayConfig,
    EncoderConfig,
    GameConfig,
    PinsConfig,
    ReaderConfig,
    RigConfig,
    StateConfig,
    Table,
    WebConfig,
)
from rig.datafiles import DataFileRefused, read_bounded
from rig.statedir import atomic_write, make_private_dir, read_state_text
from rig.voice.settings import VoiceConfig
from valueclass import Frozen, fields

log = logging.getLogger(__name__)


def default_config() -> RigConfig:
    """The config used when a field (or the whole file) is left out."""
    state = default_state_dir()
    return RigConfig(state=StateConfig(directory=state),
                     reader=ReaderConfig(cards=state / "cards.toml"))


# -- loading ------------------------------------------------------------------------------

MAX_CONFIG_BYTES = 4 * 1024 * 1024
"""The largest config read (a real one is a few KB): /dev/zero or a huge file named as
the config is refused in one line instead of read until memory runs out."""


def load_config(path: str | Path | None = None, *, check_game: bool = True) -> RigConfig:
    """Load and validate a config file.

    ``path=None`` reads :func:`default_config_path` and gives the defaults when there
    is none; an explicit path must exist. ``check_game`` also checks the variant, player count,
    data roles and rule options against the game package (when it can be imported).
    Raises ``ConfigError`` listing every problem.
    """
    if path is None:
        path = default_config_path()
        if path is None:
            config = default_config()
            backend, problem = environment_pin_factory()
            if problem is not None:
                raise ConfigError([problem])
            if backend is None:
                return config
            return RigConfig(**{**{name: getattr(config, name) for name in fields(RigConfig)},
                                "pins": PinsConfig(backend=backend)})
    path = Path(path)
    source = str(path)
    try:  # the one bounded reader (issue 44): /dev/zero, a FIFO, a huge file refused
        text = read_bounded(path, limit=MAX_CONFIG_BYTES, what="a config file")
    except FileNotFoundError:
        raise ConfigError([Problem(source, None, "file", "no such file")]) from None
    except DataFileRefused as exc:
        why = str(exc)
        why = why[len(source) + 1:] if why.startswith(source + " ") else why
        raise ConfigError([Problem(source, None, "file", why)]) from None
    except OSError as exc:
        raise ConfigError([Problem(source, None, "file", f"cannot read: {exc.strerror or exc}")]) \
            from None
    return parse_config(text, source, base=path.parent, check_game=check_game)


def parse_config(text: str, source: str = "<config>", *, base: Path | None = None,
                 check_game: bool = True) -> RigConfig:
    """Validate config text; relative paths are taken relative to ``base``."""
    try:
        data, locator = parse_toml(text, source)
    except DataError as exc:
        raise ConfigError(exc.problems) from None
    return _Builder(data, Checker(source, locator), base or Path.cwd(), check_game).build()


LAST_GOOD_NAME = "config-last-good.toml"
"""In the state directory: a copy of the last config file that loaded without a mistake
(a first comment line says where it was), kept by ``cbrig run --config-errors=show``."""

FIELD_DEFAULTS = "the defaults for the wrong fields"
LAST_GOOD = "the last good config"
BUILT_IN = "the built-in defaults"


class ForgivenConfig(Frozen):
    """What ``cbrig run --config-errors=show`` runs with (:func:`load_config_forgiving`)."""

    config: RigConfig
    problems: tuple[Problem, ...] = ()
    """The config's mistakes (none: it loaded as written)."""
    used: str = ""
    """What the rig runs with instead, for the log and the screen: ``FIELD_DEFAULTS``,
    ``LAST_GOOD`` or ``BUILT_IN``; "" when there was no mistake."""

    def notice(self) -> str:
        """The mistakes as the setup screen shows them: ``config.toml line 12:
        pins.hi_a: ...``, each, then what the rig started with."""
        if not self.problems:
            return ""
        lines = []
        for problem in self.problems:
            where = Path(problem.source).name
            if problem.line is not None:
                where += f" line {problem.line}"
            lines.append(f"{where}: {problem.field}: {problem.message}.")
        return " ".join((*lines, f"The rig started with {self.used}."))


def load_config_forgiving(path: str | Path | None = None) -> ForgivenConfig:
    """Load a config as :func:`load_config` does, but never refuse it: the rig on a Pi
    image must start whatever the owner's file says (docs/IMAGE.md, "The daemon's
    command line"). A config without mistakes is saved as the last good one (in its
    state directory, only when it changed). With mistakes, the rig runs with, the first
    that works: the owner's file with each wrong field at its default (when the file
    parses and the result holds together); the last good config; the built-in defaults."""
    try:
        config = load_config(path)
    except ConfigError as exc:
        problems = tuple(exc.problems)
    else:
        _save_last_good(config, path)
        return ForgivenConfig(config=config)
    fixed = _with_field_defaults(path)
    if fixed is not None:
        return ForgivenConfig(config=fixed, problems=problems, used=FIELD_DEFAULTS)
    last_good = _last_good(default_state_dir() / LAST_GOOD_NAME)
    if last_good is not None:
        return ForgivenConfig(config=last_good, problems=problems, used=LAST_GOOD)
    return ForgivenConfig(config=default_config(), problems=problems, used=BUILT_IN)


def _with_field_defaults(path: str | Path | None) -> RigConfig | None:
    """The config at `path` with each wrong field at its default, if the file reads and
    parses as TOML and what is left is a config without mistakes (fields may clash with
    each other: two pins on one number); else None."""
    if path is None:
        return None
    source = str(path)
    try:
        text = read_bounded(path, limit=MAX_CONFIG_BYTES, what="a config file")
        data, locator = parse_toml(text, source)
    except (OSError, UnicodeDecodeError, DataError):
        return None
    builder = _Builder(data, Checker(source, locator), Path(path).parent, True)
    builder.lenient = True
    try:
        candidate = builder.build()
        return parse_config(dump_config(candidate), source)
    except (ConfigError, ValueError, TypeError, KeyError) as exc:
        log.debug("config with its fields at their defaults still wrong: %s", exc)
        return None


LAST_GOOD_HEAD = "# cbrig: the last config that loaded without a mistake, from "


def _last_good(path: Path) -> RigConfig | None:
    """The saved last good config (its relative paths from the file it was), or None."""
    try:
        text = read_state_text(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        log.warning("the last good config %s cannot be read: %s", path, exc)
        return None
    head, _, _ = text.partition("\n")
    origin = Path(head[len(LAST_GOOD_HEAD):]) if head.startswith(LAST_GOOD_HEAD) else path
    try:
        return parse_config(text, str(path), base=origin.parent)
    except ConfigError as exc:
        log.warning("the last good config %s cannot be used: %s", path, exc)
        return None


def _save_last_good(config: RigConfig, path: str | Path | None) -> None:
    """Keep the config file `path` (as it is, with where it was) as the last good one in
    the config's state directory, if it changed: no write at every start (an SD card
    wears), and no more than a byte comparison (``cbrig run`` starts lean). A failure is
    logged, never fatal."""
    if path is None:
        path = default_config_path()
        if path is None:
            return
    saved = config.state.directory / LAST_GOOD_NAME
    try:
        text = (LAST_GOOD_HEAD + str(Path(path).absolute()) + "\n"
                + read_bounded(path, limit=MAX_CONFIG_BYTES, what="a config file")).encode()
        try:
            if read_state_text(saved).encode() == text:
                return
        except FileNotFoundError:
            pass
        except OSError as exc:  # a FIFO, a link or a damaged copy: replaced below
            log.warning("the last good config %s is replaced: %s", saved, exc)
        make_private_dir(config.state.directory)
        atomic_write(saved, text)
    except OSError as exc:
        log.warning("cannot keep the last good config in %s: %s", saved, exc.strerror or exc)


# -- writing ------------------------------------------------------------------------------

def config_to_dict(config: RigConfig) -> dict[str, dict[str, object]]:
    """The config as TOML-ready tables (paths as strings, unfitted pins as false)."""
    out: dict[str, dict[str, object]] = {}
    for name in SECTIONS:
        section: Frozen = getattr(config, name)
        table: dict[str, object] = {}
        for key in fields(section):
            value: object = getattr(section, key)
            if isinstance(value, Path):
                value = str(value)
            elif isinstance(value, tuple):
                value = list(value)
            elif isinstance(value, Mapping):
                value = dict(value)
            elif value is None:
                value = False
            table[key] = value
        out[name] = table
    return out


_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(name: str) -> str:
    return name if _BARE_KEY.match(name) else _json(name)


def _value(value: object, key: str = "") -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if key == "address" and isinstance(value, int):
        return f"0x{value:02X}"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, datetime.date | datetime.time):  # datetime is a date
        return value.isoformat()
    if isinstance(value, str):
        return _json(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        items: Iterable[object] = value
        return "[" + ", ".join(_value(v) for v in items) + "]"
    if isinstance(value, Mapping):
        table: Mapping[str, object] = value  # keys: TOML's, or a GameConfig mapping's
        return "{" + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in table.items()) + "}"
    raise TypeError(f"cannot write {value!r} as TOML")


def dump_config(config: RigConfig) -> str:
    """TOML text that ``parse_config`` reads back to an equal config."""
    lines: list[str] = []
    for section, table in config_to_dict(config).items():
        subtables: dict[str, Mapping[str, object]] = {
            k: v for k, v in table.items() if isinstance(v, dict)}
        if lines:
            lines.append("")
        lines.append(f"[{section}]")
        for key, value in table.items():
            if key not in subtables:
                lines.append(f"{_key(key)} = {_value(value, key)}")
        for key, value in subtables.items():
            lines.append("")
            lines.append(f"[{section}.{_key(key)}]")
            for sub_key, sub_value in value.items():
                lines.append(f"{_key(sub_key)} = {_value(sub_value)}")
    return "\n".join(lines) + "\n"


__all__ = [
    "BAUD_RATES",
    "CASE_PIS",
    "COMPUTER_LEVELS",
    "CONFIG_NAME",
    "DEFAULTS_SOURCE",
    "DEFAULT_PATH",
    "DEFAULT_STATE_DIR",
    "FIELDS",
    "I2C_DRIVERS",
    "I2C_PINS",
    "LEVELS",
    "LEVEL_ALIASES",
    "LOG_LEVELS",
    "MAX_BCM",
    "MAX_PORT",
    "NO_HOME",
    "NO_READER_BAUD",
    "OPTIONAL_PINS",
    "PIN_BACKENDS",
    "PIN_FACTORY_VARIABLE",
    "PIN_NAMES",
    "ROTATIONS",
    "SECTIONS",
    "UART_PINS",
    "CaseConfig",
    "ConfigError",
    "DaemonConfig",
    "Default",
    "DisplayConfig",
    "EncoderConfig",
    "GameConfig",
    "PinsConfig",
    "Read",
    "ReaderConfig",
    "RigConfig",
    "StateConfig",
    "Table",
    "VoiceConfig",
    "WebConfig",
    "config_to_dict",
    "default_config",
    "default_config_path",
    "default_state_dir",
    "display_drivers",
    "dump_config",
    "environment_pin_factory",
    "game_facts",
    "home_directory",
    "load_config",
    "parse_config",
    "xdg_directory",
]

