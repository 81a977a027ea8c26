"""Every choice a person makes fits a listener who browses at 3 s a gesture (issue 43).

The bench's person (bench.voice_pace, "browses") turns the knob one step a gesture: the
choice's prompt must be heard whole before the first turn, and each option under the
knob before the next. So every brief prompt and every option the knob says, in every
choice of the bench's seeded games (its own seeds and the held-out shape, both games,
2 and 3 players, computer seats), takes at most `OPTION_MOST_SECONDS` of speech with
the real radio voice (without its squelch and roger beep, as the bench counts it).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bench import voice_pace
from rig.core.autopilot import gestures_for
from rig.screens.screen import Part, Screen
from rig.voice.narrator import Synthesizer, VoiceSettings
from rig.voice.speech import OPTION_MOST_SECONDS, highlighted, utterance, vocabulary_for
from tests.system_tools import require_commands
from valueclass import replace

SHAPES = [(game, players, seed, None) for game, players in voice_pace.GAMES
          for seed in (7, 8)]
SHAPES += [(game, players, seed, seats) for game, players, seats, seeds in voice_pace.HELD_OUT
           for seed in seeds]


def _said(game: str, players: int, seed: int, seats: str | None) -> tuple[set[str], set[str]]:
    """The brief prompts and the options under the knob of every person's choice in the
    first 80 acts of a seeded game, as the bench's person plays it."""
    rig = voice_pace._rig(game, players, seed, seats)
    rng = random.Random(seed)
    vocabulary = vocabulary_for(game)
    for _ in range(80):
        if rig.session.state.is_terminal():
            break
        for step in voice_pace._browse(gestures_for(rig.controller, rng), rig):
            for gesture in step:
                rig.loop.step(gesture)
            rig.settle()
    prompts: set[str] = set()
    options: set[str] = set()
    for screen in rig.screens:
        if voice_pace._screen_choice(screen) != "human":
            continue
        said = utterance(screen, vocabulary)
        if said is not None and said.kind == "choice":
            prompts.add(said.text)
        for at in range(len(screen.menu)):
            option = highlighted(replace(screen, cursor=at), vocabulary)
            if option is not None:
                options.add(option.text)
    return prompts, options


def test_every_seeded_choice_and_option_fits_one_gesture(tmp_path: Path) -> None:
    require_commands({"espeak-ng": "espeak-ng", "sox": "sox"})
    prompts: set[str] = set()
    options: set[str] = set()
    for shape in SHAPES:
        said, knob = _said(*shape)
        prompts |= said
        options |= knob
    assert len(prompts) > 20 and len(options) > 100, (len(prompts), len(options))
    assert not any(option[:1].isupper() and option.split(":")[0].lower() in (
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
        for option in options), "an option's number is said only where two say the same"
    synthesizer = Synthesizer(VoiceSettings(effect="radio"), tmp_path)
    around = synthesizer.squelch().seconds + synthesizer.roger_beep().seconds
    too_long = {text: round(synthesizer.whole(text).seconds - around, 2)
                for text in sorted(prompts | options)}
    too_long = {text: seconds for text, seconds in too_long.items()
                if seconds > OPTION_MOST_SECONDS}
    assert not too_long, too_long


@pytest.mark.parametrize(("item", "said"), [
    ("Red car at T8: 1 to T9, Red car at T10: 7 to T17", "Track eight to nine, ten to seventeen."),
    ("Red car at T46: 9 back to T37", "Track forty-six back to thirty-seven."),
    ("Red car at T11: 6 back to T5, bumps Red", "Track eleven back to five bumps Red."),
    ("Red car at T19: 6 to T25, slides to T31, bumps Green T27, Yellow T29",
     "Track nineteen slides to thirty-one bumps Green and Yellow."),
    ("Yellow car in pit onto Red car at T37", "Pit to Red car at track thirty-seven."),
    ("Red car at T9: 3 to T12, zooms Blue car at T12", "Track nine to twelve zooms Blue."),
    ("Red car at T9: swap with Blue car at T20", "Track nine swaps with Blue at twenty."),
])
def test_bump_em_options_say_which_car_goes_where_short(item: str, said: str) -> None:
    """Which car (where it stands), where it goes, and whom it bumps, in the fewest words
    (RULINGS G4): the track named once, the player's colour and the count left to the
    prompt."""
    screen = Screen(title="BUMP 'EM  RED", lines=(Part("Red drew 8: choose a move",
                                                       "instruction"),),
                    menu=(item, "Red car at T1: 8 to T9"))
    option = highlighted(screen, vocabulary_for("bumpem"))
    assert option is not None and option.text == said
