"""Wiring: build a whole set of devices, real or mock, behind one object.

The rig owns one ``queue.Queue`` and passes ``queue.put`` as ``emit``; every device only
enqueues :mod:`hardware.events` values, and the rig's single consumer thread owns the
game state, the display and the journal.

Real rig::

    hw = build_real(HardwareConfig(pin_factory="lgpio", display_driver="sh1106"), q.put)
    hw.start()            # starts the card-reader thread
    ...
    hw.close(goodbye_frame)

Mock rig (emulator, tests)::

    hw = build_mock(q.put, display=TerminalDisplay())
    hw.knobs["hi"].flick(0.8); hw.reader.tap("0003887558")
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hardware.buzzer import Alerts, AlertSink, MockAlerts
from hardware.clock import Clock
from hardware.display.base import Display, MemoryDisplay
from hardware.display.build import build_display, quarter_turns
from hardware.events import Emit
from hardware.gesture import GestureConfig
from hardware.gestureclock import GestureClock, KnobInput
from hardware.knob import Knob, MockKnob
from hardware.pins import DEFAULT_KNOB_PINS, DEFAULT_PIN_FACTORY, PinFactory, make_pin_factory
from hardware.rfid.kinds import NO_READER, reader_kind
from hardware.rfid.mock import MockCardReader, NullCardReader
from hardware.rfid.reader import DEFAULT_PORT, CardProtocol, CardReader
from valueclass import Frozen, Record, field

if TYPE_CHECKING:  # a frame is a PIL image; PIL loads with the first frame rendered
    from PIL import Image


class KnobPins(Frozen):
    """BCM pin numbers of one knob. Power KY-040 boards from 3.3 V."""

    a: int
    b: int
    button: int | None = None
    edges_per_detent: int = 4
    reverse: bool = False


def _default_knobs() -> dict[str, KnobPins]:
    return {name: KnobPins(*pins) for name, pins in DEFAULT_KNOB_PINS.items()}


class HardwareConfig(Frozen):
    pin_factory: str = DEFAULT_PIN_FACTORY
    knobs: dict[str, KnobPins] = field(default_factory=_default_knobs)
    gestures: GestureConfig = field(default_factory=GestureConfig)
    button_bounce: float | None = 0.02
    reader_type: str = "rdm6300"  # a reader type (hardware.rfid.kinds), or "none"
    reader_port: str = DEFAULT_PORT
    reader_baud: int | None = None  # None: the protocol's (9600 RDM6300, 115200 PN532)
    reader_name: str = "deck"
    removal_after: float = 0.4
    removal_misses: int | None = None  # None: the protocol's (0 RDM6300, 3 PN532)
    display_driver: str = "ssd1306"  # "sh1106", "terminal" or "none"
    i2c_port: int = 1
    i2c_address: int = 0x3C
    display_rotate: int = 0  # luma quarter turns (0-3)
    display_contrast: int | None = None
    buzzer_pin: int | None = None
    led_pin: int | None = None


def config_from_sections(pins: Any, encoder: Any, reader: Any, display: Any) -> HardwareConfig:
    """Build a :class:`HardwareConfig` from the rig's config sections (duck-typed, so
    ``hardware`` does not import ``rig``): ``pins`` (backend, hi_a, hi_b, hi_button,
    lo_a, lo_b, lo_button, buzzer, led), ``encoder`` (edges_per_detent, hi_reverse,
    lo_reverse, flick_detents, flick_window_ms, spin_settle_ms, long_press_ms,
    button_bounce_ms), ``reader`` (type, port, baud, removal_ms, removal_misses) and
    ``display`` (driver, i2c_port, address, rotate in degrees, contrast)."""
    epd = int(encoder.edges_per_detent)
    knobs = {
        side: KnobPins(
            getattr(pins, f"{side}_a"),
            getattr(pins, f"{side}_b"),
            getattr(pins, f"{side}_button", None),
            edges_per_detent=epd,
            reverse=bool(getattr(encoder, f"{side}_reverse", False)),
        )
        for side in ("hi", "lo")
    }
    gestures = GestureConfig(
        flick_detents=int(encoder.flick_detents),
        flick_window=encoder.flick_window_ms / 1000,
        spin_settle=encoder.spin_settle_ms / 1000,
        long_press=encoder.long_press_ms / 1000,
    )
    misses = getattr(reader, "removal_misses", None)
    bounce_ms = getattr(encoder, "button_bounce_ms", 20)
    return HardwareConfig(
        pin_factory=pins.backend,
        knobs=knobs,
        gestures=gestures,
        button_bounce=bounce_ms / 1000 if bounce_ms else None,
        reader_type=reader.type,
        reader_port=reader.port,
        reader_baud=getattr(reader, "baud", None),
        removal_after=reader.removal_ms / 1000,
        removal_misses=misses,  # 0 is a real setting: `is None` means the protocol's
        display_driver=display.driver,
        i2c_port=display.i2c_port,
        i2c_address=display.address,
        display_rotate=quarter_turns(display.rotate),
        display_contrast=getattr(display, "contrast", None),
        buzzer_pin=getattr(pins, "buzzer", None),
        led_pin=getattr(pins, "led", None),
    )


def make_protocol(reader_type: str) -> CardProtocol:
    """The protocol object of a reader type (hardware.rfid.kinds: the built-in ones and
    any installed in ``cbrig.readers``): only that one's decoder is imported (a rig has
    one reader, or none)."""
    return reader_kind(reader_type).protocol()


class Hardware(Record):
    knobs: dict[str, Knob | MockKnob]
    reader: CardReader | MockCardReader | NullCardReader
    display: Display
    alerts: AlertSink
    pin_factory: PinFactory | None = None
    gesture_clock: GestureClock | None = None
    """Turns every knob's raw pin edges into gestures (on the rig loop, or its thread)."""

    def start(self) -> None:
        self.reader.start()

    def poll(self) -> None:
        """Call from the main loop now and then: lets a lost display recover."""
        poll = getattr(self.display, "poll", None)
        if poll is not None:
            poll()

    def close(self, persist_message: Image.Image | None = None) -> None:
        """Stop the reader, release pins, leave ``persist_message`` on the screen."""
        self.reader.stop()
        if self.gesture_clock is not None:
            self.gesture_clock.close()  # first: no gesture is sent after this
        for knob in self.knobs.values():
            knob.close()
        self.alerts.close()
        self.display.close(persist_message)
        if self.pin_factory is not None:
            with contextlib.suppress(Exception):
                self.pin_factory.close()


