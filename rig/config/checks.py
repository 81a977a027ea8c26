"""Reading a config's tables into its records: every field's check, default and
conversion (:data:`FIELDS`), each mistake reported with its file, line and field."""


from __future__ import annotations

import ipaddress
import logging
import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

from engine.datafile import Checker
from engine.datafile import did_you_mean as _suggest
from engine.errors import Problem
from hardware.display.kinds import DISPLAYS
from hardware.pins import (
    DEFAULT_PIN_FACTORY,
)
from hardware.rfid.kinds import NO_READER, READERS, reader_kind, reader_types
from rig import gametype, registry
from rig.datafiles import data_file_problem
from rig.voice.effects import EFFECTS
from rig.voice.settings import VoiceConfig
from rig.voice.speech import CHOICES as VOICE_CHOICES
from rig.voice.speech import EVENTS as VOICE_EVENTS
from valueclass import Frozen, fields

if TYPE_CHECKING:
    from engine.datafile import TomlValue

from rig.config.paths import NO_HOME, default_state_dir
from rig.config.records import (
    _LIST,
    _TABLE,
    _VOICE_NAME,
    BAUD_RATES,
    CASE_PIS,
    COMPUTER_LEVELS,
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
    D,
    DaemonConfig,
    DisplayConfig,
    EncoderConfig,
    GameConfig,
    PinsConfig,
    ReaderConfig,
    RigConfig,
    S,
    StateConfig,
    T,
    Table,
    WebConfig,
)

log = logging.getLogger(__name__)

def game_facts(name: str) -> gametype.GameFacts:
    """The facts of a registered game (its info module, read once per process)."""
    return registry.entry(name).facts


def _choices(values: Iterable[object]) -> str:
    return ", ".join(repr(v) if isinstance(v, str) else str(v) for v in values)


