"""The display a rig's config asks for, built on its own: the daemon shows its first
screen (and tells systemd it is ready) before it imports the knob, reader and pin
libraries, which only inputs need."""

from __future__ import annotations

import time

from hardware.clock import Clock
from hardware.display.base import Display, NullDisplay
from hardware.events import Emit


def quarter_turns(degrees: int) -> int:
    """The config's rotation in degrees as luma's quarter turns (0-3)."""
    return (int(degrees) // 90) % 4


def build_display(driver: str, emit: Emit, *, i2c_port: int = 1, address: int = 0x3C,
                  rotate: int = 0, contrast: int | None = None,
                  clock: Clock = time.monotonic) -> Display:
    """``driver`` "ssd1306" / "sh1106" (an I2C OLED, ``rotate`` in quarter turns),
    "terminal" or "none"."""
    if driver == "terminal":
        from hardware.display.desktop import TerminalDisplay

        return TerminalDisplay()
    if driver == "none":
        return NullDisplay()
    from hardware.display.oled import OledDisplay, i2c_device_factory  # only for an OLED

    factory = i2c_device_factory(driver, i2c_port, address, rotate=rotate, contrast=contrast)
    return OledDisplay(factory, emit, clock=clock)


__all__ = ["build_display", "quarter_turns"]
