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
import ipaddress
import logging
import os
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, TypeAlias, TypeVar

from engine.datafile import Checker, parse_toml
from engine.datafile import did_you_mean as _suggest
from engine.errors import DataError, Problem
from hardware.display.kinds import DISPLAYS
from hardware.pins import (
    DEFAULT_BUZZER_PIN,
    DEFAULT_KNOB_PINS,
    DEFAULT_LED_PIN,
    DEFAULT_PIN_FACTORY,
    PIN_FACTORIES,
)
from hardware.rfid.kinds import NO_READER, READERS, reader_kind, reader_types
from rig import gametype, registry
from rig.datafiles import DataFileRefused, data_file_problem, read_bounded
from rig.statedir import atomic_write, make_private_dir, read_state_text
from rig.voice.effects import EFFECTS
from rig.voice.speech import CHOICES as VOICE_CHOICES
from rig.voice.speech import EVENTS as VOICE_EVENTS
from valueclass import Frozen, field, fields

if TYPE_CHECKING:
    from engine.datafile import TomlValue

log = logging.getLogger(__name__)

T = TypeVar("T")
D = TypeVar("D")
S = TypeVar("S", bound=Frozen)
Table: TypeAlias = dict[str, "TomlValue"]
"""A TOML table as tomllib gives it; each field is narrowed where it is read."""
_LIST: type[list[TomlValue]] = list
"""The kind `_Builder.get` asks for when a field is a TOML array."""
_TABLE: type[Table] = dict
"""The kind `_Builder.get` asks for when a field is a TOML table."""

DEFAULT_PATH = Path("/etc/cbrig/config.toml")
DEFAULT_STATE_DIR = Path("/var/lib/cbrig")
CONFIG_NAME = "config.toml"

COMPUTER_LEVELS = gametype.COMPUTER_LEVELS
LEVELS = ("human", *COMPUTER_LEVELS)
LEVEL_ALIASES = tuple(gametype.OLD_LEVEL_NAMES)
"""Older names of easy and medium, still accepted (saved configs and journals use them)."""
PIN_BACKENDS = tuple(PIN_FACTORIES)
PIN_NAMES = ("hi_a", "hi_b", "hi_button", "lo_a", "lo_b", "lo_button", "buzzer", "led")
OPTIONAL_PINS = ("buzzer", "led")
NO_READER_BAUD = 9600
"""``[reader] baud`` of a rig with no reader (type "none"); a reader type's own is its
record's (hardware.rfid.kinds: the reader table)."""
BAUD_RATES = (1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600)
I2C_DRIVERS = ("ssd1306", "sh1106")
"""The OLEDs the printed case has a window for (wiring/parts.toml)."""
ROTATIONS = (0, 90, 180, 270)
LOG_LEVELS = ("debug", "info", "warning", "error")
CASE_PIS = ("zero2w", "pi3", "pi4", "pi5")
"""The Pis the printed case fits (their `choice` in wiring/parts.toml)."""
I2C_PINS = {2: "I2C SDA", 3: "I2C SCL"}
UART_PINS = {14: "UART TXD", 15: "UART RXD"}
MAX_BCM = 27
MAX_PORT = 1024
"""The longest reader port accepted: it goes into every reader message in the log."""
DEFAULTS_SOURCE = "<defaults>"


class ConfigError(DataError):
    """A config file with mistakes; ``problems`` lists each with file, line and field."""


