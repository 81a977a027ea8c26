"""The voice with real audio: espeak-ng speaks, sox gives it the CB radio's sound, and
the wave module and a small FFT measure the result (duration, level, band limits); the
phrase cache; the narrator saying each moment once, cutting stale ones, quiet when told.
Short phrases only: these run in every suite."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from hardware.speaker import Clip, MockBackend, Speaker, Transmission
from rig.screens.screen import Part, Screen
from rig.voice.narrator import (
    RADIO_RATE,
    SENTENCE_PAUSE,
    Narrator,
    Synthesizer,
    VoiceControl,
    VoiceSettings,
    pcm_of_wav,
    sentences,
)
from tests.slowdown import hang, scaled
from tests.system_tools import require_commands
from tests.voice.audio import band_energy, peak, rms, samples

PHRASE = "Blue truck at Blue five: eight ahead to Blue thirteen."
BANDS = [(300, 3400), (0, 250), (3600, 11025)]


@pytest.fixture(scope="module")
def tools() -> None:
    require_commands({"espeak-ng": "espeak-ng", "sox": "sox"})


def test_the_radio_voice_is_heard_and_band_limited(tools: None, tmp_path: Path) -> None:
    """The band's gentle slopes (rig.voice.narrator.RADIO_BAND): little below 250 Hz and above
    3,600 Hz, next to nothing above 5 kHz; loud, and compressed, not clipped."""
    clip = Synthesizer(VoiceSettings(), tmp_path).clip(PHRASE)
    assert clip.rate == RADIO_RATE
    assert 1.5 < clip.seconds < 6.0, clip.seconds  # ten words at 165 a minute
    assert rms(clip) > 0.05 and 0.5 < peak(clip) < 0.9
    inside, low, high, top = band_energy(clip, [*BANDS, (5000, 8000)])
    assert low < inside / 50 and high < inside / 100, (inside, low, high)
    assert top < inside / 1000, (inside, top)


def test_every_sentence_at_one_level(tools: None, tmp_path: Path) -> None:
    """The compressor levels each sentence alike, a short one and a long one, a loud
    exclamation and a list of numbers, with no sample near full scale."""
    synthesizer = Synthesizer(VoiceSettings(), tmp_path)
    clips = [synthesizer.clip(text) for text in (
        "Ten-four.", "Bear trap! Bear bite!", "Red car at track fifty-eight:",
        "two to track sixty.", "Cotton picker in the hammer lane. Spin the low band.")]
    peaks = [peak(clip) for clip in clips]
    assert all(0.45 < p < 0.85 for p in peaks), peaks
    assert max(peaks) < 1.5 * min(peaks), peaks


def test_clips_end_at_their_sound_with_one_pause(tools: None, tmp_path: Path) -> None:
    """A sentence said now (the library) and one rendered ahead (the program, which adds
    0.3 s of silence of its own) end alike: the sound, then the sentence's pause; a
    clause before a colon gets the shorter pause."""
    from rig.voice.narrator import CLAUSE_PAUSE, SENTENCE_PAUSE

    now = Synthesizer(VoiceSettings(effect="plain"), None)
    ahead = Synthesizer(VoiceSettings(effect="plain"), None)
    ahead.in_process = False

    def silence_at_end(clip: Clip) -> float:
        values = samples(clip)
        end = len(values)
        while end and abs(values[end - 1]) < 300:
            end -= 1
        return (len(values) - end) / clip.rate

    for text, pause in (("Ten-four, good buddy.", SENTENCE_PAUSE),
                        ("Blue truck at Blue five:", CLAUSE_PAUSE)):
        for synthesizer in (now, ahead):
            tail = silence_at_end(synthesizer.clip(text))
            assert pause <= tail <= pause + 0.05, (text, tail)


def test_the_plain_voice_is_not_band_limited(tools: None, tmp_path: Path) -> None:
    """The measurement can fail: espeak-ng's own voice has energy below 250 Hz."""
    clip = Synthesizer(VoiceSettings(effect="plain"), tmp_path).clip(PHRASE)
    assert clip.rate == 22050 and 1.5 < clip.seconds < 6.0
    inside, low, _high = band_energy(clip, BANDS)
    assert low > inside / 100


def test_squelch_before_and_roger_beep_after(tools: None, tmp_path: Path) -> None:
    synthesizer = Synthesizer(VoiceSettings(), tmp_path)
    speech = synthesizer.clip("Ten-four.")
    whole = synthesizer.whole("Ten-four.")
    squelch, beep = synthesizer.squelch(), synthesizer.roger_beep()
    pause = int(speech.rate * SENTENCE_PAUSE) * 2  # the last sentence's pause: none
    assert whole.pcm == squelch.pcm + speech.pcm[:-pause] + beep.pcm
    # what was left out is the pause: silence, but for the effect's dither
    assert peak(Clip(speech.rate, speech.pcm[-pause:])) < 0.005
    assert 0.1 < squelch.seconds < 0.3 and rms(squelch) > 0.02
    # the roger beep: its energy at 1,000 and 1,500 Hz, not spread like noise
    tones, rest = band_energy(Clip(beep.rate, beep.pcm[: int(beep.rate * 0.18) * 2]),
                              [(900, 1100), (1400, 1600)], frame=256)
    assert tones > 0 and rest > 0
    everything = band_energy(beep, [(0, 8000)], frame=256)[0]
    assert tones + rest > 0.8 * everything


