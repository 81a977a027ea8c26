"""Walk a person through every part of a real rig and report what was seen."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable

from hardware.events import CardPresented, KnobPress, KnobSpin, KnobTurn
from valueclass import Frozen

Say = Callable[[str], None]


class Check(Frozen):
    instruction: str
    passes: Callable[[object], bool]


CHECKS: tuple[Check, ...] = (
    Check("Turn the HI knob a few clicks", lambda e: isinstance(e, KnobTurn) and e.knob == "hi"),
    Check("Press the HI knob", lambda e: isinstance(e, KnobPress) and e.knob == "hi"),
    Check("Flick the HI knob (a quick spin)",
          lambda e: isinstance(e, KnobSpin) and e.knob == "hi"),
    Check("Turn the LO knob a few clicks", lambda e: isinstance(e, KnobTurn) and e.knob == "lo"),
    Check("Press the LO knob", lambda e: isinstance(e, KnobPress) and e.knob == "lo"),
    Check("Flick the LO knob (a quick spin)",
          lambda e: isinstance(e, KnobSpin) and e.knob == "lo"),
    Check("Tap any card on the reader", lambda e: isinstance(e, CardPresented)),
)


def run_checks(events: queue.Queue[object], say: Say, show: Callable[[str], None],
               timeout: float = 30.0) -> dict[str, bool]:
    """Each check waits up to `timeout` for its event; other events are reported, not
    counted (a wrong knob is a wiring clue)."""
    results: dict[str, bool] = {}
    for check in CHECKS:
        say(check.instruction + " ...")
        show(check.instruction)
        results[check.instruction] = _wait(events, check, say, timeout)
        say("  ok" if results[check.instruction] else "  NOT SEEN")
    return results


def _wait(events: queue.Queue[object], check: Check, say: Say, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        try:
            event = events.get(timeout=left)
        except queue.Empty:
            return False
        if check.passes(event):
            return True
        say(f"  (saw {type(event).__name__}: {event})")
