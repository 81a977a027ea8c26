"""The OLED: a small ``Display`` interface, luma backends (SSD1306, SH1106, dummy) with
recovery, a terminal renderer, a PNG writer and bundled pixel fonts. luma is imported
only when a device is created."""

from hardware.display.base import (
    HEIGHT,
    MODE,
    SIZE,
    WIDTH,
    Display,
    DisplayStats,
    MemoryDisplay,
    new_frame,
)
from hardware.display.font import HUGE, LARGE, SMALL, Font, draw_text, text_width
from hardware.display.oled import OledDisplay, dummy_device_factory, i2c_device_factory
from hardware.display.terminal import PngDisplay, TerminalDisplay, render_halfblocks, save_png

__all__ = [
    "HEIGHT",
    "HUGE",
    "LARGE",
    "MODE",
    "SIZE",
    "SMALL",
    "WIDTH",
    "Display",
    "DisplayStats",
    "Font",
    "MemoryDisplay",
    "OledDisplay",
    "PngDisplay",
    "TerminalDisplay",
    "draw_text",
    "dummy_device_factory",
    "i2c_device_factory",
    "new_frame",
    "render_halfblocks",
    "save_png",
    "text_width",
]
