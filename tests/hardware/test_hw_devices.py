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
from tests.slowdown import hang

T = hang()


def test_real_build_on_mock_pins_events_reach_the_queue() -> None:
    q: queue.Queue[HardwareEvent] = queue.Queue()
    cfg = HardwareConfig(pin_factory="mock", reader_port="loop://", display_driver="none")
    hw = build_real(cfg, q.put)
    try:
        assert isinstance(hw.knobs["hi"], Knob) and isinstance(hw.knobs["lo"], Knob)
        pins = cfg.knobs["lo"]
        drv = QuadratureDriver.for_factory(hw.pin_factory, pins.a, pins.b, pins.button)
        drv.turn(1)  # the real GestureClock thread sends it after the flick window
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
    got = [q.get(timeout=T) for _ in range(4)]
    assert got[1:] == [
        KnobSpin("hi", 0.8),
        CardPresented("0003887558", "deck"),
        CardRemoved("0003887558", "deck"),
    ]
    hw.close()


def test_config_from_rig_sections() -> None:
    from types import SimpleNamespace as NS

    from hardware.devices import config_from_sections

    pins = NS(
        backend="mock",
        hi_a=17,
        hi_b=27,
        hi_button=22,
        lo_a=5,
        lo_b=6,
        lo_button=26,
        buzzer=12,
        led=None,
    )
    encoder = NS(
        edges_per_detent=2,
        hi_reverse=False,
        lo_reverse=True,
        flick_detents=4,
        flick_window_ms=120,
        spin_settle_ms=250,
        long_press_ms=1000,
        button_bounce_ms=0,
    )
    reader = NS(type="pn532", port="loop://", baud=115200, removal_ms=500, removal_misses=0)
    display = NS(driver="sh1106", i2c_port=97, address=0x3D, rotate=180, contrast=128)
    cfg = config_from_sections(pins, encoder, reader, display)
    assert cfg.knobs["lo"].reverse and cfg.knobs["lo"].button == 26
    assert cfg.knobs["hi"].edges_per_detent == 2
    assert cfg.gestures.flick_window == 0.12 and cfg.gestures.long_press == 1.0
    assert cfg.button_bounce is None and cfg.removal_misses == 0
    assert (cfg.display_rotate, cfg.i2c_address, cfg.display_contrast) == (2, 0x3D, 128)
    assert cfg.buzzer_pin == 12 and cfg.led_pin is None
    q: queue.Queue[HardwareEvent] = queue.Queue()
    hw = build_real(cfg, q.put)
    try:
        assert hw.reader.presence.misses_to_remove == 0, "removal_misses = 0 is honoured"
        assert isinstance(hw.knobs["lo"], Knob)
        drv = QuadratureDriver.for_factory(hw.pin_factory, 5, 6, edges_per_detent=2)
        drv.turn(1)
        assert q.get(timeout=T) == KnobTurn("lo", -1)  # reversed
    finally:
        hw.close()


def test_bad_config_claims_no_pins() -> None:
    import pytest

    with pytest.raises(ValueError):
        build_real(HardwareConfig(pin_factory="mock", reader_type="rc522"), print)
    with pytest.raises(ValueError):
        build_real(HardwareConfig(pin_factory="mock", display_driver="ssd1351"), print)


def test_no_reader_fitted() -> None:
    from hardware.rfid.mock import NullCardReader

    q: queue.Queue[HardwareEvent] = queue.Queue()
    hw = build_real(
        HardwareConfig(pin_factory="mock", reader_type="none", display_driver="none"), q.put
    )
    assert isinstance(hw.reader, NullCardReader)
    hw.start()
    hw.close()
    assert q.empty()


def test_a_rig_without_a_display_keeps_no_frames() -> None:
    """display.driver = "none" runs for days: the frames it is shown must not pile up."""
    import gc

    from PIL import Image

    from hardware.display.base import new_frame

    hw = build_real(
        HardwareConfig(pin_factory="mock", reader_type="none", display_driver="none"), print
    )

    def images_alive() -> int:
        gc.collect()
        return sum(isinstance(o, Image.Image) for o in gc.get_objects())

    try:
        before = images_alive()
        for i in range(300):
            frame = new_frame()
            frame.putpixel((i % 128, i // 128), 1)  # every frame differs: none is skipped
            assert hw.display.show(frame)
            del frame
        assert images_alive() - before <= 2, "at most the last frame is kept"
        assert hw.display.stats.sent == 300
    finally:
        hw.close()
