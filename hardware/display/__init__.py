"""The OLED: a small ``Display`` interface, luma backends (SSD1306, SH1106, dummy) with
recovery, the desktop's stand-ins for a panel (a terminal renderer, a PNG writer) and
bundled pixel fonts. luma is imported only when a device is created.

The names below load their module on first use (PEP 562): the daemon's first screen
imports ``hardware.display.base`` and the font, and must not pay for the OLED driver
code, the bus planner and the terminal renderer before READY."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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
    from hardware.display.desktop import (
        PngDisplay,
        TerminalDisplay,
        render_halfblocks,
        save_png,
    )
    from hardware.display.font import HUGE, LARGE, SMALL, Font, draw_text, text_width
    from hardware.display.oled import OledDisplay, dummy_device_factory, i2c_device_factory

_HOMES = {
    **dict.fromkeys(("HEIGHT", "MODE", "SIZE", "WIDTH", "Display", "DisplayStats",
                     "MemoryDisplay", "new_frame"), "base"),
    **dict.fromkeys(("HUGE", "LARGE", "SMALL", "Font", "draw_text", "text_width"), "font"),
    **dict.fromkeys(("OledDisplay", "dummy_device_factory", "i2c_device_factory"), "oled"),
    **dict.fromkeys(("PngDisplay", "TerminalDisplay", "render_halfblocks", "save_png"),
                    "desktop"),
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


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
