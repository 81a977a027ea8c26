"""The reader thread on the real pyserial code path: a pseudo-terminal pair.

The test writes frames to the master end; the reader opens the slave through a symlink
(so the port can vanish and come back under the same name). Synchronisation is only on
events from the queue (``queue.get(timeout=...)``), never on sleeping.
"""

from __future__ import annotations

import os
import queue
import tty
from collections.abc import Iterator
from pathlib import Path

import pytest

from hardware.clock import FakeClock
from hardware.events import CardPresented, CardRemoved, FrameRejected, HardwareEvent, ReaderStatus
from hardware.rfid.rdm6300 import Rdm6300Protocol, encode_frame
from hardware.rfid.reader import CardReader
from tests.slowdown import hang

TIMEOUT = hang()
CARD_A = encode_frame(3887558, version=0x67)
CARD_B = encode_frame(42)


class PtyPort:
    """A pty pair published under a stable path (a symlink to the slave)."""

    def __init__(self, link: Path) -> None:
        self.link = link
        self.master = self.slave = -1

    def appear(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        tmp = self.link.with_suffix(".new")
        os.symlink(os.ttyname(self.slave), tmp)
        os.replace(tmp, self.link)

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def vanish(self) -> None:
        self.link.unlink(missing_ok=True)
        for fd in (self.master, self.slave):
            if fd >= 0:
                os.close(fd)
        self.master = self.slave = -1


@pytest.fixture
def pty_port(tmp_path: Path) -> Iterator[PtyPort]:
    port = PtyPort(tmp_path / "ttyRFID")
    port.appear()
    yield port
    port.vanish()


@pytest.fixture
def q() -> queue.Queue[HardwareEvent]:
    return queue.Queue()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def reader(
    pty_port: PtyPort, q: queue.Queue[HardwareEvent], clock: FakeClock
) -> Iterator[CardReader]:
    r = CardReader(
        "deck",
        q.put,
        Rdm6300Protocol(),
        url=str(pty_port.link),
        read_timeout=0.05,
        removal_after=0.4,
        backoff_initial=0.02,
        backoff_max=0.1,
        clock=clock,
    )
    r.start()
    assert q.get(timeout=TIMEOUT) == ReaderStatus("deck", True, f"connected on {pty_port.link}")
    yield r
    r.stop()


def test_one_presented_per_placement_then_removed(reader, pty_port, q, clock) -> None:
    pty_port.write(CARD_A)
    assert q.get(timeout=TIMEOUT) == CardPresented("0003887558", "deck")
    for _ in range(10):  # the card rests: the reader repeats its frame
        pty_port.write(CARD_A)
    pty_port.write(CARD_B)  # sync point: everything before it has been read
    assert q.get(timeout=TIMEOUT) == CardRemoved("0003887558", "deck")
    assert q.get(timeout=TIMEOUT) == CardPresented("0000000042", "deck")
    clock.advance(0.5)  # no more frames: removal on the next read timeout
    assert q.get(timeout=TIMEOUT) == CardRemoved("0000000042", "deck")
    assert q.empty()


def test_corrupt_and_partial_frames(reader, pty_port, q) -> None:
    pty_port.write(CARD_A[6:])  # tail of a frame: dropped silently
    pty_port.write(CARD_A[:11] + b"00" + CARD_A[13:])  # bad checksum
    pty_port.write(CARD_A[:5])  # head of a frame, then the next one starts
    pty_port.write(CARD_B)
    first = q.get(timeout=TIMEOUT)
    assert isinstance(first, FrameRejected) and "checksum" in first.reason
    second = q.get(timeout=TIMEOUT)
    assert isinstance(second, FrameRejected)
    assert q.get(timeout=TIMEOUT) == CardPresented("0000000042", "deck")
    assert reader.frames_rejected == 2


def test_port_vanishes_and_returns(reader, pty_port, q) -> None:
    pty_port.write(CARD_A)
    assert q.get(timeout=TIMEOUT) == CardPresented("0003887558", "deck")
    pty_port.vanish()
    # the card on a vanished reader is no longer known to be there
    assert q.get(timeout=TIMEOUT) == CardRemoved("0003887558", "deck")
    lost = q.get(timeout=TIMEOUT)
    assert isinstance(lost, ReaderStatus) and not lost.connected
    pty_port.appear()
    back = q.get(timeout=TIMEOUT)
    assert back == ReaderStatus("deck", True, f"connected on {pty_port.link}")
    pty_port.write(CARD_A)
    assert q.get(timeout=TIMEOUT) == CardPresented("0003887558", "deck")
    assert reader.outages == 1  # retries while it was gone were not reported again


def test_missing_port_at_start_reported_once_then_connects(tmp_path, q) -> None:
    port = PtyPort(tmp_path / "ttyLATE")
    r = CardReader(
        "deck",
        q.put,
        Rdm6300Protocol(),
        url=str(port.link),
        read_timeout=0.05,
        backoff_initial=0.01,
        backoff_max=0.05,
    )
    r.start()
    try:
        first = q.get(timeout=TIMEOUT)
        assert isinstance(first, ReaderStatus) and not first.connected
        port.appear()
        assert q.get(timeout=TIMEOUT) == ReaderStatus("deck", True, f"connected on {port.link}")
    finally:
        r.stop()
        port.vanish()


def test_stop_joins_and_closes(pty_port, q) -> None:
    r = CardReader("deck", q.put, Rdm6300Protocol(), url=str(pty_port.link), read_timeout=0.05)
    r.start()
    q.get(timeout=TIMEOUT)
    thread = r._thread
    r.stop()
    assert thread is not None and not thread.is_alive()
    assert r._port is None
    r.stop()  # idempotent


def test_loop_url(q) -> None:
    opened = []

    def opener(url: str, baudrate: int, timeout: float):  # type: ignore[no-untyped-def]
        from hardware.rfid.reader import open_port

        port = open_port(url, baudrate, timeout)
        port.write(CARD_A)  # loop:// reads back what is written
        opened.append(port)
        return port

    r = CardReader(
        "loop", q.put, Rdm6300Protocol(), url="loop://", read_timeout=0.05, opener=opener
    )
    with r:
        assert q.get(timeout=TIMEOUT) == ReaderStatus("loop", True, "connected on loop://")
        assert q.get(timeout=TIMEOUT) == CardPresented("0003887558", "loop")
    assert opened and not opened[0].is_open


def test_bad_url_is_reported_and_retried_not_fatal(q) -> None:
    r = CardReader(
        "deck",
        q.put,
        Rdm6300Protocol(),
        url="nosuchscheme://x",
        backoff_initial=0.01,
        backoff_max=0.02,
    )
    with r:
        status = q.get(timeout=TIMEOUT)
        assert isinstance(status, ReaderStatus) and not status.connected
        assert "nosuchscheme" in status.message
        assert r._thread is not None and r._thread.is_alive()
    assert r.outages == 1


FLOOD = 256 * 1024


def test_a_flood_of_stx_is_one_rejection_and_a_count_then_taps_work(reader, pty_port, q) -> None:
    """A babbling line (STX after STX, each a frame cut short) must not queue an event per
    byte: the first rejection is reported, the rest are counted into one event that comes
    before the next good frame; that frame is read at once."""
    for _ in range(FLOOD // 4096):
        pty_port.write(bytes([0x02]) * 4096)
    pty_port.write(CARD_A)
    first = q.get(timeout=TIMEOUT)
    rest = q.get(timeout=TIMEOUT)
    assert q.get(timeout=TIMEOUT) == CardPresented("0003887558", "deck")
    assert q.empty()
    assert isinstance(first, FrameRejected) and first.count == 1
    assert isinstance(rest, FrameRejected) and "cut short" in rest.reason
    # every STX but the very first cut a frame short (the card's STX included)
    assert first.count + rest.count == FLOOD == reader.frames_rejected


def test_rejections_are_reported_again_once_the_interval_has_passed(reader, pty_port, q,
                                                                     clock) -> None:
    bad = CARD_A[:11] + b"00" + CARD_A[13:]
    pty_port.write(bad)
    assert q.get(timeout=TIMEOUT) == FrameRejected("deck", "checksum 00 != CB")
    pty_port.write(bad * 3)
    pty_port.write(CARD_B)  # sync point
    assert q.get(timeout=TIMEOUT) == FrameRejected("deck", "checksum 00 != CB", count=3)
    assert q.get(timeout=TIMEOUT) == CardPresented("0000000042", "deck")
    clock.advance(reader.rejects_every)  # card B is gone too (no frames for that long)
    pty_port.write(bad * 2)  # the interval has passed: the first is reported at once
    events = {q.get(timeout=TIMEOUT), q.get(timeout=TIMEOUT)}
    assert events == {FrameRejected("deck", "checksum 00 != CB"),
                      CardRemoved("0000000042", "deck")}
    clock.advance(reader.rejects_every)  # a quiet line: the second's count comes by itself
    assert q.get(timeout=TIMEOUT) == FrameRejected("deck", "checksum 00 != CB")
    assert reader.frames_rejected == 6
