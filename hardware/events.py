"""Plain hardware events.

Devices turn physical signals into these frozen values and hand them to an ``emit``
callable (the rig passes ``queue.put``). They carry no game meaning and no references to
device objects, so they are safe to pass between threads and to log.

They are :class:`valueclass.Frozen` values, not dataclasses (the rig imports them
before its first screen: see that module), each with its own ``__init__`` since one is
made for every input.
"""

from __future__ import annotations

from collections.abc import Callable

from valueclass import Frozen, set_field

KNOB_NAMES = ("hi", "lo")


class KnobTurn(Frozen):
    """Slow turning: ``steps`` detents, positive = clockwise."""

    __slots__ = ("knob", "steps")
    knob: str
    steps: int

    def __init__(self, knob: str, steps: int) -> None:
        set_field(self, "knob", knob)
        set_field(self, "steps", steps)


class KnobSpin(Frozen):
    """A deliberate flick. ``strength`` (0..1) only sets the animation length."""

    __slots__ = ("knob", "strength")
    knob: str
    strength: float

    def __init__(self, knob: str, strength: float) -> None:
        set_field(self, "knob", knob)
        set_field(self, "strength", strength)


class KnobPress(Frozen):
    """A short press, reported on release."""

    __slots__ = ("knob",)
    knob: str

    def __init__(self, knob: str) -> None:
        set_field(self, "knob", knob)


class KnobLongPress(Frozen):
    """Held past the long-press threshold; reported once, while still held."""

    __slots__ = ("knob",)
    knob: str

    def __init__(self, knob: str) -> None:
        set_field(self, "knob", knob)


class CardPresented(Frozen):
    """A card was placed on a reader (once per placement)."""

    __slots__ = ("reader", "tag")
    tag: str
    reader: str

    def __init__(self, tag: str, reader: str) -> None:
        set_field(self, "tag", tag)
        set_field(self, "reader", reader)


class CardRemoved(Frozen):
    __slots__ = ("reader", "tag")
    tag: str
    reader: str

    def __init__(self, tag: str, reader: str) -> None:
        set_field(self, "tag", tag)
        set_field(self, "reader", reader)


class FrameRejected(Frozen):
    """Corrupt frames (bad checksum, framing error) were dropped: ``count`` of them, the
    last for ``reason``. A reader reports the first of a burst at once and counts the
    rest into one event (see :class:`hardware.rfid.reader.CardReader`), so a babbling
    line cannot fill the rig's queue."""

    __slots__ = ("count", "reader", "reason")
    reader: str
    reason: str
    count: int

    def __init__(self, reader: str, reason: str, count: int = 1) -> None:
        set_field(self, "reader", reader)
        set_field(self, "reason", reason)
        set_field(self, "count", count)


class ReaderStatus(Frozen):
    __slots__ = ("connected", "message", "reader")
    reader: str
    connected: bool
    message: str

    def __init__(self, reader: str, connected: bool, message: str) -> None:
        set_field(self, "reader", reader)
        set_field(self, "connected", connected)
        set_field(self, "message", message)


class DisplayStatus(Frozen):
    __slots__ = ("message", "ok")
    ok: bool
    message: str

    def __init__(self, ok: bool, message: str) -> None:
        set_field(self, "ok", ok)
        set_field(self, "message", message)


class SoundStatus(Frozen):
    """The sound output failed (``ok`` False: no device, no synthesizer) or is back."""

    __slots__ = ("message", "ok")
    ok: bool
    message: str

    def __init__(self, ok: bool, message: str = "") -> None:
        set_field(self, "ok", ok)
        set_field(self, "message", message)


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
    | SoundStatus
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
    "SoundStatus",
]
