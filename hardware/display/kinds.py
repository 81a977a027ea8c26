"""The display drivers: one table (issue 45), a protocol and a battery.

Each driver is a :class:`DisplayDriver` record in its module (the I2C OLEDs' in
``hardware/display/oled.py``, the terminal's in ``desktop.py``, "none" here); the table
finds the built-in ones by path and installed ones by an entry point in
``cbrig.displays``::

    [project.entry-points."cbrig.displays"]
    mypanel = "mypackage.panel:DISPLAY"

``[display] driver`` names one, and :func:`hardware.display.build.build_display` builds
it with the config's settings. :func:`check_display` is the battery any driver runs on
itself (``cbrig.conformance.check_display``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, runtime_checkable

from hardware.clock import Clock
from hardware.display.base import Display, DisplayStats, NullDisplay, new_frame
from hardware.events import Emit
from hardware.plugins import Table
from valueclass import Frozen

GROUP = "cbrig.displays"


class DisplaySettings(Frozen):
    """The config's ``[display]`` as a driver gets it."""

    i2c_port: int = 1
    address: int = 0x3C
    rotate: int = 0
    """Quarter turns (0-3)."""
    contrast: int | None = None
    clock: Clock = time.monotonic
    smbus: object = None
    """A stand-in for the ``smbus2`` module an I2C driver opens its bus with
    (hardware.display.fakebus: the tests and the battery); None: the real one."""
    folder: Path | None = None
    """Where a driver that writes files keeps them (the rig's state folder; "png" writes
    its frames into ``screens/`` there); None: a temporary folder of its own."""


@runtime_checkable
class DisplayKind(Protocol):
    """What the rig reads of a display driver."""

    @property
    def name(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def i2c(self) -> bool:
        """Whether it sits on the I2C bus at ``[display] address``."""

    def build(self, emit: Emit, settings: DisplaySettings) -> Display:
        """The display, touching no device yet (the first frame does)."""


class DisplayDriver(Frozen):
    """A display driver as a record (a :class:`DisplayKind`)."""

    name: str
    title: str
    make: Callable[[Emit, DisplaySettings], Display]
    i2c: bool = False

    def build(self, emit: Emit, settings: DisplaySettings) -> Display:
        return self.make(emit, settings)


NONE = DisplayDriver(name="none", title="no display (frames counted and dropped)",
                     make=lambda emit, settings: NullDisplay())
"""``driver = "none"``."""


def _kind(found: object) -> DisplayKind:
    if not isinstance(found, DisplayKind):
        raise TypeError(f"{type(found).__name__} is no display driver (hardware.display."
                        "kinds.DisplayDriver: name, title, make)")
    return found


DISPLAYS: Table[DisplayKind] = Table(
    "display driver", GROUP,
    {"ssd1306": "hardware.display.oled:SSD1306", "sh1106": "hardware.display.oled:SH1106",
     "terminal": "hardware.display.desktop:TERMINAL", "png": "hardware.display.desktop:PNG",
     "none": "hardware.display.kinds:NONE"},
    _kind, "cbrig.conformance.check_display")
"""Every display driver, by name."""


def display_kind(name: str) -> DisplayKind:
    """The driver `name`; ValueError naming the ones there are."""
    return DISPLAYS.get(name)


# -- the battery --------------------------------------------------------------------------

class DisplayCheckError(AssertionError):
    """A display driver broke the contract: the message names it and the check."""


def _require(name: str, condition: bool, message: str) -> None:
    if not condition:
        raise DisplayCheckError(f"display driver {name!r}: {message}")


def check_display(kind: object, settings: DisplaySettings | None = None) -> DisplayKind:
    """The battery a display driver runs on itself: built with no device touched, it
    takes a 128x64 frame (True: sent) and skips the same frame again (False, nothing
    sent), counts both in its stats, and closes leaving a message. An I2C driver runs
    on a fake bus (hardware.display.fakebus) unless `settings` bring a bus of their
    own. DisplayCheckError names the driver and the check."""
    try:
        driver = _kind(kind)
    except TypeError as exc:
        raise DisplayCheckError(str(exc)) from exc
    name = driver.name
    _require(name, bool(name) and name == name.strip().lower(), "a name in lower case")
    if settings is None:
        settings = DisplaySettings()
        if driver.i2c:
            from hardware.display.fakebus import FakeBus, FakeSmbus2, Ssd1306Panel

            settings = DisplaySettings(smbus=FakeSmbus2(FakeBus(Ssd1306Panel())))
    events: list[object] = []
    display = driver.build(events.append, settings)
    _require(name, isinstance(display, Display), f"build gave a {type(display).__name__}, "
             "no Display (show, close, stats)")
    _require(name, isinstance(display.stats, DisplayStats), "stats is a DisplayStats")
    frame = new_frame()
    frame.putpixel((3, 5), 1)
    _require(name, display.show(frame) is True, "the first frame is sent (show: True)")
    _require(name, display.stats.sent == 1, f"stats.sent is {display.stats.sent} after "
             "one frame")
    _require(name, display.show(frame.copy()) is False, "the same frame again is skipped "
             "(show: False)")
    _require(name, display.stats.sent == 1 and display.stats.skipped == 1,
             f"a skipped frame counted as skipped: {display.stats}")
    display.close(new_frame())
    return driver
