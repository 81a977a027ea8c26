"""The voice at the table's pace: what the table hears of it when people play briskly.

Seeded games of both games are played by the autopilot (rig.core.autopilot) at 2, 3 and 5
seconds per gesture: each person's act (a tap, a flick, a turn and press, an
acknowledgement) comes that long after the screen it answers was shown, and the spin
animates for its real length (the emulated rig's clock paused out in real time). Every
frame goes to the real narrator (rig.voice.narrator.Narrator: its words, its scheduling, the
real speaker worker, hardware.speaker.Speaker) with the real espeak-ng + sox voice, onto
a mock sound device that plays in real time, as aplay would: a clip of 2 s takes 2 s to
write. Time is scaled: the whole table (the gestures, the spin, the device) runs SPEED
times faster than life, and every figure is given back in table seconds (measured / SPEED
on a clock that also drives the speaker). The phrase cache is filled before each game
(espeak-ng and sox run unscaled otherwise), so that the scaled run measures the
scheduling, not the synthesis: a clip is then a file read of about a millisecond, SPEED
ms of table time.

Per kind of utterance (rig.voice.speech.EVENTS): how many were handed to the speaker, how many
lost words (started and cut before their last word, or never started: `dropped`, which
is the intended fate of a routine prompt the table already acted on, and a loss for
everything else), and the lag behind the screen (from the frame being shown to the
utterance's first sound). Per game: the speech offered per turn (the full length of
every utterance handed to the speaker, summed per turn: median and mean; and the same with
the radio's squelch and roger beep, on the air), the speech heard per turn, the words
per turn, and one whole turn's words as an example.
A turn is counted each time the engine's ``turn`` (the seat to play; 10-Four also counts
``turns``) changes.
"""

from __future__ import annotations

import random
import shutil
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from bench.stats import percentile, rnd

METHOD = __doc__.strip().replace("\n", " ") if __doc__ else ""
SPEED = 8.0
"""How much faster than life the table runs (see the module doc)."""
PACES = (2.0, 3.0, 5.0)
GAMES = (("tenfour", 3), ("bumpem", 3))
MUST_HEAR = ("card", "move", "police", "alert", "winner")
"""The kinds the table must hear whole (RULINGS G6): a loss there is a failure."""
LOST_TOLERANCE = 0.02
"""Seconds of speech short of the whole that count as lost words (one device chunk)."""


class _Clock:
    """Table time: real time since the start, times SPEED."""

    def __init__(self) -> None:
        self.start = time.perf_counter()

    def __call__(self) -> float:
        return (time.perf_counter() - self.start) * SPEED

    def sleep_until(self, when: float) -> None:
        wait = (when - self()) / SPEED
        if wait > 0:
            time.sleep(wait)


class _Heard:
    """One transmission as the device played it."""

    def __init__(self, rate: int) -> None:
        self.rate = rate
        self.samples = 0
        self.cut = False
        self.finished = False

    @property
    def seconds(self) -> float:
        return self.samples / self.rate if self.rate else 0.0


class _PacedDevice:
    """A mock sound device that plays in (scaled) real time and records what it heard."""

    def __init__(self) -> None:
        self.opened: list[_Heard] = []

    def open(self, rate: int, label: str) -> Any:
        heard = _Heard(rate)
        self.opened.append(heard)
        stopped = threading.Event()

        class Stream:
            def write(self, pcm: bytes) -> None:
                if stopped.is_set():
                    return
                samples = len(pcm) // 2
                heard.samples += samples
                stopped.wait(samples / rate / SPEED)

            def finish(self) -> None:
                heard.finished = not stopped.is_set()

            def abort(self) -> None:
                heard.cut = True
                stopped.set()

        return Stream()


