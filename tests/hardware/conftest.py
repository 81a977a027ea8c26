"""Hardware test fixtures: a fresh gpiozero MockFactory per test, a manual clock."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from hardware.clock import ManualScheduler
from hardware.events import HardwareEvent


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
def sched() -> ManualScheduler:
    return ManualScheduler()


@pytest.fixture
def events() -> list[HardwareEvent]:
    return []
