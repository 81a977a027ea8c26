"""A knob: rotary encoder + push switch, read through gpiozero's public devices.

:class:`Knob` reads the encoder's two pins as gpiozero ``DigitalInputDevice``s (pulled
up, no bounce time: a large one eats transitions on lgpio) and the switch as a third
(``DigitalInputDevice``, not ``Button``: Button's HoldMixin starts a HoldThread per button
that wakes every 0.1 s for good). Their callbacks run on the backend's thread and only
stamp the levels they saw and post them to the
:class:`~hardware.gestureclock.GestureClock`, whose one consumer (the rig loop, or the
clock's own thread) decodes the quadrature (:class:`~hardware.gesture.QuadratureDecoder`,
so both 4-edge and 2-edge-per-detent encoders count every click), classifies the
gestures and hands them to ``emit`` (the rig passes ``queue.put``).

:class:`QuadratureDriver` drives gpiozero ``MockPin``s with real edge sequences (tests,
emulator); :class:`MockKnob` skips the pins and emits gestures directly.
"""

from __future__ import annotations

from hardware.events import KNOB_NAMES, Emit, KnobLongPress, KnobPress, KnobSpin, KnobTurn
from hardware.gesture import GestureConfig, KnobGestures
from hardware.gestureclock import GestureClock, RawButton, RawEdge
from hardware.pins import (
    DigitalInput,
    DrivablePin,
    MockPinFactory,
    PinFactory,
    PinId,
    digital_input,
)


class Knob:
    """One physical knob. ``pin_factory`` is a gpiozero factory (see
    :func:`hardware.pins.make_pin_factory`); pins are BCM numbers or names.

    ``gesture_clock``: the clock all knobs share (one consumer); without one the knob
    starts its own, on a thread of its own. ``reverse=True`` swaps the direction (for
    encoders wired A/B the other way)."""

    def __init__(
        self,
        name: str,
        emit: Emit,
        *,
        pin_a: PinId,
        pin_b: PinId,
        pin_button: PinId | None = None,
        pin_factory: PinFactory,
        edges_per_detent: int = 4,
        reverse: bool = False,
        button_bounce: float | None = 0.02,
        gesture_clock: GestureClock | None = None,
        config: GestureConfig | None = None,
    ) -> None:
        if name not in KNOB_NAMES:
            raise ValueError(f"knob name must be one of {KNOB_NAMES}, not {name!r}")
        self.name = name
        self._own_clock = gesture_clock is None
        self._clock = gesture_clock if gesture_clock is not None else GestureClock()
        self._devices: list[DigitalInput] = []
        try:
            self._a = self._input(pin_a, None, pin_factory)
            self._b = self._input(pin_b, None, pin_factory)
            self.gestures = KnobGestures(
                name, emit, edges_per_detent=edges_per_detent, reverse=reverse,
                a=self._level_a(), b=self._level_b(), config=config,
            )
            self._a.when_activated = self._a_low
            self._a.when_deactivated = self._a_high
            self._b.when_activated = self._b_low
            self._b.when_deactivated = self._b_high
            if pin_button is not None:
                button = self._input(pin_button, button_bounce, pin_factory)
                button.when_activated = self._pressed
                button.when_deactivated = self._released
        except BaseException:
            self._close_devices()
            raise
        if self._own_clock:
            self._clock.start()

    def _input(self, pin: PinId, bounce: float | None, factory: PinFactory) -> DigitalInput:
        device = digital_input(pin, pull_up=True, bounce_time=bounce, pin_factory=factory)
        self._devices.append(device)
        return device

    # Pulled up: a pin is active when low. Levels as the decoder counts them (True = high).
    def _level_a(self) -> bool:
        return not self._a.is_active

    def _level_b(self) -> bool:
        return not self._b.is_active

    # gpiozero callbacks (backend thread): stamp what was seen and post it, nothing else.
    def _edge(self, a: bool, b: bool) -> None:
        self._clock.post(self.gestures, RawEdge(self._clock.clock(), a, b))

    def _a_low(self) -> None:
        self._edge(False, self._level_b())

    def _a_high(self) -> None:
        self._edge(True, self._level_b())

    def _b_low(self) -> None:
        self._edge(self._level_a(), False)

    def _b_high(self) -> None:
        self._edge(self._level_a(), True)

    def _pressed(self) -> None:
        self._clock.post(self.gestures, RawButton(self._clock.clock(), True))

    def _released(self) -> None:
        self._clock.post(self.gestures, RawButton(self._clock.clock(), False))

    @property
    def invalid_transitions(self) -> int:
        """Edges the decoder could not follow (both pins changed at once): diagnostics."""
        return self.gestures.decoder.invalid_transitions

    def close(self) -> None:
        """Release the pins; nothing is sent after the inputs already seen. Idempotent."""
        self._close_devices()
        if self._own_clock:
            self._clock.close()
        elif hasattr(self, "gestures"):
            self._clock.detach(self.gestures)

    def _close_devices(self) -> None:
        devices, self._devices = self._devices, []
        for device in devices:
            device.close()


