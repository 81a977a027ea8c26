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
that long), so the voice never runs far behind the screen; must-hear transmissions that
queue up behind one another may be said together in fewer words (:meth:`Speaker.merge`:
the narrator knows the words). :meth:`Speaker.silence`
cuts everything (the voice switched off, the rig closing).

Backends: :class:`AplayBackend` pipes raw PCM into ``aplay`` (alsa-utils) on the ALSA
device configured; :class:`MockBackend` records what was played (tests, emulators) and
can pace itself like a real device. A fault (no device, a device that vanished or hangs,
a clip that cannot be made, any error on the worker) is reported once through
``on_fault`` and the transmission is dropped: the game goes on silently, and the next
transmission tries again. Only a transmission played to its end (not one cut by a newer
one) says the sound is back (``on_recovered``): a broken device that takes the first
samples of each prompt before failing is not "back" between them. No playback process
outlives its transmission: one cut, failed or abandoned is killed and reaped.
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
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


def chunk_bytes(rate: int) -> int:
    """``CHUNK_MS`` of mono 16-bit samples at ``rate``, in whole samples: a quarter
    second at espeak-ng's 22,050 Hz is 5,512.5 samples, and half a sample cut off
    would shift every later sample by a byte (noise, and audioop refuses it)."""
    return max(2, rate * CHUNK_MS // 1000 * 2)


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
    history: frozenset[int] = frozenset()
    """The clips (by index) left out once the table has acted on them (`Speaker.trim`):
    a card's instruction after the card itself, when the spin has come."""


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


SLACK = 4.0
"""Seconds a device may lag behind the samples it was given before it counts as hung:
opening the card (a USB card waking, an I2S amplifier's power-up) and ALSA's buffer."""


class _AplayStream:
    """One ``aplay`` process fed through a non-blocking pipe, so that a device that
    stops taking samples is found by a deadline instead of blocking the worker forever.

    The deadline follows the sound: a device plays in real time, so the samples given
    so far must be taken (and, after :meth:`finish`, played) by the moment they would
    have ended, plus ``slack``."""

    def __init__(self, command: list[str], rate: int, slack: float) -> None:
        try:
            self.process = subprocess.Popen(command, stdin=subprocess.PIPE,
                                            stdout=subprocess.DEVNULL,
                                            stderr=subprocess.PIPE)
        except OSError as exc:
            raise DeviceError(f"cannot start {command[0]}: {exc.strerror or exc}") from exc
        assert self.process.stdin is not None
        self.fd = self.process.stdin.fileno()
        os.set_blocking(self.fd, False)
        self.rate = rate
        self.slack = slack
        self.name = os.path.basename(command[0])
        self.ends = time.monotonic()
        """When the device would have played all it was given, in real time."""
        self.aborted = False
        self.closed = False
        """The process reaped and its pipes closed: nothing more is written (the
        descriptor's number may already belong to another file)."""

    def write(self, pcm: bytes) -> None:
        if self.closed:
            if self.aborted:
                return
            raise DeviceError(f"{self.name} ended before the clip did")
        now = time.monotonic()
        self.ends = max(self.ends, now) + len(pcm) / 2 / self.rate
        deadline = self.ends + self.slack
        left = memoryview(pcm)
        poller = select.poll()
        poller.register(self.fd, select.POLLOUT)
        while left and not self.aborted:
            try:
                left = left[os.write(self.fd, left):]
            except BlockingIOError:
                pass
            except OSError:  # EPIPE: aplay ended (a fault, or killed by a cut)
                self._failed(early=True)
                return
            if left:
                wait = deadline - time.monotonic()
                if wait <= 0:
                    self._hung("did not take the samples")
                poller.poll(max(1, int(wait * 1000)))

    def finish(self) -> None:
        assert self.process.stdin is not None
        with contextlib.suppress(OSError):
            self.process.stdin.close()
        try:
            self.process.wait(timeout=max(0.0, self.ends + self.slack - time.monotonic()))
        except subprocess.TimeoutExpired:
            self._hung("did not finish playing")
        self._failed()

    def _hung(self, what: str) -> None:
        self.abort()
        self._reap()
        raise DeviceError(f"the sound device {what} within {self.slack:.0f} s of the "
                          f"clip's end (a hung device?)")

    def _failed(self, early: bool = False) -> None:
        """Raise DeviceError with aplay's own words when it ended badly, or ``early``
        (before all the samples were written), unless it was cut; the process is
        reaped and its pipes closed either way."""
        code = self.process.wait()
        words = b""
        if not self.aborted and not self.closed and code != 0 \
                and self.process.stderr is not None:
            words = self.process.stderr.read()
        self._reap()
        if self.aborted or (code == 0 and not early):
            return
        lines = words.decode(errors="replace").strip().splitlines()
        raise DeviceError(lines[-1] if lines else
                          f"{self.name} exited with {code} before the clip ended"
                          if early else f"{self.name} exited with {code}")

    def _reap(self) -> None:
        for pipe in (self.process.stdin, self.process.stderr):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
        self.process.wait()
        self.closed = True

    def abort(self) -> None:
        self.aborted = True
        with contextlib.suppress(OSError):
            self.process.kill()


class AplayBackend:
    """Plays through ``aplay`` on an ALSA device ("default", "plughw:1,0", ...);
    ``slack``: how far a device may lag before it counts as hung (``SLACK``)."""

    def __init__(self, device: str = "default", command: str = "aplay",
                 slack: float = SLACK) -> None:
        self.device = device
        self.command = command
        self.slack = slack

    def open(self, rate: int, label: str) -> Stream:
        return _AplayStream([self.command, "-q", "-D", self.device, "-t", "raw",
                             "-f", "S16_LE", "-c", "1", "-r", str(rate)], rate, self.slack)


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
    """The samples at ``volume`` (0..1): full volume is the clip as it is. A stray odd
    byte at the end (half a sample) is passed on as it is, never refused."""
    if volume >= 0.999:
        return pcm
    whole, odd = pcm[: len(pcm) // 2 * 2], pcm[len(pcm) // 2 * 2:]
    factor = max(0.0, volume)
    if _mul is not None:
        return _mul(whole, 2, factor) + odd
    samples = array("h")
    samples.frombytes(whole)
    return array("h", [int(s * factor) for s in samples]).tobytes() + odd


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
        self._trimmed = False
        """The transmission on the air leaves out its `Transmission.history` clips."""
        self._waiting: deque[tuple[Transmission, float]] = deque()
        """Must-hear transmissions in order, then at most one routine one (the newest),
        each with the clock when it was handed over."""
        self._closed = False
        self._faulty = False
        self._told = threading.Lock()
        """Guards ``_faulty``: a fault known at start is said from another thread."""
        self.dropped = 0
        """Routine transmissions dropped unstarted (stale), for tests and the bench."""
        self.merged = 0
        """Must-hear transmissions said in fewer words together (`merge`)."""
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

    def merge(self, combine: Callable[[list[Transmission]], Transmission | None],
              least: int = 1,
              apart: Callable[[Transmission], bool] | None = None) -> list[Transmission]:
        """When at least ``least`` must-hear transmissions wait unstarted behind one on
        the air (the voice has fallen behind), ``combine`` may say them as one (fewer
        words, never a history): it replaces them, in the place of the first. Those
        ``apart`` says stay out of it, after it (a choice not made yet: it is cut once
        made, rig.voice.narrator). Returns those it replaced ([] when none).
        ``combine`` runs under the queue's lock: it only builds a transmission (its
        clips are made when played)."""
        with self._lock:
            waiting = [w for w in self._waiting if w[0].must_hear
                       and (apart is None or not apart(w[0]))]
            if len(waiting) < least or self._playing is None:
                return []  # nothing on the air: the voice is not behind
            made = combine([t for t, _ in waiting])
            if made is None:
                return []
            rest = [w for w in self._waiting if w not in waiting]
            self._waiting = deque([(made, waiting[0][1]), *rest])
            self.merged += len(waiting)
            return [t for t, _ in waiting]

    def stop(self) -> None:
        """The table acted (a new moment with nothing to say): routine speech playing is
        cut and routine speech waiting dropped; must-hear speech goes on."""
        with self._lock:
            self._drop_routine_locked()
        self._stale(everything=False)

    def withdraw(self, keys: frozenset[str]) -> None:
        """Transmissions that no longer matter (a choice the table has made: its result
        says what was picked) are cut if on the air and dropped if waiting, must-hear or
        not."""
        with self._lock:
            kept = deque(w for w in self._waiting if w[0].key not in keys)
            self.dropped += len(self._waiting) - len(kept)
            self._waiting = kept
            if self._playing is not None and self._playing.key in keys:
                self._cut_locked()

    def trim(self, keys: frozenset[str]) -> None:
        """The table has acted on these transmissions: their `Transmission.history`
        clips are left out (the one on the air stops at the clip it is in, if that is
        history, and goes on to its closing sound)."""
        with self._lock:
            self._waiting = deque(
                (Transmission(t.key, [c for i, c in enumerate(t.clips) if i not in t.history],
                              t.volume, t.must_hear) if t.key in keys and t.history else t,
                 handed) for t, handed in self._waiting)
            if self._playing is not None and self._playing.key in keys:
                self._trimmed = True

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
    def fault(self, message: str) -> None:
        """A fault known before any sound (the synthesizer missing at start): said as
        the worker would say it, once, and not again for each transmission."""
        self._fault(message)

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
                    self._trimmed = False
                    return transmission
                self.dropped += 1

    def _serve(self) -> None:
        while (transmission := self._next()) is not None:
            self._work(transmission)

    def _work(self, transmission: Transmission) -> None:
        try:
            played = self._play(transmission)
        except (ClipError, OSError) as exc:
            self._fault(str(exc))
        except Exception as exc:  # a bug must never leave a silently dead thread
            self._fault(f"{type(exc).__name__}: {exc}", exc)
        else:
            if played:
                self._recovered()
        finally:
            with self._lock:
                self._playing = None

    def _current(self) -> bool:
        return not self._cut and not self._closed

    def _play(self, transmission: Transmission) -> bool:
        """Play ``transmission``; True when it played to its end (not cut). A stream
        that did not finish is aborted and reaped here, whatever happened."""
        stream: Stream | None = None
        finished = False
        try:
            for at, make in enumerate(transmission.clips):
                if at in transmission.history and self._trimmed:
                    continue  # history now: the table has acted on it
                clip = make()
                if stream is None:
                    stream = self.backend.open(clip.rate, transmission.key)  # off the lock
                    if isinstance(stream, RelayStream):
                        stream.mark(transmission.must_hear)
                    if self.on_sound is not None:
                        self.on_sound(transmission, self.clock())
                with self._lock:
                    if not self._current():
                        return False
                    self._stream = stream
                step = chunk_bytes(clip.rate)
                for start in range(0, len(clip.pcm), step):
                    if not self._current():
                        return False  # cut: the stream was aborted by `say` or `stop`
                    if at in transmission.history and self._trimmed:
                        break
                    stream.write(scaled(clip.pcm[start:start + step], transmission.volume))
            if stream is None:
                return False
            stream.finish()
            finished = True
            return self._current()
        finally:
            with self._lock:
                if self._stream is stream:
                    self._stream = None
            if stream is not None and not finished:
                _reap(stream)

    def _fault(self, message: str, bug: Exception | None = None) -> None:
        with self._told:
            if self._faulty:
                return
            self._faulty = True
        log.warning("voice: no sound (%s); the game goes on silently", message,
                    exc_info=bug)
        self._tell_backend(False, message)
        if self.on_fault is not None:
            self.on_fault(message)

    def _tell_backend(self, ok: bool, message: str) -> None:
        """A backend that shows the sound's state itself (the browser rig's page: its
        banner) is told too."""
        tell: Callable[[bool, str], None] = getattr(self.backend, "sound_status", _no_status)
        tell(ok, message)

    def _recovered(self) -> None:
        with self._told:
            if not self._faulty:
                return
            self._faulty = False
        log.info("voice: sound is back")
        self._tell_backend(True, "")
        if self.on_recovered is not None:
            self.on_recovered()


def _no_status(ok: bool, message: str) -> None:
    """A backend that shows nothing of the sound's state (aplay: the OLED does)."""


def _reap(stream: Stream) -> None:
    """End a stream that will not be finished (cut, failed, abandoned): its process
    killed and waited for, its pipes closed. Its own complaint is no news then."""
    stream.abort()
    with contextlib.suppress(Exception):
        stream.finish()


__all__ = ["ROUTINE_LAG", "AplayBackend", "Backend", "Clip", "ClipError", "DeviceError",
           "MockBackend", "Played", "RelayBackend", "RelayStream", "Speaker", "Stream",
           "Transmission", "chunk_bytes", "scaled"]
