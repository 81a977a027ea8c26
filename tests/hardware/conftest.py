"""Hardware test fixtures: a fresh gpiozero MockFactory per test, a manual gesture clock."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from hardware.events import HardwareEvent
from hardware.gestureclock import ManualGestureClock


@pytest.fixture
def mock_factory() -> Iterator[Any]:
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    yield factory
    factory.reset()
    if Device.pin_factory is not None:
        Device.pin_factory.reset()


@pytest.fixture
def sched() -> ManualGestureClock:
    """The knobs' clock without its thread: inputs handled as posted, time advanced."""
    return ManualGestureClock()


@pytest.fixture
def events() -> list[HardwareEvent]:
    return []
