"""Explicit gpiozero pin-factory selection.

The factory is always named in the config and built here; a missing backend raises
:class:`PinBackendUnavailable` naming the pip extra to install, never a silent fallback
to another backend (a fallback hides a broken install until the knobs stop working).
gpiozero is imported inside :func:`make_pin_factory` only (see
:func:`import_pin_module` for how).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType, ModuleType
from typing import Any, Protocol

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
    # name: (module, class, the extra (of pyproject.toml) that installs its backend)
    "lgpio": ("gpiozero.pins.lgpio", "LGPIOFactory", "pi"),
    "rpigpio": ("gpiozero.pins.rpigpio", "RPiGPIOFactory", "rpigpio"),
    "native": ("gpiozero.pins.native", "NativeFactory", ""),
    "mock": ("gpiozero.pins.mock", "MockFactory", ""),
}
DEFAULT_PIN_FACTORY = "lgpio"
PI_PACKAGES = {"lgpio": "python3-lgpio", "rpigpio": "python3-rpi.gpio"}
"""The Raspberry Pi OS package of a backend (gpiozero itself for the others)."""


def in_checkout() -> bool:
    """Running from a source checkout (the tree, or an editable install of it): its
    ``pyproject.toml`` sits beside this package. Otherwise this is an installed wheel,
    as the rig's ``/opt/cbrig/venv``."""
    return (Path(__file__).resolve().parents[1] / "pyproject.toml").is_file()


def install_hint(name: str) -> str:
    """How to install backend `name` where this copy runs: the pip extra in a checkout;
    on an installed rig the Pi's own package, then install.sh again (its virtualenv sees
    the system's packages, and it restarts the service and checks it came up)."""
    extra = PIN_FACTORIES[name][2]
    if in_checkout():  # this interpreter's own pip: a bare one may be the system's (PEP 668)
        pip = f"{sys.prefix}/bin/pip"
        return f"{pip} install -e '.[{extra}]'" if extra else f"{pip} install -e ."
    package = PI_PACKAGES.get(name, "python3-gpiozero")
    return (f"sudo apt install {package}, then run systemd/install.sh again (from your "
            "copy of cb-rig)")

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


_BACKPORT = "importlib_metadata"
"""The name gpiozero tries first for ``entry_points`` (the PyPI backport)."""


def _entry_points(**selection: Any) -> Any:
    """``importlib.metadata.entry_points``, imported when first called."""
    from importlib.metadata import entry_points

    return entry_points(**selection)


def import_pin_module(name: str) -> ModuleType:
    """Import gpiozero's module ``name`` without importing ``importlib.metadata``.

    gpiozero imports ``entry_points`` at module level (``gpiozero.devices``,
    ``gpiozero.pins.mock``), to find a pin factory or a mock pin class by name. Loading
    ``importlib.metadata`` (with ``email``, ``zipfile``, ``csv``) is about half of
    gpiozero's import and a quarter of the daemon's CPU to READY (docs/PERFORMANCE.md),
    yet the rig names its factory and builds it here, so gpiozero never looks one up.
    While gpiozero is first imported, the backport's name, which gpiozero tries first,
    offers an ``entry_points`` that imports the standard one when it is called; the name
    is gone again afterwards. gpiozero is imported whole all the same, and a device
    made without a factory still finds one through the entry points."""
    if "gpiozero" in sys.modules or _BACKPORT in sys.modules:
        return importlib.import_module(name)
    stand_in = ModuleType(_BACKPORT, "importlib.metadata.entry_points, imported when called")
    vars(stand_in)["entry_points"] = _entry_points
    sys.modules[_BACKPORT] = stand_in
    try:
        return importlib.import_module(name)
    finally:
        if sys.modules.get(_BACKPORT) is stand_in:
            del sys.modules[_BACKPORT]


def make_pin_factory(name: str = DEFAULT_PIN_FACTORY) -> PinFactory:
    """Build the gpiozero pin factory called ``name`` ("lgpio", "rpigpio", "native",
    "mock"). Returns a ``gpiozero.Factory``; pass it to devices as ``pin_factory``."""
    key = name.strip().lower()
    try:
        module_name, class_name, _ = PIN_FACTORIES[key]
    except KeyError:
        raise PinBackendError(
            f"unknown pin factory {name!r}; choose one of {', '.join(PIN_FACTORIES)}"
        ) from None
    try:
        module = import_pin_module(module_name)
    except ImportError as exc:
        raise PinBackendUnavailable(
            f"pin factory {key!r} needs a backend that is not installed ({exc}); "
            f"install it with: {install_hint(key)}"
        ) from exc
    factory_class: Callable[[], PinFactory] = getattr(module, class_name)
    try:
        return factory_class()
    except ImportError as exc:
        raise PinBackendUnavailable(
            f"pin factory {key!r} could not load its backend ({exc}); install it with: "
            f"{install_hint(key)}"
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
    "import_pin_module",
    "make_pin_factory",
]
