"""The rig's loudspeaker: plays transmissions on a worker thread, like a radio channel
with priorities (RULINGS G6).

The event loop only hands over a :class:`Transmission` (:meth:`Speaker.say`) and goes
on: synthesis (the transmission's clips are made lazily, on the worker) and playback
never hold up a frame or an input. What the table must hear (``must_hear``: a card read
aloud, a move, a police move, an alert, the winner) is never cut by what follows: a
newer transmission waits for it to end. A routine one (a prompt, a refusal) yields: a
newer transmission, or :meth:`Speaker.stop` (the table acted: a screen with nothing to
say), cuts it while it plays and drops it while it waits, and one that has waited
longer than `ROUTINE_LAG` behind must-hear speech is dropped (its screen has shown it
that long), so the voice never runs far behind the screen. :meth:`Speaker.silence`
cuts everything (the voice switched off, the rig closing).

Backends: :class:`AplayBackend` pipes raw PCM into ``aplay`` (alsa-utils) on the ALSA
device configured; :class:`MockBackend` records what was played (tests, emulators) and
can pace itself like a real device. A fault (no device, a device that vanished, a clip
that cannot be made) is reported once through ``on_fault`` and the transmission is
dropped: the game goes on silently, and the next transmission tries again (a device
plugged back in is used again, reported through ``on_recovered``).
"""

from __future__ import annotations

import contextlib
import logging
import subprocess
import threading
import time
from array import array
from collections import deque
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from valueclass import Frozen, Record, field

log = logging.getLogger(__name__)

ROUTINE_LAG = 3.0
"""Seconds a routine transmission may wait behind must-hear speech before it is dropped
as stale (the screen has shown its words all that time)."""
CHUNK_MS = 250
"""Samples go to the device a quarter second at a time: the first sound waits only for
the first chunk's volume scaling, and a cut is seen between chunks."""


class Clip(Frozen):
    """Mono signed 16-bit little-endian PCM at ``rate`` samples a second."""

    rate: int
    pcm: bytes

    @property
    def seconds(self) -> float:
        return len(self.pcm) / 2 / self.rate


class ClipError(Exception):
    """A clip could not be made (no synthesizer, a failed effect): the transmission is
    dropped and the message reported."""


class Transmission(Frozen):
    """What to play, clip by clip; each clip is made when its turn comes (on the worker
    thread), so the first can sound while the later ones are still being made."""

    key: str
    """What it says (for logs and the mock's record)."""
    clips: Sequence[Callable[[], Clip]]
    volume: float = 1.0
    """0..1, applied to the samples (an I2S amplifier has no mixer of its own)."""
    must_hear: bool = False
    """Said to the end, never cut by what follows (see the module doc)."""


class Stream(Protocol):
    def write(self, pcm: bytes) -> None: ...

    def finish(self) -> None:
        """Let what was written play out, then close (raises OSError on a fault)."""

    def abort(self) -> None:
        """Stop at once (from another thread)."""


class Backend(Protocol):
    def open(self, rate: int, label: str) -> Stream:
        """A stream for one transmission (``label``: what it says, for records)."""


@runtime_checkable
class RelayStream(Protocol):
    """A stream whose sound plays later and elsewhere (the browser's page): told whether
    the transmission must be heard whole, so that the far end keeps the same priorities."""

    def mark(self, must_hear: bool) -> None: ...


@runtime_checkable
class RelayBackend(Protocol):
    """A backend whose far end queues what it plays: told when routine speech went
    stale (`Speaker.stop`), or everything did (`Speaker.silence`)."""

    def stale(self, everything: bool) -> None: ...


class DeviceError(OSError):
    """The sound device refused or vanished."""


class _AplayStream:
    def __init__(self, command: list[str]) -> None:
        try:
            self.process = subprocess.Popen(command, stdin=subprocess.PIPE,
                                            stdout=subprocess.DEVNULL,
                                            stderr=subprocess.PIPE)
        except OSError as exc:
            raise DeviceError(f"cannot start {command[0]}: {exc.strerror or exc}") from exc
        self.aborted = False

    def write(self, pcm: bytes) -> None:
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(pcm)
        except (BrokenPipeError, ValueError) as exc:
            self._failed(exc)

    def finish(self) -> None:
        assert self.process.stdin is not None
        try:
            self.process.stdin.close()
        except BrokenPipeError as exc:
            self._failed(exc)
        self.process.wait()
        self._failed(None)

    def _failed(self, exc: Exception | None) -> None:
        """Raise DeviceError with aplay's own words when it ended badly (not cut)."""
        code = self.process.wait() if exc is not None else self.process.returncode
        if self.aborted or code == 0:
            return
        assert self.process.stderr is not None
        words = self.process.stderr.read().decode(errors="replace").strip().splitlines()
        raise DeviceError(words[-1] if words else f"aplay exited with {code}")

    def abort(self) -> None:
        self.aborted = True
        with contextlib.suppress(OSError):
            self.process.kill()