class _Builder:
    lenient = False
    """Give the config with each wrong field at its default instead of raising."""

    def __init__(self, data: Table, check: Checker, base: Path, check_game: bool):
        self.data = data
        self.check = check
        self.base = base
        self.check_game = check_game
        self.built: dict[str, Frozen] = {}
        """The sections read so far (a later section's default may depend on one)."""
        self.tables: dict[str, Table] = {}
        self.values: dict[str, object] = {}
        """The fields of the section being read, so far."""

    # helpers ---------------------------------------------------------------------------
    def earlier(self, name: str, kind: type[S]) -> S:
        """Section `name`, read before this one (a field's default may come from it)."""
        section = self.built[name]
        if not isinstance(section, kind):
            raise TypeError(f"[{name}] is a {type(section).__name__}, not a {kind.__name__}")
        return section

    def value(self, key: str, kind: type[T]) -> T:
        """Field `key` of the section being read, read before this one."""
        return _as(kind, self.values[key])

    def table(self, name: str) -> Table:
        value = self.data.get(name, {})
        if not isinstance(value, dict):
            self.check.fail(f"expected a table [{name}], got {value!r}", name)
            return {}
        known = set(fields(SECTIONS[name]))
        for key in value:
            if key not in known:
                self.check.fail("unknown field" + _suggest(key, known), name, key)
        return value

    def get(self, table: Table, section: str, key: str, kind: type[T], default: D) -> T | D:
        """table[key] if present and of the right type, else record a problem; default."""
        if key not in table:
            return default
        value = self.check.require(table, key, kind, section)
        return default if value is None else value

    def choice(self, table: Table, section: str, key: str, options: tuple[str, ...],
               default: str) -> str:
        value = self.get(table, section, key, str, default)
        if value not in options:
            self.check.fail(f"{value!r} is not one of {_choices(options)}"
                            + _suggest(value, options), section, key)
            return default
        return value

    def integer(self, table: Table, section: str, key: str, default: int,
                low: int, high: int, unit: str = "") -> int:
        value = self.get(table, section, key, int, default)
        if not low <= value <= high:
            self.check.fail(f"{value} is out of range ({low} to {high}{unit})", section, key)
            return default
        return value

    def path(self, table: Table, section: str, key: str, default: Path) -> Path:
        value = self.get(table, section, key, str, None)
        if value is None:
            return default
        if not value.strip():
            self.check.fail("empty path", section, key)
            return default
        if "\0" in value:
            self.check.fail("a path cannot hold a NUL character", section, key)
            return default
        return self.resolve(value, section, key) or default

    def resolve(self, value: str, *where: str) -> Path | None:
        """`value` as an absolute path (``~`` expanded, relative to the config's
        directory); None, with a problem at `where`, for ``~`` without a home."""
        path = Path(value)
        if value.startswith("~"):
            try:
                path = path.expanduser()
            except RuntimeError:
                self.check.fail(f"{value!r} starts with ~, but there is {NO_HOME}",
                                *where)
                return None
        return path if path.is_absolute() else (self.base / path).resolve()

    # sections --------------------------------------------------------------------------
    def build(self) -> RigConfig:
        for name in self.data:
            if name not in SECTIONS:
                self.check.fail("unknown section" + _suggest(name, SECTIONS), name)
        game = self.game()
        pins = self.section("pins", PinsConfig)
        self.pin_clashes(pins, self.tables["pins"])
        encoder = self.section("encoder", EncoderConfig)
        state = self.section("state", StateConfig)
        reader = self.section("reader", ReaderConfig)
        display = self.section("display", DisplayConfig)
        daemon = self.section("daemon", DaemonConfig)
        web = self.section("web", WebConfig)
        case = self.section("case", CaseConfig)
        voice = self.section("voice", VoiceConfig)
        self.cross_check(pins, reader, display)
        if self.check.problems and not self.lenient:
            ordered = sorted(self.check.problems,
                             key=lambda p: (p.line is None, p.line or 0))  # stable: file order
            raise ConfigError(ordered)
        return RigConfig(game=game, pins=pins, encoder=encoder, reader=reader, display=display,
                         state=state, daemon=daemon, web=web, case=case, voice=voice,
                         source=self.check.source)

    def game(self) -> GameConfig:
        s = "game"
        t = self.table(s)
        d = GameConfig()
        name = self.get(t, s, "name", str, d.name)
        game_entry = registry.find(name)
        if game_entry is None:  # only now list every game (installed ones too)
            name = self.choice(t, s, "name", registry.names(), d.name)
            game_entry = registry.find(name)
        counts = (game_entry.player_counts if game_entry is not None
                  else registry.all_player_counts())
        players = self.integer(t, s, "players", d.players, counts[0], counts[-1], " players")
        variant = self.get(t, s, "variant", str, d.variant)
        hints = self.get(t, s, "hints", bool, d.hints)
        hint_level = self.choice(t, s, "hint_level", COMPUTER_LEVELS + LEVEL_ALIASES,
                                 d.hint_level)
        think_ms = self.integer(t, s, "think_ms", d.think_ms, 1, 60_000, " ms")

        seats: tuple[str, ...] = ()
        raw_seats = self.get(t, s, "seats", _LIST, [])
        if raw_seats:
            names = [x for x in raw_seats if isinstance(x, str) and x.strip()]
            if len(names) != len(raw_seats):
                self.check.fail("seats are colour names (strings)", s, "seats")
            elif len({x.lower() for x in names}) != len(names):
                self.check.fail("a colour is named twice", s, "seats")
            elif len(names) != players:
                self.check.fail(f"{len(names)} seats named for {players} players",
                                s, "seats")
            elif (wrong := _foreign_colour(game_entry, names, players)) is not None:
                self.check.fail(wrong, s, "seats")  # with its line, as every mistake
            else:
                seats = tuple(names)

        levels = ["human"] * players
        raw_levels = self.get(t, s, "levels", _LIST, [])
        if len(raw_levels) > players:
            self.check.fail(f"{len(raw_levels)} levels for {players} players", s, "levels")
        else:
            for i, level in enumerate(raw_levels):
                if not isinstance(level, str) or level not in LEVELS + LEVEL_ALIASES:
                    self.check.fail(f"seat {i + 1}: {level!r} is not one of {_choices(LEVELS)}",
                                    s, "levels")
                elif game_entry is not None and not game_entry.seats(level):
                    offered = ("human", *game_entry.computer_levels)
                    self.check.fail(f"seat {i + 1}: {game_entry.title} has no "
                                    f"{level!r} computer; choose one of {_choices(offered)}",
                                    s, "levels")
                else:
                    levels[i] = level

        data: dict[str, str] = {}
        raw_data = self.get(t, s, "data", _TABLE, {})
        own_roles = tuple(game_entry.facts.data_roles) if game_entry is not None else ()
        for role, value in raw_data.items():
            # any game's role is well formed here (game_rules says which the game has);
            # every game is listed only for a role the chosen one lacks: finding the
            # installed games costs importlib.metadata's tens of ms at every start
            known_roles = own_roles if role in own_roles else registry.data_roles()
            if role not in known_roles:
                self.check.fail("unknown data file role" + _suggest(role, known_roles),
                                s, "data", role)
            elif not isinstance(value, str):
                self.check.fail(f"expected a file path string, got {value!r}", s, "data", role)
            elif value.startswith("default:"):
                data[role] = value
            elif value.strip():
                path = self.resolve(value, s, "data", role)
                if path is None:
                    continue
                problem = data_file_problem(path)
                if problem is not None:
                    self.check.fail(f"{problem}: {path}", s, "data", role)
                data[role] = str(path)

        options = self.get(t, s, "options", _TABLE, {})
        result = GameConfig(name=name, players=players, variant=variant, seats=seats,
                            levels=tuple(levels), hints=hints, hint_level=hint_level,
                            think_ms=think_ms, data=MappingProxyType(data),
                            options=MappingProxyType(dict(options)))
        if self.check_game:
            self.game_rules(result, t)
        return result

    def game_rules(self, game: GameConfig, table: Table) -> None:
        """Check the fields the game's facts define (its registry entry's one record)."""
        try:
            facts = game_facts(game.name)
        except (ImportError, SyntaxError, TypeError) as exc:
            # a game whose info module is being written must not stop the rig starting
            # (building the game says what is wrong); said in the log, never silently
            log.warning("cannot check [game] against %s's facts: %s", game.name, exc)
            return
        variants = facts.variant_names
        counts = facts.player_counts
        roles = dict(facts.data_roles)
        defaults = dict(facts.options)
        s = "game"
        if game.variant and game.variant not in variants:
            self.check.fail(f"{game.name} has no variant {game.variant!r}; it has "
                            f"{_choices(variants)}", s, "variant")
        if "players" in table and game.players not in counts:
            self.check.fail(f"{game.name} is for {_choices(counts)} players", s, "players")
        for role in game.data:
            if role not in roles:
                self.check.fail(f"{game.name} has no {role} file; it has {_choices(roles)}",
                                s, "data", role)
        for key, value in game.options.items():
            if key not in defaults:
                self.check.fail(f"{game.name} has no rule option {key!r}"
                                + _suggest(key, defaults), s, "options", key)
                continue
            default = defaults[key]
            if not _same_kind(value, default):
                self.check.fail(f"expected a value like {_json(default)}, got {value!r}",
                                s, "options", key)

    def section(self, name: str, kind: type[S]) -> S:
        """Section `name` (of class `kind`, as in ``SECTIONS``) read field by field from its
        table in ``FIELDS``: each value checked (a problem names the file, line and field),
        the default kept for a wrong one."""
        table = self.table(name)
        defaults = kind()
        values: dict[str, object] = {}
        self.values = values
        for key, spec in FIELDS[name].items():
            default: object = spec.default(self) if spec.default else getattr(defaults, key)
            values[key] = spec.read(self, table, name, key, default)
        result = kind(**values)
        self.built[name] = result
        self.tables[name] = table
        return result

    def pin_clashes(self, values: PinsConfig, table: Table) -> None:
        """A pin given in the file that another part already uses (each clash once)."""
        s = "pins"
        fitted = values.used()
        for i, name in enumerate(PIN_NAMES):
            number = fitted.get(name)
            if name not in table or number is None:
                continue
            clashes = [other for j, other in enumerate(PIN_NAMES) if other != name
                       and fitted.get(other) == number and (other not in table or j < i)]
            if clashes:
                self.check.fail(f"GPIO{number} is also used for {' and '.join(clashes)}",
                                s, name)

    def cross_check(self, pins: PinsConfig, reader: ReaderConfig,
                    display: DisplayConfig) -> None:
        reserved: dict[int, str] = {}
        if display.driver in I2C_DRIVERS or _installed_i2c(display.driver):
            reserved.update({n: f"{what}, used by the {display.driver} display"
                             for n, what in I2C_PINS.items()})
        if reader.type != "none" and reader.port in ("/dev/serial0", "/dev/ttyAMA0",
                                                     "/dev/ttyS0"):
            reserved.update({n: f"{what}, used by the {reader.type} reader"
                             for n, what in UART_PINS.items()})
        for name, number in pins.used().items():
            if number in reserved:
                self.check.fail(f"GPIO{number} is the {reserved[number]}", "pins", name)