class _Said:
    """One utterance handed to the speaker, and what became of it."""

    def __init__(self, text: str, shown: float, turn: int) -> None:
        self.text = text
        self.kind = ""
        self.shown = shown
        self.turn = turn
        self.full = 0.0
        """Seconds of speech in it (without the radio's squelch and roger beep)."""
        self.lead = 0.0
        """Seconds of squelch before the first word."""
        self.tail = 0.0
        """Seconds of roger beep after the last."""
        self.first_sound: float | None = None
        self.heard: _Heard | None = None
        self.clips: object = None
        """The transmission's clips: the speaker's transmission is known by them (the
        narrator may hand over a copy with its priority)."""

    @property
    def lost(self) -> bool:
        if self.heard is None:
            return True  # never started
        return self.heard.seconds < self.lead + self.full - LOST_TOLERANCE

    @property
    def dropped(self) -> bool:
        return self.heard is None


class _Turns:
    """Counts the turns: each change of the engine's ``turn`` (and 10-Four's ``turns``),
    looked at as each frame is shown (so a frame belongs to the turn it shows)."""

    def __init__(self, state: Any) -> None:
        self.key = self._key(state)
        self.count = 0

    @staticmethod
    def _key(state: Any) -> tuple[Any, ...]:
        return (getattr(state, "turns", None), getattr(state, "turn", None))

    def seen(self, state: Any) -> int:
        key = self._key(state)
        if key != self.key:
            self.key = key
            self.count += 1
        return self.count


class _Shown:
    """When the frame being said was shown, and in which turn."""

    at = 0.0
    turn = 0


def _groups(game: str, players: int, seed: int, count: int) -> list[list[Any]]:
    """The gestures of the first `count` acts of a seeded game (the game is the same
    whatever the voice does: its chance and the autopilot's choices are seeded)."""
    from rig.core.autopilot import gestures_for
    from rig.desktop.emulated import new_emulated_rig

    rig = new_emulated_rig(game, players, seed=seed)
    rng = random.Random(seed)
    out: list[list[Any]] = []
    while not rig.session.state.is_terminal() and len(out) < count:
        gestures = gestures_for(rig.controller, rng)
        for gesture in gestures:
            rig.loop.step(gesture)
        rig.settle()
        out.append(gestures)
    return out


def _warm(game: str, players: int, seed: int, count: int, synthesizer: Any) -> None:
    """Every sentence the game's first acts will say, rendered into the cache."""
    from rig.core.autopilot import gestures_for
    from rig.desktop.emulated import new_emulated_rig
    from rig.voice.narrator import sentences
    from rig.voice.speech import utterance, vocabulary_for

    rig = new_emulated_rig(game, players, seed=seed)
    rng = random.Random(seed)
    vocabulary = vocabulary_for(game)
    for _ in range(count):
        if rig.session.state.is_terminal():
            break
        for gesture in gestures_for(rig.controller, rng):
            rig.loop.step(gesture)
        rig.settle()
    texts = {said.text for screen in rig.screens
             if (said := utterance(screen, vocabulary)) is not None}
    for text in sorted(texts):
        for sentence in sentences(text):
            synthesizer.clip(sentence)
    if synthesizer.effect == "radio":
        synthesizer.squelch()
        synthesizer.roger_beep()


