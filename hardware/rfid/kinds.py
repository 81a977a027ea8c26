"""The card reader types: one table (issue 45), a protocol and a battery.

Each reader type is a :class:`Reader` record in its own module (the RDM6300's in
``hardware/rfid/rdm6300.py``, the PN532's in ``pn532.py``); the table finds the built-in
ones by path and installed ones by an entry point in ``cbrig.readers``::

    [project.entry-points."cbrig.readers"]
    myreader = "mypackage.reader:READER"

Everything that chooses by reader type reads the record: the hardware builds its
protocol (``hardware.devices``), the config takes its name and default speed and misses
(``[reader] type``, ``baud``, ``removal_misses``), ``cbrig rfid listen --reader`` offers
it, the printed case holds its part (``case_part`` in ``wiring/parts.toml``; None: the
case has no place for it). :func:`check_reader` is the battery any reader type runs on
itself (``cbrig.conformance.check_reader``).
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from hardware.plugins import Table
from hardware.rfid.reader import CardProtocol
from hardware.rfid.types import Miss, Rejection, TagRead
from valueclass import Frozen

GROUP = "cbrig.readers"
NO_READER = "none"
"""The config's reader type of a rig without a reader (virtual deck)."""


@runtime_checkable
class ReaderKind(Protocol):
    """What the rig reads of a reader type."""

    @property
    def name(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def baud(self) -> int:
        """The serial speed it talks at (the config's default ``baud``)."""

    @property
    def misses(self) -> int:
        """Clean misses before a card counts as removed (``removal_misses``)."""

    @property
    def case_part(self) -> str | None:
        """Its ``choice`` in wiring/parts.toml's readers (None: the case has no place)."""

    def protocol(self) -> CardProtocol:
        """A new decoder for one port (hardware.rfid.reader.CardReader drives it)."""

    def sample(self, tag: str) -> bytes | None:
        """The bytes the reader sends for card `tag` unasked (a streaming reader), or
        None (a polled one): the battery reads them back."""


class Reader(Frozen):
    """A reader type as a record (a :class:`ReaderKind`)."""

    name: str
    title: str
    make: Callable[[], CardProtocol]
    baud: int
    misses: int
    case_part: str | None = None
    frame: Callable[[str], bytes] | None = None
    """The frame for a card's tag, when the reader streams frames unasked."""

    def protocol(self) -> CardProtocol:
        return self.make()

    def sample(self, tag: str) -> bytes | None:
        return self.frame(tag) if self.frame is not None else None


def _kind(found: object) -> ReaderKind:
    if not isinstance(found, ReaderKind):
        raise TypeError(f"{type(found).__name__} is no reader kind (hardware.rfid.kinds."
                        "Reader: name, title, make, baud, misses)")
    return found


READERS: Table[ReaderKind] = Table(
    "card reader", GROUP,
    {"rdm6300": "hardware.rfid.rdm6300:READER", "pn532": "hardware.rfid.pn532:READER"},
    _kind, "cbrig.conformance.check_reader")
"""Every reader type, by name."""


def reader_kind(name: str) -> ReaderKind:
    """The reader type `name`; ValueError naming the ones there are."""
    return READERS.get(name)


def reader_types() -> tuple[str, ...]:
    """Every reader type the config may name, "none" last."""
    return (*READERS.names(), NO_READER)


# -- the battery --------------------------------------------------------------------------

class ReaderCheckError(AssertionError):
    """A reader type broke the contract: the message names it and the check."""


class _Port:
    """A serial port holding `data` to read; what is written is kept."""

    def __init__(self, data: bytes = b"") -> None:
        self.data = bytearray(data)
        self.written = bytearray()

    @property
    def in_waiting(self) -> int:
        return len(self.data)

    def read(self, size: int = 1) -> bytes:
        taken = bytes(self.data[:size])
        del self.data[:size]
        return taken

    def write(self, data: bytes, /) -> int | None:
        self.written += data
        return len(data)

    def reset_input_buffer(self) -> None:
        self.data.clear()

    def close(self) -> None:
        self.data.clear()


def _require(kind: ReaderKind | None, condition: bool, message: str) -> None:
    if not condition:
        name = kind.name if kind is not None else "?"
        raise ReaderCheckError(f"card reader {name!r}: {message}")


def _readings(kind: ReaderKind, protocol: CardProtocol, port: _Port, what: str) -> list[object]:
    """Everything the protocol reads from `port` until it is empty; OSError (a lost
    port, as the reader sees it) ends the reading."""
    found: list[object] = []
    for _ in range(10_000):
        try:
            got = protocol.read(port)
        except OSError:
            break
        except Exception as exc:
            raise ReaderCheckError(f"card reader {kind.name!r}: {what}: read raised "
                                   f"{type(exc).__name__}: {exc} (only OSError may)") from exc
        _require(kind, isinstance(got, list), f"{what}: read gave {type(got).__name__}, "
                 "not a list")
        found += got
        if not port.data:
            break
    bad = [item for item in found if not isinstance(item, TagRead | Rejection | Miss)]
    _require(kind, not bad, f"{what}: readings that are not TagRead, Rejection or Miss: "
             f"{bad[:3]}")
    return found


def check_reader(kind: object, seed: int = 7) -> ReaderKind:
    """The battery a reader type runs on itself: a kind with a name, a speed and
    misses; its protocol says the same; reading a silent port, noise and (for a
    streaming reader) a card's own frame gives only readings, the frame the card's
    tag; a port error is OSError, never another exception. ReaderCheckError names the
    type and the check."""
    try:
        reader = _kind(kind)
    except TypeError as exc:
        raise ReaderCheckError(str(exc)) from exc
    _require(reader, bool(reader.name) and reader.name == reader.name.strip().lower()
             and reader.name != NO_READER, "a name in lower case, not \"none\"")
    _require(reader, isinstance(reader.baud, int) and reader.baud > 0, "a serial speed")
    _require(reader, isinstance(reader.misses, int) and reader.misses >= 0,
             "misses >= 0")
    protocol = reader.protocol()
    _require(reader, protocol.baudrate == reader.baud,
             f"the protocol's baudrate {protocol.baudrate} is the kind's {reader.baud}")
    _require(reader, protocol.misses_to_remove == reader.misses,
             f"the protocol's misses_to_remove {protocol.misses_to_remove} is the "
             f"kind's {reader.misses}")
    _require(reader, protocol.poll_interval >= 0, "poll_interval >= 0")
    protocol.reset()
    with contextlib.suppress(OSError):  # a silent port on connect: lost, as a reader sees it
        protocol.on_connect(_Port())
    _readings(reader, protocol, _Port(), "a silent port")
    noise = random.Random(seed).randbytes(4096)
    protocol.reset()
    _readings(reader, protocol, _Port(noise), "4 KiB of noise")
    frame = reader.sample("0003887558")
    if frame is not None:
        protocol.reset()
        got = _readings(reader, protocol, _Port(noise[:37] + frame + frame), "a card")
        tags = [item.tag for item in got if isinstance(item, TagRead)]
        _require(reader, "0003887558" in tags, f"a card's own frame read back as {tags}")
    return reader
