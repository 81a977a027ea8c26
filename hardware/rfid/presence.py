"""Card presence as a pure, clock-injected state machine (no threads, no I/O).

Exactly one :class:`CardPresented` per placement: a resting card keeps refreshing
``last_seen`` (the "same card" timeout runs from the LAST read, so a resting card never
re-fires), and :class:`CardRemoved` follows once no frame has been seen for
``removal_after`` seconds AND at least ``misses_to_remove`` consecutive polls came back
empty (PN532 readers flap with a resting card; RDM6300 needs no misses). A different
card replacing the current one emits the removal then the new presentation.
"""

from __future__ import annotations

import time

from hardware.clock import Clock
from hardware.events import CardPresented, CardRemoved, Emit


class PresenceTracker:
    def __init__(
        self,
        reader: str,
        emit: Emit,
        *,
        clock: Clock = time.monotonic,
        removal_after: float = 0.4,
        misses_to_remove: int = 0,
    ) -> None:
        self.reader = reader
        self._emit = emit
        self._clock = clock
        self.removal_after = removal_after
        self.misses_to_remove = misses_to_remove
        self.current: str | None = None
        self.last_seen = 0.0
        self.misses = 0

    def seen(self, tag: str) -> None:
        now = self._clock()
        if tag != self.current:
            if self.current is not None:
                self._emit(CardRemoved(self.current, self.reader))
            self.current = tag
            self._emit(CardPresented(tag, self.reader))
        self.last_seen = now
        self.misses = 0

    def miss(self) -> None:
        """An active poll found no card."""
        if self.current is not None:
            self.misses += 1
        self.tick()

    def tick(self) -> None:
        """Check the removal timeout; call after every read, good or empty."""
        if self.current is None:
            return
        if (
            self._clock() - self.last_seen >= self.removal_after
            and self.misses >= self.misses_to_remove
        ):
            self.clear()

    def clear(self) -> None:
        """Forget the current card (e.g. the port was lost), emitting its removal."""
        if self.current is not None:
            tag, self.current = self.current, None
            self.misses = 0
            self._emit(CardRemoved(tag, self.reader))


__all__ = ["PresenceTracker"]
