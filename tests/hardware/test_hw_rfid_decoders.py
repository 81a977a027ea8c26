"""RDM6300 and PN532 decoders, presence tracking, the mock reader: no threads."""

from __future__ import annotations

import time

from hypothesis import given
from hypothesis import strategies as st

from hardware.clock import FakeClock
from hardware.events import CardPresented, CardRemoved, FrameRejected, HardwareEvent, ReaderStatus
from hardware.rfid import pn532
from hardware.rfid.mock import MockCardReader
from hardware.rfid.presence import PresenceTracker
from hardware.rfid.rdm6300 import (
    Rdm6300Decoder,
    Rdm6300Protocol,
    checksum,
    encode_frame,
    parse_card_id,
)
from hardware.rfid.types import Miss, Rejection, TagRead
from tests.slowdown import hang

VECTOR = b"\x0267003B51C6CB\x03"


def test_reference_vector() -> None:
    assert checksum(bytes.fromhex("67003B51C6")) == 0xCB
    assert encode_frame(3887558, version=0x67) == VECTOR
    assert Rdm6300Decoder().feed(VECTOR) == [TagRead("0003887558", "67003B51C6")]


def test_card_id_forms() -> None:
    assert parse_card_id("0003887558").number == 3887558
    card = parse_card_id("67003B51C6")
    assert (card.version, card.card_id, card.hex) == (0x67, "0003887558", "67003B51C6")


def test_partial_frame_at_startup_and_garbage_dropped_silently() -> None:
    d = Rdm6300Decoder()
    out = d.feed(VECTOR[6:] + b"\xff\x00junk" + VECTOR)
    assert out == [TagRead("0003887558", "67003B51C6")]
    assert d.garbage_bytes > 0 and d.framing_errors == 0


def test_byte_by_byte_and_split_frames() -> None:
    d = Rdm6300Decoder()
    out = []
    for byte in VECTOR * 3:
        out += d.feed(bytes([byte]))
    assert out == [TagRead("0003887558", "67003B51C6")] * 3
    assert d.frames_ok == 3


def test_bad_checksum_rejected_and_counted() -> None:
    d = Rdm6300Decoder()
    bad = VECTOR[:11] + b"CC" + VECTOR[13:]
    out = d.feed(bad + VECTOR)
    assert isinstance(out[0], Rejection) and "checksum" in out[0].reason
    assert out[1] == TagRead("0003887558", "67003B51C6")
    assert d.checksum_errors == 1


def test_framing_errors_resync() -> None:
    d = Rdm6300Decoder()
    truncated = VECTOR[:8]  # STX and 7 digits, then a new frame starts
    short = b"\x0267003B\x03"
    non_hex = b"\x02670G3B51C6CB\x03"
    too_long = b"\x02" + b"1" * 20
    out = d.feed(truncated + VECTOR + short + non_hex + too_long + VECTOR)
    kinds = [type(x).__name__ for x in out]
    assert kinds == ["Rejection", "TagRead", "Rejection", "Rejection", "Rejection", "TagRead"]
    assert d.framing_errors == 4


@given(st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=5), st.binary(max_size=30))
def test_any_tags_decode_after_any_leading_noise(numbers: list[int], noise: bytes) -> None:
    noise = noise.replace(b"\x02", b"")
    d = Rdm6300Decoder()
    stream = noise + b"".join(encode_frame(n) for n in numbers)
    tags = [x.tag for x in d.feed(stream) if isinstance(x, TagRead)]
    assert tags == [f"{n:010d}" for n in numbers]


class FakePort:
    def __init__(self, data: bytes = b"") -> None:
        self.buf = bytearray(data)
        self.written = bytearray()

    @property
    def in_waiting(self) -> int:
        return len(self.buf)

    def read(self, size: int = 1) -> bytes:
        out = bytes(self.buf[:size])
        del self.buf[:size]
        return out

    def write(self, data: bytes) -> int:
        self.written += data
        return len(data)

    def reset_input_buffer(self) -> None:
        self.buf.clear()


def test_rdm6300_protocol_reads_what_is_waiting() -> None:
    proto = Rdm6300Protocol()
    port = FakePort(VECTOR + VECTOR[:4])
    assert proto.read(port) == [TagRead("0003887558", "67003B51C6")]
    assert proto.read(port) == []  # timeout: nothing waiting


# -- presence -------------------------------------------------------------------------


def make_tracker(**kw: object) -> tuple[PresenceTracker, FakeClock, list[HardwareEvent]]:
    clock = FakeClock()
    events: list[HardwareEvent] = []
    return PresenceTracker("r1", events.append, clock=clock, **kw), clock, events  # type: ignore[arg-type]


