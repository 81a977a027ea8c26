"""Pure knob logic, no gpiozero: a quadrature decoder and a gesture classifier.

``QuadratureDecoder`` turns the two encoder pin levels into detents. It follows the Gray
code one edge at a time, so contact bounce (an edge and its reversal) cancels out and
an invalid transition (both pins changed at once: an edge was missed) is ignored. It
counts a detent when the pins come back to a rest state, which makes it work for both
full-cycle encoders (4 edges per detent, rest at a=b=high) and half-cycle encoders
(2 edges per detent, rest at both-high and both-low).

``GestureClassifier`` turns timestamped detents and button edges into events. It owns
no timer and reads no clock: every input carries its time, and whoever drives it (one
:class:`~hardware.gestureclock.GestureClock` for all knobs) asks :meth:`next_deadline`
and calls :meth:`due` then, so all knobs are classified on one clock. A flick
(``flick_detents`` same-direction detents within ``flick_window``) emits one
:class:`KnobSpin` and swallows the detents it contained and those that follow until the
knob settles; slower turning emits :class:`KnobTurn` after at most ``flick_window``
(turns are held that long so a flick can claim them; jitter back and forth nets to
nothing); the button emits :class:`KnobPress` on a short release and
:class:`KnobLongPress` once when held past ``long_press``.

``KnobGestures`` is one knob's pipeline, raw pin levels to gestures: the decoder in
front of the classifier.
"""

from __future__ import annotations

from hardware.events import Emit, KnobLongPress, KnobPress, KnobSpin, KnobTurn
from hardware.gestureclock import RawEdge, RawInput
from valueclass import Frozen

# Pin levels as (a << 1) | b; pulled up, so a resting full-cycle encoder reads 0b11.
# Clockwise is a-low, b-low, a-high, b-high.
_CW_NEXT = {0b11: 0b01, 0b01: 0b00, 0b00: 0b10, 0b10: 0b11}
_CCW_NEXT = {after: before for before, after in _CW_NEXT.items()}
_REST_STATES = {4: frozenset({0b11}), 2: frozenset({0b11, 0b00}), 1: frozenset(range(4))}


class QuadratureDecoder:
    """Edge-by-edge Gray-code decoder. Single-threaded: fed by the gesture clock's thread."""

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


class GestureConfig(Frozen):
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
    """Turns timestamped detents and button edges into knob events. Single-threaded and
    clockless: feed inputs in time order (each with its time ``at``) and call
    :meth:`due` once :meth:`next_deadline` has passed; all it does is call ``emit``."""

    def __init__(self, knob: str, emit: Emit, *, config: GestureConfig | None = None) -> None:
        self.knob = knob
        self._emit = emit
        self.config = config if config is not None else GestureConfig()
        self._pending: list[tuple[float, int]] = []
        self._flush_at: float | None = None
        self._last_spin_detent: float | None = None
        self._pressed_at: float | None = None
        self._long_sent = False

    # -- the clock ----------------------------------------------------------------------
    def next_deadline(self) -> float | None:
        """When :meth:`due` has something to do (held turns, a long press), or None."""
        deadlines = [t for t in (self._flush_at, self._long_press_at()) if t is not None]
        return min(deadlines) if deadlines else None

    def _long_press_at(self) -> float | None:
        if self._pressed_at is None or self._long_sent:
            return None
        return self._pressed_at + self.config.long_press

    def due(self, now: float) -> None:
        """Send what has fallen due by ``now``: held turns after the flick window, a long
        press while the button is still held."""
        if self._flush_at is not None and now >= self._flush_at:
            self._flush_at = None
            self._flush()
        long_at = self._long_press_at()
        if long_at is not None and now >= long_at:
            self._long_sent = True
            self._emit(KnobLongPress(self.knob))

    # -- rotation ---------------------------------------------------------------------
    def detents(self, count: int, at: float) -> None:
        """Feed ``count`` detents (signed) that happened at ``at``."""
        step = 1 if count > 0 else -1
        for _ in range(abs(count)):
            self.detent(step, at)

    def detent(self, direction: int, at: float) -> None:
        if direction == 0:
            return
        direction = 1 if direction > 0 else -1
        cfg = self.config
        last_spin = self._last_spin_detent
        if last_spin is not None and at - last_spin < cfg.spin_settle:
            self._last_spin_detent = at  # still coasting from the flick
            return
        self._last_spin_detent = None
        self._pending.append((at, direction))
        run = self._same_direction_tail()
        if len(run) >= cfg.flick_detents:
            span = run[-1] - run[-cfg.flick_detents]
            if span <= cfg.flick_window:
                self._spin(run, at)
                return
        if self._flush_at is None:
            self._flush_at = at + cfg.flick_window

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
        self._flush_at = None
        self._last_spin_detent = now
        self._emit(KnobSpin(self.knob, round(strength, 3)))

    def _flush(self) -> None:
        net = sum(d for _, d in self._pending)
        self._pending.clear()
        if net:
            self._emit(KnobTurn(self.knob, net))

    def flush(self) -> None:
        """Send any held turns now (e.g. at shutdown)."""
        self._flush_at = None
        self._flush()

    # -- button -----------------------------------------------------------------------
    def press(self, at: float) -> None:
        if self._pressed_at is not None:
            return
        self._pressed_at = at
        self._long_sent = False

    def release(self, at: float) -> None:
        pressed_at = self._pressed_at
        if pressed_at is None:
            return
        self._pressed_at = None
        if self._long_sent:
            return
        if at - pressed_at >= self.config.long_press:
            self._emit(KnobLongPress(self.knob))  # released past the threshold unseen
        else:
            self._emit(KnobPress(self.knob))

    def close(self) -> None:
        """Forget held turns and a held button: nothing more is sent."""
        self._flush_at = None
        self._pending.clear()
        self._pressed_at = None


class KnobGestures:
    """One knob's raw inputs to gestures: the quadrature decoder (with the knob's
    direction) in front of a :class:`GestureClassifier`. Driven by the gesture clock's
    thread only, so nothing here locks."""

    def __init__(
        self,
        knob: str,
        emit: Emit,
        *,
        edges_per_detent: int = 4,
        reverse: bool = False,
        a: bool = True,
        b: bool = True,
        config: GestureConfig | None = None,
    ) -> None:
        self.decoder = QuadratureDecoder(edges_per_detent, a=a, b=b)
        self.classifier = GestureClassifier(knob, emit, config=config)
        self._sign = -1 if reverse else 1

    def take(self, raw: RawInput) -> None:
        if isinstance(raw, RawEdge):
            detents = self.decoder.update(raw.a, raw.b)
            if detents:
                self.classifier.detents(self._sign * detents, raw.at)
        elif raw.pressed:
            self.classifier.press(raw.at)
        else:
            self.classifier.release(raw.at)

    def next_deadline(self) -> float | None:
        return self.classifier.next_deadline()

    def due(self, now: float) -> None:
        self.classifier.due(now)

    def close(self) -> None:
        self.classifier.close()


__all__ = ["GestureClassifier", "GestureConfig", "KnobGestures", "QuadratureDecoder"]
