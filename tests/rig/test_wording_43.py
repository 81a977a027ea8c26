"""Wording faults the table met (issue 43): the last page of a paged prompt, several
lost turns on one line, and the correction menu said as the knob turns."""

from __future__ import annotations

from cbrig.game import Notice
from cbrig.games.tenfour.view import _lost_turns_as_one
from rig.screens.screen import Part, Screen, fit, page_count


def _paged_prompt(page: int) -> Screen:
    news = [Part(f"News line {n}: something the table should know now", "news")
            for n in range(5)]
    lines = (*news, Part("Red: draw a Mike card", "instruction"))
    return Screen(title="10-4  RED", lines=lines, page=page)


def test_the_last_page_of_a_paged_prompt_does_not_promise_more() -> None:
    """`cbrig demo --players 4 --seed 6` showed "2/2 turn: more" on the last page."""
    count = page_count(_paged_prompt(0))
    assert count >= 2
    footers = fit(_paged_prompt(0)).footers
    assert all(f.endswith("turn: more") for f in footers[:-1]), footers
    assert footers[-1] == f"{count}/{count} turn: back", footers


def test_several_lost_turns_are_one_line() -> None:
    lost = [Notice(f"{name} loses this turn (caught speeding)")
            for name in ("Green", "Blue", "Yellow")]
    [one] = _lost_turns_as_one(lost)
    assert one.text == "Green, Blue and Yellow lose this turn (caught speeding)"
    assert one.short == "Green, Blue and Yellow lose this turn"
    assert _lost_turns_as_one(lost[:1]) == lost[:1], "one alone is as it was"
    other = Notice("Red goes first")
    assert _lost_turns_as_one([lost[0], other, lost[1]]) == [lost[0], other, lost[1]]


def test_an_oil_slide_says_each_car_it_bumps_as_a_car() -> None:
    """The voice said "bumps Yellow track fifty-seven": a place, no car."""
    from rig.voice.speech import vocabulary_for

    said = vocabulary_for("bumpem").words(
        "Red car at T50: 3 to T53, slides to T59, bumps Green T55, Yellow T57")
    assert said.endswith("bumps Green car at track fifty-five, Yellow car at track "
                         "fifty-seven"), said