def _play(game: str, players: int, seed: int, count: int, pace: float,
          cache: Path) -> tuple[list[_Said], int]:
    """One seeded game's first `count` acts at `pace`, through the narrator."""
    from hardware.speaker import Speaker
    from rig.config import VoiceConfig
    from rig.desktop.emulated import new_emulated_rig
    from rig.voice.narrator import Narrator, Synthesizer

    settings = VoiceConfig(effect="radio" if shutil.which("sox") else "plain")
    synthesizer = Synthesizer(settings, cache)
    _warm(game, players, seed, count, synthesizer)
    groups = _groups(game, players, seed, count)
    clock = _Clock()
    device = _PacedDevice()
    said: list[_Said] = []
    by_transmission: dict[int, _Said] = {}
    lock = threading.Lock()
    rig = new_emulated_rig(game, players, seed=seed)
    turns = _Turns(rig.session.state)

    def on_sound(transmission: Any, when: float) -> None:
        with lock:
            record = by_transmission.get(id(transmission.clips))
            if record is not None and record.first_sound is None:
                record.first_sound = when
                record.heard = device.opened[-1]

    shown = _Shown()

    class Recording(Synthesizer):
        """The synthesizer, noting each transmission the narrator hands over."""

        def transmission(self, text: str, *args: Any, **kwargs: Any) -> Any:
            made = super().transmission(text, *args, **kwargs)
            with lock:
                record = _Said(text, shown.at, shown.turn)
                said.append(record)
                record.clips = made.clips  # kept: the id stays this transmission's
                by_transmission[id(made.clips)] = record
            return made

    def on_say(utterance: Any) -> None:
        with lock:
            if said and said[-1].text == utterance.text and not said[-1].kind:
                said[-1].kind = utterance.kind

    shown_at: dict[int, tuple[float, int]] = {}

    class Timed(Narrator):
        """The narrator, knowing when the frame it works on was shown."""

        def frame(self, screen: Any, game: str | None = None) -> Any:
            shown.at, shown.turn = shown_at.pop(id(screen), (clock(), turns.count))
            return super().frame(screen, game)

    speaker = Speaker(device, on_sound=on_sound, clock=clock)
    narrator = Timed(settings, Recording(settings, cache), speaker, lambda: game)
    narrator.on_say = on_say

    def on_frame(screen: Any) -> None:
        shown_at[id(screen)] = (clock(), turns.seen(rig.session.state))
        narrator.post(screen)

    rig.pause = lambda seconds: clock.sleep_until(clock() + seconds)
    rig.loop.on_frame = on_frame
    rig.loop.refresh()
    for gestures in groups:
        clock.sleep_until(clock() + pace)
        for gesture in gestures:
            rig.loop.step(gesture)
        rig.settle()
    narrator.idle.wait(30)
    speaker.idle.wait(120)
    narrator.close()
    radio = synthesizer.effect == "radio"
    lead = synthesizer.squelch().seconds if radio else 0.0
    tail = synthesizer.roger_beep().seconds if radio else 0.0
    for record in said:  # the speech as the transmission plays it, between its sounds
        record.lead = lead
        record.tail = tail
        record.full = synthesizer.whole(record.text).seconds - lead - tail
    return said, turns.count + 1


