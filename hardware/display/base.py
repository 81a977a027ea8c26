"""The display interface and the frame bookkeeping every backend shares.

A frame is a PIL image in mode "1", 128x64. :meth:`Display.show` returns False and
sends nothing when the frame equals the last one sent (a full frame costs ~23 ms of I2C
at 400 kHz): callers may render every tick and let the display skip.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from PIL import Image

from valueclass import Record

WIDTH = 128
HEIGHT = 64
SIZE = (WIDTH, HEIGHT)
MODE = "1"


class DisplayStats(Record):
    sent: int = 0
    """Frames that reached the device."""
    skipped: int = 0
    """Frames equal to the last one sent."""
    errors: int = 0
    """Failed sends or device (re)creations."""
    dropped: int = 0
    """Frames not sent because the device was down (waiting to retry)."""


@runtime_checkable
class Display(Protocol):
    stats: DisplayStats

    def show(self, frame: Image.Image) -> bool:
        """Send ``frame`` unless it equals the last frame sent; True if sent."""
        ...

    def close(self, persist_message: Image.Image | None = None) -> None:
        """Release the device; ``persist_message`` (or else the last frame) stays on
        screen where the backend allows it."""
        ...


def new_frame() -> Image.Image:
    """A blank (black) frame of the right size and mode."""
    return Image.new(MODE, SIZE, 0)


def check_frame(frame: Image.Image) -> None:
    if frame.mode != MODE or frame.size != SIZE:
        raise ValueError(f"frame must be mode {MODE!r} {SIZE}, got {frame.mode!r} {frame.size}")


class FrameSink:
    """Base for backends: the skip-unchanged logic and stats, in one place for every
    display. Subclasses implement :meth:`_send` (and may override :meth:`close`); a
    backend whose sends can fail overrides :meth:`_deliver` instead and calls
    :meth:`_delivered` when a frame got through."""

    def __init__(self) -> None:
        self.stats = DisplayStats()
        self._last: bytes | None = None
        """The bytes of the last frame that reached the device (None: unknown)."""
        self.last_frame: Image.Image | None = None

    def show(self, frame: Image.Image) -> bool:
        """Send ``frame`` unless it equals the last frame sent; True if sent."""
        check_frame(frame)
        data = self._frame_bytes(frame)
        if data == self._last:
            self.stats.skipped += 1
            return False
        return self._deliver(frame.copy(), data)

    def _frame_bytes(self, frame: Image.Image) -> bytes:
        """``frame`` packed, to compare with the last frame sent (a backend that packed
        it already may say so)."""
        return frame.tobytes()

    def _deliver(self, frame: Image.Image, data: bytes) -> bool:
        """Send a new frame (``frame`` is the sink's own copy, ``data`` its bytes)."""
        self._send(frame)
        self._delivered(frame, data)
        return True

    def _delivered(self, frame: Image.Image, data: bytes) -> None:
        self._last = data
        self.last_frame = frame
        self.stats.sent += 1

    def _send(self, frame: Image.Image) -> None:
        raise NotImplementedError

    def close(self, persist_message: Image.Image | None = None) -> None:
        if persist_message is not None:
            self.show(persist_message)


class NullDisplay(FrameSink):
    """No display fitted (``display.driver = "none"``): frames are counted and dropped.

    Only the last frame is kept (``last_frame``), so a rig that runs for weeks without
    a panel uses the same memory on day one and day thirty.
    """

    def _send(self, frame: Image.Image) -> None:
        pass


class MemoryDisplay(FrameSink):
    """Keeps every frame sent (tests, headless emulator scripts; never the daemon: it
    grows without end)."""

    def __init__(self) -> None:
        super().__init__()
        self.frames: list[Image.Image] = []
        self.closed = False

    def _send(self, frame: Image.Image) -> None:
        self.frames.append(frame.copy())

    def close(self, persist_message: Image.Image | None = None) -> None:
        super().close(persist_message)
        self.closed = True


__all__ = [
    "HEIGHT",
    "MODE",
    "SIZE",
    "WIDTH",
    "Display",
    "DisplayStats",
    "FrameSink",
    "MemoryDisplay",
    "NullDisplay",
    "check_frame",
    "new_frame",
]
