"""A knob: rotary encoder + push switch, read through gpiozero.

:class:`Knob` owns a gpiozero ``RotaryEncoder`` (``max_steps=0``, no bounce time on the
encoder pins: a large one eats transitions on lgpio) and an optional ``Button``. It
decodes the quadrature itself (:class:`~hardware.gesture.QuadratureDecoder`, so both
4-edge and 2-edge-per-detent encoders count every click) and feeds a
:class:`~hardware.gesture.GestureClassifier`. Pin callbacks run on the backend's thread
and only end in ``emit`` (the rig passes ``queue.put``).

:class:`QuadratureDriver` drives gpiozero ``MockPin``s with real edge sequences (tests,
emulator); :class:`MockKnob` skips the pins and emits gestures directly.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from hardware.clock import Clock, Scheduler
from hardware.events import KNOB_NAMES, Emit, KnobLongPress, KnobPress, KnobSpin, KnobTurn
from hardware.gesture import GestureClassifier, GestureConfig, QuadratureDecoder

PinId = int | str


class Knob:
    """One physical knob. ``pin_factory`` is a gpiozero factory (see
    :func:`hardware.pins.make_pin_factory`); pins are BCM numbers or names.

    ``reverse=True`` swaps the direction (for encoders wired A/B the other way)."""

    def __init__(
        self,
        name: str,
        emit: Emit,
        *,
        pin_a: PinId,
        pin_b: PinId,
        pin_button: PinId | None = None,
        pin_factory: Any,
        edges_per_detent: int = 4,
        reverse: bool = False,
        button_bounce: float | None = 0.02,
        clock: Clock = time.monotonic,
        scheduler: Scheduler | None = None,
        config: GestureConfig | None = None,
    ) -> None:
        if name not in KNOB_NAMES:
            raise ValueError(f"knob name must be one of {KNOB_NAMES}, not {name!r}")
        # lazy: keeps start-up lean. DigitalInputDevice, not Button: Button's HoldMixin
        # starts a HoldThread per button that wakes every 0.1 s for good, and the knob
        # times long presses itself (GestureClassifier).
        from gpiozero import DigitalInputDevice, RotaryEncoder

        self.name = name
        self._reverse = reverse
        self._lock = threading.Lock()
        self.gestures = GestureClassifier(
            name, emit, clock=clock, scheduler=scheduler, config=config
        )
        self._encoder = RotaryEncoder(
            pin_a, pin_b, max_steps=0, bounce_time=None, pin_factory=pin_factory
        )
        self._button: Any = None
        try:
            a_pin, b_pin = self._encoder.a.pin, self._encoder.b.pin
            self._decoder = QuadratureDecoder(
                edges_per_detent, a=bool(a_pin.state), b=bool(b_pin.state)
            )
            # Chain our decoder after gpiozero's own handlers (its ``steps`` stays a
            # full-cycle diagnostic count). Bound methods: gpiozero keeps weak refs.
            self._gz_a_changed = a_pin.when_changed
            self._gz_b_changed = b_pin.when_changed
            a_pin.when_changed = self._a_changed
            b_pin.when_changed = self._b_changed
            if pin_button is not None:
                self._button = DigitalInputDevice(
                    pin_button, pull_up=True, bounce_time=button_bounce, pin_factory=pin_factory
                )
                self._button.when_activated = self._pressed
                self._button.when_deactivated = self._released
        except BaseException:
            self.close()
            raise

    # gpiozero callbacks (backend thread): decode and hand on, nothing else.
    def _a_changed(self, ticks: Any, state: Any) -> None:
        if self._gz_a_changed is not None:
            self._gz_a_changed(ticks, state)
        self._edge(a=bool(state), b=None)

    def _b_changed(self, ticks: Any, state: Any) -> None:
        if self._gz_b_changed is not None:
            self._gz_b_changed(ticks, state)
        self._edge(a=None, b=bool(state))

    def _edge(self, a: bool | None, b: bool | None) -> None:
        with self._lock:
            level_a = a if a is not None else bool(self._encoder.a.pin.state)
            level_b = b if b is not None else bool(self._encoder.b.pin.state)
            detents = self._decoder.update(level_a, level_b)
        if detents:
            self.gestures.detents(-detents if self._reverse else detents)

    def _pressed(self) -> None:
        self.gestures.press()

    def _released(self) -> None:
        self.gestures.release()

    @property
    def raw_steps(self) -> int:
        """gpiozero's own full-cycle step count (diagnostics only)."""
        return int(self._encoder.steps)

    @property
    def invalid_transitions(self) -> int:
        return self._decoder.invalid_transitions

    def close(self) -> None:
        """Release the pins and cancel pending timers. Idempotent."""
        self.gestures.close()
        for device in (self._button, getattr(self, "_encoder", None)):
            if device is not None:
                device.close()
        self._button = None


class QuadratureDriver:
    """Drives two gpiozero ``MockPin``s (and an optional button pin) with the edge
    sequences a real encoder makes. Clockwise is a-low, b-low, a-high, b-high."""

    # One full clockwise cycle from rest (both high), as (pin, level) edges.
    CW_CYCLE = (("a", False), ("b", False), ("a", True), ("b", True))

    def __init__(
        self, pin_a: Any, pin_b: Any, pin_button: Any = None, edges_per_detent: int = 4
    ) -> None:
        self.pins = {"a": pin_a, "b": pin_b}
        self.button = pin_button
        self.edges_per_detent = edges_per_detent
        self._phase = 0  # quarter steps from rest, mod 4

    @classmethod
    def for_factory(
        cls,
        factory: Any,
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
