"""A reader with no hardware: the emulator and tests present and remove tags directly.

It emits the same events as :class:`~hardware.rfid.reader.CardReader` with the same
rule (one :class:`CardPresented` per placement), without threads or timing.
"""

from __future__ import annotations

from hardware.events import CardPresented, CardRemoved, Emit, FrameRejected, ReaderStatus


def emulated_tag(card_id: str) -> str:
    """The tag a reader with no hardware reports for a card (the emulated rig's, the
    browser desk's): readable in transcripts."""
    return f"EMU-{card_id}"


class MockCardReader:
    def __init__(self, name: str, emit: Emit) -> None:
        self.name = name
        self._emit = emit
        self.current: str | None = None
        self.connected = False

    def start(self) -> MockCardReader:
        self.connected = True
        self._emit(ReaderStatus(self.name, True, "mock reader ready"))
        return self

    def stop(self) -> None:
        self.remove()
        self.connected = False

    def present(self, tag: str) -> None:
        """Place a card; a card already resting there does not fire again."""
        if tag == self.current:
            return
        self.remove()
        self.current = tag
        self._emit(CardPresented(tag, self.name))

    def remove(self) -> None:
        if self.current is not None:
            tag, self.current = self.current, None
            self._emit(CardRemoved(tag, self.name))

    def tap(self, tag: str) -> None:
        """Place a card and take it away again."""
        self.present(tag)
        self.remove()

    def corrupt(self, reason: str = "checksum mismatch") -> None:
        self._emit(FrameRejected(self.name, reason))

    def disconnect(self, message: str = "mock reader unplugged") -> None:
        self.remove()
        self.connected = False
        self._emit(ReaderStatus(self.name, False, message))

    def reconnect(self) -> None:
        self.start()


class NullCardReader:
    """No reader fitted (``reader.type = "none"``): never emits anything."""

    def __init__(self, name: str = "none") -> None:
        self.name = name

    def start(self) -> NullCardReader:
        return self

    def stop(self) -> None:
        pass


__all__ = ["MockCardReader", "NullCardReader"]
