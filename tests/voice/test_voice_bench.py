"""`cbrig bench` reports the voice: frame to first sound (cached, uncached), and the
loop's CPU per input with the voice on beside off, with the Pi Zero 2 W estimate."""

from __future__ import annotations

import random
from pathlib import Path

from bench import voice, voice_pace
from bench.runner import summary
from hardware.events import KnobPress, KnobTurn
from rig.core.autopilot import gestures_for
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


def test_the_table_pace_section(tmp_path: Path) -> None:
    """`cbrig bench --only voice_pace`, a few acts of one seeded game: each utterance is
    recorded with its kind, its length and what the device heard of it; whatever the
    machine's load, no must-hear utterance loses words (the speaker never cuts one)."""
    require_commands({"espeak-ng": "espeak-ng", "sox": "sox"})
    said, turns = voice_pace._play("tenfour", 3, 7, 12, 2.0, tmp_path / "voice")
    assert said and turns > 1
    assert all(record.kind and record.full > 0 for record in said)
    summary = voice_pace._summary(said, turns)
    assert summary["must_hear"] > 0 and summary["must_hear_lost"] == 0
    assert set(summary["kinds"]) >= {"card", "move", "turn"}
    lines = voice_pace.summary_lines({"voice_pace": {
        "effect": "radio", "speed": voice_pace.SPEED, "acts_per_game": 12, "seeds": [7],
        "tenfour@2s": summary}})
    assert any("must-hear lost 0/" in line for line in lines)


def _record(full: float, heard: float, first: float, pick: float | None,
            history: float = 0.0) -> voice_pace._Said:
    record = voice_pace._Said("Red: two choices. Red truck: Red one to Red seven.", 0.0, 1,
                              act=1, choice="human")
    record.kind, record.full, record.history, record.pick = "choice", full, history, pick
    record.first_sound = first
    record.heard = voice_pace._Heard(1000)
    record.heard.samples = int(heard * 1000)
    return record


def test_a_choice_counts_as_heard_only_when_its_last_word_came_before_the_pick() -> None:
    """Issue 43's count for the brief form: heard whole before the pick, or late (its
    end after the pick), or cut at the pick (made: the rest is history), or lost."""
    on_time = _record(full=3.0, heard=3.0, first=0.5, pick=4.0)
    assert on_time.heard_by_pick and not on_time.late and not on_time.cut_at_pick
    late = _record(full=3.0, heard=3.0, first=1.5, pick=4.0)
    assert late.late and not late.heard_by_pick
    cut = _record(full=3.0, heard=2.0, first=2.0, pick=4.0)
    assert cut.lost and cut.cut_at_pick and not cut.heard_by_pick
    early = _record(full=3.0, heard=1.0, first=0.5, pick=4.0)
    assert early.lost and not early.cut_at_pick, "cut before the pick: lost"
    summary = voice_pace._kinds([on_time, late, cut, early])["choice"]
    assert (summary["heard_by_pick"], summary["late"], summary["cut_at_pick"],
            summary["lost_before_pick"]) == (1, 1, 1, 1)


def test_a_cards_instruction_left_out_is_not_lost_words() -> None:
    card = _record(full=6.0, heard=3.5, first=0.0, pick=None, history=2.5)
    card.kind, card.choice = "card", ""
    assert not card.lost, "the card itself was heard whole"
    card.heard = voice_pace._Heard(1000)
    card.heard.samples = 3000
    assert card.lost, "less than the card itself"


def test_the_benchs_person_browses_one_knob_step_a_gesture_then_presses() -> None:
    """At a person's choice the bench's person turns the knob one step a gesture to the
    option the autopilot picks (at least one step, so an option is heard by the knob),
    and presses a gesture later; the game played is the same either way."""
    rig = voice_pace._rig("tenfour", 2, 41, None)
    rng = random.Random(41)
    browsed = 0
    for _ in range(60):
        if rig.session.state.is_terminal():
            break
        gestures = gestures_for(rig.controller, rng)
        steps = voice_pace._browse(gestures, rig)
        count = len(rig.controller.choices()) if not rig.session.state.is_chance_node() \
            and rig.controller.alert is None else 0
        if len(steps) > 1:
            browsed += 1
            assert count >= 2
            assert all(len(s) == 1 and isinstance(s[0], KnobTurn) and abs(s[0].steps) == 1
                       for s in steps[:-1]), steps
            assert steps[-1] == [KnobPress("hi")]
            turned = sum(s[0].steps for s in steps[:-1])
            wanted = sum(g.steps for g in gestures if isinstance(g, KnobTurn))
            assert (turned - wanted) % count == 0, (steps, gestures)
            assert len(steps) - 1 <= max(2, count // 2 + 1)
        else:
            assert steps == [gestures]
        for step in steps:
            for gesture in step:
                rig.loop.step(gesture)
            rig.settle()
    assert browsed >= 3, "the two-player game offered few choices"
