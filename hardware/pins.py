"""Explicit gpiozero pin-factory selection.

The factory is always named in the config and built here; a missing backend raises
:class:`PinBackendUnavailable` naming the pip extra to install, never a silent fallback
to another backend (a fallback hides a broken install until the knobs stop working).
gpiozero is imported inside :func:`make_pin_factory` only.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Protocol

PinId = int | str
"""A BCM number or a gpiozero pin name ("GPIO17", "BOARD11")."""


class PinFactory(Protocol):
    """What cb-rig uses of a ``gpiozero.Factory``: devices take it as ``pin_factory``."""

    def close(self) -> None: ...


class DigitalInput(Protocol):
    """What cb-rig uses of a ``gpiozero.DigitalInputDevice`` (its public API only)."""

    @property
    def is_active(self) -> bool: ...

    when_activated: Callable[[], None] | None
    when_deactivated: Callable[[], None] | None

    def close(self) -> None: ...


class DrivablePin(Protocol):
    """A ``gpiozero.pins.mock.MockPin``: tests and the emulator drive its level."""

    @property
    def state(self) -> int | bool: ...

    def drive_high(self) -> None: ...

    def drive_low(self) -> None: ...


class MockPinFactory(PinFactory, Protocol):
    """A ``gpiozero.pins.mock.MockFactory``: hands out the pins it simulates."""

    def pin(self, spec: PinId) -> DrivablePin: ...


def digital_input(pin: PinId, *, pull_up: bool, bounce_time: float | None,
                  pin_factory: PinFactory) -> DigitalInput:
    """A gpiozero ``DigitalInputDevice`` behind the typed :class:`DigitalInput`
    (imported here, when the first pin is claimed: start-up stays lean)."""
    from gpiozero import DigitalInputDevice

    device: DigitalInput = DigitalInputDevice(
        pin, pull_up=pull_up, bounce_time=bounce_time, pin_factory=pin_factory
    )
    return device

PIN_FACTORIES: dict[str, tuple[str, str, str]] = {
    # name: (module, class, how to install the backend)
    "lgpio": ("gpiozero.pins.lgpio", "LGPIOFactory", "pip install cbrig[pi]"),
    "rpigpio": ("gpiozero.pins.rpigpio", "RPiGPIOFactory", "pip install cbrig[rpigpio]"),
    "native": ("gpiozero.pins.native", "NativeFactory", "pip install cbrig (gpiozero)"),
    "mock": ("gpiozero.pins.mock", "MockFactory", "pip install cbrig (gpiozero)"),
}
DEFAULT_PIN_FACTORY = "lgpio"

# The reference wiring (wiring/README.md, wiring/config.toml), the one source of the
# default pins: the rig's config defaults (rig.config.PinsConfig) and the hardware's
# (hardware.devices.HardwareConfig) are built from these. BCM numbers, clear of GPIO2/3
# (I2C) and GPIO14/15 (UART); power KY-040 boards from 3.3 V.
DEFAULT_KNOB_PINS: Mapping[str, tuple[int, int, int]] = MappingProxyType(
    {"hi": (17, 27, 22), "lo": (5, 6, 26)}
)
"""Knob name -> its (A/CLK, B/DT, button/SW) pins."""
DEFAULT_BUZZER_PIN: int | None = 12
DEFAULT_LED_PIN: int | None = None
"""The LED is optional and not fitted by default (the reference wiring has it on 16)."""


class PinBackendError(RuntimeError):
    """The named pin factory is unknown or cannot be used on this machine."""


class PinBackendUnavailable(PinBackendError, ImportError):
    """The backend library for the named pin factory is not installed."""


def make_pin_factory(name: str = DEFAULT_PIN_FACTORY) -> PinFactory:
    """Build the gpiozero pin factory called ``name`` ("lgpio", "rpigpio", "native",
    "mock"). Returns a ``gpiozero.Factory``; pass it to devices as ``pin_factory``."""
    key = name.strip().lower()
    try:
        module_name, class_name, install = PIN_FACTORIES[key]
    except KeyError:
        raise PinBackendError(
            f"unknown pin factory {name!r}; choose one of {', '.join(PIN_FACTORIES)}"
        ) from None
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise PinBackendUnavailable(
            f"pin factory {key!r} needs a backend that is not installed ({exc}); "
            f"install it with: {install}"
        ) from exc
    factory_class: Callable[[], PinFactory] = getattr(module, class_name)
    try:
        return factory_class()
    except ImportError as exc:
        raise PinBackendUnavailable(
            f"pin factory {key!r} could not load its backend ({exc}); install it with: {install}"
        ) from exc
    except Exception as exc:
        raise PinBackendError(f"pin factory {key!r} failed to start: {exc}") from exc


__all__ = [
    "DEFAULT_BUZZER_PIN",
    "DEFAULT_KNOB_PINS",
    "DEFAULT_LED_PIN",
    "DEFAULT_PIN_FACTORY",
    "PIN_FACTORIES",
    "DigitalInput",
    "DrivablePin",
    "MockPinFactory",
    "PinBackendError",
    "PinBackendUnavailable",
    "PinFactory",
    "PinId",
    "digital_input",
    "make_pin_factory",
]
