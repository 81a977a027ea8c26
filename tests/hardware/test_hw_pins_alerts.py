"""Pin-factory selection, lazy imports, buzzer/LED alerts."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import pytest

from hardware.buzzer import Alerts, MockAlerts
from hardware.pins import PinBackendError, PinBackendUnavailable, make_pin_factory
from tests.slowdown import hang


def test_mock_factory() -> None:
    from gpiozero.pins.mock import MockFactory

    factory = make_pin_factory("mock")
    assert isinstance(factory, MockFactory)
    factory.close()


@pytest.mark.parametrize(("name", "checkout", "installed"), [
    ("lgpio", "pip install -e '.[pi]'", "sudo apt install python3-lgpio"),
    ("rpigpio", "pip install -e '.[rpigpio]'", "sudo apt install python3-rpi.gpio"),
])
@pytest.mark.parametrize("in_checkout", [True, False], ids=["checkout", "installed rig"])
def test_missing_backend_says_how_to_install_it_here_and_never_falls_back(
    name: str, checkout: str, installed: str, in_checkout: bool,
    monkeypatch: pytest.MonkeyPatch
) -> None:
    """The backend is hidden from import, so the test means the same whether or not it is
    installed here (the arm64 run installs lgpio with the [pi] extra). The installed rig
    is a wheel in /opt/cbrig/venv: "pip install cbrig[pi]" was no fix there; the Pi's
    own package and a second run of install.sh are."""
    import re
    import sys

    import hardware.pins
    from hardware.pins import PIN_FACTORIES

    backend = {"lgpio": "lgpio", "rpigpio": "RPi"}[name]
    monkeypatch.setitem(sys.modules, backend, None)
    monkeypatch.setitem(sys.modules, f"{backend}.GPIO", None)
    monkeypatch.delitem(sys.modules, PIN_FACTORIES[name][0], raising=False)
    monkeypatch.setattr(hardware.pins, "in_checkout", lambda: in_checkout)
    with pytest.raises(PinBackendUnavailable) as caught:
        make_pin_factory(name)
    message = str(caught.value)
    if in_checkout:  # the venv's own pip, never a bare one (PEP 668 on Debian 12)
        assert f"{sys.prefix}/bin/{checkout}" in message and "apt" not in message
    else:
        assert installed in message and "run systemd/install.sh again" in message
        assert not re.search(r"pip install", message)


def test_unknown_factory() -> None:
    with pytest.raises(PinBackendError, match="lgpio"):
        make_pin_factory("pigpio")


def test_importing_hardware_does_not_import_hardware_libraries() -> None:
    code = (
        "import sys, hardware, hardware.events, hardware.pins, hardware.knob, "
        "hardware.gesture, hardware.buzzer, hardware.clock, hardware.devices, "
        "hardware.rfid.reader, hardware.rfid.rdm6300, hardware.rfid.pn532, "
        "hardware.rfid.mock, hardware.rfid.presence, hardware.display, "
        "hardware.display.oled, hardware.display.font, hardware.display.desktop\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('gpiozero', 'luma', 'serial', 'lgpio', 'RPi', 'smbus2'))\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_pin_factory_is_built_without_importlib_metadata() -> None:
    """gpiozero's first import skips importlib.metadata (a quarter of the start's CPU);
    its entry points still work afterwards: a device made without a factory finds the
    one GPIOZERO_PIN_FACTORY names through them."""
    code = (
        "import sys\n"
        "from hardware.pins import make_pin_factory\n"
        "factory = make_pin_factory('mock')\n"
        "print('importlib.metadata' in sys.modules, 'importlib_metadata' in sys.modules)\n"
        "from gpiozero import Device, DigitalInputDevice\n"
        "device = DigitalInputDevice(17)\n"
        "print(type(Device.pin_factory).__name__, device.pin_factory is not factory)\n"
    )
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env=env)
    assert out.stdout.split() == ["False", "False", "MockFactory", "True"]


def test_alert_patterns_run_in_background(mock_factory: Any) -> None:
    import threading

    from gpiozero.pins.mock import MockPin

    went_high: dict[str, threading.Event] = {}

    class SignallingPin(MockPin):  # type: ignore[misc]
        def _change_state(self, value: bool) -> bool:
            changed = bool(super()._change_state(value))
            if value:
                went_high.setdefault(self.info.name, threading.Event()).set()
            return changed

    mock_factory.pin_class = SignallingPin
    went_high["GPIO22"] = threading.Event()
    went_high["GPIO23"] = threading.Event()
    alerts = Alerts(buzzer_pin=22, led_pin=23, pin_factory=mock_factory)
    alerts.play("catch")  # returns at once: the pattern runs on gpiozero's threads
    assert went_high["GPIO22"].wait(timeout=hang())
    assert went_high["GPIO23"].wait(timeout=hang())
    alerts.off()
    assert mock_factory.pin(22).state == 0 and mock_factory.pin(23).state == 0
    with pytest.raises(ValueError):
        alerts.play("fanfare")
    alerts.close()


def test_alerts_with_only_an_led(mock_factory: Any) -> None:
    alerts = Alerts(buzzer_pin=None, led_pin=23, pin_factory=mock_factory)
    alerts.play("blink")
    alerts.close()


def test_mock_alerts() -> None:
    m = MockAlerts()
    m.play("catch")
    with pytest.raises(ValueError):
        m.play("nope")
    m.close()
    assert m.played == ["catch"] and m.closed