def test_resting_card_fires_once_timeout_from_last_read() -> None:
    t, clock, events = make_tracker(removal_after=0.4)
    for _ in range(20):  # a frame every 100 ms for 2 s: longer than the timeout
        t.seen("A")
        t.tick()
        clock.advance(0.1)
    assert events == [CardPresented("A", "r1")]
    clock.advance(0.25)  # 0.35 s since the last read
    t.tick()
    assert events == [CardPresented("A", "r1")]
    clock.advance(0.06)
    t.tick()
    assert events == [CardPresented("A", "r1"), CardRemoved("A", "r1")]
    t.tick()
    t.seen("A")  # placed again: a new placement
    assert events[-1] == CardPresented("A", "r1") and len(events) == 3


def test_card_swapped_without_gap() -> None:
    t, _, events = make_tracker()
    t.seen("A")
    t.seen("B")
    assert events == [CardPresented("A", "r1"), CardRemoved("A", "r1"), CardPresented("B", "r1")]


def test_flapping_reader_needs_several_clean_misses() -> None:
    t, clock, events = make_tracker(removal_after=0.0, misses_to_remove=3)
    t.seen("04AABBCC")
    for _ in range(5):  # flaps: miss, miss, seen ...
        t.miss()
        t.miss()
        clock.advance(0.1)
        t.seen("04AABBCC")
    assert events == [CardPresented("04AABBCC", "r1")]
    t.miss()
    t.miss()
    assert len(events) == 1
    t.miss()
    assert events[-1] == CardRemoved("04AABBCC", "r1")


def test_clear_reports_removal_once() -> None:
    t, _, events = make_tracker()
    t.clear()
    t.seen("A")
    t.clear()
    t.clear()
    assert events == [CardPresented("A", "r1"), CardRemoved("A", "r1")]


# -- PN532 ----------------------------------------------------------------------------


def test_pn532_frame_layout() -> None:
    frame = pn532.sam_configuration()
    assert frame == bytes.fromhex("0000FF05FBD4140114010200")
    assert pn532.in_list_passive_target() == bytes.fromhex("0000FF04FCD44A0100E100")
    assert pn532.WAKEUP[:2] == b"\x55\x55" and set(pn532.WAKEUP[2:]) == {0}


def response(code: int, payload: bytes) -> bytes:
    return pn532.build_frame(bytes([code]) + payload, tfi=pn532.PN532_TFI)


UID_PAYLOAD = bytes.fromhex("01010044000704A1B2C3D4E580")


def test_pn532_parser_ack_response_and_uid() -> None:
    p = pn532.Pn532FrameParser()
    stream = b"\x55\x00" + pn532.ACK + response(0x4B, UID_PAYLOAD)
    out = []
    for i in range(0, len(stream), 3):  # arrives in pieces
        out += p.feed(stream[i : i + 3])
    assert out == [pn532.Ack(), pn532.Response(0x4B, UID_PAYLOAD)]
    assert pn532.target_uid(UID_PAYLOAD) == "04A1B2C3D4E580"
    assert pn532.target_uid(b"\x00") is None


def test_pn532_parser_rejects_bad_checksums_and_resyncs() -> None:
    p = pn532.Pn532FrameParser()
    good = response(0x4B, UID_PAYLOAD)
    bad_dcs = good[:-2] + bytes([good[-2] ^ 0xFF]) + b"\x00"
    bad_lcs = bytes.fromhex("0000FF0505")
    out = p.feed(bad_dcs + bad_lcs + good + pn532.NACK)
    assert [type(x).__name__ for x in out] == ["FrameError", "FrameError", "Response", "Nack"]
    assert p.errors == 2


class FakePn532(FakePort):
    """Answers host frames like a PN532 in HSU mode."""

    def __init__(self) -> None:
        super().__init__()
        self.uid: bytes | None = None
        self.parser = pn532.Pn532FrameParser()
        self.commands: list[int] = []

    def write(self, data: bytes) -> int:
        super().write(data)
        body = data.lstrip(b"\x55\x00") if data.startswith(b"\x55") else data
        if not body:
            return len(data)
        assert body[5] == pn532.HOST_TFI
        code = body[6]
        self.commands.append(code)
        self.buf += pn532.ACK
        if code == pn532.CMD_IN_LIST_PASSIVE_TARGET:
            if self.uid is None:
                payload = b"\x00"
            else:
                payload = bytes([1, 1, 0, 0x44, 0, len(self.uid)]) + self.uid
            self.buf += response(code + 1, payload)
        else:
            self.buf += response(code + 1, b"")
        return len(data)


