"""Knob: quadrature decoding on gpiozero MockPins and gesture classification."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.events import HardwareEvent, KnobLongPress, KnobPress, KnobSpin, KnobTurn
from hardware.gesture import GestureClassifier, GestureConfig, QuadratureDecoder
from hardware.gestureclock import ManualGestureClock
from hardware.knob import Knob, MockKnob, QuadratureDriver
from tests.slowdown import hang

A, B, SW = 17, 18, 27


def make_knob(name: str, mock_factory: Any, sched: ManualGestureClock,
              events: list[HardwareEvent], **options: Any) -> Knob:
    """A knob on the mock pins A/B, driven by the manual scheduler; `options` differ."""
    return Knob(name, events.append, pin_a=A, pin_b=B, pin_factory=mock_factory,
                gesture_clock=sched, **options)


@pytest.fixture(params=[4, 2], ids=["full-cycle", "half-cycle"])
def rig(
    request: pytest.FixtureRequest,
    mock_factory: Any,
    sched: ManualGestureClock,
    events: list[HardwareEvent],
) -> Iterator[tuple[Knob, QuadratureDriver]]:
    epd = request.param
    knob = make_knob("hi", mock_factory, sched, events, pin_button=SW, edges_per_detent=epd)
    driver = QuadratureDriver.for_factory(mock_factory, A, B, SW, edges_per_detent=epd)
    yield knob, driver
    knob.close()


def classifier(sched: ManualGestureClock, knob: str, emit: Any,
               config: GestureConfig | None = None) -> GestureClassifier:
    """A bare classifier whose deadlines the manual clock drives."""
    g = GestureClassifier(knob, emit, config=config)
    sched.watch(g)
    return g


def slow_turn(driver: QuadratureDriver, sched: ManualGestureClock, detents: int) -> None:
    for _ in range(abs(detents)):
        driver.turn(1 if detents > 0 else -1)
        sched.advance(0.2)


def test_every_click_counts_for_both_encoder_types(rig, sched, events) -> None:
    _, driver = rig
    slow_turn(driver, sched, 3)
    slow_turn(driver, sched, -2)
    assert events == [KnobTurn("hi", 1)] * 3 + [KnobTurn("hi", -1)] * 2


def test_clockwise_is_a_low_b_low_a_high_b_high(mock_factory, sched, events) -> None:
    knob = make_knob("lo", mock_factory, sched, events)
    a, b = mock_factory.pin(A), mock_factory.pin(B)
    a.drive_low()
    b.drive_low()
    a.drive_high()
    assert events == []  # three quarters of a detent: nothing yet
    b.drive_high()
    sched.advance(0.2)
    assert events == [KnobTurn("lo", 1)]
    assert knob.invalid_transitions == 0
    knob.close()


def test_half_cycle_encoder_counts_at_both_rest_states(mock_factory, sched, events) -> None:
    knob = make_knob("hi", mock_factory, sched, events, edges_per_detent=2)
    a, b = mock_factory.pin(A), mock_factory.pin(B)
    a.drive_low()
    b.drive_low()  # rest at both-low: one click
    sched.advance(0.2)
    a.drive_high()
    b.drive_high()  # rest at both-high: another click
    sched.advance(0.2)
    assert events == [KnobTurn("hi", 1), KnobTurn("hi", 1)]
    # A full-cycle decoder would count those four edges as one detent.
    knob.close()


def test_contact_bounce_is_ignored(rig, sched, events) -> None:
    _, driver = rig
    driver.bounce("a", times=10)
    driver.bounce("b", times=10)
    sched.advance(1.0)
    assert events == []
    # bounce in the middle of a real click does not add or lose the click
    driver.edge(True)
    driver.bounce("a", times=3)
    driver.bounce("b", times=3)
    for _ in range(driver.edges_per_detent - 1):
        driver.edge(True)
    sched.advance(0.2)
    assert events == [KnobTurn("hi", 1)]


def test_invalid_transition_is_ignored() -> None:
    dec = QuadratureDecoder(4)
    assert dec.update(False, False) == 0  # both pins changed at once from rest
    assert dec.invalid_transitions == 1
    assert dec.update(True, False) == 0
    assert dec.update(True, True) == 0  # only half a detent was seen: no click
    # and the decoder is back in step: a clean click counts
    seq = [(False, True), (False, False), (True, False), (True, True)]
    assert [dec.update(a, b) for a, b in seq] == [0, 0, 0, 1]


def test_half_turn_wobble_counts_nothing() -> None:
    dec = QuadratureDecoder(4)
    seq = [(False, True), (False, False), (False, True), (True, True)]  # out and back
    assert [dec.update(a, b) for a, b in seq] == [0, 0, 0, 0]


def test_reverse_swaps_direction(mock_factory, sched, events) -> None:
    knob = make_knob("hi", mock_factory, sched, events, reverse=True)
    QuadratureDriver.for_factory(mock_factory, A, B).turn(1)
    sched.advance(0.2)
    assert events == [KnobTurn("hi", -1)]
    knob.close()


def test_flick_emits_one_spin_and_swallows_its_turns(rig, sched, events) -> None:
    _, driver = rig
    for _ in range(8):  # 8 clicks, 20 ms apart: a flick
        driver.turn(1)
        sched.advance(0.02)
    sched.advance(1.0)
    assert len(events) == 1
    spin = events[0]
    assert isinstance(spin, KnobSpin) and spin.knob == "hi"
    assert 0.0 < spin.strength <= 1.0
    # after the knob settles, slow turning is turns again
    slow_turn(driver, sched, 1)
    assert events[1:] == [KnobTurn("hi", 1)]


def test_spin_strength_grows_with_speed(sched) -> None:
    strengths = []
    for gap in (0.06, 0.03, 0.01):
        got: list[HardwareEvent] = []
        g = classifier(sched, "lo", got.append)
        for _ in range(3):
            g.detent(1, sched.clock())
            sched.advance(gap)
        sched.advance(1.0)
        assert len(got) == 1 and isinstance(got[0], KnobSpin)
        strengths.append(got[0].strength)
    assert strengths[0] < strengths[1] < strengths[2]


def test_slow_turning_is_never_a_spin(sched, events) -> None:
    g = classifier(sched, "hi", events.append)
    for _ in range(20):
        g.detent(1, sched.clock())
        sched.advance(0.1)  # 10 clicks per second
    sched.advance(1.0)
    assert all(isinstance(e, KnobTurn) for e in events)
    assert sum(e.steps for e in events if isinstance(e, KnobTurn)) == 20


def test_jitter_burst_is_not_a_spin(sched, events) -> None:
    g = classifier(sched, "hi", events.append)
    for i in range(20):  # back and forth as fast as a loose knob can
        g.detent(1 if i % 2 == 0 else -1, sched.clock())
        sched.advance(0.005)
    sched.advance(1.0)
    assert not any(isinstance(e, KnobSpin) for e in events)
    assert sum(e.steps for e in events if isinstance(e, KnobTurn)) == 0


def test_jitter_on_pins_is_not_a_spin(rig, sched, events) -> None:
    _, driver = rig
    for _ in range(10):
        driver.turn(1)
        driver.turn(-1)
    sched.advance(1.0)
    assert not any(isinstance(e, KnobSpin) for e in events)


def test_flick_thresholds_are_configurable(sched, events) -> None:
    cfg = GestureConfig(flick_detents=5, flick_window=0.1)
    g = classifier(sched, "hi", events.append, config=cfg)
    for _ in range(4):
        g.detent(-1, sched.clock())
        sched.advance(0.01)
    sched.advance(1.0)
    assert events == [KnobTurn("hi", -4)]


def test_short_press_on_release(rig, sched, events) -> None:
    _, driver = rig
    driver.press()
    sched.advance(0.3)
    assert events == []
    driver.release()
    assert events == [KnobPress("hi")]


def test_long_press_fires_once_while_held(rig, sched, events) -> None:
    _, driver = rig
    driver.press()
    sched.advance(1.49)
    assert events == []
    sched.advance(0.02)
    assert events == [KnobLongPress("hi")]
    sched.advance(5.0)
    driver.release()
    assert events == [KnobLongPress("hi")]
    driver.press()
    driver.release()
    assert events == [KnobLongPress("hi"), KnobPress("hi")]


def test_long_press_reported_at_release_if_its_deadline_was_missed(events) -> None:
    g = GestureClassifier("lo", events.append)  # no clock drives its deadlines
    g.press(at=10.0)
    g.release(at=12.0)
    assert events == [KnobLongPress("lo")]


def test_knob_name_checked(mock_factory) -> None:
    with pytest.raises(ValueError):
        Knob("mid", print, pin_a=A, pin_b=B, pin_factory=mock_factory)


def test_close_releases_pins(mock_factory, sched, events) -> None:
    knob = make_knob("hi", mock_factory, sched, events, pin_button=SW)
    knob.close()
    again = make_knob("hi", mock_factory, sched, events, pin_button=SW)
    again.close()


def test_mock_knob_emits_gestures_directly(events) -> None:
    k = MockKnob("lo", events.append)
    k.turn(2)
    k.turn(0)
    k.flick(1.7)
    k.press()
    k.long_press()
    assert events == [KnobTurn("lo", 2), KnobSpin("lo", 1.0), KnobPress("lo"), KnobLongPress("lo")]


CW_EDGES = (("a", False), ("b", False), ("a", True), ("b", True))


@settings(max_examples=200, deadline=None)
@given(
    epd=st.sampled_from([2, 4]),
    moves=st.lists(st.sampled_from([1, -1]), max_size=12),
    bounces=st.lists(st.tuples(st.integers(0, 200), st.sampled_from("ab")), max_size=10),
)
def test_decoder_counts_clicks_through_any_bounce(
    epd: int, moves: list[int], bounces: list[tuple[int, str]]
) -> None:
    """Property: whatever contact bounce is sprinkled between edges, the decoder reports
    exactly the clicks that were turned."""
    levels = {"a": True, "b": True}
    dec = QuadratureDecoder(epd)
    phase = 0
    edges: list[tuple[str, bool]] = []
    for move in moves:
        for _ in range(epd):
            if move > 0:
                pin, level = CW_EDGES[phase % 4]
                phase += 1
            else:
                phase -= 1
                pin, level = CW_EDGES[phase % 4]
                level = not level
            edges.append((pin, level))
    bounce_at: dict[int, list[str]] = {}
    for pos, pin in bounces:
        bounce_at.setdefault(pos % (len(edges) + 1), []).append(pin)
    total = 0
    for i in range(len(edges) + 1):
        for pin in bounce_at.get(i, []):
            for level in (not levels[pin], levels[pin]):
                total += dec.update(**{**levels, pin: level})
        if i < len(edges):
            pin, level = edges[i]
            levels[pin] = level
            total += dec.update(levels["a"], levels["b"])
    assert total == sum(moves)
    assert dec.invalid_transitions == 0


def test_flush_now_moves_the_deadline(sched, events) -> None:
    g = classifier(sched, "hi", events.append)
    g.detent(1, sched.clock())
    g.flush()  # sent now: its deadline is gone
    assert events == [KnobTurn("hi", 1)]
    sched.advance(0.01)
    g.detent(1, sched.clock())
    sched.advance(0.145)  # the first detent's deadline passes: must not flush early
    assert events == [KnobTurn("hi", 1)]
    sched.advance(0.01)
    assert events == [KnobTurn("hi", 1), KnobTurn("hi", 1)]


def test_a_deadline_is_handled_before_a_later_input(sched, events) -> None:
    """Inputs are classified in time order with the deadlines between them: a detent
    stamped after the first one's flick window is a second turn, not part of the first."""
    from hardware.gesture import KnobGestures
    from hardware.gestureclock import RawEdge

    knob = KnobGestures("hi", events.append)
    t = sched.clock()
    for i, (a, b) in enumerate([(False, True), (False, False), (True, False), (True, True)]):
        sched.post(knob, RawEdge(t + i * 0.001, a, b))
    later = t + 0.5  # posted late (the clock thread was busy): stamped when it happened
    for i, (a, b) in enumerate([(False, True), (False, False), (True, False), (True, True)]):
        sched.post(knob, RawEdge(later + i * 0.001, a, b))
    assert events == [KnobTurn("hi", 1)]
    sched.advance(1.0)
    assert events == [KnobTurn("hi", 1), KnobTurn("hi", 1)]


