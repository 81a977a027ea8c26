"""SSD1306 / SH1106 OLEDs through luma, with recovery that never stops the game.

luma is untyped and imported lazily: :func:`i2c_device_factory` and
:func:`dummy_device_factory` return zero-argument callables that import luma and build
the device only when called. :class:`OledDisplay` wraps any such factory:

* the device is created lazily (first :meth:`~OledDisplay.show` or :meth:`~OledDisplay.open`)
  with ``persist = True`` so the last frame stays on screen at exit (luma blanks it
  otherwise);
* unchanged frames are skipped, and for the I2C panels only what changed is sent: the
  8-pixel pages and column ranges that differ from what the panel holds, with each
  controller's address commands (:mod:`hardware.display.pages`); a whole frame after
  the device is (re)created, since a reset or recovery leaves the panel unknown, and
  after any failed write;
* a failure to create the device (``DeviceNotFoundError``, ``DevicePermissionError``)
  or an ``OSError`` from ``display()`` mid-game (errno 121 remote I/O, 5 I/O error:
  loose cable, brown-out) drops the device and schedules a re-creation with exponential
  backoff (``backoff_initial`` doubling up to ``backoff_max``, injected clock). Nothing
  is raised to the caller: ``show`` returns False, :class:`DisplayStatus` events report
  the outage once and the recovery once. While down, the newest frame is remembered and
  sent on recovery; call :meth:`~OledDisplay.poll` from the main loop so recovery
  happens even when the picture does not change.

A failed device creation leaves nothing behind: the I2C interface is closed when the
driver's constructor raises (its init sequence is the first thing that talks to the
panel), and the ``atexit`` hook luma registers in every device constructor is removed
again (:class:`OledDisplay` releases its devices itself), so a panel unplugged for
days does not use up file descriptors or memory.
"""

from __future__ import annotations

import atexit
import contextlib
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any, Protocol, TypeGuard, TypeVar, cast

from PIL import Image

from hardware.clock import Clock
from hardware.display.base import HEIGHT, WIDTH, FrameSink
from hardware.display.kinds import DisplayDriver, DisplaySettings
from hardware.display.pages import (
    ADDRESSING,
    UNKNOWN,
    Addressing,
    Pages,
    Pointer,
    Step,
    frame_pages,
)
from hardware.events import DisplayStatus, Emit
from valueclass import Frozen, set_field

DRIVERS = ("ssd1306", "sh1106")
DEFAULT_I2C_ADDRESS = 0x3C


class LumaDevice(Protocol):
    """The part of a luma device this module uses."""

    persist: bool

    def display(self, image: Image.Image) -> None: ...

    def cleanup(self) -> None: ...


class PagedDevice(LumaDevice, Protocol):
    """A luma device that also takes raw commands and data (the SSD1306 and SH1106)."""

    def command(self, *cmd: int) -> None: ...

    def data(self, data: bytes) -> None: ...

    def preprocess(self, image: Image.Image) -> Image.Image: ...


def _is_paged(device: LumaDevice) -> TypeGuard[PagedDevice]:
    """Whether the device takes raw commands (luma's SSD1306 and SH1106 do)."""
    return hasattr(device, "command")


DeviceFactory = Callable[[], LumaDevice]
T = TypeVar("T")