class GameConfig(Frozen):
    name: str = registry.DEFAULT_GAME
    """A registered game's name (rig.registry): "tenfour" or "bumpem" here."""
    players: int = registry.DEFAULT_PLAYERS
    variant: str = ""
    """Empty: the game's default (first) variant."""
    seats: tuple[str, ...] = ()
    """Colour names in seating order; empty: the board's first colours."""
    levels: tuple[str, ...] = ("human",) * registry.DEFAULT_PLAYERS
    """One per seat: "human" or a computer level, "easy", "medium" or "hard" ("random" and
    "strong" are the older names of easy and medium). Always `players` long."""
    hints: bool = True
    hint_level: str = "hard"
    """The computer level whose choice a hint shows; `medium` and `easy` answer at once.
    A `hard` hint thinks `think_ms` a decision, in slices the loop runs between events
    (rig.core.controller, `Seat.think`): knobs and screen stay served, the star appears when
    the search ends."""
    think_ms: int = 100
    """CPU milliseconds a `hard` seat (or hint) may think per decision; the rig turns it
    into the search's sample budget by timing the search on this machine (about 100 on a
    desktop, about 1000 on a Pi Zero 2 W for the same strength)."""
    data: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """Data file overrides, role -> path (absolute). Roles left out use the shipped files."""
    options: Mapping[str, TomlValue] = field(default_factory=lambda: MappingProxyType({}))
    """Rule options; those left out take the game's defaults. TOML values, not JSON: the
    kinds are checked against the game's defaults only with ``check_game`` (and when the
    game's facts load), and then only at the top level; the game's build checks them."""

    @property
    def computer_seats(self) -> dict[int, str]:
        """Seat index -> level for the seats the rig plays itself."""
        return {i: level for i, level in enumerate(self.levels) if level != "human"}


class PinsConfig(Frozen):
    """BCM pins; the defaults are the reference wiring's (:mod:`hardware.pins`)."""

    backend: str = DEFAULT_PIN_FACTORY
    hi_a: int = DEFAULT_KNOB_PINS["hi"][0]
    hi_b: int = DEFAULT_KNOB_PINS["hi"][1]
    hi_button: int = DEFAULT_KNOB_PINS["hi"][2]
    lo_a: int = DEFAULT_KNOB_PINS["lo"][0]
    lo_b: int = DEFAULT_KNOB_PINS["lo"][1]
    lo_button: int = DEFAULT_KNOB_PINS["lo"][2]
    buzzer: int | None = DEFAULT_BUZZER_PIN
    led: int | None = DEFAULT_LED_PIN
    """Optional parts: None when not fitted (``false`` in the file)."""

    def used(self) -> dict[str, int]:
        """Pin name -> BCM number for every fitted part."""
        out: dict[str, int] = {}
        for name in PIN_NAMES:
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        return out


class EncoderConfig(Frozen):
    edges_per_detent: int = 4
    """4 for encoders that click once per full quadrature cycle, 2 for half-cycle ones."""
    hi_reverse: bool = False
    lo_reverse: bool = False
    flick_detents: int = 3
    flick_window_ms: int = 150
    spin_settle_ms: int = 300
    long_press_ms: int = 1500
    button_bounce_ms: int = 20


class ReaderConfig(Frozen):
    type: str = "rdm6300"
    """A reader type: "rdm6300", "pn532", one installed in ``cbrig.readers``
    (hardware.rfid.kinds), or "none" (no reader: a virtual shuffled deck)."""
    port: str = "/dev/serial0"
    baud: int = 9600
    """Defaults by type: 9600 for the RDM6300, 115200 for the PN532."""
    removal_ms: int = 400
    removal_misses: int = 0
    """Empty polls needed before a card counts as removed (default 3 for the PN532)."""
    cards: Path = DEFAULT_STATE_DIR / "cards.toml"
    """Tag -> card map written by ``cbrig cards enroll``; default ``<state>/cards.toml``."""


class DisplayConfig(Frozen):
    driver: str = "ssd1306"
    i2c_port: int = 1
    address: int = 0x3C
    rotate: int = 0
    """Degrees: 0, 90, 180 or 270."""
    contrast: int = 255

    @property
    def rotate_quarters(self) -> int:
        """luma's ``rotate`` argument (quarter turns)."""
        return self.rotate // 90


