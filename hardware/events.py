"""Plain hardware events.

Devices turn physical signals into these frozen values and hand them to an ``emit``
callable (the rig passes ``queue.put``). They carry no game meaning and no references to
device objects, so they are safe to pass between threads and to log.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

KNOB_NAMES = ("hi", "lo")


@dataclass(frozen=True, slots=True)
class KnobTurn:
    """Slow turning: ``steps`` detents, positive = clockwise."""

    knob: str
    steps: int


@dataclass(frozen=True, slots=True)
class KnobSpin:
    """A deliberate flick. ``strength`` (0..1) only sets the animation length."""

    knob: str
    strength: float


@dataclass(frozen=True, slots=True)
class KnobPress:
    """A short press, reported on release."""

    knob: str


@dataclass(frozen=True, slots=True)
class KnobLongPress:
    """Held past the long-press threshold; reported once, while still held."""

    knob: str


@dataclass(frozen=True, slots=True)
class CardPresented:
    """A card was placed on a reader (once per placement)."""

    tag: str
    reader: str


@dataclass(frozen=True, slots=True)
class CardRemoved:
    tag: str
    reader: str


@dataclass(frozen=True, slots=True)
class FrameRejected:
    """A corrupt frame (bad checksum, framing error) was dropped."""

    reader: str
    reason: str


@dataclass(frozen=True, slots=True)
class ReaderStatus:
    reader: str
    connected: bool
    message: str


@dataclass(frozen=True, slots=True)
class DisplayStatus:
    ok: bool
    message: str


HardwareEvent = (
    KnobTurn
    | KnobSpin
    | KnobPress
    | KnobLongPress
    | CardPresented
    | CardRemoved
    | FrameRejected
    | ReaderStatus
    | DisplayStatus
)

Emit = Callable[[HardwareEvent], None]
"""What every device is given: called from hardware threads, must only enqueue."""

__all__ = [
    "KNOB_NAMES",
    "CardPresented",
    "CardRemoved",
    "DisplayStatus",
    "Emit",
    "FrameRejected",
    "HardwareEvent",
    "KnobLongPress",
    "KnobPress",
    "KnobSpin",
    "KnobTurn",
    "ReaderStatus",
]
