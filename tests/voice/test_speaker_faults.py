"""The speaker's own faults (issue 35 item 4): whatever goes wrong on the worker ends in
one log line and "no sound" (never a silently dead thread), no playback process or
descriptor outlives its transmission, a hung device is found by a deadline derived from
the clip's length, and "sound is back" is said only for a clip that played to its end.

Real ``aplay`` is replaced by small stub scripts on a temporary PATH (a device that
plays, one that never reads, one that never exits): the backend's whole path, no audio.
"""

from __future__ import annotations

import logging
import os
import shutil
import stat
import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest

from hardware.speaker import (
    AplayBackend,
    Clip,
    ClipError,
    DeviceError,
    MockBackend,
    Speaker,
    Stream,
    Transmission,
    scaled,
)
from tests.slowdown import hang

ODD_RATE = 22050
"""espeak-ng's rate: a quarter second is 11,025 bytes, an odd number."""


def tone(seconds: float, rate: int = ODD_RATE, level: int = 1000) -> Clip:
    return Clip(rate, level.to_bytes(2, "little", signed=True) * int(rate * seconds))


def _same(clip: Clip) -> Clip:
    return clip


def fixed(*clips: Clip) -> list[Callable[[], Clip]]:
    return [partial(_same, c) for c in clips]


def stub(directory: Path, name: str, body: str) -> str:
    """An executable shell script ``name`` in ``directory`` (a fake command)."""
    path = directory / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return str(path)


def children() -> list[int]:
    """This process's child processes (zombies too), by each process's parent in
    /proc/PID/stat: the per-thread ``children`` lists race with a thread that ends (and
    qemu-user, the arm64 job, does not always have them)."""
    me = os.getpid()
    found: list[int] = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                stat_line = handle.read()
        except OSError:  # the process ended meanwhile
            continue
        if int(stat_line.rsplit(")", 1)[1].split()[1]) == me:
            found.append(int(entry))
    return found


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def fault_lines(caplog: pytest.LogCaptureFixture, words: str = "no sound") -> list[str]:
    return [r.getMessage() for r in caplog.records if words in r.getMessage()]


# -- a clip that does not split into whole frames --------------------------------------


def test_an_odd_chunk_at_22050_hz_plays_at_any_volume() -> None:
    """The plain voice (espeak-ng's 22,050 Hz, no sox) at 80 %: a quarter second is an
    odd number of bytes; the speaker sends whole samples and the thread lives on."""
    backend = MockBackend()
    faults: list[str] = []
    speaker = Speaker(backend, on_fault=faults.append)
    clip = tone(0.6)
    speaker.say(Transmission("plain", fixed(clip), volume=0.8))
    assert speaker.idle.wait(hang()), "the speaker's thread died on an odd chunk"
    speaker.say(Transmission("again", fixed(clip), volume=0.8))
    assert speaker.idle.wait(hang())
    speaker.close()
    assert faults == []
    assert [p.key for p in backend.played] == ["plain", "again"]
    assert all(p.finished and len(p.pcm) == len(clip.pcm) for p in backend.played)
    assert int.from_bytes(backend.played[0].pcm[-2:], "little", signed=True) == 800


def test_scaled_keeps_an_odd_byte_count() -> None:
    assert scaled(b"\x10\x00\x20", 0.5) == b"\x08\x00\x20"


def test_any_error_on_the_worker_is_one_line_and_no_sound(
        caplog: pytest.LogCaptureFixture) -> None:
    backend = MockBackend()
    faults: list[str] = []
    speaker = Speaker(backend, on_fault=faults.append)

    def bug() -> Clip:
        raise RuntimeError("a bug in the effect chain")

    with caplog.at_level(logging.WARNING):
        for n in range(3):
            speaker.say(Transmission(f"bug {n}", [bug]))
            assert speaker.idle.wait(hang()), "the speaker's thread died"
    assert faults == ["RuntimeError: a bug in the effect chain"]
    assert fault_lines(caplog) == ["voice: no sound (RuntimeError: a bug in the effect "
                                   "chain); the game goes on silently"]
    speaker.say(Transmission("fine", fixed(tone(0.05))))
    assert speaker.idle.wait(hang())
    speaker.close()
    assert [p.key for p in backend.played] == ["fine"] and backend.played[0].finished


