"""PN532 (13.56 MHz) over UART/HSU at 115200 baud: frames, handshake and polling.

Normal information frame: ``00 00 FF LEN LCS TFI PD0..PDn DCS 00`` where LEN counts TFI
and data, ``LCS = -LEN``, ``DCS = -(TFI + data)`` (mod 256). Host frames use TFI D4, the
PN532 answers with TFI D5 and command code + 1 after an ACK frame ``00 00 FF 00 FF 00``.
Over HSU the chip sleeps until it sees ``55 55 00 00 ...`` (wake-up preamble).

Session: wake + SAMConfiguration (0x14, normal mode), RFConfiguration MaxRetries (0x32
item 0x05) so that InListPassiveTarget (0x4A) returns NbTg = 0 when no card is in the
field instead of waiting forever, then one InListPassiveTarget per poll. The UID (hex,
upper case) is the event tag. Removal is left to :class:`PresenceTracker` with
``misses_to_remove`` clean misses, because these readers flap with a resting card.
"""

from __future__ import annotations

from typing import Protocol

from hardware.rfid.kinds import Reader
from hardware.rfid.types import Miss, Reading, Rejection, TagRead
from valueclass import Frozen

BAUDRATE = 115200
HOST_TFI = 0xD4
PN532_TFI = 0xD5
ACK = bytes([0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00])
NACK = bytes([0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00])
WAKEUP = bytes([0x55, 0x55]) + bytes(14)

CMD_GET_FIRMWARE_VERSION = 0x02
CMD_SAM_CONFIGURATION = 0x14
CMD_RF_CONFIGURATION = 0x32
CMD_IN_LIST_PASSIVE_TARGET = 0x4A
CMD_IN_RELEASE = 0x52


def build_frame(data: bytes, tfi: int = HOST_TFI) -> bytes:
    """A normal information frame around ``data`` (command code + parameters)."""
    body = bytes([tfi]) + data
    if len(body) > 255:
        raise ValueError("extended frames are not supported")
    length = len(body)
    return (
        bytes([0x00, 0x00, 0xFF, length, (-length) & 0xFF])
        + body
        + bytes([(-sum(body)) & 0xFF, 0x00])
    )


def command(code: int, params: bytes = b"") -> bytes:
    return build_frame(bytes([code]) + params)


def sam_configuration() -> bytes:
    # Normal mode, timeout 0x14 (x 50 ms, virtual card only), use IRQ.
    return command(CMD_SAM_CONFIGURATION, bytes([0x01, 0x14, 0x01]))


def max_retries(passive_activation: int = 0x02) -> bytes:
    # MxRtyATR 0xFF, MxRtyPSL 0x01, MxRtyPassiveActivation: a few tries, not forever.
    return command(CMD_RF_CONFIGURATION, bytes([0x05, 0xFF, 0x01, passive_activation]))


def in_list_passive_target() -> bytes:
    # One target, 106 kbps type A (ISO 14443A / MIFARE / NTAG).
    return command(CMD_IN_LIST_PASSIVE_TARGET, bytes([0x01, 0x00]))


class Ack(Frozen):
    pass


class Nack(Frozen):
    pass


class Response(Frozen):
    """A PN532 -> host frame: ``code`` is the response code (command + 1)."""

    code: int
    payload: bytes


class FrameError(Frozen):
    """A frame that could not be used. ``checksum`` marks a bad LCS or DCS: line noise
    that spoiled one answer (the session is fine), unlike any other broken frame."""

    reason: str
    checksum: bool = False


Pn532Frame = Ack | Nack | Response | FrameError