class _ExitHookCatcher:
    """Stands in for the ``atexit`` module inside ``luma.core.device``, whose device
    constructor registers a cleanup hook before it first talks to the panel: a
    constructor that then raises leaves the hook (and the half-built device it holds,
    with its buffers) registered for the life of the process. This one remembers the
    hooks so :func:`_without_exit_hook` can take them off again."""

    def __init__(self, real: Any) -> None:
        self._real = real
        self.caught: list[Callable[..., Any]] = []

    def register(self, func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        self.caught.append(func)
        return self._real.register(func, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


def _without_exit_hook(build: Callable[[], T]) -> T:
    """Build a luma device and unregister the atexit hook luma adds for it (whether the
    build worked or not): :class:`OledDisplay` releases its devices itself."""
    import luma.core.device as luma_device

    catcher = luma_device.atexit
    if not isinstance(catcher, _ExitHookCatcher):
        catcher = _ExitHookCatcher(catcher)
        luma_device.atexit = catcher
    catcher.caught.clear()
    try:
        return build()
    finally:
        for hook in catcher.caught:
            atexit.unregister(hook)
        catcher.caught.clear()


@contextlib.contextmanager
def _smbus_module(stand_in: Any) -> Iterator[None]:
    """Let luma's ``i2c`` import ``stand_in`` as ``smbus2`` (the fake bus of tests and
    the bench); nothing changes when it is None."""
    if stand_in is None:
        yield
        return
    saved = sys.modules.get("smbus2")
    sys.modules["smbus2"] = stand_in
    try:
        yield
    finally:
        if saved is None:
            sys.modules.pop("smbus2", None)
        else:
            sys.modules["smbus2"] = saved


class I2cDeviceFactory:
    """Builds one I2C OLED device per call; ``addressing`` tells :class:`OledDisplay`
    how to send partial updates to it."""

    def __init__(self, driver: str, port: int, address: int, width: int, height: int,
                 rotate: int, contrast: int | None, smbus: Any) -> None:
        self.driver = driver
        self.addressing: Addressing = ADDRESSING[driver]
        self._port, self._address = port, address
        self._size = (width, height)
        self._rotate, self._contrast = rotate, contrast
        self._smbus = smbus

    def __call__(self) -> LumaDevice:
        from luma.core.interface.serial import i2c

        with _smbus_module(self._smbus):
            serial = i2c(port=self._port, address=self._address)
        try:
            return _without_exit_hook(lambda: self._device(serial))
        except BaseException:
            with contextlib.suppress(Exception):
                serial.cleanup()  # the /dev/i2c-N descriptor, else one leaks per attempt
            raise

    def _device(self, serial: Any) -> LumaDevice:
        from luma.oled import device as oled

        width, height = self._size
        device: Any = getattr(oled, self.driver)(serial, width=width, height=height,
                                                 rotate=self._rotate)
        device.persist = True  # a failure below must not blank the panel on cleanup
        if self._contrast is not None:
            device.contrast(self._contrast)
        return cast(LumaDevice, device)  # luma is untyped: the Protocol is our claim


def i2c_device_factory(
    driver: str = "ssd1306",
    port: int = 1,
    address: int = DEFAULT_I2C_ADDRESS,
    *,
    width: int = WIDTH,
    height: int = HEIGHT,
    rotate: int = 0,
    contrast: int | None = None,
    smbus: Any = None,
) -> I2cDeviceFactory:
    """A factory for an I2C OLED. ``driver`` must match the panel (SSD1306 and SH1106
    look alike; the wrong one shows garbage columns). ``rotate`` is luma's quarter turns
    (0-3); ``contrast`` 0-255 or None to keep the driver default. Run the bus at
    400 kHz (``dtparam=i2c_arm=on,i2c_arm_baudrate=400000``). ``smbus`` replaces the
    ``smbus2`` module luma opens the bus with (:class:`hardware.display.fakebus.
    FakeSmbus2` in tests and the bench)."""
    if rotate not in (0, 1, 2, 3):
        raise ValueError(f"rotate is in quarter turns (0-3), not {rotate!r}")
    driver = driver.lower()
    if driver not in DRIVERS:
        raise ValueError(f"unknown OLED driver {driver!r}; choose one of {', '.join(DRIVERS)}")
    return I2cDeviceFactory(driver, port, address, width, height, rotate, contrast, smbus)


def dummy_device_factory(width: int = WIDTH, height: int = HEIGHT) -> DeviceFactory:
    """luma's in-memory ``dummy`` device in mode "1" (its default is RGB)."""

    def make() -> LumaDevice:
        from luma.core.device import dummy

        device: Any = _without_exit_hook(lambda: dummy(width=width, height=height,
                                                        mode="1"))
        return cast(LumaDevice, device)

    return make


class _Prepared(Frozen):
    """A frame's plan worked out ahead (see :meth:`OledDisplay.prepare`), with what it
    was worked out against."""

    __slots__ = ("after", "data", "device", "frame", "known", "pages", "pointer", "steps")
    frame: Image.Image
    data: bytes
    device: LumaDevice
    known: Pages | None
    pointer: Pointer
    pages: Pages
    steps: list[Step]
    after: Pointer

    def __init__(self, frame: Image.Image, data: bytes, device: LumaDevice,
                 known: Pages | None, pointer: Pointer, pages: Pages, steps: list[Step],
                 after: Pointer) -> None:
        set_field(self, "frame", frame)
        set_field(self, "data", data)
        set_field(self, "device", device)
        set_field(self, "known", known)
        set_field(self, "pointer", pointer)
        set_field(self, "pages", pages)
        set_field(self, "steps", steps)
        set_field(self, "after", after)


class OledDisplay(FrameSink):
    """A :class:`~hardware.display.base.Display` on a luma device (unchanged frames
    skipped by :class:`~hardware.display.base.FrameSink`)."""

    def __init__(
        self,
        device_factory: DeviceFactory,
        emit: Emit | None = None,
        *,
        clock: Clock = time.monotonic,
        backoff_initial: float = 1.0,
        backoff_max: float = 30.0,
        name: str = "oled",
        addressing: Addressing | None = None,
        partial: bool = True,
    ) -> None:
        """``addressing`` (default: the factory's own, if it has one) lets frames be
        sent as partial updates; without it, or with ``partial=False``, every frame goes
        through the driver's ``display`` whole."""
        super().__init__()
        self._factory = device_factory
        self.addressing = addressing or getattr(device_factory, "addressing", None)
        self.partial = partial
        self._panel: Pages | None = None
        """The page bytes the panel holds, when known."""
        self._pointer: Pointer = UNKNOWN
        """The controller's address registers, as far as known."""
        self._prepared: _Prepared | None = None
        self._emit = emit
        self._clock = clock
        self._backoff_initial = backoff_initial
        self._backoff_max = backoff_max
        self.name = name
        self.device: LumaDevice | None = None
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
        self._pointer = self.addressing.after_reset() if self.addressing else UNKNOWN
        return True

    def _failed(self, message: str) -> None:
        self.stats.errors += 1
        self.last_error = message
        self._drop_device()
        self._last = None  # whatever was on the panel is unknown now
        self._panel = None
        self._retry_at = self._clock() + self._backoff
        self._backoff = min(self._backoff * 2, self._backoff_max)
        if not self._down:
            self._down = True
            self._status(False, message)

    def _drop_device(self) -> None:
        device, self.device = self.device, None
        self._panel, self._pointer = None, UNKNOWN
        if device is not None:
            with contextlib.suppress(Exception):
                device.cleanup()

    def _status(self, ok: bool, message: str) -> None:
        if self._emit is not None:
            self._emit(DisplayStatus(ok, message))

    # -- frames ----------------------------------------------------------------------------
    def _deliver(self, frame: Image.Image, data: bytes) -> bool:
        """A new frame: remembered (a down display sends the newest on recovery), then
        sent if the device is there or can be opened."""
        self._wanted = frame
        return self._try_send(frame, data)

    def poll(self) -> bool:
        """Retry a down display if its backoff has passed, re-sending the newest frame.
        Cheap when the display is healthy. Returns True if a frame was sent."""
        if not self._down or self._wanted is None:
            return False
        return self._try_send(self._wanted, self._wanted.tobytes())

    def _try_send(self, frame: Image.Image, data: bytes) -> bool:
        if self.device is None and not self.open():
            self.stats.dropped += 1
            return False
        assert self.device is not None
        try:
            self._write(self.device, frame, data)
        except Exception as exc:
            self._failed(f"{self.name} write failed ({type(exc).__name__}: {exc})")
            self.stats.dropped += 1
            return False
        self._delivered(frame, data)
        if self._down:
            self._down = False
            self._backoff = self._backoff_initial
            self._status(True, f"{self.name} recovered")
        return True

    def prepare(self, frame: Image.Image) -> None:
        """Work out now how ``frame`` will be sent (its page bytes and the plan against
        what the panel holds), so that :meth:`show` only writes to the bus. The daemon
        calls it while the input's fsync runs; the plan is used only if nothing was sent
        in between (else it is worked out again). ``frame`` must not be drawn on before
        it is shown (its bytes are taken here)."""
        device = self.device
        if self.addressing is None or device is None or not _is_paged(device):
            return
        pages = frame_pages(device.preprocess(frame))
        known = self._panel if self.partial else None
        steps, pointer = self.addressing.plan(known, pages, self._pointer)
        self._prepared = _Prepared(frame, frame.tobytes(), device, known, self._pointer,
                                   pages, steps, pointer)

    def _frame_bytes(self, frame: Image.Image) -> bytes:
        """The bytes :meth:`prepare` took of this very frame (packing a frame is ~25 us
        here, and ``show`` runs after the fsync, on the input's critical path), else
        packed now. A frame is not drawn on between the two: each render makes a new
        image."""
        prepared = self._prepared
        if prepared is not None and prepared.frame is frame:
            return prepared.data
        return frame.tobytes()

    def _planned(self, device: PagedDevice, frame: Image.Image, data: bytes
                 ) -> tuple[Pages, list[Step], Pointer]:
        """The prepared plan if it was made for this frame (``data``: its bytes, which
        ``show`` has already taken), device and panel state."""
        addressing = self.addressing
        assert addressing is not None
        prepared, self._prepared = self._prepared, None
        known = self._panel if self.partial else None
        if prepared is not None and prepared.device is device \
                and prepared.known is known and prepared.pointer is self._pointer \
                and prepared.data == data:
            return prepared.pages, prepared.steps, prepared.after
        pages = frame_pages(device.preprocess(frame))
        steps, pointer = addressing.plan(known, pages, self._pointer)
        return pages, steps, pointer

    def _write(self, device: LumaDevice, frame: Image.Image, data: bytes) -> None:
        """Send ``frame`` (``data``: its bytes): only the changed windows when the
        controller's addressing is known, else the whole frame through the driver. The
        panel's contents count as unknown until every window has gone through."""
        if self.addressing is None or not _is_paged(device):
            device.display(frame)
            return
        pages, steps, pointer = self._planned(device, frame, data)
        self._panel, self._pointer = None, UNKNOWN
        for step in steps:
            if step.commands:
                device.command(*step.commands)
            device.data(step.window.data(pages))
        self._panel, self._pointer = pages, pointer

    def close(self, persist_message: Image.Image | None = None) -> None:
        """Show ``persist_message`` (if given) and release the device; the panel keeps
        the last picture (``persist = True``)."""
        super().close(persist_message)
        device, self.device = self.device, None
        self._panel, self._pointer = None, UNKNOWN
        if device is not None:
            device.persist = True
            with contextlib.suppress(Exception):
                device.cleanup()


def _oled(driver: str) -> DisplayDriver:
    def make(emit: Emit, settings: DisplaySettings) -> OledDisplay:
        factory = i2c_device_factory(driver, settings.i2c_port, settings.address,
                                     rotate=settings.rotate, contrast=settings.contrast,
                                     smbus=settings.smbus)
        return OledDisplay(factory, emit, clock=settings.clock)

    return DisplayDriver(name=driver, title=f"{driver.upper()} 128x64 I2C OLED", make=make,
                         i2c=True)


SSD1306 = _oled("ssd1306")
SH1106 = _oled("sh1106")
"""The two OLEDs in the display table (hardware.display.kinds)."""

__all__ = [
    "DEFAULT_I2C_ADDRESS",
    "DRIVERS",
    "SH1106",
    "SSD1306",
    "DeviceFactory",
    "I2cDeviceFactory",
    "LumaDevice",
    "OledDisplay",
    "dummy_device_factory",
    "i2c_device_factory",
]