class QuadratureDriver:
    """Drives two gpiozero ``MockPin``s (and an optional button pin) with the edge
    sequences a real encoder makes. Clockwise is a-low, b-low, a-high, b-high."""

    # One full clockwise cycle from rest (both high), as (pin, level) edges.
    CW_CYCLE = (("a", False), ("b", False), ("a", True), ("b", True))

    def __init__(
        self,
        pin_a: DrivablePin,
        pin_b: DrivablePin,
        pin_button: DrivablePin | None = None,
        edges_per_detent: int = 4,
    ) -> None:
        self.pins = {"a": pin_a, "b": pin_b}
        self.button = pin_button
        self.edges_per_detent = edges_per_detent
        self._phase = 0  # quarter steps from rest, mod 4

    @classmethod
    def for_factory(
        cls,
        factory: MockPinFactory,
        pin_a: PinId,
        pin_b: PinId,
        pin_button: PinId | None = None,
        edges_per_detent: int = 4,
    ) -> QuadratureDriver:
        button = factory.pin(pin_button) if pin_button is not None else None
        return cls(factory.pin(pin_a), factory.pin(pin_b), button, edges_per_detent)

    def _drive(self, pin: str, level: bool) -> None:
        if level:
            self.pins[pin].drive_high()
        else:
            self.pins[pin].drive_low()

    def edge(self, clockwise: bool) -> None:
        """One quarter step."""
        if clockwise:
            pin, level = self.CW_CYCLE[self._phase % 4]
            self._phase += 1
        else:
            self._phase -= 1
            pin, level = self.CW_CYCLE[self._phase % 4]
            level = not level
        self._drive(pin, level)

    def turn(self, detents: int) -> None:
        """Turn ``detents`` clicks (signed, + = clockwise), all edges at once."""
        for _ in range(abs(detents) * self.edges_per_detent):
            self.edge(detents > 0)

    def bounce(self, pin: str = "a", times: int = 5) -> None:
        """Contact bounce: one pin toggles away from its level and back ``times`` times."""
        level = bool(self.pins[pin].state)
        for _ in range(times):
            self._drive(pin, not level)
            self._drive(pin, level)

    def press(self) -> None:
        if self.button is None:
            raise RuntimeError("no button pin")
        self.button.drive_low()

    def release(self) -> None:
        if self.button is None:
            raise RuntimeError("no button pin")
        self.button.drive_high()


class MockKnob:
    """A knob with no pins: the emulator and tests inject gestures as events."""

    def __init__(self, name: str, emit: Emit) -> None:
        if name not in KNOB_NAMES:
            raise ValueError(f"knob name must be one of {KNOB_NAMES}, not {name!r}")
        self.name = name
        self._emit = emit

    def turn(self, steps: int) -> None:
        if steps:
            self._emit(KnobTurn(self.name, steps))

    def flick(self, strength: float = 0.5) -> None:
        self._emit(KnobSpin(self.name, max(0.0, min(1.0, strength))))

    def press(self) -> None:
        self._emit(KnobPress(self.name))

    def long_press(self) -> None:
        self._emit(KnobLongPress(self.name))

    def close(self) -> None:
        pass


__all__ = ["Knob", "MockKnob", "QuadratureDriver"]
