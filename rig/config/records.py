"""The rig config's records: one per section of ``config.toml`` (:class:`RigConfig` holds
them), with the names and limits their fields are checked against (rig.config.checks)."""


from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, TypeAlias, TypeVar

from engine.errors import DataError
from hardware.pins import (
    DEFAULT_BUZZER_PIN,
    DEFAULT_KNOB_PINS,
    DEFAULT_LED_PIN,
    DEFAULT_PIN_FACTORY,
    PIN_FACTORIES,
)
from rig import gametype, registry
from rig.voice.settings import VoiceConfig
from valueclass import Frozen, field

if TYPE_CHECKING:
    from engine.datafile import TomlValue

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


_VOICE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9+_-]*$")


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
