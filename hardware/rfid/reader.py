"""A card-reader thread over a pyserial port.

The thread opens the port with ``serial.serial_for_url`` (so ``loop://``, pty paths and
real UARTs all work; real device paths are opened with ``exclusive=True``), hands every
read to a protocol (:class:`~hardware.rfid.rdm6300.Rdm6300Protocol` or
:class:`~hardware.rfid.pn532.Pn532Protocol`) and turns the results into events:

* one :class:`CardPresented` per placement and :class:`CardRemoved` after
  ``removal_after`` seconds without frames (:class:`PresenceTracker`, injected clock).
  Each read blocks for at most ``read_timeout`` (the serial timeout), so removal is
  noticed within ``removal_after + read_timeout`` with no busy polling;
* :class:`FrameRejected` for corrupt frames: the first at once, then at most one every
  ``rejects_every`` seconds counting the ones between, and one before the next good frame,
  so a line babbling noise (10 MB of STX bytes is 10 million cut-short frames) queues a
  handful of events, not one a byte, and a tap right after it is read at once;
* :class:`ReaderStatus` on connect, on loss (``SerialException``/``OSError``) and on
  reconnect. Reopening uses exponential backoff (``backoff_initial`` doubling up to
  ``backoff_max``); a card present when the port vanished is reported removed.

:meth:`CardReader.stop` stops and joins the thread and closes the port.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from hardware.clock import Clock
from hardware.events import Emit, FrameRejected, ReaderStatus
from hardware.rfid.presence import PresenceTracker
from hardware.rfid.types import Miss, Reading, Rejection, SerialPort, TagRead

DEFAULT_PORT = "/dev/serial0"


class CardProtocol(Protocol):
    baudrate: int
    misses_to_remove: int
    poll_interval: float
    """Pause between reads for actively polled readers (0 for streaming ones)."""

    def reset(self) -> None: ...

    def on_connect(self, port: SerialPort) -> None: ...

    def read(self, port: SerialPort) -> list[Reading]: ...


Opener = Callable[[str, int, float], SerialPort]
"""(url, baud rate, read timeout) -> an open port."""


def open_port(url: str, baudrate: int, timeout: float) -> SerialPort:
    """Open ``url`` with pyserial (imported here, lazily). Device paths get
    ``exclusive=True`` so a second process (or a serial console) cannot share it."""
    import serial

    kwargs: dict[str, Any] = {"baudrate": baudrate, "timeout": timeout}
    if "://" not in url:
        kwargs["exclusive"] = True
    port: SerialPort = serial.serial_for_url(url, **kwargs)
    return port


def _port_errors() -> tuple[type[BaseException], ...]:
    import serial

    return (serial.SerialException, OSError)


class CardReader:
    """One reader on one serial port, read by a background thread."""

    def __init__(
        self,
        name: str,
        emit: Emit,
        protocol: CardProtocol,
        *,
        url: str = DEFAULT_PORT,
        baudrate: int | None = None,
        read_timeout: float = 0.1,
        removal_after: float = 0.4,
        misses_to_remove: int | None = None,
        backoff_initial: float = 0.5,
        backoff_max: float = 10.0,
        clock: Clock = time.monotonic,
        opener: Opener = open_port,
        rejects_every: float = 1.0,
    ) -> None:
        self.name = name
        self.url = url
        self._emit = emit
        self._protocol = protocol
        self._baudrate = baudrate if baudrate is not None else protocol.baudrate
        self._read_timeout = read_timeout
        self._backoff_initial = backoff_initial
        self._backoff_max = backoff_max
        self._opener = opener
        self.presence = PresenceTracker(
            name,
            emit,
            clock=clock,
            removal_after=removal_after,
            misses_to_remove=(
                protocol.misses_to_remove if misses_to_remove is None else misses_to_remove
            ),
        )
        self._port: SerialPort | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.connected: bool | None = None  # None until the first attempt
        self.outages = 0
        self.frames_rejected = 0
        self.rejects_every = rejects_every
        self._clock = clock
        self._unreported = 0
        self._last_reason = ""
        self._reported_at: float | None = None

    # -- lifecycle ----------------------------------------------------------------------
    def start(self) -> CardReader:
        if self._thread is not None:
            raise RuntimeError("reader already started")
        self._stop.clear()
        self._thread = threading.Thread(
            target=self._run, name=f"card-reader-{self.name}", daemon=True
        )
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the thread, wait for it, close the port. Idempotent."""
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout)
        self._close_port()

    def __enter__(self) -> CardReader:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- thread ---------------------------------------------------------------------------
    def _close_port(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            with contextlib.suppress(Exception):
                port.close()

    def _connect(self) -> SerialPort | None:
        """The port, opened and answering, or None (the outage reported)."""
        # Anything going wrong here (missing device, permissions, a bad URL, a silent
        # chip) is reported and retried: the game goes on with the mock-free rest.
        try:
            port = self._opener(self.url, self._baudrate, self._read_timeout)
        except Exception as exc:
            self._lost(f"cannot open {self.url}: {exc}")
            return None
        self._port = port
        self._protocol.reset()
        try:
            self._protocol.on_connect(port)
        except Exception as exc:
            self._close_port()
            self._lost(f"{self.url} did not answer: {exc}")
            return None
        if self.connected is not True:
            self.connected = True
            self._emit(ReaderStatus(self.name, True, f"connected on {self.url}"))
        return port

    def _lost(self, message: str) -> None:
        """Report an outage once (retries while still down stay quiet)."""
        self._report_rejects()
        self.presence.clear()
        if self.connected is not False:
            self.outages += 1
            self._emit(ReaderStatus(self.name, False, message))
        self.connected = False

    def _due(self) -> bool:
        return (self._reported_at is None
                or self._clock() - self._reported_at >= self.rejects_every)

    def _rejected(self, reason: str) -> None:
        """Count a rejected frame; report it now only if none was for `rejects_every`."""
        self.frames_rejected += 1
        self._unreported += 1
        self._last_reason = reason
        if self._due():
            self._report_rejects()

    def _report_rejects(self) -> None:
        """One event for the rejections not yet reported (none if there are none)."""
        if self._unreported:
            count, self._unreported = self._unreported, 0
            self._reported_at = self._clock()
            self._emit(FrameRejected(self.name, self._last_reason, count))

    def _run(self) -> None:
        errors = _port_errors()
        delay = self._backoff_initial
        while not self._stop.is_set():
            port = self._port if self._port is not None else self._connect()
            if port is None:
                self._stop.wait(delay)
                delay = min(delay * 2, self._backoff_max)
                continue
            try:
                readings = self._protocol.read(port)
            except Exception as exc:
                if self._stop.is_set():
                    break
                self._close_port()
                kind = "lost" if isinstance(exc, errors) else "reader error on"
                self._lost(f"{kind} {self.url}: {exc}")
                # The backoff only resets after a good read, so a port that opens but
                # fails every read is retried less and less often.
                self._stop.wait(delay)
                delay = min(delay * 2, self._backoff_max)
                continue
            delay = self._backoff_initial
            for item in readings:
                if isinstance(item, TagRead):
                    self._report_rejects()  # in order: the noise, then the card
                    self.presence.seen(item.tag)
                elif isinstance(item, Rejection):
                    self._rejected(item.reason)
                elif isinstance(item, Miss):
                    self.presence.miss()
            if self._unreported and self._due():
                self._report_rejects()
            self.presence.tick()
            if self._protocol.poll_interval > 0:
                self._stop.wait(self._protocol.poll_interval)


__all__ = ["DEFAULT_PORT", "CardProtocol", "CardReader", "open_port"]