class Pn532FrameParser:
    """Incremental parser for frames from the PN532 (ACK, NACK, normal frames).

    Bytes before a ``00 FF`` start code are dropped; a bad LCS or DCS gives a
    :class:`FrameError` and the parser resynchronises after the start code."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self.errors = 0

    def reset(self) -> None:
        self._buf.clear()

    def feed(self, data: bytes) -> list[Pn532Frame]:
        self._buf += data
        out: list[Pn532Frame] = []
        while True:
            start = self._buf.find(b"\x00\xff")
            if start < 0:
                # keep a trailing 00 that may begin a start code
                del self._buf[: max(0, len(self._buf) - 1)]
                return out
            del self._buf[:start]
            if len(self._buf) < 4:
                return out
            length, lcs = self._buf[2], self._buf[3]
            if length == 0x00 and lcs == 0xFF:
                out.append(Ack())
                del self._buf[:4]
                continue
            if length == 0xFF and lcs == 0x00:
                out.append(Nack())
                del self._buf[:4]
                continue
            if (length + lcs) & 0xFF:
                self.errors += 1
                out.append(FrameError("bad length checksum", checksum=True))
                del self._buf[:2]
                continue
            total = 2 + 2 + length + 1  # start code, LEN, LCS, body, DCS
            if len(self._buf) < total:
                return out
            body = bytes(self._buf[4 : 4 + length])
            dcs = self._buf[4 + length]
            del self._buf[:total]
            if (sum(body) + dcs) & 0xFF:
                self.errors += 1
                out.append(FrameError("bad data checksum", checksum=True))
                continue
            if len(body) < 2 or body[0] != PN532_TFI:
                if body[:1] == b"\x7f":
                    out.append(FrameError("PN532 application error frame"))
                else:
                    out.append(FrameError(f"unexpected frame identifier {body[:1].hex()}"))
                self.errors += 1
                continue
            out.append(Response(body[1], body[2:]))


def target_uid(payload: bytes) -> str | None:
    """The UID from an InListPassiveTarget (106 kbps type A) response payload, or None
    when no target was found. Payload: NbTg, Tg, SENS_RES(2), SEL_RES, NFCIDLength, UID."""
    if not payload or payload[0] == 0:
        return None
    if len(payload) < 6:
        raise ValueError("short InListPassiveTarget response")
    uid_len = payload[5]
    uid = payload[6 : 6 + uid_len]
    if len(uid) != uid_len or uid_len == 0:
        raise ValueError("truncated UID")
    return uid.hex().upper()


class PortLike(Protocol):
    """The part of ``serial.Serial`` the protocols use."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes, /) -> int | None: ...

    def reset_input_buffer(self) -> None: ...


class Pn532Error(OSError):
    """The PN532 did not answer as expected (treated like a lost port: reconnect)."""


class Pn532ChecksumError(Pn532Error):
    """One answer arrived with a bad checksum: a rejected frame, not a lost session."""


class Pn532Protocol:
    """Active polling over a serial port; used by :class:`~hardware.rfid.reader.CardReader`."""

    baudrate = BAUDRATE
    misses_to_remove = 3
    poll_interval = 0.05

    def __init__(self, empty_reads_per_answer: int = 5) -> None:
        self._parser = Pn532FrameParser()
        self._empty_reads = empty_reads_per_answer

    def reset(self) -> None:
        self._parser.reset()

    def _transact(self, port: PortLike, frame: bytes, code: int) -> Response:
        port.write(frame)
        acked = False
        empty = 0
        while empty < self._empty_reads:
            data = port.read(max(1, port.in_waiting))
            if not data:
                empty += 1
                continue
            for item in self._parser.feed(data):
                if isinstance(item, Ack):
                    acked = True
                elif isinstance(item, Response) and item.code == code + 1:
                    return item
                elif isinstance(item, Nack):
                    raise Pn532Error("PN532 sent NACK")
                elif isinstance(item, FrameError):
                    raise (Pn532ChecksumError if item.checksum else Pn532Error)(item.reason)
        raise Pn532Error(
            f"no {'response' if acked else 'ACK'} to command 0x{code:02X} from the PN532"
        )

    def on_connect(self, port: PortLike) -> None:
        self._parser.reset()
        port.write(WAKEUP)
        port.reset_input_buffer()
        self._transact(port, sam_configuration(), CMD_SAM_CONFIGURATION)
        self._transact(port, max_retries(), CMD_RF_CONFIGURATION)

    def read(self, port: PortLike) -> list[Reading]:
        try:
            response = self._transact(port, in_list_passive_target(), CMD_IN_LIST_PASSIVE_TARGET)
        except Pn532ChecksumError as exc:
            return [Rejection(str(exc))]
        try:
            uid = target_uid(response.payload)
        except ValueError as exc:
            return [Rejection(str(exc))]
        if uid is None:
            return [Miss()]
        return [TagRead(uid, response.payload.hex().upper())]


READER = Reader(name="pn532", title="PN532 (13.56 MHz cards, UART/HSU)", make=Pn532Protocol,
                baud=BAUDRATE, misses=Pn532Protocol.misses_to_remove, case_part="pn532")
"""The PN532 in the reader table (hardware.rfid.kinds): polled, so no sample frame."""

__all__ = [
    "ACK",
    "BAUDRATE",
    "NACK",
    "READER",
    "WAKEUP",
    "Ack",
    "FrameError",
    "Nack",
    "Pn532ChecksumError",
    "Pn532Error",
    "Pn532FrameParser",
    "Pn532Protocol",
    "Response",
    "build_frame",
    "command",
    "in_list_passive_target",
    "max_retries",
    "sam_configuration",
    "target_uid",
]