def test_a_cached_phrase_is_not_made_again(tools: None, tmp_path: Path) -> None:
    first = Synthesizer(VoiceSettings(), tmp_path)
    clip = first.clip("Ten-four.")
    assert first.renders == 1
    later = Synthesizer(VoiceSettings(), tmp_path)  # a restarted rig, same state directory
    assert later.cached("Ten-four.") and later.clip("Ten-four.") == clip
    assert later.renders == 0
    other = Synthesizer(VoiceSettings(rate=200), tmp_path)  # another voice: its own key
    assert not other.cached("Ten-four.")
    assert not list(tmp_path.glob(".*.tmp")), "a temporary file was left"
    assert all(pcm_of_wav(p.read_bytes()).rate == RADIO_RATE for p in tmp_path.glob("*.wav"))


def test_a_cache_that_cannot_be_written_is_said_once(tools: None, tmp_path: Path,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    blocked = tmp_path / "a file"
    blocked.write_text("not a directory")
    synthesizer = Synthesizer(VoiceSettings(), blocked / "voice")
    with caplog.at_level(logging.WARNING):
        one = synthesizer.clip("Ten-four.")
        two = synthesizer.clip("Ten-four.")
    assert synthesizer.renders == 2  # no cache: made again, still said
    assert abs(one.seconds - two.seconds) < 0.05 and one.rate == two.rate
    assert len([r for r in caplog.records if "voice cache off" in r.message]) == 1


def test_the_library_and_the_program_say_the_same(tools: None, tmp_path: Path) -> None:
    """A phrase wanted now comes from libespeak-ng in the rig's process (no program to
    start); the program (renders ahead) says the same sentence alike."""
    from rig.voice.espeak import library

    assert library() is not None
    fast = Synthesizer(VoiceSettings(effect="plain"), None)
    slow = Synthesizer(VoiceSettings(effect="plain"), None)
    slow.in_process = False
    one, two = fast.clip("Ten-four, good buddy."), slow.clip("Ten-four, good buddy.")
    assert one.rate == two.rate == 22050

    def spoken(clip: Clip) -> tuple[int, int]:
        """First and last sample above the noise (the program adds a trailing pause)."""
        loud = [i for i, v in enumerate(samples(clip)) if abs(v) > 300]
        return loud[0], loud[-1]

    (start, end), (start2, end2) = spoken(one), spoken(two)
    # the same words at the same rate: the same span within 5% (the library's prosody
    # varies a little with what it said before)
    assert abs(start - start2) < 441 and abs(end - end2) < 0.05 * (end2 - start2)
    assert end - start > 0.8 * one.rate


def test_no_synthesizer_is_a_clear_problem(tmp_path: Path) -> None:
    synthesizer = Synthesizer(VoiceSettings(), tmp_path)
    synthesizer.espeak = None
    assert "espeak-ng is not installed" in synthesizer.problem()


def test_sentences() -> None:
    assert sentences("Bear bite! Blue truck caught. Ten-four.") == [
        "Bear bite!", "Blue truck caught.", "Ten-four."]


# -- the narrator ------------------------------------------------------------------------


class Quick(Synthesizer):
    """No synthesis: each utterance is a tiny tone (the narrator's choices are tested)."""

    def transmission(self, text: str, volume: float) -> Transmission:
        return Transmission(text, [lambda: Clip(8000, b"\x10\x00" * 80)], volume)


def narrator(settings: VoiceSettings | None = None) -> tuple[Narrator, MockBackend]:
    settings = settings or VoiceSettings()
    backend = MockBackend()
    speaker = Speaker(backend)
    return Narrator(settings, Quick(settings, None), speaker, lambda: "tenfour"), backend


PROMPT = Screen(title="10-4  RED", lines=(Part("Red: draw a Mike card", "instruction"),))
REFUSED = Screen(title="10-4  RED", lines=(Part("! Spin the HI knob", "refusal"),
                                           *PROMPT.lines))
SPIN = Screen(title="10-4  RED", big="7", lines=("spinning...",))
MOVED = Screen(title="10-4  RED", big="MOVE 7",
               lines=(Part("Red truck at R1: 7 ahead to R8", "result"),), footer="press: ok")


def test_each_moment_is_said_once() -> None:
    voice, _backend = narrator()
    said = [voice.frame(s) for s in (PROMPT, PROMPT, REFUSED, PROMPT, SPIN, SPIN, MOVED,
                                     MOVED)]
    assert voice.speaker is not None
    voice.speaker.close()
    texts = [u.text if u else None for u in said]
    assert texts == ["Red: draw a Mike card.", None, "Spin the high knob.", None, None, None,
                     "Red truck: seven ahead to Red eight.", None]


def test_a_silent_moment_cuts_the_stale_prompt() -> None:
    """The prompt lasts a hang deadline: only a cut ends it before then, at any load."""
    length = int(8000 * hang())
    backend = MockBackend(realtime=True)
    speaker = Speaker(backend)

    class Long(Synthesizer):
        def transmission(self, text: str, volume: float) -> Transmission:
            return Transmission(text, [lambda: Clip(8000, b"\x10\x00" * length)], volume)

    voice = Narrator(VoiceSettings(), Long(VoiceSettings(), None), speaker, lambda: "tenfour")
    voice.frame(PROMPT)
    assert backend.sounding.wait(hang())
    voice.frame(SPIN)  # the player flicked the knob: the prompt is stale
    assert speaker.idle.wait(hang())
    speaker.close()
    [played] = backend.played
    assert played.cut and played.seconds < length / 8000  # cut, however long the cut took


def test_the_events_setting_and_the_switch() -> None:
    voice, _backend = narrator(VoiceSettings(events=("move",)))
    assert voice.frame(PROMPT) is None
    assert voice.frame(MOVED) is not None
    voice.control.toggle()
    assert voice.frame(PROMPT) is None and voice.frame(MOVED) is None
    assert voice.speaker is not None
    voice.speaker.close()


def test_volume_from_the_control() -> None:
    control = VoiceControl(volume=80)
    control.louder()
    assert control.volume == 100
    control.louder()
    assert control.volume == 20


def test_the_selftest_phrase_plays(tools: None, tmp_path: Path) -> None:
    from rig.voice.narrator import TEST_PHRASE, speak_test

    backend = MockBackend()
    assert speak_test(VoiceSettings(), tmp_path, backend=backend) == ""
    [played] = backend.played
    assert played.key == TEST_PHRASE and played.finished and played.seconds > 2.0
    backend.fail = "no such device"
    assert speak_test(VoiceSettings(), tmp_path, backend=backend) == "no such device"


def test_the_demo_narrates(capsys: pytest.CaptureFixture[str]) -> None:
    """`cbrig demo --voice`: every announcement after its screen, as it is said (here,
    with no sound output, printed only, which it says once)."""
    from rig.cli import main

    assert main(["demo", "--fast", "--voice", "--seed", "3", "--players", "3"]) == 0
    out = capsys.readouterr().out
    said = [line for line in out.splitlines() if line.startswith("(voice)")]
    assert said[0] == '(voice) "Red: spin for start."'
    assert '(voice) "Red truck: five ahead to Red six."' in said
    assert said[-1].startswith('(voice) "Ten-four') and "wins" in said[-1]
    assert out.count("(voice: ") <= 1


def test_clips_join_without_a_click(tools: None, tmp_path: Path) -> None:
    """Each clip fades in and out: where two meet the signal does not jump."""
    from tests.voice.audio import samples

    synthesizer = Synthesizer(VoiceSettings(), tmp_path)
    for clip in (synthesizer.clip("Blue truck at Blue five:"), synthesizer.squelch(),
                 synthesizer.roger_beep()):
        values = samples(clip)
        assert max(abs(v) for v in values[:3]) < 400, "a click as it starts"
        assert max(abs(v) for v in values[-3:]) < 400, "a click as it ends"


def test_the_cards_are_rendered_ahead(tools: None, tmp_path: Path) -> None:
    """What a game will say anyway (every Mike card read aloud) is cached before its
    moment, at low priority, so that a card's prompt costs no synthesis."""
    import json

    from rig.gamebuild import build_game
    from rig.voice.speech import vocabulary_for

    game = build_game("tenfour", players=3)
    likely = vocabulary_for("tenfour").likely(game)
    assert len(likely) == len(game.deck.cards) + 1  # type: ignore[attr-defined]
    synthesizer = Synthesizer(VoiceSettings(), tmp_path)
    thread = synthesizer.warm(likely)
    assert thread is not None
    thread.join(scaled(1800))  # ends a hang only: the low-priority warm-up of ~40 clips
    assert not thread.is_alive(), "the warm-up did not finish"  # took > 120 s at load 20
    assert all(synthesizer.cached(text) for text in likely)
    golden = json.loads((Path(__file__).parent / "golden_speech.json").read_text())
    card_prompt = golden["tenfour"]["prompt card"]["says"]  # the card, then the knob
    card = [s for s in likely if card_prompt.startswith(s)]
    assert card, card_prompt
    later = Synthesizer(VoiceSettings(), tmp_path)
    later.clip(sentences(card_prompt)[0])
    assert later.renders == 0


def test_the_loop_only_posts_the_screen() -> None:
    """`post` hands the screen to the narrator's thread, which says it."""
    voice, backend = narrator()
    voice.post(PROMPT)
    assert voice.idle.wait(hang()) and voice.speaker is not None and voice.speaker.idle.wait(hang())
    voice.post(PROMPT)  # the same moment again: nothing new
    assert voice.idle.wait(hang()) and voice.speaker.idle.wait(hang())
    voice.close()
    assert [p.key for p in backend.played] == ["Red: draw a Mike card."]
    assert [u.text for u in voice.said] == ["Red: draw a Mike card."]
