"""Pure knob logic, no gpiozero: a quadrature decoder and a gesture classifier.

``QuadratureDecoder`` turns the two encoder pin levels into detents. It follows the Gray
code one edge at a time, so contact bounce (an edge and its reversal) cancels out and
an invalid transition (both pins changed at once: an edge was missed) is ignored. It
counts a detent when the pins come back to a rest state, which makes it work for both
full-cycle encoders (4 edges per detent, rest at a=b=high) and half-cycle encoders
(2 edges per detent, rest at both-high and both-low).

``GestureClassifier`` turns detents and button edges into events with an injected clock
and scheduler: a flick (``flick_detents`` same-direction detents within
``flick_window``) emits one :class:`KnobSpin` and swallows the detents it contained and
those that follow until the knob settles; slower turning emits :class:`KnobTurn` after
at most ``flick_window`` (turns are held that long so a flick can claim them; jitter
back and forth nets to nothing); the button emits :class:`KnobPress` on a short release
and :class:`KnobLongPress` once when held past ``long_press``.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from hardware.clock import Cancellable, Clock, Scheduler, ThreadScheduler
from hardware.events import Emit, KnobLongPress, KnobPress, KnobSpin, KnobTurn

# Pin levels as (a << 1) | b; pulled up, so a resting full-cycle encoder reads 0b11.
# Clockwise is a-low, b-low, a-high, b-high.
_CW_NEXT = {0b11: 0b01, 0b01: 0b00, 0b00: 0b10, 0b10: 0b11}
_CCW_NEXT = {after: before for before, after in _CW_NEXT.items()}
_REST_STATES = {4: frozenset({0b11}), 2: frozenset({0b11, 0b00}), 1: frozenset(range(4))}


class QuadratureDecoder:
    """Edge-by-edge Gray-code decoder. Not thread-safe on its own (the Knob locks)."""

    def __init__(self, edges_per_detent: int = 4, a: bool = True, b: bool = True) -> None:
        if edges_per_detent not in _REST_STATES:
            raise ValueError(f"edges_per_detent must be 1, 2 or 4, not {edges_per_detent!r}")
        self.edges_per_detent = edges_per_detent
        self._rest = _REST_STATES[edges_per_detent]
        self._state = (int(a) << 1) | int(b)
        self._quarters = 0  # signed edges since the last detent
        self.invalid_transitions = 0

    def update(self, a: bool, b: bool) -> int:
        """Feed the current pin levels after an edge; returns detents completed (signed,
        + = clockwise), usually 0 or ±1."""
        new = (int(a) << 1) | int(b)
        old = self._state
        if new == old:
            return 0
        self._state = new
        if _CW_NEXT[old] == new:
            self._quarters += 1
        elif _CCW_NEXT[old] == new:
            self._quarters -= 1
        else:
            self.invalid_transitions += 1
            return 0
        if new not in self._rest:
            return 0
        # Back at a detent: whole detents moved since the last one (rounded, so one
        # missed edge inside a detent still counts it; a half-way wobble counts none).
        quarters, self._quarters = self._quarters, 0
        sign = 1 if quarters > 0 else -1
        epd = self.edges_per_detent
        return sign * ((abs(quarters) + (epd - 1) // 2) // epd)


@dataclass(frozen=True, slots=True)
class GestureConfig:
    """Thresholds for :class:`GestureClassifier` (seconds, detents)."""

    flick_detents: int = 3
    """A flick is this many same-direction detents ..."""
    flick_window: float = 0.150
    """... within this many seconds. Also how long turns are held before they are sent."""
    full_strength_rate: float = 40.0
    """Detents per second that give a spin strength of 1.0."""
    min_strength: float = 0.05
    spin_settle: float = 0.300
    """After a spin, detents are swallowed until the knob has been still this long."""
    long_press: float = 1.5


class GestureClassifier:
    """Turns detents and button edges into knob events. Thread-safe: pin callbacks and
    timer callbacks may come from different threads; all it does is call ``emit``."""

    def __init__(
        self,
        knob: str,
        emit: Emit,
        *,
        clock: Clock = time.monotonic,
        scheduler: Scheduler | None = None,
        config: GestureConfig | None = None,
    ) -> None:
        self.knob = knob
        self._emit = emit
        self._clock = clock
        self._scheduler: Scheduler = scheduler if scheduler is not None else ThreadScheduler()
        self.config = config if config is not None else GestureConfig()
        self._lock = threading.RLock()
        self._pending: list[tuple[float, int]] = []
        self._flush_timer: Cancellable | None = None
        self._flush_token = 0
        self._last_spin_detent: float | None = None
        self._pressed_at: float | None = None
        self._press_token = 0
        self._long_sent = False
        self._long_timer: Cancellable | None = None

    # -- rotation ---------------------------------------------------------------------
    def detents(self, count: int) -> None:
        """Feed ``count`` detents (signed) that just happened."""
        step = 1 if count > 0 else -1
        for _ in range(abs(count)):
            self.detent(step)

    def detent(self, direction: int) -> None:
        if direction == 0:
            return
        direction = 1 if direction > 0 else -1
        cfg = self.config
        with self._lock:
            now = self._clock()
            last_spin = self._last_spin_detent
            if last_spin is not None and now - last_spin < cfg.spin_settle:
                self._last_spin_detent = now  # still coasting from the flick
                return
            self._last_spin_detent = None
            self._pending.append((now, direction))
            run = self._same_direction_tail()
            if len(run) >= cfg.flick_detents:
                span = run[-1] - run[-cfg.flick_detents]
                if span <= cfg.flick_window:
                    self._spin(run, now)
                    return
            if self._flush_timer is None:
                self._flush_token += 1
                token = self._flush_token
                self._flush_timer = self._scheduler.call_later(
                    cfg.flick_window, lambda: self._flush_due(token)
                )

    def _same_direction_tail(self) -> list[float]:
        last_dir = self._pending[-1][1]
        times: list[float] = []
        for t, d in reversed(self._pending):
            if d != last_dir:
                break
            times.append(t)
        times.reverse()
        return times

    def _spin(self, run: list[float], now: float) -> None:
        cfg = self.config
        recent = [t for t in run if now - t <= cfg.flick_window]
        span = recent[-1] - recent[0]
        rate = (len(recent) - 1) / span if span > 0 else float("inf")
        strength = max(cfg.min_strength, min(1.0, rate / cfg.full_strength_rate))
        self._pending.clear()
        self._cancel_flush()
        self._last_spin_detent = now
        self._emit(KnobSpin(self.knob, round(strength, 3)))

    def _cancel_flush(self) -> None:
        if self._flush_timer is not None:
            self._flush_timer.cancel()
            self._flush_timer = None
        self._flush_token += 1  # a timer already running on another thread is now stale

    def _flush_due(self, token: int) -> None:
        with self._lock:
            if token == self._flush_token:
                self._flush_timer = None
                self._flush()

    def _flush(self) -> None:
        net = sum(d for _, d in self._pending)
        self._pending.clear()
        if net:
            self._emit(KnobTurn(self.knob, net))

    def flush(self) -> None:
        """Send any held turns now (e.g. at shutdown)."""
        with self._lock:
            self._cancel_flush()
            self._flush()

    # -- button -----------------------------------------------------------------------
    def press(self) -> None:
        with self._lock:
            if self._pressed_at is not None:
                return
            self._pressed_at = self._clock()
            self._long_sent = False
            self._press_token += 1
            token = self._press_token
            self._long_timer = self._scheduler.call_later(
                self.config.long_press, lambda: self._long_due(token)
            )

    def _long_due(self, token: int) -> None:
        with self._lock:
            if self._pressed_at is None or token != self._press_token or self._long_sent:
                return
            self._long_sent = True
            self._emit(KnobLongPress(self.knob))

    def release(self) -> None:
        with self._lock:
            pressed_at = self._pressed_at
            if pressed_at is None:
                return
            self._pressed_at = None
            if self._long_timer is not None:
                self._long_timer.cancel()
                self._long_timer = None
            if self._long_sent:
                return
            if self._clock() - pressed_at >= self.config.long_press:
                # Held long enough but the timer thread has not run yet.
                self._emit(KnobLongPress(self.knob))
            else:
                self._emit(KnobPress(self.knob))

    def close(self) -> None:
        with self._lock:
            self._cancel_flush()
            if self._long_timer is not None:
                self._long_timer.cancel()
            self._long_timer = None
            self._pending.clear()
            self._pressed_at = None


__all__ = ["GestureClassifier", "GestureConfig", "QuadratureDecoder"]