# -- no process or descriptor outlives its transmission ---------------------------------


def test_a_failing_clip_leaves_no_aplay_behind(tmp_path: Path) -> None:
    """The squelch opens the device, then the sentence cannot be made (no espeak-ng):
    the playback process is ended and reaped, its pipes closed, 200 times over (the
    1,000 transmissions of the issue are the whole voice's test below)."""
    aplay = stub(tmp_path, "aplay", "exec cat >/dev/null")
    speaker = Speaker(AplayBackend(command=aplay), on_fault=lambda why: None)

    def missing() -> Clip:
        raise ClipError("espeak-ng is not installed (apt-get install espeak-ng)")

    squelch = tone(0.01, rate=16000)
    speaker.say(Transmission("warm-up", [partial(_same, squelch), missing]))
    assert speaker.idle.wait(hang())
    before_fds = open_fds()
    for n in range(200):  # each leaked one process and two pipes before
        speaker.say(Transmission(f"t{n}", [partial(_same, squelch), missing]))
        assert speaker.idle.wait(hang())
    speaker.close()
    assert children() == []
    assert open_fds() <= before_fds


def test_a_cut_transmission_leaves_no_aplay_behind(tmp_path: Path) -> None:
    aplay = stub(tmp_path, "aplay", "exec cat >/dev/null")
    speaker = Speaker(AplayBackend(command=aplay))
    release = threading.Event()

    def held() -> Clip:
        release.wait(hang())
        return tone(0.01)

    before_fds = open_fds()
    for n in range(50):
        release.clear()
        speaker.say(Transmission(f"cut {n}", [partial(_same, tone(0.01)), held]))
        speaker.stop()  # cut while the second clip is being made
        release.set()
        assert speaker.idle.wait(hang())
    speaker.close()
    assert children() == []
    assert open_fds() <= before_fds


# -- a hung device ----------------------------------------------------------------------


@pytest.mark.parametrize(("script", "seconds", "words"), [
    # never reads: more sound than a pipe holds (64 KiB, 1.5 s here), so a write blocks
    ("exec sleep 600", 3.0, "did not take"),
    ("cat >/dev/null; exec sleep 600", 0.2, "did not finish"),  # reads, never exits
])
def test_a_hung_device_is_found_and_reported(tmp_path: Path, script: str, seconds: float,
                                             words: str,
                                             caplog: pytest.LogCaptureFixture) -> None:
    aplay = stub(tmp_path, "aplay", script)
    faults: list[str] = []
    speaker = Speaker(AplayBackend(command=aplay, slack=0.3), on_fault=faults.append)
    with caplog.at_level(logging.WARNING):
        speaker.say(Transmission("hung", fixed(tone(seconds))))
        assert speaker.idle.wait(hang()), "the worker is stuck on a hung device"
    speaker.close()
    assert len(faults) == 1 and words in faults[0], faults
    assert len(fault_lines(caplog)) == 1
    assert children() == []


# -- fail closed, no flapping -----------------------------------------------------------


class _Liar:
    """A device that takes every sample and fails only at the end (aplay that started,
    filled its pipe and died): the way a broken card looks under systemd."""

    def __init__(self, stream: Stream) -> None:
        self.stream = stream
        self.broken = True

    def write(self, pcm: bytes) -> None:
        self.stream.write(pcm)

    def finish(self) -> None:
        self.stream.finish()
        if self.broken:
            raise DeviceError("audio open error: Device or resource busy")

    def abort(self) -> None:
        self.stream.abort()


class LyingBackend:
    def __init__(self) -> None:
        self.mock = MockBackend()
        self.broken = True

    def open(self, rate: int, label: str) -> Stream:
        liar = _Liar(self.mock.open(rate, label))
        liar.broken = self.broken
        return liar


