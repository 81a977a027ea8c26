"""Whole-set wiring: a real build on gpiozero's mock pins and loop://, and a mock rig."""

from __future__ import annotations

import queue

from hardware.devices import HardwareConfig, build_mock, build_real
from hardware.display import new_frame
from hardware.events import (
    CardPresented,
    CardRemoved,
    DisplayStatus,
    HardwareEvent,
    KnobPress,
    KnobSpin,
    KnobTurn,
    ReaderStatus,
)
from hardware.knob import Knob, MockKnob, QuadratureDriver
from hardware.rfid.mock import MockCardReader

T = 5.0


def test_real_build_on_mock_pins_events_reach_the_queue() -> None:
    q: queue.Queue[HardwareEvent] = queue.Queue()
    cfg = HardwareConfig(pin_factory="mock", reader_port="loop://", display_driver="none")
    hw = build_real(cfg, q.put)
    try:
        assert isinstance(hw.knobs["hi"], Knob) and isinstance(hw.knobs["lo"], Knob)
        pins = cfg.knobs["lo"]
        drv = QuadratureDriver.for_factory(hw.pin_factory, pins.a, pins.b, pins.button)
        drv.turn(1)  # real ThreadScheduler: the turn is sent after the flick window
        assert q.get(timeout=T) == KnobTurn("lo", 1)
        drv.press()
        drv.release()
        assert q.get(timeout=T) == KnobPress("lo")
        hw.start()
        status = q.get(timeout=T)
        assert isinstance(status, ReaderStatus) and status.connected
    finally:
        hw.close()


def test_real_oled_missing_is_reported_not_raised() -> None:
    q: queue.Queue[HardwareEvent] = queue.Queue()
    cfg = HardwareConfig(pin_factory="mock", reader_port="loop://", i2c_port=97)
    hw = build_real(cfg, q.put)
    try:
        assert hw.display.show(new_frame()) is False
        ev = q.get(timeout=T)
        assert isinstance(ev, DisplayStatus) and not ev.ok
        hw.poll()  # within backoff: quiet
        assert q.empty()
    finally:
        hw.close()


def test_mock_rig_injection() -> None:
    q: queue.Queue[HardwareEvent] = queue.Queue()
    hw = build_mock(q.put)
    hw.start()
    hi = hw.knobs["hi"]
    assert isinstance(hi, MockKnob) and isinstance(hw.reader, MockCardReader)
    hi.flick(0.8)
    hw.reader.tap("0003887558")
    hw.spins.force(4)
    assert hw.spins.spin([1, 2, 3, 4]) == 4
    got = [q.get(timeout=T) for _ in range(4)]
    assert got[1:] == [
        KnobSpin("hi", 0.8),
        CardPresented("0003887558", "deck"),
        CardRemoved("0003887558", "deck"),
    ]
    hw.close()