class AplayBackend:
    """Plays through ``aplay`` on an ALSA device ("default", "plughw:1,0", ...)."""

    def __init__(self, device: str = "default", command: str = "aplay") -> None:
        self.device = device
        self.command = command

    def open(self, rate: int, label: str) -> Stream:
        return _AplayStream([self.command, "-q", "-D", self.device, "-t", "raw",
                             "-f", "S16_LE", "-c", "1", "-r", str(rate)])


class Played(Record):
    """One transmission as the mock device heard it."""

    key: str
    rate: int
    pcm: bytearray = field(default_factory=bytearray)
    cut: bool = False
    finished: bool = False

    @property
    def seconds(self) -> float:
        return len(self.pcm) / 2 / self.rate if self.rate else 0.0


class _MockStream:
    def __init__(self, backend: MockBackend, played: Played) -> None:
        self.backend = backend
        self.played = played
        self.stopped = threading.Event()

    def write(self, pcm: bytes) -> None:
        backend = self.backend
        if backend.fail is not None:
            raise DeviceError(backend.fail)
        step = max(2, int(self.played.rate * 2 * backend.chunk_seconds) // 2 * 2)
        for start in range(0, len(pcm), step):
            if self.stopped.is_set():
                return
            self.played.pcm.extend(pcm[start:start + step])
            backend.sounding.set()
            if backend.realtime:
                # a device plays in real time: a cut lands mid-clip, as on the rig
                self.stopped.wait(len(pcm[start:start + step]) / 2 / self.played.rate)

    def finish(self) -> None:
        self.played.finished = not self.stopped.is_set()

    def abort(self) -> None:
        self.played.cut = True
        self.stopped.set()


class MockBackend:
    """Records every transmission's samples (`played`); ``realtime`` paces the writes
    like a device; ``fail`` makes the device refuse (a fault) with that message."""

    def __init__(self, realtime: bool = False, chunk_seconds: float = 0.02) -> None:
        self.realtime = realtime
        self.chunk_seconds = chunk_seconds
        self.played: list[Played] = []
        self.fail: str | None = None
        self.sounding = threading.Event()
        """Set when the first samples of a transmission reach the device."""

    def open(self, rate: int, label: str) -> Stream:
        if self.fail is not None:
            raise DeviceError(self.fail)
        self.played.append(Played(key=label, rate=rate))
        return _MockStream(self, self.played[-1])


def _c_scaler() -> Callable[[bytes, int, float], bytes] | None:
    """``audioop.mul`` where Python still has it (3.11, 3.12): C, so the worker does not
    hold the interpreter for a per-sample loop while the event loop waits."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            import audioop
        except ImportError:
            return None
    return audioop.mul


_mul = _c_scaler()


def scaled(pcm: bytes, volume: float) -> bytes:
    """The samples at ``volume`` (0..1): full volume is the clip as it is."""
    if volume >= 0.999:
        return pcm
    if _mul is not None:
        return _mul(pcm, 2, max(0.0, volume))
    samples = array("h")
    samples.frombytes(pcm)
    factor = max(0.0, volume)
    return array("h", [int(s * factor) for s in samples]).tobytes()


class Speaker:
    """The worker that plays transmissions by their priority (see the module doc)."""

    def __init__(self, backend: Backend, on_fault: Callable[[str], None] | None = None,
                 on_recovered: Callable[[], None] | None = None,
                 on_sound: Callable[[Transmission, float], None] | None = None,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.backend = backend
        self.on_fault = on_fault
        self.on_recovered = on_recovered
        self.on_sound = on_sound
        """Called with each transmission and the clock when its first samples went to
        the device (the bench measures frame-to-first-sound with it)."""
        self.clock = clock
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._stream: Stream | None = None
        self._playing: Transmission | None = None
        self._cut = False
        """Set when the transmission playing was cut: the worker stops writing it."""
        self._waiting: deque[tuple[Transmission, float]] = deque()
        """Must-hear transmissions in order, then at most one routine one (the newest),
        each with the clock when it was handed over."""
        self._closed = False
        self._faulty = False
        self.dropped = 0
        """Routine transmissions dropped unstarted (stale), for tests and the bench."""
        self.idle = threading.Event()
        """Set while nothing is playing or waiting (tests wait on it, never sleep)."""
        self.idle.set()
        self._thread = threading.Thread(target=self._serve, name="speaker", daemon=True)
        self._thread.start()

    # -- the loop's side: never blocks on audio ---------------------------------------
    def say(self, transmission: Transmission) -> None:
        """Play ``transmission`` after any must-hear speech playing or waiting; routine
        speech playing or waiting is stale now and yields to it."""
        with self._lock:
            if self._closed:
                return
            self._drop_routine_locked()
            self._waiting.append((transmission, self.clock()))
            self.idle.clear()
            self._wake.notify()

    def stop(self) -> None:
        """The table acted (a new moment with nothing to say): routine speech playing is
        cut and routine speech waiting dropped; must-hear speech goes on."""
        with self._lock:
            self._drop_routine_locked()
        self._stale(everything=False)

    def silence(self) -> None:
        """Cut what plays and drop what waits, whatever it is (the voice switched off)."""
        with self._lock:
            self.dropped += len(self._waiting)
            self._waiting.clear()
            self._cut_locked()
        self._stale(everything=True)

    def _drop_routine_locked(self) -> None:
        kept = deque(w for w in self._waiting if w[0].must_hear)
        self.dropped += len(self._waiting) - len(kept)
        self._waiting = kept
        if self._playing is not None and not self._playing.must_hear:
            self._cut_locked()

    def _cut_locked(self) -> None:
        self._cut = self._playing is not None
        if self._stream is not None:
            self._stream.abort()
            self._stream = None

    def _stale(self, everything: bool) -> None:
        if isinstance(self.backend, RelayBackend):
            self.backend.stale(everything)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._waiting.clear()
            self._cut_locked()
            self._wake.notify()
        self._thread.join(timeout=2.0)

    # -- the worker ----------------------------------------------------------------------
    def _next(self) -> Transmission | None:
        """The next transmission to play, waiting for one; None once closed. A routine
        one that waited longer than `ROUTINE_LAG` is dropped as stale."""
        with self._lock:
            while True:
                while not self._waiting and not self._closed:
                    self.idle.set()
                    self._wake.wait()
                if self._closed:
                    self.idle.set()
                    return None
                transmission, handed = self._waiting.popleft()
                if transmission.must_hear or self.clock() - handed <= ROUTINE_LAG:
                    self._playing = transmission
                    self._cut = False
                    return transmission
                self.dropped += 1

    def _serve(self) -> None:
        while (transmission := self._next()) is not None:
            self._work(transmission)

    def _work(self, transmission: Transmission) -> None:
        try:
            self._play(transmission)
        except (ClipError, OSError) as exc:
            self._fault(str(exc))
        else:
            self._recovered()
        finally:
            with self._lock:
                self._playing = None

    def _current(self) -> bool:
        return not self._cut and not self._closed

    def _play(self, transmission: Transmission) -> None:
        stream: Stream | None = None
        try:
            for make in transmission.clips:
                clip = make()
                if stream is None:
                    stream = self.backend.open(clip.rate, transmission.key)  # off the lock
                    if isinstance(stream, RelayStream):
                        stream.mark(transmission.must_hear)
                    if self.on_sound is not None:
                        self.on_sound(transmission, self.clock())
                with self._lock:
                    if not self._current():
                        stream.abort()
                        return
                    self._stream = stream
                step = clip.rate * 2 * CHUNK_MS // 1000
                for start in range(0, len(clip.pcm), step):
                    if not self._current():
                        return  # cut: the stream was aborted by `say` or `stop`
                    stream.write(scaled(clip.pcm[start:start + step], transmission.volume))
            if stream is not None:
                stream.finish()
        finally:
            with self._lock:
                if self._stream is stream:
                    self._stream = None

    def _fault(self, message: str) -> None:
        if self._faulty:
            return
        self._faulty = True
        log.warning("voice: no sound (%s); the game goes on silently", message)
        if self.on_fault is not None:
            self.on_fault(message)

    def _recovered(self) -> None:
        if not self._faulty:
            return
        self._faulty = False
        log.info("voice: sound is back")
        if self.on_recovered is not None:
            self.on_recovered()


__all__ = ["ROUTINE_LAG", "AplayBackend", "Backend", "Clip", "ClipError", "DeviceError",
           "MockBackend", "Played", "RelayBackend", "RelayStream", "Speaker", "Stream",
           "Transmission", "scaled"]
