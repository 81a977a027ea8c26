"""The knobs' gestures on the rig loop's clock: raw pin inputs queue with every other
event, the loop classifies them and waits for their deadlines with its own."""

from __future__ import annotations

import queue
import threading
from typing import Any

import pytest

from hardware.clock import FakeClock
from hardware.devices import HardwareConfig, build_real
from hardware.events import KnobLongPress, KnobPress, KnobTurn
from hardware.gesture import KnobGestures
from hardware.gestureclock import GestureClock, RawButton
from hardware.knob import QuadratureDriver
from rig.core.loop import RigLoop, Stop
from rig.screens.screen import Screen
from tests.slowdown import hang


class Recorder:
    """A controller that keeps every event it is given (and hands the knob gestures to
    a queue a test can wait on) and has no deadline of its own."""

    def __init__(self) -> None:
        self.events: list[object] = []
        self.gestures: queue.Queue[object] = queue.Queue()

    def handle(self, event: object) -> None:
        self.events.append(event)
        if isinstance(event, KnobTurn | KnobPress | KnobLongPress):
            self.gestures.put(event)

    def screen(self) -> Screen:
        return Screen(title="T", lines=(str(len(self.gestures.queue)),))

    def next_deadline(self) -> float | None:
        return None


def drain(loop: RigLoop) -> None:
    """Step every event queued so far (what run() does, without blocking)."""
    while True:
        try:
            event = loop.events.get_nowait()
        except queue.Empty:
            return
        loop.step(event)


def test_a_long_press_falls_due_on_the_loop_clock() -> None:
    clock = FakeClock()
    controller = Recorder()
    drawn: list[Screen] = []
    loop = RigLoop(controller, draw=drawn.append, clock=clock)
    knobs = GestureClock(clock, inbox=loop.post)
    knob = KnobGestures("hi", loop.post)
    knobs.post(knob, RawButton(clock(), True))
    drain(loop)
    assert controller.events == [] and loop.stats.events == 0  # raw input: no game event
    assert loop._timeout() == pytest.approx(1.5)  # the loop now waits for the knob's deadline
    clock.advance(1.49)
    loop.run_due()
    drain(loop)
    assert controller.events == []
    clock.advance(0.02)
    loop.run_due()
    drain(loop)
    assert controller.events == [KnobLongPress("hi")]
    assert loop._timeout() is None  # nothing held: the loop blocks for the next event


def test_real_knobs_on_mock_pins_through_the_running_loop() -> None:
    """build_real with the loop's post as the inbox: no gesture thread; a turn and a
    press on the mock pins reach the controller through the loop's run()."""
    controller = Recorder()
    loop = RigLoop(controller, draw=lambda screen: None)
    cfg = HardwareConfig(pin_factory="mock", reader_type="none", display_driver="none")
    hw = build_real(cfg, loop.post, gesture_inbox=loop.post)
    runner = threading.Thread(target=loop.run, name="test-loop")
    runner.start()
    try:
        assert not any(t.name == "gestures" for t in threading.enumerate())
        pins = cfg.knobs["hi"]
        factory: Any = hw.pin_factory
        driver = QuadratureDriver.for_factory(factory, pins.a, pins.b, pins.button)
        driver.turn(1)  # held for the flick window, then sent by the loop's own timeout
        assert controller.gestures.get(timeout=hang()) == KnobTurn("hi", 1)
        driver.press()
        driver.release()
        assert controller.gestures.get(timeout=hang()) == KnobPress("hi")
    finally:
        loop.post(Stop())
        runner.join(timeout=hang())
        hw.close()
    assert not runner.is_alive()
