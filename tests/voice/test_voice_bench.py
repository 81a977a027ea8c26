"""`cbrig bench` reports the voice: frame to first sound (cached, uncached), and the
loop's CPU per input with the voice on beside off, with the Pi Zero 2 W estimate."""

from __future__ import annotations

from bench import voice
from bench.runner import summary
from tests.system_tools import require_commands


def test_the_voice_section() -> None:
    require_commands({"espeak-ng": "espeak-ng", "sox": "sox"})
    report = voice.measure(quick=True)
    section = report["voice"]
    assert section["effect"] == "radio" and section["utterances"] >= 5
    sound, word = section["frame_to_first_sound_ms"], section["frame_to_first_word_ms"]
    for figures in (sound, word):
        assert figures["cached"]["n"] == figures["uncached"]["n"] == section["utterances"]
    # a cached first word needs no synthesis: it comes sooner than a new one
    assert word["cached"]["p50"] < word["uncached"]["p50"]
    for key in ("input_to_frame_cpu_ms_voice_off", "input_to_frame_cpu_ms_voice_on"):
        assert section[key]["n"] > 100
    report.update({"calibration_ms": 4.5, "calibration_runs_ms": [4.5],
                   "calibration_speed_vs_reference": 1.0,
                   "mode": "quick", "machine": {
        "cpu_model": "x", "python": "3", "pinned_cpu": 0}})
    estimate = voice.pi_estimate(report)
    assert estimate is not None and estimate["factor"] == 10.0
    assert estimate["frame_to_first_sound_ms_p50"]["cached"] == \
        round(sound["cached"]["p50"] * 10, 4)
    section["pi_zero_2w_estimate"] = estimate
    assert "Pi Zero 2 W (x10.0): first sound p50 cached" in summary(report)