def test_the_clock_waits_for_nothing_at_rest(rig, sched, events) -> None:
    """No busy polling: with nothing held the clock has no deadline (its thread blocks);
    a turn or a held button sets exactly the one it needs."""
    _, driver = rig
    assert sched.next_deadline() is None
    start = sched.clock()
    driver.turn(1)
    assert sched.next_deadline() == pytest.approx(start + GestureConfig().flick_window)
    sched.advance(0.2)
    assert events == [KnobTurn("hi", 1)] and sched.next_deadline() is None
    driver.press()
    assert sched.next_deadline() == pytest.approx(sched.clock() + GestureConfig().long_press)
    driver.release()
    assert sched.next_deadline() is None


def test_a_closed_knob_sends_nothing_more(mock_factory, sched, events) -> None:
    knob = make_knob("hi", mock_factory, sched, events, pin_button=SW)
    driver = QuadratureDriver.for_factory(mock_factory, A, B, SW)
    driver.turn(1)
    driver.press()
    knob.close()
    sched.advance(5.0)
    assert events == []


def test_threaded_clock_classifies_on_its_own_thread() -> None:
    """The real clock: posts return at once; its one thread sends the gesture when the
    flick window has passed (waited for through the queue, not by sleeping)."""
    import queue
    import threading

    from hardware.gesture import KnobGestures
    from hardware.gestureclock import GestureClock, RawButton

    got: queue.Queue[tuple[HardwareEvent, str]] = queue.Queue()
    clock = GestureClock()
    knob = KnobGestures("lo", lambda e: got.put((e, threading.current_thread().name)))
    clock.start()
    try:
        now = clock.clock()
        clock.post(knob, RawButton(now, True))
        clock.post(knob, RawButton(now + 0.01, False))
        event, thread = got.get(timeout=hang())
        assert event == KnobPress("lo") and thread == "gestures"
    finally:
        clock.close()


def test_a_failing_emit_does_not_stop_the_clock(caplog: pytest.LogCaptureFixture) -> None:
    import queue

    from hardware.gesture import KnobGestures
    from hardware.gestureclock import GestureClock, RawButton

    got: queue.Queue[HardwareEvent] = queue.Queue()
    calls = []

    def emit(event: HardwareEvent) -> None:
        calls.append(event)
        if len(calls) == 1:
            raise RuntimeError("the queue is gone")
        got.put(event)

    clock = GestureClock()
    knob = KnobGestures("hi", emit)
    clock.start()
    try:
        now = clock.clock()
        for at in (now, now + 0.1):
            clock.post(knob, RawButton(at, True))
            clock.post(knob, RawButton(at + 0.01, False))
        assert got.get(timeout=hang()) == KnobPress("hi")  # the second press still arrives
    finally:
        clock.close()
    assert "knob input dropped" in caplog.text