class StateConfig(Frozen):
    directory: Path = DEFAULT_STATE_DIR

    @property
    def current(self) -> Path:
        """The journal of the game in progress."""
        return self.directory / "current.jsonl"

    @property
    def games(self) -> Path:
        """Finished games' journals."""
        return self.directory / "games"


class DaemonConfig(Frozen):
    watchdog: bool = True
    """Ping the systemd watchdog from the main loop (when systemd asks for it)."""
    log_level: str = "info"


class WebConfig(Frozen):
    enabled: bool = False
    """Serve the read-only live board (off: no listener, rig.web never imported)."""
    address: str = "127.0.0.1"
    """An IP address of the Pi to listen on; "0.0.0.0" for every network it is on."""
    port: int = 8411
    open_to_lan: bool = False
    """Let every host that reaches the port watch the board, as before issue 44; off:
    only pages that gave the join code the rig shows (setup menu, "Phones: join")."""


class CaseConfig(Frozen):
    """What the printed enclosure holds (``cbrig case build``); the rig itself ignores it.
    The display, reader, buzzer and LED come from their own sections."""

    pi: str = "zero2w"
    speaker: bool = False
    """A 40 mm speaker behind a grille and its MAX98357A amplifier (the rig's voice)."""


VOICE_EFFECTS = tuple(EFFECTS.built_in)
"""The built-in voice effects; ``[voice] effect`` may also name an installed one
(rig.voice.effects: the effect table)."""
_VOICE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9+_-]*$")


class VoiceConfig(Frozen):
    """The spoken announcements (RULINGS G6; rig.voice.narrator, docs/VOICE.md)."""

    enabled: bool = True
    """Where the rig has a sound output it speaks (on by default; the setup menu too)."""
    volume: int = 80
    """Percent of full scale (0 to 100)."""
    rate: int = 165
    """Words a minute (80 to 450; espeak-ng's own default is 175)."""
    voice: str = "en-us"
    """An espeak-ng voice (``espeak-ng --voices=en`` lists them)."""
    events: tuple[str, ...] = VOICE_EVENTS
    """Which moments are spoken: turn, card, move, police, alert, winner, refusal."""
    effect: str = "radio"
    """"radio" (a CB radio: 300-3,400 Hz, squelch, roger beep; needs sox), "plain", or
    one installed in ``cbrig.voice_effects`` (rig.voice.effects)."""
    device: str = "default"
    """The ALSA output aplay plays on: "default", "plughw:1,0", "plughw:MAX98357A"..."""
    choices: str = "brief"
    """How a person's choice is said: "brief" (how many, and the option under the knob;
    each turn says the one it lands on) or "all" (every option read out)."""