def test_pn532_session_handshake_and_polls() -> None:
    port = FakePn532()
    proto = pn532.Pn532Protocol()
    proto.on_connect(port)
    assert port.written.startswith(pn532.WAKEUP)
    assert port.commands == [pn532.CMD_SAM_CONFIGURATION, pn532.CMD_RF_CONFIGURATION]
    assert proto.read(port) == [Miss()]
    port.uid = bytes.fromhex("04A1B2C3")
    got = proto.read(port)
    assert len(got) == 1 and isinstance(got[0], TagRead) and got[0].tag == "04A1B2C3"


def test_pn532_silent_chip_raises_oserror_for_reconnect() -> None:
    proto = pn532.Pn532Protocol(empty_reads_per_answer=2)
    try:
        proto.on_connect(FakePort())
    except OSError as exc:
        assert "ACK" in str(exc)
    else:
        raise AssertionError("expected an error")


def test_pn532_through_the_reader_thread() -> None:
    import queue

    from hardware.rfid.reader import CardReader

    class Port(FakePn532):
        is_open = True

        def close(self) -> None:
            self.is_open = False

    port = Port()
    clock = FakeClock()
    q: queue.Queue[HardwareEvent] = queue.Queue()
    reader = CardReader(
        "nfc",
        q.put,
        pn532.Pn532Protocol(),
        url="fake://",
        clock=clock,
        removal_after=0.4,
        opener=lambda url, baud, timeout: port,
    )
    with reader:
        assert q.get(timeout=hang()) == ReaderStatus("nfc", True, "connected on fake://")
        port.uid = bytes.fromhex("04A1B2C3D4E580")
        assert q.get(timeout=hang()) == CardPresented("04A1B2C3D4E580", "nfc")
        port.uid = None  # lifted: misses pile up, removal once the timeout has passed too
        # a poll already in flight may still see the card: retry, however long the reader
        # thread takes to be scheduled; only a hang ends the retries
        deadline = time.monotonic() + hang()
        while True:
            clock.advance(0.5)
            try:
                removed = q.get(timeout=0.5)  # not a hang deadline: a poll between advances
                break
            except queue.Empty:
                assert time.monotonic() < deadline, "the lifted card was never removed"
        assert removed == CardRemoved("04A1B2C3D4E580", "nfc")
    assert not port.is_open
    assert port.commands[:2] == [pn532.CMD_SAM_CONFIGURATION, pn532.CMD_RF_CONFIGURATION]


# -- mock reader ------------------------------------------------------------------------


def test_mock_reader_same_rules() -> None:
    events: list[HardwareEvent] = []
    r = MockCardReader("deck", events.append).start()
    r.present("0003887558")
    r.present("0003887558")  # resting: no second event
    r.tap("0000000042")
    r.corrupt()
    r.disconnect()
    assert events == [
        ReaderStatus("deck", True, "mock reader ready"),
        CardPresented("0003887558", "deck"),
        CardRemoved("0003887558", "deck"),
        CardPresented("0000000042", "deck"),
        CardRemoved("0000000042", "deck"),
        FrameRejected("deck", "checksum mismatch"),
        ReaderStatus("deck", False, "mock reader unplugged"),
    ]


class CorruptingPn532(FakePn532):
    """A PN532 whose answers to polls arrive with a broken data checksum (line noise)."""

    def write(self, data: bytes) -> int:
        before = len(self.buf)
        written = super().write(data)
        if self.commands and self.commands[-1] == pn532.CMD_IN_LIST_PASSIVE_TARGET:
            answer = self.buf[before + len(pn532.ACK):]
            damaged = answer[:-2] + bytes([answer[-2] ^ 0xFF]) + answer[-1:]
            self.buf = self.buf[: before + len(pn532.ACK)] + damaged
        return written


def test_pn532_checksum_errors_are_a_typed_rejection_not_a_reconnect() -> None:
    port = CorruptingPn532()
    proto = pn532.Pn532Protocol()
    proto.on_connect(port)
    port.uid = bytes.fromhex("04A1B2C3")
    got = proto.read(port)
    assert len(got) == 1 and isinstance(got[0], Rejection), got
    assert issubclass(pn532.Pn532ChecksumError, pn532.Pn532Error)


def test_pn532_other_errors_still_reconnect_even_if_they_mention_checksums() -> None:
    """Only the typed checksum error is a rejected frame; a NACK is a lost session."""

    class Nacking(FakePn532):
        def write(self, data: bytes) -> int:
            written = super().write(data)
            if self.commands and self.commands[-1] == pn532.CMD_IN_LIST_PASSIVE_TARGET:
                self.buf = bytearray(pn532.NACK)
            return written

    port = Nacking()
    proto = pn532.Pn532Protocol()
    proto.on_connect(port)
    try:
        proto.read(port)
    except pn532.Pn532ChecksumError:
        raise AssertionError("a NACK is not a checksum error") from None
    except pn532.Pn532Error:
        pass
    else:
        raise AssertionError("expected the session to be reported lost")