def _same_kind(value: object, default: object) -> bool:
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(value, bool) and isinstance(default, bool)
    if isinstance(default, int | float):
        return isinstance(value, int | float)
    if default is None:
        return True
    return isinstance(value, type(default))


_ADDRESS = re.compile(r"^\s*(0[xX][0-9A-Fa-f]+|\d+)\s*$")


def _parse_address(raw: TomlValue) -> int | None:
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw
    if isinstance(raw, str) and _ADDRESS.match(raw):
        return int(raw.strip(), 0)
    return None


# -- the sections' fields -------------------------------------------------------------------

Read = Callable[["_Builder", Table, str, str, object], object]
"""(builder, table, section, key, default) -> the checked value (default when wrong).
The fields of a section differ in kind, so the table passes values as `object`; each
reader narrows its default with `_as`."""
Default = Callable[["_Builder"], object]


class _Field(Frozen):
    read: Read
    default: Default | None = None
    """A default that depends on what was read before (None: the section class's)."""


def _as(kind: type[T], value: object) -> T:
    """A field's default (or a field read before) as the kind its reader reads;
    TypeError if ``FIELDS`` and the section classes ever disagree."""
    if isinstance(value, kind):
        return value
    raise TypeError(f"expected a {kind.__name__} default, got {value!r}")