class RigConfig(Frozen):
    game: GameConfig = field(default_factory=GameConfig)
    pins: PinsConfig = field(default_factory=PinsConfig)
    encoder: EncoderConfig = field(default_factory=EncoderConfig)
    reader: ReaderConfig = field(default_factory=ReaderConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    state: StateConfig = field(default_factory=StateConfig)
    daemon: DaemonConfig = field(default_factory=DaemonConfig)
    web: WebConfig = field(default_factory=WebConfig)
    case: CaseConfig = field(default_factory=CaseConfig)
    voice: VoiceConfig = field(default_factory=VoiceConfig)
    source: str = DEFAULTS_SOURCE
    """The file this came from."""


SECTIONS: dict[str, type[Frozen]] = {
    "game": GameConfig, "pins": PinsConfig, "encoder": EncoderConfig, "reader": ReaderConfig,
    "display": DisplayConfig, "state": StateConfig, "daemon": DaemonConfig, "web": WebConfig,
    "case": CaseConfig,
    "voice": VoiceConfig,
}


def _first_directory(variable: str) -> Path | None:
    """The first entry of a systemd directory variable (a colon-separated list)."""
    first = os.environ.get(variable, "").split(":")[0]
    return Path(first) if first else None


def home_directory(environ: Mapping[str, str] | None = None) -> Path | None:
    """The user's home directory: ``$HOME``, else the passwd entry's. None when there is
    neither (a bare uid, as ``setpriv --reuid`` or a container gives): callers then do
    without what lives there instead of failing as ``Path.home()`` does."""
    env = os.environ if environ is None else environ
    if env.get("HOME"):
        return Path(env["HOME"])
    import pwd

    try:
        return Path(pwd.getpwuid(os.getuid()).pw_dir)
    except KeyError:
        return None


NO_HOME = "no home directory (HOME is not set and this user has no passwd entry)"


def xdg_directory(variable: str, fallback: str,
                  environ: Mapping[str, str] | None = None) -> Path | None:
    """An XDG base directory: ``$variable`` when absolute, else ``~/fallback``; None
    without a home directory."""
    env = os.environ if environ is None else environ
    value = env.get(variable, "")
    if os.path.isabs(value):
        return Path(value)
    home = home_directory(env)
    return None if home is None else home / fallback


def default_config_path() -> Path | None:
    """The config a command reads when given none, the first that exists of: under
    systemd the unit's ``$CONFIGURATION_DIRECTORY/config.toml``; the user's own
    ``$XDG_CONFIG_HOME/cbrig/config.toml`` (``~/.config``); the system's
    ``/etc/cbrig/config.toml``. None: the built-in defaults."""
    systemd = _first_directory("CONFIGURATION_DIRECTORY")
    user = xdg_directory("XDG_CONFIG_HOME", ".config")
    candidates = [systemd / CONFIG_NAME] if systemd is not None else []
    if user is not None:
        candidates.append(user / "cbrig" / CONFIG_NAME)
    for candidate in (*candidates, DEFAULT_PATH):
        if candidate.exists():
            return candidate
    return None


def default_state_dir() -> Path:
    """Where games and the card map go when the config does not say: under systemd the
    unit's ``$STATE_DIRECTORY``; ``/var/lib/cbrig`` for root or where it exists (the
    rig); on a desktop ``$XDG_STATE_HOME/cbrig`` (``~/.local/state/cbrig``), and
    ``/var/lib/cbrig`` again for a user without a home directory (starting there then
    says what cannot be written: set ``[state] directory``)."""
    systemd = _first_directory("STATE_DIRECTORY")
    if systemd is not None:
        return systemd
    if os.geteuid() == 0 or DEFAULT_STATE_DIR.is_dir():
        return DEFAULT_STATE_DIR
    user = xdg_directory("XDG_STATE_HOME", ".local/state")
    return DEFAULT_STATE_DIR if user is None else user / "cbrig"


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


def game_facts(name: str) -> gametype.GameFacts:
    """The facts of a registered game (its info module, read once per process)."""
    return registry.entry(name).facts


def _choices(values: Iterable[object]) -> str:
    return ", ".join(repr(v) if isinstance(v, str) else str(v) for v in values)


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


def _json(value: object, ensure_ascii: bool = True) -> str:
    """``json.dumps`` (a TOML basic string is quoted as JSON quotes it), imported here
    rather than at the top: the daemon reads its config before its first screen and
    writes none, and nothing else it needs by then uses json."""
    import json

    return json.dumps(value, ensure_ascii=ensure_ascii)


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
    "CASE_PIS",
    "DEFAULT_PATH",
    "DEFAULT_STATE_DIR",
    "CaseConfig",
    "ConfigError",
    "DaemonConfig",
    "DisplayConfig",
    "EncoderConfig",
    "GameConfig",
    "PinsConfig",
    "ReaderConfig",
    "RigConfig",
    "StateConfig",
    "VoiceConfig",
    "WebConfig",
    "config_to_dict",
    "default_config",
    "default_config_path",
    "default_state_dir",
    "dump_config",
    "load_config",
    "parse_config",
]

