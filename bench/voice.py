"""The voice: from a frame to its first sound, and what speaking costs the event loop.

frame_to_first_sound_ms: for each distinct utterance of a seeded game of each game
(spoken in screen order, as at a table), t0 just before ``Narrator.post(screen)`` (what
the loop calls once the frame is shown), t1 when the speaker's worker hands the
transmission's first samples to the device (a recording backend stands in for aplay: the
device's own buffering is not counted). With the radio effect the first sound is the
squelch burst (made once, cached): ``first_word`` is when the first sentence's samples
follow it, which is what synthesis delays. ``uncached``: an empty phrase cache (each
sentence synthesized by espeak-ng and put through sox); ``cached``: the same utterances
again, every sentence read from the cache. Wall-clock times on this machine, the worker
and the synthesizer's processes sharing the benchmark's pinned core.

input_to_frame_cpu_ms: the same seeded games' inputs through an emulated rig, the
thread's CPU time per ``loop.step`` (engine, journal, screen, render), without a voice
and with the narrator on the loop's frames (the loop hands each screen to the narrator's
thread, which works out the words; synthesis and playback are on the speaker's worker),
the same inputs both ways.

The Pi Zero 2 W estimate multiplies by the calibration factor (bench/calibration.py:
PI_ZERO_2W_CALIBRATION_MS over this run's calibration_ms). espeak-ng and sox are C, not
CPython: the factor for them is an assumption like the calibration's own (docs/VOICE.md).
"""

from __future__ import annotations

import random
import shutil
import tempfile
import threading
import time
from functools import partial
from pathlib import Path
from typing import Any

from bench.stats import rnd, summary_ms

METHOD = __doc__.strip().replace("\n", " ") if __doc__ else ""
GAMES = (("tenfour", 3, None), ("bumpem", 3, None))
TARGET_CACHED_MS = 50.0
TARGET_UNCACHED_MS = 300.0


class _Timing:
    """A backend recording when each transmission's writes reached it."""

    def __init__(self) -> None:
        self.writes: list[list[float]] = []
        self.done = threading.Event()

    def open(self, rate: int, label: str) -> Any:
        times: list[float] = []
        self.writes.append(times)
        backend = self

        class Stream:
            def write(self, pcm: bytes) -> None:
                times.append(time.perf_counter())

            def finish(self) -> None:
                backend.done.set()

            def abort(self) -> None:
                backend.done.set()

        return Stream()


def _screens(quick: bool) -> list[tuple[str, Any]]:
    """(game, screen) for each screen a seeded game draws."""
    from rig.core.autopilot import play_out
    from rig.desktop.emulated import new_emulated_rig

    out: list[tuple[str, Any]] = []
    for game, players, variant in GAMES:
        rig = new_emulated_rig(game, players, variant=variant, seed=7)
        if quick:
            _some(rig, 80)
        else:
            play_out(rig, random.Random(7))
        out += [(game, screen) for screen in rig.screens]
    return out


def _some(rig: Any, count: int) -> None:
    from rig.core.autopilot import gestures_for

    rng = random.Random(7)
    for _ in range(count):
        if rig.session.state.is_terminal():
            return
        for gesture in gestures_for(rig.controller, rng):
            rig.loop.step(gesture)
            rig.settle()


def _first_sound(screens: list[tuple[str, Any]], cache: Path, effect: str,
                 limit: int) -> dict[str, list[float]]:
    from hardware.speaker import Speaker
    from rig.config import VoiceConfig
    from rig.voice.narrator import Narrator, Synthesizer
    from rig.voice.speech import utterance, vocabulary_for

    settings = VoiceConfig(effect=effect)
    backend = _Timing()
    speaker = Speaker(backend)
    current = {"game": ""}
    narrator = Narrator(settings, Synthesizer(settings, cache), speaker,
                        lambda: current["game"])
    sound: list[float] = []
    word: list[float] = []
    seen: set[str] = set()
    for game, screen in screens:
        said = utterance(screen, vocabulary_for(game))
        if said is None or said.text in seen:
            continue
        seen.add(said.text)
        if len(seen) > limit:
            break
        current["game"] = game
        backend.done.clear()
        before = len(backend.writes)
        start = time.perf_counter()
        narrator.post(screen)  # as the loop does: the narrator's thread takes it on
        backend.done.wait(30)
        narrator.idle.wait(30)
        speaker.idle.wait(30)
        if len(backend.writes) == before:
            continue
        times = backend.writes[-1]
        sound.append(times[0] - start)
        word.append((times[1] if effect == "radio" and len(times) > 1 else times[0]) - start)
    narrator.close()
    return {"first_sound": sound, "first_word": word}


def _loop_cpu(screens_games: tuple[tuple[str, int, str | None], ...], quick: bool,
              cache: Path) -> dict[str, Any]:
    from rig.config import VoiceConfig
    from rig.core.autopilot import gestures_for
    from rig.desktop.emulated import new_emulated_rig
    from rig.voice.narrator import Narrator, Synthesizer

    off: list[float] = []
    on: list[float] = []
    for voiced, out in ((False, off), (True, on)):
        for game, players, variant in screens_games:
            rig = new_emulated_rig(game, players, variant=variant, seed=11)
            narrator = None
            if voiced:
                from hardware.speaker import MockBackend, Speaker

                settings = VoiceConfig()
                narrator = Narrator(settings, Synthesizer(settings, cache),
                                    Speaker(MockBackend()), partial(str, game))
                rig.loop.on_frame = narrator.post
            rng = random.Random(11)
            inputs = 0
            while not rig.session.state.is_terminal() and inputs < (150 if quick else 2000):
                for gesture in gestures_for(rig.controller, rng):
                    start = time.thread_time()
                    rig.loop.step(gesture)
                    out.append(time.thread_time() - start)
                    rig.settle()
                    inputs += 1
            if narrator is not None and narrator.speaker is not None:
                narrator.idle.wait(60)
                narrator.speaker.idle.wait(60)
                narrator.close()
    return {"input_to_frame_cpu_ms_voice_off": summary_ms(off),
            "input_to_frame_cpu_ms_voice_on": summary_ms(on)}