def _flag() -> _Field:
    return _Field(lambda b, t, s, k, d: b.get(t, s, k, bool, _as(bool, d)))


def _number(low: int, high: int, unit: str = "", default: Default | None = None) -> _Field:
    return _Field(lambda b, t, s, k, d: b.integer(t, s, k, _as(int, d), low, high, unit),
                  default)


def _pick(options: tuple[str, ...]) -> _Field:
    return _Field(lambda b, t, s, k, d: b.choice(t, s, k, options, _as(str, d)))


def _path(default: Default | None = None) -> _Field:
    return _Field(lambda b, t, s, k, d: b.path(t, s, k, _as(Path, d)), default)


def _one_of(values: tuple[int, ...], wrong: Callable[[int], str]) -> _Field:
    def read(b: _Builder, t: Table, s: str, k: str, d: object) -> object:
        value = b.get(t, s, k, int, _as(int, d))
        if value not in values:
            b.check.fail(wrong(value), s, k)
            return d
        return value
    return _Field(read)


def _reader_type(b: _Builder, t: Table, s: str, k: str, d: object) -> object:
    """A reader type the reader table has (built-in or installed), or "none"."""
    value = b.get(t, s, k, str, _as(str, d))
    if value == NO_READER or READERS.find(value) is not None:
        return value
    known = reader_types()
    b.check.fail(f"{value!r} is not one of {_choices(known)}" + _suggest(value, known), s, k)
    return d


def display_drivers() -> tuple[str, ...]:
    """Every ``[display] driver``: the display table's, built-in and installed."""
    return DISPLAYS.names()


def _foreign_colour(entry: gametype.GameEntry | None, names: list[str],
                    players: int) -> str | None:
    """Why a seat's colour is not one the game seats this many players in (the first
    such colour, naming those it has), or None."""
    if entry is None or not entry.colours:
        return None
    sets = entry.colour_sets(players)
    allowed = [c for c in entry.colours if any(c in chosen for chosen in sets)]
    for name in names:
        if name.lower() not in allowed:  # the games read a seat's colour in any case
            return (f"{name!r} is not a seat colour of {entry.title} for {players} players; "
                    f"choose from {_choices(allowed)}" + _suggest(name, allowed))
    return None


def _voice_effect(b: _Builder, t: Table, s: str, k: str, d: object) -> object:
    value = b.get(t, s, k, str, _as(str, d))
    if value in EFFECTS.built_in or EFFECTS.find(value) is not None:
        return value
    known = EFFECTS.names()
    b.check.fail(f"{value!r} is not one of {_choices(known)}" + _suggest(value, known), s, k)
    return d


