"""SSD1306 / SH1106 OLEDs through luma, with recovery that never stops the game.

luma is untyped and imported lazily: :func:`i2c_device_factory` and
:func:`dummy_device_factory` return zero-argument callables that import luma and build
the device only when called. :class:`OledDisplay` wraps any such factory:

* the device is created lazily (first :meth:`~OledDisplay.show` or :meth:`~OledDisplay.open`)
  with ``persist = True`` so the last frame stays on screen at exit (luma blanks it
  otherwise);
* unchanged frames are skipped;
* a failure to create the device (``DeviceNotFoundError``, ``DevicePermissionError``)
  or an ``OSError`` from ``display()`` mid-game (errno 121 remote I/O, 5 I/O error:
  loose cable, brown-out) drops the device and schedules a re-creation with exponential
  backoff (``backoff_initial`` doubling up to ``backoff_max``, injected clock). Nothing
  is raised to the caller: ``show`` returns False, :class:`DisplayStatus` events report
  the outage once and the recovery once. While down, the newest frame is remembered and
  sent on recovery; call :meth:`~OledDisplay.poll` from the main loop so recovery
  happens even when the picture does not change.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Any, Protocol

from PIL import Image

from hardware.clock import Clock
from hardware.display.base import HEIGHT, WIDTH, DisplayStats, check_frame
from hardware.events import DisplayStatus, Emit

DRIVERS = ("ssd1306", "sh1106")
DEFAULT_I2C_ADDRESS = 0x3C


class LumaDevice(Protocol):
    """The part of a luma device this module uses."""

    persist: bool

    def display(self, image: Image.Image) -> None: ...

    def cleanup(self) -> None: ...


DeviceFactory = Callable[[], LumaDevice]


def i2c_device_factory(
    driver: str = "ssd1306",
    port: int = 1,
    address: int = DEFAULT_I2C_ADDRESS,
    *,
    width: int = WIDTH,
    height: int = HEIGHT,
    rotate: int = 0,
    contrast: int | None = None,
) -> DeviceFactory:
    """A factory for an I2C OLED. ``driver`` must match the panel (SSD1306 and SH1106
    look alike; the wrong one shows garbage columns). ``rotate`` is luma's quarter turns
    (0-3); ``contrast`` 0-255 or None to keep the driver default. Run the bus at
    400 kHz (``dtparam=i2c_arm=on,i2c_arm_baudrate=400000``)."""
    if rotate not in (0, 1, 2, 3):
        raise ValueError(f"rotate is in quarter turns (0-3), not {rotate!r}")
    driver = driver.lower()
    if driver not in DRIVERS:
        raise ValueError(f"unknown OLED driver {driver!r}; choose one of {', '.join(DRIVERS)}")

    def make() -> LumaDevice:
        from luma.core.interface.serial import i2c
        from luma.oled import device as oled

        serial = i2c(port=port, address=address)
        device: Any = getattr(oled, driver)(serial, width=width, height=height, rotate=rotate)
        if contrast is not None:
            device.contrast(contrast)
        return device  # type: ignore[no-any-return]

    return make


def dummy_device_factory(width: int = WIDTH, height: int = HEIGHT) -> DeviceFactory:
    """luma's in-memory ``dummy`` device in mode "1" (its default is RGB)."""

    def make() -> LumaDevice:
        from luma.core.device import dummy

        device: Any = dummy(width=width, height=height, mode="1")
        return device  # type: ignore[no-any-return]

    return make


class OledDisplay:
    """A :class:`~hardware.display.base.Display` on a luma device."""

    def __init__(
        self,
        device_factory: DeviceFactory,
        emit: Emit | None = None,
        *,
        clock: Clock = time.monotonic,
        backoff_initial: float = 1.0,
        backoff_max: float = 30.0,
        name: str = "oled",
    ) -> None:
        self._factory = device_factory
        self._emit = emit
        self._clock = clock
        self._backoff_initial = backoff_initial
        self._backoff_max = backoff_max
        self.name = name
        self.stats = DisplayStats()
        self.device: LumaDevice | None = None
        self._last: bytes | None = None
        self._wanted: Image.Image | None = None
        self._down = False
        self._backoff = backoff_initial
        self._retry_at = float("-inf")
        self.last_error: str | None = None

    @property
    def ok(self) -> bool:
        return not self._down

    # -- device lifecycle ----------------------------------------------------------------
    def open(self) -> bool:
        """Create the device now if it is not there (respecting the backoff)."""
        if self.device is not None:
            return True
        if self._clock() < self._retry_at:
            return False
        try:
            device = self._factory()
            device.persist = True
        except Exception as exc:
            self._failed(f"cannot open {self.name}: {exc}")
            return False
        self.device = device
        return True

    def _failed(self, message: str) -> None:
        self.stats.errors += 1
        self.last_error = message
        self._drop_device()
        self._last = None  # whatever was on the panel is unknown now
        self._retry_at = self._clock() + self._backoff
        self._backoff = min(self._backoff * 2, self._backoff_max)
        if not self._down:
            self._down = True
            self._status(False, message)

    def _drop_device(self) -> None:
        device, self.device = self.device, None
        if device is not None:
            with contextlib.suppress(Exception):
                device.cleanup()

    def _status(self, ok: bool, message: str) -> None:
        if self._emit is not None:
            self._emit(DisplayStatus(ok, message))

    # -- frames ----------------------------------------------------------------------------
    def show(self, frame: Image.Image) -> bool:
        check_frame(frame)
        data = frame.tobytes()
        if data == self._last:
            self.stats.skipped += 1
            return False
        self._wanted = frame.copy()
        return self._send(self._wanted, data)

    def poll(self) -> bool:
        """Retry a down display if its backoff has passed, re-sending the newest frame.
        Cheap when the display is healthy. Returns True if a frame was sent."""
        if not self._down or self._wanted is None:
            return False
        return self._send(self._wanted, self._wanted.tobytes())

    def _send(self, frame: Image.Image, data: bytes) -> bool:
        if self.device is None and not self.open():
            self.stats.dropped += 1
            return False
        assert self.device is not None
        try:
            self.device.display(frame)
        except Exception as exc:
            self._failed(f"{self.name} write failed ({type(exc).__name__}: {exc})")
            self.stats.dropped += 1
            return False
        self._last = data
        self.stats.sent += 1
        if self._down:
            self._down = False
            self._backoff = self._backoff_initial
            self._status(True, f"{self.name} recovered")
        return True

    def close(self, persist_message: Image.Image | None = None) -> None:
        """Show ``persist_message`` (if given) and release the device; the panel keeps
        the last picture (``persist = True``)."""
        if persist_message is not None:
            check_frame(persist_message)
            if persist_message.tobytes() != self._last:
                self._wanted = persist_message.copy()
                self._send(self._wanted, persist_message.tobytes())
        device, self.device = self.device, None
        if device is not None:
            device.persist = True
            with contextlib.suppress(Exception):
                device.cleanup()


__all__ = [
    "DEFAULT_I2C_ADDRESS",
    "DRIVERS",
    "DeviceFactory",
    "LumaDevice",
    "OledDisplay",
    "dummy_device_factory",
    "i2c_device_factory",
]