def measure(quick: bool) -> dict[str, Any]:
    """The voice section of the report (skipped, saying why, without espeak-ng)."""
    if shutil.which("espeak-ng") is None:
        return {"voice": {"skipped": "espeak-ng is not installed (apt-get install espeak-ng)"}}
    effect = "radio" if shutil.which("sox") else "plain"
    screens = _screens(quick)
    limit = 12 if quick else 40
    with tempfile.TemporaryDirectory(prefix="cbrig-voice-bench-") as tmp:
        cache = Path(tmp) / "voice"
        uncached = _first_sound(screens, cache, effect, limit)
        cached = _first_sound(screens, cache, effect, limit)
        loop = _loop_cpu(GAMES, quick, Path(tmp) / "loop")
    return {"voice": {
        "effect": effect,
        "utterances": len(uncached["first_sound"]),
        "frame_to_first_sound_ms": {"uncached": summary_ms(uncached["first_sound"]),
                                    "cached": summary_ms(cached["first_sound"])},
        "frame_to_first_word_ms": {"uncached": summary_ms(uncached["first_word"]),
                                   "cached": summary_ms(cached["first_word"])},
        **loop,
    }}


def pi_estimate(report: dict[str, Any]) -> dict[str, Any] | None:
    """The voice figures times the calibration factor, against the issue's targets
    (cached under 50 ms, a new phrase under 300 ms, to the first sound)."""
    from bench.calibration import PI_ZERO_2W_CALIBRATION_MS, PI_ZERO_2W_MEASURED

    voice = report.get("voice", {})
    if "frame_to_first_sound_ms" not in voice or "calibration_ms" not in report:
        return None
    f = PI_ZERO_2W_CALIBRATION_MS / report["calibration_ms"]
    sound, word = voice["frame_to_first_sound_ms"], voice["frame_to_first_word_ms"]
    est: dict[str, Any] = {
        "factor": rnd(f),
        "calibration_measured_on_a_pi": PI_ZERO_2W_MEASURED,
        "frame_to_first_sound_ms_p50": {k: rnd(v["p50"] * f) for k, v in sound.items()},
        "frame_to_first_sound_ms_p99": {k: rnd(v["p99"] * f) for k, v in sound.items()},
        "frame_to_first_word_ms_p50": {k: rnd(v["p50"] * f) for k, v in word.items()},
        "frame_to_first_word_ms_p99": {k: rnd(v["p99"] * f) for k, v in word.items()},
        "input_to_frame_cpu_ms_p99_voice_off": rnd(
            voice["input_to_frame_cpu_ms_voice_off"]["p99"] * f),
        "input_to_frame_cpu_ms_p99_voice_on": rnd(
            voice["input_to_frame_cpu_ms_voice_on"]["p99"] * f),
    }
    est["targets"] = {
        "cached_first_sound_p50_under_50_ms":
            est["frame_to_first_sound_ms_p50"]["cached"] < TARGET_CACHED_MS,
        "uncached_first_sound_p50_under_300_ms":
            est["frame_to_first_sound_ms_p50"]["uncached"] < TARGET_UNCACHED_MS,
        "uncached_first_word_p50_under_300_ms":
            est["frame_to_first_word_ms_p50"]["uncached"] < TARGET_UNCACHED_MS,
    }
    return est


def summary_lines(report: dict[str, Any]) -> list[str]:
    voice = report.get("voice")
    if not voice:
        return []
    if "skipped" in voice:
        return [f"  voice: skipped ({voice['skipped']})"]
    lines = [f"  voice ({voice['effect']}, {voice['utterances']} utterances):"]
    for what in ("frame_to_first_sound_ms", "frame_to_first_word_ms"):
        for cache in ("cached", "uncached"):
            v = voice[what][cache]
            lines.append(f"    {what[:-3]:<22} {cache:<9} p50 {v['p50']} ms  p99 {v['p99']} ms")
    for key in ("input_to_frame_cpu_ms_voice_off", "input_to_frame_cpu_ms_voice_on"):
        v = voice[key]
        lines.append(f"    {key:<34} p50 {v['p50']} ms  p99 {v['p99']} ms")
    est = voice.get("pi_zero_2w_estimate")
    if est:
        lines.append(f"    Pi Zero 2 W (x{est['factor']}): first sound p50 cached "
                     f"{est['frame_to_first_sound_ms_p50']['cached']} ms, uncached "
                     f"{est['frame_to_first_sound_ms_p50']['uncached']} ms; first word "
                     f"uncached {est['frame_to_first_word_ms_p50']['uncached']} ms; "
                     f"loop CPU p99 off {est['input_to_frame_cpu_ms_p99_voice_off']} / on "
                     f"{est['input_to_frame_cpu_ms_p99_voice_on']} ms")
    return lines