def _installed_i2c(driver: str) -> bool:
    """Whether an installed display driver sits on the I2C bus (a built-in one's name
    says it without loading its module)."""
    if driver in DISPLAYS.built_in:
        return False
    found = DISPLAYS.find(driver)
    return found is not None and found.i2c


def _display_driver(b: _Builder, t: Table, s: str, k: str, d: object) -> object:
    value = b.get(t, s, k, str, _as(str, d))
    if value in DISPLAYS.built_in or DISPLAYS.find(value) is not None:
        return value
    known = display_drivers()
    b.check.fail(f"{value!r} is not one of {_choices(known)}" + _suggest(value, known), s, k)
    return d


def _reader_default(b: _Builder, attribute: str, none: int) -> int:
    """The configured reader type's own baud or misses (its record's)."""
    kind = b.value("type", str)
    if kind == NO_READER:
        return none
    found: int = getattr(reader_kind(kind), attribute)
    return found


def _port(b: _Builder, t: Table, s: str, k: str, d: object) -> object:
    value = b.get(t, s, k, str, _as(str, d))
    if not value.strip():
        b.check.fail("empty port", s, k)
        return d
    if len(value) > MAX_PORT:
        b.check.fail(f"{len(value)} characters is too long for a serial port (a device "
                     "path, or a pyserial URL such as rfc2217://host:port)", s, k)
        return d
    return value


def _baud(b: _Builder, t: Table, s: str, k: str, d: object) -> object:
    kind = b.value("type", str)
    value = b.get(t, s, k, int, _as(int, d))
    if value not in BAUD_RATES:
        b.check.fail(f"{value} is not a serial speed ({_choices(BAUD_RATES)})", s, k)
        return d
    if kind == "rdm6300" and value != 9600:
        b.check.fail("the RDM6300 only talks at 9600 baud", s, k)
    return value


def _address(b: _Builder, t: Table, s: str, k: str, d: object) -> object:
    if k not in t:
        return d
    raw = t[k]
    parsed = _parse_address(raw)
    if parsed is None:
        b.check.fail(f"expected an I2C address such as 0x3C or 60, got {raw!r}", s, k)
    elif not 0x03 <= parsed <= 0x77:
        b.check.fail(f"0x{parsed:02X} is not a 7-bit I2C device address (0x03 to 0x77)", s, k)
    else:
        return parsed
    return d


def _ip_address(b: _Builder, t: Table, s: str, k: str, d: object) -> object:
    value = b.get(t, s, k, str, _as(str, d))
    try:
        ipaddress.ip_address(value)
    except ValueError:
        b.check.fail(f"{value!r} is not an IP address (e.g. 0.0.0.0 or 127.0.0.1)", s, k)
        return d
    return value


def _pin(b: _Builder, t: Table, s: str, k: str, d: object) -> object:
    if k not in t:
        return d
    value = t[k]
    if k in OPTIONAL_PINS and value is False:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        fitted = " or false (not fitted)" if k in OPTIONAL_PINS else ""
        b.check.fail(f"expected a BCM pin number{fitted}, got {value!r}", s, k)
        return d
    if not 0 <= value <= MAX_BCM:
        b.check.fail(f"GPIO{value} does not exist (BCM 0 to {MAX_BCM})", s, k)
        return d
    return value


PIN_FACTORY_VARIABLE = "GPIOZERO_PIN_FACTORY"
"""gpiozero's own choice of backend. The rig always passes its pin factory explicitly
(a silent fallback hides a missing backend), so gpiozero never reads it; the rig does:
it chooses the backend when the config does not (``[pins] backend`` in the file wins).
Under systemd it is only set by a drop-in (``Environment=``)."""


def environment_pin_factory() -> tuple[str | None, Problem | None]:
    """The backend ``$GPIOZERO_PIN_FACTORY`` names (None if unset or empty), or the
    problem with a name the rig cannot use."""
    raw = os.environ.get(PIN_FACTORY_VARIABLE, "").strip()
    if not raw:
        return None, None
    if raw.lower() in PIN_BACKENDS:
        return raw.lower(), None
    return None, Problem(f"${PIN_FACTORY_VARIABLE}", None, "pins.backend",
                         f"{raw!r} is not one of {_choices(PIN_BACKENDS)} (set it to one "
                         "of them, or unset it; [pins] backend in the config wins)")