def _kinds(said: list[_Said]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    kinds: dict[str, list[_Said]] = defaultdict(list)
    for record in said:
        kinds[record.kind or "?"].append(record)
    for kind, records in sorted(kinds.items()):
        lags = [r.first_sound - r.shown for r in records if r.first_sound is not None]
        cut = sum(1 for r in records if r.lost and not r.dropped)
        dropped = sum(1 for r in records if r.dropped)
        out[kind] = {
            "handed": len(records),
            "cut": cut,
            "dropped": dropped,
            "lost_words_share": rnd((cut + dropped) / len(records)),
            "seconds_p50": rnd(percentile([r.full for r in records], 50)),
            "lag_s_p50": rnd(percentile(lags, 50)) if lags else None,
            "lag_s_p95": rnd(percentile(lags, 95)) if lags else None,
        }
    return out


def _summary(said: list[_Said], turns: int) -> dict[str, Any]:
    per_turn: dict[int, list[_Said]] = defaultdict(list)
    for record in said:
        per_turn[record.turn].append(record)
    offered = [sum(r.full for r in rs) for rs in per_turn.values()]
    on_air = [sum(r.lead + r.full + r.tail for r in rs) for rs in per_turn.values()]
    words = [sum(len(r.text.split()) for r in rs) for rs in per_turn.values()]
    heard = sum(r.heard.seconds for r in said if r.heard is not None)
    lags = [r.first_sound - r.shown for r in said if r.first_sound is not None]
    must = [r for r in said if r.kind in MUST_HEAR]
    example = next((rs for t, rs in sorted(per_turn.items()) if t > 0
                    and any(r.kind == "card" for r in rs)), [])
    return {
        "utterances": len(said),
        "turns": turns,
        "must_hear": len(must),
        "must_hear_lost": sum(1 for r in must if r.lost),
        "lost_words": sum(1 for r in said if r.lost and not r.dropped),
        "dropped": sum(1 for r in said if r.dropped),
        "lag_s_p50": rnd(percentile(lags, 50)),
        "lag_s_p95": rnd(percentile(lags, 95)),
        "lag_s_max": rnd(max(lags, default=0.0)),
        "speech_s_per_turn_p50": rnd(percentile(offered, 50)),
        "speech_s_per_turn_mean": rnd(sum(offered) / max(1, len(offered))),
        "on_air_s_per_turn_p50": rnd(percentile(on_air, 50)),
        "heard_s_per_turn_mean": rnd(heard / max(1, turns)),
        "words_per_turn_p50": rnd(percentile(words, 50)),
        "kinds": _kinds(said),
        "example_turn": [f"[{r.kind}] {r.text}" for r in example],
    }


def measure(quick: bool) -> dict[str, Any]:
    """The table-pace section (skipped, saying why, without espeak-ng)."""
    if shutil.which("espeak-ng") is None:
        return {"voice_pace": {"skipped": "espeak-ng is not installed "
                                          "(apt-get install espeak-ng)"}}
    seeds = (7,) if quick else (7, 8)
    count = 30 if quick else 80
    out: dict[str, Any] = {"speed": SPEED, "acts_per_game": count, "seeds": list(seeds),
                           "effect": "radio" if shutil.which("sox") else "plain"}
    with tempfile.TemporaryDirectory(prefix="cbrig-voice-pace-") as tmp:
        cache = Path(tmp) / "voice"
        for pace in PACES:
            for game, players in GAMES:
                said: list[_Said] = []
                turns = 0
                for seed in seeds:
                    got, counted = _play(game, players, seed, count, pace, cache)
                    for record in got:
                        record.turn += turns  # each game's turns after the last's
                    said += got
                    turns += counted
                out[f"{game}@{pace:g}s"] = _summary(said, turns)
    return {"voice_pace": out}


def summary_lines(report: dict[str, Any]) -> list[str]:
    pace = report.get("voice_pace")
    if not pace:
        return []
    if "skipped" in pace:
        return [f"  voice at table pace: skipped ({pace['skipped']})"]
    lines = [f"  voice at table pace ({pace['effect']}, x{pace['speed']:g} real time, "
             f"{pace['acts_per_game']} acts a game, seeds {pace['seeds']}):"]
    for key, run in pace.items():
        if not isinstance(run, dict):
            continue
        lines.append(f"    {key:<12} must-hear lost {run['must_hear_lost']}/{run['must_hear']}, "
                     f"all cut {run['lost_words']}/{run['utterances']}, dropped "
                     f"{run['dropped']}, lag p50 {run['lag_s_p50']} s p95 "
                     f"{run['lag_s_p95']} s max {run['lag_s_max']} s, speech a turn p50 "
                     f"{run['speech_s_per_turn_p50']} s ({run['words_per_turn_p50']} words; "
                     f"{run['on_air_s_per_turn_p50']} s on the air with squelch and beep),"
                     f" heard a turn {run['heard_s_per_turn_mean']} s")
        for kind, k in run["kinds"].items():
            lines.append(f"      {kind:<8} {k['handed']:>4} said, cut {k['cut']:>3}, dropped "
                         f"{k['dropped']:>3} (lost {k['lost_words_share']:.0%}), "
                         f"{k['seconds_p50']} s each, lag p50 {k['lag_s_p50']} s "
                         f"p95 {k['lag_s_p95']} s")
        lines += [f"      a turn: {line}" for line in run["example_turn"]]
    return lines
