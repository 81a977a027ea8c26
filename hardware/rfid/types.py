"""Values passed from a protocol decoder to the reader loop."""

from __future__ import annotations

from typing import Protocol

from valueclass import Frozen


class TagRead(Frozen):
    """One good frame: ``tag`` is the id used in events (as printed on the card),
    ``raw`` the full frame payload in hex for logs."""

    tag: str
    raw: str


class Rejection(Frozen):
    """A corrupt frame that was dropped."""

    reason: str


class Miss(Frozen):
    """An active poll (PN532) that found no card."""


Reading = TagRead | Rejection | Miss

__all__ = ["Miss", "Reading", "Rejection", "TagRead"]


class SerialPort(Protocol):
    """The part of a pyserial ``serial.Serial`` the reader and its protocols use (pyserial
    is untyped; :func:`hardware.rfid.reader.open_port` is the adapter)."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes, /) -> int | None: ...

    def reset_input_buffer(self) -> None: ...

    def close(self) -> None: ...