def _backend_default(b: _Builder) -> str:
    pins = b.data.get("pins")
    if isinstance(pins, dict) and "backend" in pins:
        return DEFAULT_PIN_FACTORY  # the file says; the environment is not looked at
    backend, problem = environment_pin_factory()
    if problem is not None:
        b.check.problems.append(problem)
    return backend or DEFAULT_PIN_FACTORY


def _voice_events(b: _Builder, t: Table, s: str, k: str, d: object) -> object:
    value = b.get(t, s, k, _LIST, None)
    if value is None:
        return d
    wrong = [e for e in value if e not in VOICE_EVENTS]
    if wrong:
        b.check.fail(f"{wrong[0]!r} is not one of {_choices(VOICE_EVENTS)}"
                     + (_suggest(wrong[0], VOICE_EVENTS) if isinstance(wrong[0], str) else ""),
                     s, k)
        return d
    return tuple(value)


def _name(what: str, pattern: re.Pattern[str]) -> Read:
    def read(b: _Builder, t: Table, s: str, k: str, d: object) -> object:
        value = b.get(t, s, k, str, _as(str, d))
        if not pattern.match(value):
            b.check.fail(f"{value!r} is not {what}", s, k)
            return d
        return value
    return read


def _edges(value: int) -> str:
    return f"{value} is not 4 (one click per full cycle) or 2 (half cycle)"


FIELDS: dict[str, dict[str, _Field]] = {
    "pins": {"backend": _Field(_pick(PIN_BACKENDS).read, _backend_default),
             **{name: _Field(_pin) for name in PIN_NAMES}},
    "encoder": {
        "edges_per_detent": _one_of((2, 4), _edges),
        "hi_reverse": _flag(),
        "lo_reverse": _flag(),
        "flick_detents": _number(2, 50, " detents"),
        "flick_window_ms": _number(20, 2000, " ms"),
        "spin_settle_ms": _number(0, 5000, " ms"),
        "long_press_ms": _number(200, 10000, " ms"),
        "button_bounce_ms": _number(0, 200, " ms"),
    },
    "state": {"directory": _path(lambda b: default_state_dir())},
    "reader": {
        "type": _Field(_reader_type),
        "port": _Field(_port),
        "baud": _Field(_baud, lambda b: _reader_default(b, "baud", NO_READER_BAUD)),
        "removal_ms": _number(50, 10000, " ms"),
        "removal_misses": _number(0, 100,
                                  default=lambda b: _reader_default(b, "misses", 0)),
        "cards": _path(lambda b: b.earlier("state", StateConfig).directory / "cards.toml"),
    },
    "display": {
        "address": _Field(_address),
        "rotate": _one_of(ROTATIONS, lambda v: f"{v} is not one of {_choices(ROTATIONS)} "
                                               "(degrees)"),
        "driver": _Field(_display_driver),
        "i2c_port": _number(0, 31),
        "contrast": _number(0, 255),
    },
    "daemon": {"watchdog": _flag(), "log_level": _pick(LOG_LEVELS)},
    "web": {"address": _Field(_ip_address), "enabled": _flag(), "port": _number(1, 65535),
            "open_to_lan": _flag()},
    "case": {"pi": _pick(CASE_PIS), "speaker": _flag()},
    "voice": {
        "enabled": _flag(),
        "volume": _number(0, 100, " %"),
        "rate": _number(80, 450, " words a minute"),
        "voice": _Field(_name("an espeak-ng voice name such as en-us", _VOICE_NAME)),
        "events": _Field(_voice_events),
        "effect": _Field(_voice_effect),
        "device": _Field(_name("an ALSA device name such as default or plughw:1,0",
                               re.compile(r"^[A-Za-z0-9_:,.=-]+$"))),
        "choices": _pick(VOICE_CHOICES),
    },
}
"""Each section's fields in the order they are checked (which orders the problems of one
line); a field's reader records any problem and gives the default instead."""


def _json(value: object, ensure_ascii: bool = True) -> str:
    """``json.dumps`` (a TOML basic string is quoted as JSON quotes it), imported here
    rather than at the top: the daemon reads its config before its first screen and
    writes none, and nothing else it needs by then uses json."""
    import json

    return json.dumps(value, ensure_ascii=ensure_ascii)