def test_a_cut_transmission_is_no_recovery(caplog: pytest.LogCaptureFixture) -> None:
    """With the device still broken, transmissions cut by newer ones (as at table
    speed) must not say "sound is back": only a clip played to its end does."""
    backend = LyingBackend()
    faults: list[str] = []
    back: list[bool] = []
    speaker = Speaker(backend, on_fault=faults.append, on_recovered=lambda: back.append(True))
    with caplog.at_level(logging.INFO):
        for n in range(5):
            release = threading.Event()
            started = threading.Event()

            def held(release: threading.Event = release,
                     started: threading.Event = started) -> Clip:
                started.set()
                release.wait(hang())
                return tone(0.01)

            speaker.say(Transmission(f"whole {n}", fixed(tone(0.01))))
            assert speaker.idle.wait(hang())
            speaker.say(Transmission(f"cut {n}", [partial(_same, tone(0.01)), held]))
            assert started.wait(hang())
            speaker.stop()
            release.set()
            assert speaker.idle.wait(hang())
        assert len(faults) == 1 and back == []
        backend.broken = False
        speaker.say(Transmission("healed", fixed(tone(0.01))))
        assert speaker.idle.wait(hang())
    speaker.close()
    assert back == [True]
    assert len(fault_lines(caplog)) == 1 and len(fault_lines(caplog, "sound is back")) == 1


def test_a_fault_known_before_any_sound_is_said_once(caplog: pytest.LogCaptureFixture) -> None:
    """The synthesizer missing at start and every transmission failing for it: one
    line, one "no sound"."""
    faults: list[str] = []
    speaker = Speaker(MockBackend(), on_fault=faults.append)

    def missing() -> Clip:
        raise ClipError("espeak-ng is not installed (apt-get install espeak-ng)")

    with caplog.at_level(logging.WARNING):
        speaker.fault("espeak-ng is not installed (apt-get install espeak-ng)")
        for n in range(3):
            speaker.say(Transmission(f"t{n}", [missing]))
            assert speaker.idle.wait(hang())
    speaker.close()
    assert len(faults) == 1 and len(fault_lines(caplog)) == 1


# -- the synthesizer missing, through the whole voice ------------------------------------


