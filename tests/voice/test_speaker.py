"""The speaker never holds up the loop: transmissions play on a worker, a newer one cuts
a stale one mid-clip, and a fault is said once while the game goes on silently."""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial

from hardware.speaker import (
    AplayBackend,
    Clip,
    ClipError,
    MockBackend,
    Speaker,
    Transmission,
    scaled,
)
from tests.slowdown import hang
from tests.system_tools import require_command

RATE = 8000


def tone(seconds: float, level: int = 1000) -> Clip:
    return Clip(RATE, (level.to_bytes(2, "little", signed=True)) * int(RATE * seconds))


def fixed(*clips: Clip) -> list[Callable[[], Clip]]:
    return [partial(_same, c) for c in clips]


def _same(clip: Clip) -> Clip:
    return clip


def test_a_transmission_plays_whole_and_in_order() -> None:
    backend = MockBackend()
    speaker = Speaker(backend)
    speaker.say(Transmission("two clips", fixed(tone(0.1, 100), tone(0.2, 200))))
    assert speaker.idle.wait(hang())
    speaker.close()
    [played] = backend.played
    assert played.key == "two clips" and played.finished and not played.cut
    assert abs(played.seconds - 0.3) < 1e-9
    assert played.pcm[:2] == (100).to_bytes(2, "little") and played.pcm[-2:] == \
        (200).to_bytes(2, "little")


def test_a_newer_utterance_cuts_a_stale_one_mid_clip() -> None:
    backend = MockBackend(realtime=True)
    speaker = Speaker(backend)
    speaker.say(Transmission("old prompt", fixed(tone(hang()))))  # only a cut ends it early
    assert backend.sounding.wait(hang())  # the old prompt is on the air
    speaker.say(Transmission("new prompt", fixed(tone(0.1))))
    assert speaker.idle.wait(hang())
    speaker.close()
    old, new = backend.played
    assert old.key == "old prompt" and old.cut and not old.finished
    assert old.seconds < 1.0, "the stale prompt was heard out"
    assert new.key == "new prompt" and new.finished and abs(new.seconds - 0.1) < 1e-9


def test_say_returns_while_a_clip_is_still_being_made() -> None:
    """The loop hands over and goes on: making the clip happens on the worker."""
    backend = MockBackend()
    speaker = Speaker(backend)
    release = threading.Event()
    started = threading.Event()

    def slow() -> Clip:
        started.set()
        release.wait(hang())
        return tone(0.05)

    speaker.say(Transmission("slow", [slow]))
    assert started.wait(hang())
    assert not speaker.idle.is_set() and backend.played == []
    release.set()
    assert speaker.idle.wait(hang())
    speaker.close()
    assert [p.key for p in backend.played] == ["slow"]


def test_a_fault_is_reported_once_and_recovery_once() -> None:
    backend = MockBackend()
    faults: list[str] = []
    back: list[bool] = []
    speaker = Speaker(backend, on_fault=faults.append, on_recovered=lambda: back.append(True))
    backend.fail = "device vanished"
    for n in range(3):
        speaker.say(Transmission(f"lost {n}", fixed(tone(0.01))))
        assert speaker.idle.wait(hang())
    assert faults == ["device vanished"] and backend.played == []

    def broken() -> Clip:
        raise ClipError("espeak-ng is not installed")

    speaker.say(Transmission("no synthesizer", [broken]))
    assert speaker.idle.wait(hang())
    assert faults == ["device vanished"]  # still down: not said again
    backend.fail = None
    speaker.say(Transmission("back", fixed(tone(0.01))))
    assert speaker.idle.wait(hang())
    speaker.close()
    assert back == [True] and [p.key for p in backend.played] == ["back"]


def test_aplay_without_a_device_is_a_fault_with_alsas_words() -> None:
    require_command("aplay", "alsa-utils")
    faults: list[str] = []
    speaker = Speaker(AplayBackend(device="hw:99,0"), on_fault=faults.append)
    speaker.say(Transmission("nowhere", fixed(tone(0.05))))
    assert speaker.idle.wait(hang())
    speaker.close()
    assert len(faults) == 1 and "audio open error" in faults[0]


def test_aplay_plays_to_a_device() -> None:
    """ALSA's null device takes the samples: the real backend's whole path, no fault."""
    require_command("aplay", "alsa-utils")
    faults: list[str] = []
    speaker = Speaker(AplayBackend(device="null"), on_fault=faults.append)
    speaker.say(Transmission("null", fixed(tone(0.2), tone(0.2))))
    assert speaker.idle.wait(hang())
    speaker.close()
    assert faults == []


def test_volume_scales_the_samples() -> None:
    clip = tone(0.01, 1000)
    assert scaled(clip.pcm, 1.0) == clip.pcm
    half = scaled(clip.pcm, 0.5)
    assert int.from_bytes(half[:2], "little", signed=True) == 500
