"""The display a rig's config asks for, built on its own: the daemon shows its first
screen (and tells systemd it is ready) before it imports the knob, reader and pin
libraries, which only inputs need."""

from __future__ import annotations

import time
from pathlib import Path

from hardware.clock import Clock
from hardware.display.base import Display
from hardware.display.kinds import DisplaySettings, display_kind
from hardware.events import Emit


def quarter_turns(degrees: int) -> int:
    """The config's rotation in degrees as luma's quarter turns (0-3)."""
    return (int(degrees) // 90) % 4


def build_display(driver: str, emit: Emit, *, i2c_port: int = 1, address: int = 0x3C,
                  rotate: int = 0, contrast: int | None = None,
                  clock: Clock = time.monotonic, folder: Path | None = None) -> Display:
    """The display driver `driver` names (hardware.display.kinds: "ssd1306" / "sh1106",
    an I2C OLED with ``rotate`` in quarter turns, "terminal", "png" (frames written into
    ``folder``/screens), "none", or one installed in ``cbrig.displays``), built with these
    settings."""
    return display_kind(driver).build(emit, DisplaySettings(
        i2c_port=i2c_port, address=address, rotate=rotate, contrast=contrast, clock=clock,
        folder=folder))


__all__ = ["build_display", "quarter_turns"]