def test_no_synthesizer_is_one_line_no_aplay_and_no_leak(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """espeak-ng missing (sox and aplay there, as stubs): 1,000 transmissions are one
    "no sound" line, start no playback process (no squelch burst without a voice), and
    leave no child process or descriptor behind."""
    from rig.voice.narrator import VoiceSettings, build_narrator

    tools = tmp_path / "bin"
    tools.mkdir()
    started = tmp_path / "aplay-started"
    cat, head = shutil.which("cat"), shutil.which("head")
    aplay = stub(tools, "aplay", f"echo x >> {started}\nexec {cat} >/dev/null")
    stub(tools, "sox", f"exec {head} -c 3200 /dev/zero")
    monkeypatch.setenv("PATH", str(tools))
    faults: list[str] = []
    before_fds = open_fds()
    with caplog.at_level(logging.INFO):
        narrator = build_narrator(VoiceSettings(), tmp_path / "voice", lambda: "tenfour",
                                  on_fault=faults.append,
                                  backend=AplayBackend(command=aplay))
        speaker, synthesizer = narrator.speaker, narrator.synthesizer
        assert speaker is not None and synthesizer is not None
        for thread in threading.enumerate():
            if thread.name == "voice-cache":  # opens the cache's directory, once
                thread.join(hang())
        settled_fds = open_fds()
        for n in range(1000):
            speaker.say(synthesizer.transmission(f"Red truck {n}.", 0.8))
            assert speaker.idle.wait(hang())
        narrator.close()
    assert open_fds() <= settled_fds, "descriptors grew with the transmissions"
    assert faults == ["espeak-ng is not installed (apt-get install espeak-ng)"]
    assert fault_lines(caplog, "espeak-ng") == [
        "voice: no sound (espeak-ng is not installed (apt-get install espeak-ng)); "
        "the game goes on silently"]
    assert not started.exists(), "a playback process was started with nothing to say"
    # the cache directory's own descriptor, held for the process's life, and no more
    assert children() == [] and open_fds() <= before_fds + 1


def test_a_broken_device_over_a_games_worth_is_one_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """aplay that takes the samples and fails at the end (ALSA's words on stderr), over
    120 transmissions of which a third are cut mid-way as at table speed: one "no
    sound" line, no "sound is back", no process left."""
    aplay = stub(tmp_path, "aplay", "cat >/dev/null\n"
                 "echo 'aplay: main:831: audio open error: Device or resource busy' >&2\n"
                 "exit 1")
    faults: list[str] = []
    back: list[bool] = []
    speaker = Speaker(AplayBackend(command=aplay), on_fault=faults.append,
                      on_recovered=lambda: back.append(True))
    with caplog.at_level(logging.INFO):
        for n in range(40):
            speaker.say(Transmission(f"whole {n}", fixed(tone(0.05))))
            assert speaker.idle.wait(hang())
            speaker.say(Transmission(f"quick {n}", fixed(tone(0.05))))
            speaker.say(Transmission(f"newer {n}", fixed(tone(0.05))))  # may cut it
            assert speaker.idle.wait(hang())
            release, started = threading.Event(), threading.Event()

            def held(release: threading.Event = release,
                     started: threading.Event = started) -> Clip:
                started.set()
                release.wait(hang())
                return tone(0.01)

            speaker.say(Transmission(f"cut {n}", [partial(_same, tone(0.05)), held]))
            assert started.wait(hang())
            speaker.stop()
            release.set()
            assert speaker.idle.wait(hang())
    speaker.close()
    assert faults == ["aplay: main:831: audio open error: Device or resource busy"]
    assert back == []
    assert len(fault_lines(caplog)) == 1 and fault_lines(caplog, "sound is back") == []
    assert children() == []


@pytest.mark.parametrize("sox", [True, False], ids=["plain", "no sox"])
def test_the_plain_voice_plays_through_the_speaker(sox: bool) -> None:
    """The issue's case with the real synthesizer: effect "plain" (or "radio" without
    sox: the plain fallback), espeak-ng's 22,050 Hz, at 80 %: played whole."""
    from rig.voice.narrator import Synthesizer, VoiceSettings
    from tests.system_tools import require_commands

    require_commands({"espeak-ng": "espeak-ng"})
    synthesizer = Synthesizer(VoiceSettings(effect="plain" if sox else "radio"), None)
    if not sox:
        synthesizer.sox = None
    assert synthesizer.effect == "plain"
    backend = MockBackend()
    faults: list[str] = []
    speaker = Speaker(backend, on_fault=faults.append)
    speaker.say(synthesizer.transmission("Red: take a ticket. Press for a ticket.", 0.8))
    assert speaker.idle.wait(hang()), "the speaker's thread died"
    speaker.close()
    assert faults == []
    [played] = backend.played
    assert played.rate == 22050 and played.finished and played.seconds > 1.0


def test_aplay_ending_before_the_clip_is_a_fault(tmp_path: Path) -> None:
    """aplay gone at once and "successfully" (a wrong build, a wrapper that gave up):
    the samples did not play, so it is a fault, not silence taken for sound."""
    aplay = stub(tmp_path, "aplay", "exit 0")
    faults: list[str] = []
    back: list[bool] = []
    speaker = Speaker(AplayBackend(command=aplay), on_fault=faults.append,
                      on_recovered=lambda: back.append(True))
    speaker.say(Transmission("gone", fixed(tone(0.5), tone(3.0))))
    assert speaker.idle.wait(hang())
    speaker.close()
    assert faults == ["aplay exited with 0 before the clip ended"] and back == []
    assert children() == []
