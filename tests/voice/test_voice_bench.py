"""`cbrig bench` reports the voice: frame to first sound (cached, uncached), and the
loop's CPU per input with the voice on beside off, with the Pi Zero 2 W estimate."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

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
    assert all(record.kind and record.full > 0 for record in said
               if record.kind not in voice_pace.PICKS)
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


class _StandInClock:
    """Table time that moves only when slept on; `events` (time, what) happen as it
    passes them, in order."""

    def __init__(self, events: list[tuple[float, Callable[[], None]]]) -> None:
        self.now = 0.0
        self.events = sorted(events, key=lambda e: e[0])

    def __call__(self) -> float:
        return self.now

    def sleep_until(self, when: float) -> None:
        self.now = max(self.now, when)
        while self.events and self.events[0][0] <= self.now:
            self.events.pop(0)[1]()


def _on_air(record: voice_pace._Said) -> None:
    record.heard = voice_pace._Heard(1000)
    record.first_sound = 0.0


def _ends(record: voice_pace._Said, cut: bool = False) -> Callable[[], None]:
    def end() -> None:
        assert record.heard is not None
        record.heard.cut, record.heard.finished = cut, not cut
    return end


def test_a_listener_acts_at_the_pace_or_once_the_choice_said_so_far_has_ended() -> None:
    """`--person listens` (issue 43 item 2): an act on a choice screen comes a gesture
    after the act before, or once the prompt and the option under the knob have ended
    as a listener hears them end (played out or cut), whichever is later; one that will
    never start (the voice is quiet) is not waited for; the wait has an end."""
    prompt = voice_pace._Said("Red: four choices.", 0.0, 1, act=1, choice="human")
    option = voice_pace._Said("Smokey one, Blue trap.", 0.0, 1, act=2, choice="human")
    # both over before the gesture is due: the plain pace
    _on_air(prompt), _on_air(option)
    clock = _StandInClock([(1.0, _ends(prompt)), (2.5, _ends(option, cut=True))])
    assert voice_pace._listen(3.0, lambda: [prompt, option], clock, lambda: True) == (3.0, 0.0)
    # the prompt still on the air when due (behind an alert): the act waits for its end
    prompt = voice_pace._Said("Red: four choices.", 0.0, 1, act=1, choice="human")
    _on_air(prompt)
    clock = _StandInClock([(7.3, _ends(prompt))])
    at, extra = voice_pace._listen(3.0, lambda: [prompt], clock, lambda: False)
    assert extra == at - 3.0
    assert 7.3 <= at <= 7.3 + 2 * voice_pace.LISTEN_POLL
    # not started yet: waits while the voice speaks, not once it is quiet (dropped)
    waiting = voice_pace._Said("Red: four choices.", 0.0, 1, act=1, choice="human")
    quiet = {"now": False}
    clock = _StandInClock([(5.0, lambda: quiet.update(now=True))])
    at, extra = voice_pace._listen(3.0, lambda: [waiting], clock, lambda: quiet["now"])
    assert extra == at - 3.0
    assert 5.0 <= at <= 5.0 + 2 * voice_pace.LISTEN_POLL
    # said by a merged transmission: over when that one is
    merged = voice_pace._Said("Red: four choices.", 0.0, 1, act=1, choice="human")
    into = voice_pace._Said("Catch, then Red chooses.", 0.0, 1, act=1, choice="human")
    merged.merged_into = into
    _on_air(into)
    clock = _StandInClock([(4.0, _ends(into))])
    at, extra = voice_pace._listen(3.0, lambda: [merged], clock, lambda: False)
    assert extra == at - 3.0
    assert 4.0 <= at <= 4.0 + 2 * voice_pace.LISTEN_POLL
    # never over, never quiet: the wait ends
    stuck = voice_pace._Said("Red: four choices.", 0.0, 1, act=1, choice="human")
    _on_air(stuck)
    clock = _StandInClock([])
    at, extra = voice_pace._listen(3.0, lambda: [stuck], clock, lambda: False, most=2.0)
    assert extra == at - 3.0
    # the cost a choice: the seconds past the pace; looking once is not a wait
    figures = voice_pace._waits([0.001, 0.5, 3.0])
    assert (figures["choices"], figures["waited"], figures["added_s_max"]) == (3, 2, 3.0)
    assert 5.0 <= at <= 5.0 + 2 * voice_pace.LISTEN_POLL


def test_the_listeners_acts_are_the_browsers_with_each_choice_known(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The listener plays the same gestures as the browsing person; each act on a
    person's choice screen is known with the act that showed the choice, and each
    browsed choice's press."""
    browsed, _ = voice_pace._groups("tenfour", 2, 41, 60)
    monkeypatch.setattr(voice_pace, "PERSON", "listens")
    listened, acts = voice_pace._groups("tenfour", 2, 41, 60)
    assert listened == browsed
    assert len(acts.presses) >= 3 and acts.presses <= set(acts.choice)
    for act, shown_by in acts.choice.items():
        assert shown_by < act and all(acts.choice[a] == shown_by
                                      for a in range(shown_by + 1, act + 1))
        assert isinstance(listened[act - 1][-1], KnobTurn | KnobPress)
    for press in acts.presses:
        assert listened[press - 1] == [KnobPress("hi")]
        assert isinstance(listened[press - 2][0], KnobTurn)


def test_the_listener_never_acts_before_the_choice_said_has_ended(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """At the table's pace with the real voice, the listening person's first act on a
    choice comes only after its prompt ended, and the press only after the option it
    picks ended; what that cost is counted per choice."""
    require_commands({"espeak-ng": "espeak-ng", "sox": "sox"})
    monkeypatch.setattr(voice_pace, "PERSON", "listens")
    waits: list[float] = []
    said, turns = voice_pace._play("tenfour", 2, 41, 16, 2.0, tmp_path / "voice",
                                   waits=waits)
    prompts = [r for r in said if r.label == "choice" and r.pick is not None]
    presses = [r for r in said if r.kind == "press"]
    assert prompts and presses and len(waits) >= len(presses)
    for record in prompts + [p.picked_option for p in presses if p.picked_option]:
        over = record.merged_into or record
        assert record.pick is not None
        if over.heard is not None and over.first_sound is not None:
            assert over.first_sound + over.heard.seconds <= record.pick + 0.05, record.text
    summary = voice_pace._summary(said, turns, waits)
    assert summary["listener"]["choices"] == len(waits) and summary["must_hear_lost"] == 0
    assert summary["kinds"]["option"]["presses"] == len(presses)
