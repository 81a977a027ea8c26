"""RDM6300 (125 kHz EM4100, UART 9600 8N1): a pure incremental frame decoder.

A frame is 14 bytes: STX 0x02, 10 ASCII hex digits (version byte + 4-byte tag number),
2 ASCII hex digits of checksum (XOR of the 5 data bytes), ETX 0x03. The reader repeats
the frame while a card rests on it. The decoder resynchronises on STX/ETX, silently drops
bytes outside a frame (a partial frame at start-up is normal) and reports malformed
frames as :class:`Rejection` with counters for checksum and framing errors.

Card ids: the number printed on EM4100 cards is bytes 1-4 as a 10-digit decimal
(data ``67003B51C6`` -> ``"0003887558"``); that is the event tag. The full hex
(version included) is kept in :attr:`TagRead.raw`.
"""

from __future__ import annotations

from typing import Protocol

from hardware.rfid.kinds import Reader
from hardware.rfid.types import Reading, Rejection, TagRead
from valueclass import Frozen

STX = 0x02
ETX = 0x03
BAUDRATE = 9600
_PAYLOAD = 12  # 10 data + 2 checksum hex digits
_HEX = frozenset(b"0123456789ABCDEFabcdef")


class Em4100Id(Frozen):
    version: int
    number: int

    @property
    def card_id(self) -> str:
        """The 10-digit decimal printed on the card."""
        return f"{self.number:010d}"

    @property
    def hex(self) -> str:
        return f"{self.version:02X}{self.number:08X}"


def checksum(data: bytes) -> int:
    value = 0
    for byte in data:
        value ^= byte
    return value


def encode_frame(number: int, version: int = 0) -> bytes:
    """The 14-byte frame a reader sends for a card (tests and the emulator)."""
    data = bytes([version]) + number.to_bytes(4, "big")
    return bytes([STX]) + (data.hex().upper() + f"{checksum(data):02X}").encode() + bytes([ETX])


def parse_card_id(text: str) -> Em4100Id:
    """Parse a printed id ("0003887558") or a 10-digit hex id ("67003B51C6")."""
    text = text.strip()
    if len(text) == 10 and text.isdigit():
        return Em4100Id(0, int(text))
    if len(text) == 10:
        data = bytes.fromhex(text)
        return Em4100Id(data[0], int.from_bytes(data[1:], "big"))
    raise ValueError(f"not a card id: {text!r}")


class Rdm6300Decoder:
    """Feed raw bytes as they arrive; get back good tags and rejections in order."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self._in_frame = False
        self.frames_ok = 0
        self.checksum_errors = 0
        self.framing_errors = 0
        self.garbage_bytes = 0

    def reset(self) -> None:
        self._buf.clear()
        self._in_frame = False

    def feed(self, data: bytes) -> list[TagRead | Rejection]:
        out: list[TagRead | Rejection] = []
        for byte in data:
            if not self._in_frame:
                if byte == STX:
                    self._in_frame = True
                    self._buf.clear()
                else:
                    self.garbage_bytes += 1
                continue
            if byte == STX:
                # A new frame began before this one ended: drop the broken one.
                out.append(self._framing(f"frame cut short after {len(self._buf)} bytes"))
                self._buf.clear()
            elif byte == ETX:
                self._in_frame = False
                if len(self._buf) != _PAYLOAD:
                    out.append(self._framing(f"frame of {len(self._buf)} bytes, expected 12"))
                else:
                    out.append(self._decode(bytes(self._buf)))
                self._buf.clear()
            else:
                self._buf.append(byte)
                if len(self._buf) > _PAYLOAD:
                    self._in_frame = False
                    self._buf.clear()
                    out.append(self._framing("frame too long (no ETX)"))
        return out

    def _framing(self, reason: str) -> Rejection:
        self.framing_errors += 1
        return Rejection(reason)

    def _decode(self, payload: bytes) -> TagRead | Rejection:
        if not all(b in _HEX for b in payload):
            return self._framing("non-hex digit in frame")
        data = bytes.fromhex(payload[:10].decode())
        expected = int(payload[10:].decode(), 16)
        actual = checksum(data)
        if actual != expected:
            self.checksum_errors += 1
            return Rejection(f"checksum {expected:02X} != {actual:02X}")
        self.frames_ok += 1
        card = Em4100Id(data[0], int.from_bytes(data[1:], "big"))
        return TagRead(card.card_id, card.hex)


class _Port(Protocol):
    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...


class Rdm6300Protocol:
    """Passive reader: each :meth:`read` blocks up to the port timeout for bytes and
    decodes them; used by :class:`~hardware.rfid.reader.CardReader`."""

    baudrate = BAUDRATE
    misses_to_remove = 0
    poll_interval = 0.0

    def __init__(self) -> None:
        self.decoder = Rdm6300Decoder()

    def reset(self) -> None:
        self.decoder.reset()

    def on_connect(self, port: object) -> None:
        self.decoder.reset()  # expect a partial frame first

    def read(self, port: _Port) -> list[Reading]:
        data = port.read(max(1, port.in_waiting))
        return list(self.decoder.feed(data)) if data else []


READER = Reader(name="rdm6300", title="RDM6300 (125 kHz EM4100 cards, UART)",
                make=Rdm6300Protocol, baud=BAUDRATE, misses=Rdm6300Protocol.misses_to_remove,
                case_part="rdm6300", frame=lambda tag: encode_frame(int(tag)))
"""The RDM6300 in the reader table (hardware.rfid.kinds)."""

__all__ = [
    "BAUDRATE",
    "ETX",
    "READER",
    "STX",
    "Em4100Id",
    "Rdm6300Decoder",
    "Rdm6300Protocol",
    "checksum",
    "encode_frame",
    "parse_card_id",
]