def build_real(config: HardwareConfig, emit: Emit, *, clock: Clock = time.monotonic,
               display: Display | None = None,
               gesture_inbox: Callable[[KnobInput], None] | None = None) -> Hardware:
    """Real devices. Raises for a bad config or a missing pin backend (naming the pip
    extra to install); a missing display or reader later is reported through events,
    never raised. Nothing touches a device until :meth:`Hardware.start` / ``show``,
    except the GPIO pins, which are claimed here. ``display``: one already built
    (:func:`hardware.display.build.build_display`) instead of the config's.
    ``gesture_inbox``: the rig loop's ``post``, to classify the knobs' raw inputs on the
    loop's clock (:class:`~hardware.gestureclock.GestureClock`); without, they are
    classified on a thread of their own."""
    # Objects without side effects first, so a config error leaks no claimed pins.
    reader: CardReader | NullCardReader
    if config.reader_type == NO_READER:
        reader = NullCardReader(config.reader_name)
    else:
        reader = CardReader(
            config.reader_name,
            emit,
            make_protocol(config.reader_type),
            url=config.reader_port,
            baudrate=config.reader_baud,
            removal_after=config.removal_after,
            misses_to_remove=config.removal_misses,
            clock=clock,
        )
    if display is None:
        display = build_display(config.display_driver, emit, i2c_port=config.i2c_port,
                                address=config.i2c_address, rotate=config.display_rotate,
                                contrast=config.display_contrast, clock=clock)
    factory = make_pin_factory(config.pin_factory)
    knobs: dict[str, Knob | MockKnob] = {}
    alerts: AlertSink = MockAlerts()
    gesture_clock = GestureClock(clock, inbox=gesture_inbox)
    gesture_clock.start()  # its thread, unless the loop is the consumer
    try:
        for name, pins in config.knobs.items():
            knobs[name] = Knob(
                name,
                emit,
                pin_a=pins.a,
                pin_b=pins.b,
                pin_button=pins.button,
                pin_factory=factory,
                edges_per_detent=pins.edges_per_detent,
                reverse=pins.reverse,
                button_bounce=config.button_bounce,
                gesture_clock=gesture_clock,
                config=config.gestures,
            )
        if config.buzzer_pin is not None or config.led_pin is not None:
            alerts = Alerts(
                buzzer_pin=config.buzzer_pin, led_pin=config.led_pin, pin_factory=factory
            )
    except BaseException:
        gesture_clock.close()
        for knob in knobs.values():
            knob.close()
        factory.close()
        raise
    return Hardware(knobs, reader, display, alerts, pin_factory=factory,
                    gesture_clock=gesture_clock)


def build_mock(
    emit: Emit, *, display: Display | None = None, reader_name: str = "deck"
) -> Hardware:
    """No hardware at all: gestures and card taps are injected by the caller."""
    return Hardware(
        knobs={name: MockKnob(name, emit) for name in ("hi", "lo")},
        reader=MockCardReader(reader_name, emit),
        display=display if display is not None else MemoryDisplay(),
        alerts=MockAlerts(),
    )


__all__ = [
    "Hardware",
    "HardwareConfig",
    "KnobPins",
    "build_mock",
    "build_real",
    "config_from_sections",
    "make_protocol",
]
