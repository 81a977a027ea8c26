"""A choice is heard before it is made, and a fast table hears what is queued in fewer
words (issue 43; RULINGS G6 revised).

- A person's choice (police moves, the two-player truck, Bump 'Em's moves) is said with
  its options, short and grouped, as must-hear speech: browsing it with the knob says
  the option under the knob (routine) and never cuts the list.
- A computer seat's choice is said as its result, never read out as its menu.
- When must-hear speech queues up behind must-hear speech, it is said in fewer words
  ("Red to Red nine. Blue to Blue four."), never as a history.
- 10-Four's "Ten-four." is said only in silent time: it yields to whatever follows.

No sleeps: a gated device holds each transmission until the test lets it go.
"""

from __future__ import annotations

import random
import re
from functools import partial

from hardware.speaker import Transmission
from rig.core.autopilot import gestures_for
from rig.core.computer import seat_for
from rig.core.controller import Seat
from rig.desktop.emulated import new_emulated_rig
from rig.screens.screen import Part, Screen
from rig.voice.narrator import Narrator, VoiceSettings, sentences
from rig.voice.speech import (
    MUST_HEAR,
    OPTION,
    Utterance,
    acted_on,
    highlighted,
    merged,
    number_words,
    utterance,
    vocabulary_for,
)
from tests.slowdown import hang
from tests.voice.test_priorities import RATE, GatedDevice, Speaker, Tones, tone

TENFOUR = vocabulary_for("tenfour")
BUMPEM = vocabulary_for("bumpem")


def _screens(game: str, players: int, seed: int, levels: list[str],
             acts: int = 400) -> list[Screen]:
    """Every screen of a seeded game's first acts, as the autopilot plays it."""
    seats = [Seat() if level == "human" else seat_for(game, level, seed=seed + i)
             for i, level in enumerate(levels)]
    rig = new_emulated_rig(game, players, seed=seed, seats=seats)
    rng = random.Random(seed)
    for _ in range(acts):
        if rig.session.state.is_terminal():
            break
        gestures = gestures_for(rig.controller, rng)
        for gesture in gestures:
            rig.loop.step(gesture)
        rig.settle()
    return rig.screens


def test_a_persons_police_choice_is_said_with_its_options_as_must_hear() -> None:
    screens = _screens("tenfour", 3, 44, ["human"] * 3)
    police = [s for s in screens if s.menu and any("Smokey" in m for m in s.menu)
              and "in the Bear Trap" in " ".join(s.menu)]
    assert police, "no police move came up in this seeded game"
    for screen in police:
        said = utterance(screen, TENFOUR, "all")
        assert said is not None and said.kind == "choice" and "choice" in MUST_HEAR
        assert "break one nine" not in said.text.lower(), "the breaker said it with the card"
        assert len(said.text.split()) <= 24, said.text  # it was 45 to 60 words
        assert "Smokey one:" in said.text or "choices: turn the knob" in said.text, said.text
    few = Screen(title="10-4  RED", lines=(
        Part("Red: BREAK ONE NINE! Move a Smokey or the Bear", "instruction"),), menu=(
        "Smokey 1 in the Bear Trap on Blue: 10 to B19",
        "Smokey 1 in the Bear Trap on Blue: 10 to Y3 by short cut",
        "Bear to the Red route", "Bear to the Green route"))
    said = utterance(few, TENFOUR, "all")
    assert said == Utterance("Red: move a Smokey or the Bear: Smokey one: Blue nineteen, or "
                             "Yellow three; or Bear: Red or Green route.", "choice")


def test_the_two_player_truck_choice_says_which_truck_from_where_to_where() -> None:
    """Issue 43: "Red: move either truck three" said neither which trucks, nor from
    where, nor to where."""
    screens = _screens("tenfour", 2, 41, ["human"] * 2, acts=60)
    either = [s for s in screens if s.menu and "either truck" in s.plain()]
    assert len(either) > 3
    for screen in either:
        said = utterance(screen, TENFOUR, "all")
        assert said is not None and said.kind == "choice"
        for item in screen.menu:  # "Red truck at R1: 6 to R7", "..., caught!"
            found = re.match(r"^(\w+) truck at (\w+): \d+ to (\w+)", item)
            assert found is not None, item
            truck, start, end = found.groups()
            assert truck in said.text, said.text
            assert f"{TENFOUR.words(start)} to {TENFOUR.words(end)}" in said.text, said.text


def test_the_same_move_for_either_truck_is_said_once() -> None:
    screen = Screen(title="10-4  RED", lines=(Part("Red: move either truck 6", "instruction"),),
                    menu=("Red truck at R1: 6 to R7", "Green truck at R1: 6 to R7"))
    said = utterance(screen, TENFOUR, "all")
    assert said == Utterance("Red: move either truck six. Red or Green truck: Red one to Red "
                             "seven.", "choice")


def test_bump_em_moves_are_said_short() -> None:
    screen = Screen(title="BUMP 'EM  RED", lines=(
        Part("Red drew 1: choose a move", "instruction"),),
        menu=("Red car at T9: 1 to T10", "Red car in pit enters at T5"))
    said = utterance(screen, BUMPEM, "all")
    assert said == Utterance("Red drew one: choose a move. Track nine to track ten; or pit "
                             "to track five.", "choice")


def test_a_long_list_says_how_many_and_the_knob_says_each() -> None:
    menu = tuple(f"Red car at T{n}: 8 to T{n + 8}" for n in range(1, 12))
    screen = Screen(title="BUMP 'EM  RED", lines=(
        Part("Red drew 8: choose a move", "instruction"),), menu=menu)
    said = utterance(screen, BUMPEM, "all")
    assert said is not None and said.text.endswith(
        "Eleven choices: turn the knob to hear each."), said.text


def test_a_computer_seats_choice_is_said_as_its_result_never_its_menu() -> None:
    """Issue 43: the voice read a computer's options for 16 s and never said its pick."""
    screens = _screens("tenfour", 3, 44, ["human", "easy", "human"])
    computer = [i for i, s in enumerate(screens)
                if s.menu and any(p.role == "cpu" for p in s.parts())]
    assert computer, "the computer seat made no choice in this seeded game"
    for at in computer:
        said = utterance(screens[at], TENFOUR)
        assert said is None or (said.kind == "turn" and not any(
            TENFOUR.words(TENFOUR.option(item)) in said.text for item in screens[at].menu))
        result = next(utterance(s, TENFOUR) for s in screens[at + 1:]
                      if not s.menu and utterance(s, TENFOUR) is not None)
        assert result is not None and result.kind in ("police", "alert"), result


CHOICE = Screen(title="10-4  RED", lines=(
    Part("Red: BREAK ONE NINE! Move a Smokey or the Bear", "instruction"),), menu=(
    "Smokey 1 in the Bear Trap on Blue: 10 to B19",
    "Smokey 1 in the Bear Trap on Blue: 10 to Y3 by short cut",
    "Bear to the Red route"))


def _turned(screen: Screen, cursor: int) -> Screen:
    return Screen(title=screen.title, lines=screen.lines, menu=screen.menu, cursor=cursor)


def test_a_knob_turn_says_the_option_under_it_and_never_cuts_the_list() -> None:
    device = GatedDevice()
    voice = Narrator(VoiceSettings(), Tones(), Speaker(device), lambda: "tenfour")
    listed = voice.frame(CHOICE)
    assert listed is not None and listed.kind == "choice"
    device.wait_on_air()
    first = voice.frame(_turned(CHOICE, 1))  # browsing while the list is said
    second = voice.frame(_turned(CHOICE, 2))
    assert first == Utterance("Smokey one, Yellow three.", OPTION)
    assert second == Utterance("Bear, Red route.", OPTION)
    device.release()
    assert voice.speaker is not None and voice.speaker.idle.wait(hang())
    voice.close()
    assert device.played() == [listed.text, second.text], "the newest option, after the list"
    assert device.whole(listed.text), "browsing never cut the list"


def test_turning_back_to_the_same_choice_redrawn_says_nothing_new() -> None:
    device = GatedDevice()
    device.release()
    voice = Narrator(VoiceSettings(), Tones(), Speaker(device), lambda: "tenfour")
    voice.frame(CHOICE)
    assert voice.frame(CHOICE) is None, "the same screen redrawn"
    voice.close()


def _moved(line: str) -> Screen:
    return Screen(title="10-4  RED", big="MOVE 3", lines=(Part(line, "result"),),
                  footer="press: ok")


def test_a_voice_fallen_behind_says_what_is_queued_in_fewer_words() -> None:
    """Issue 43: at 2 s a gesture the voice ran 8-15 s behind and read out history."""
    device = GatedDevice()
    voice = Narrator(VoiceSettings(), Tones(), Speaker(device), lambda: "tenfour")
    told: list[tuple[list[str], Utterance]] = []
    voice.on_merge = lambda texts, short: told.append((texts, short))
    voice.frame(_moved("Red truck at R1: 3 ahead to R4"))
    device.wait_on_air()  # the device is slow: what follows queues up
    voice.frame(_moved("Blue truck at B1: 3 ahead to B4"))
    voice.frame(_moved("Green truck at G1: 8 ahead to G9"))
    device.release()
    assert voice.speaker is not None and voice.speaker.idle.wait(hang())
    voice.close()
    short = "Blue to Blue four. Green to Green nine."
    assert device.played()[0] == "Red truck: three ahead to Red four."
    assert short in device.played() and device.whole(short)
    assert told == [(["Blue truck: three ahead to Blue four."],  # behind: said in brief
                      Utterance("Blue to Blue four.", "move")),
                     (["Blue to Blue four.", "Green truck: eight ahead to Green nine."],
                      Utterance(short, "move"))]  # and what came next, with it
    assert voice.speaker.merged == 3


def test_merged_says_each_fact_short_and_leaves_out_a_card_its_move_follows() -> None:
    queued = [Utterance("Big Brother up ahead. Spin the low band.", "card"),
              Utterance("Red truck: nine ahead to Red nine.", "move"),
              Utterance("Bear bite! Blue truck: two ahead to Yellow three. Caught by Smokey "
                        "two: to the side of the road, loses next turn.", "alert"),
              Utterance("Smokey two in the Bear Trap on Blue: ten by the short cut between "
                        "Blue sixteen and Yellow two, to Yellow three.", "police")]
    short = merged(TENFOUR, queued)
    assert short is not None and short.kind == "alert"
    assert short.text == ("Red to Red nine. Bear bite! Blue to Yellow three. Caught by Smokey "
                          "two, loses next turn. Smokey two to Yellow three.")
    choice = Utterance("Red: move a Smokey or the Bear: Smokey one: Red nineteen; or Bear: "
                       "Green route.", "choice")
    kept = merged(TENFOUR, [queued[1], choice])
    assert kept is not None and kept.text.endswith(choice.text), "a choice is said whole"
    newest = merged(TENFOUR, [queued[1], queued[0]])
    assert newest is not None and newest.text.endswith(queued[0].text), "what to spin"
    assert merged(TENFOUR, queued[:1]) is None, "one waiting: nothing to merge"
    bump = merged(BUMPEM, [Utterance("Blue draws four. Cannot use it.", "move"),
                           Utterance("Red draws ten. Red car at track ten: ten to track "
                                     "twenty.", "move")])
    assert bump == Utterance("Blue cannot move. Red: track ten to track twenty.", "move")


def test_ten_four_is_said_in_silent_time_only() -> None:
    """The CB slang after a move is routine speech of its own: heard when nothing
    follows, dropped the moment anything does (it never delays a word)."""
    device = GatedDevice()
    voice = Narrator(VoiceSettings(), Tones(), Speaker(device), lambda: "tenfour")
    voice.frame(_moved("Red truck at R1: 3 ahead to R4"))
    device.wait_on_air()
    voice.frame(Screen(title="10-4  BLUE", lines=(
        Part("Blue: draw a Mike card", "instruction"),)))  # the table went on
    device.release()
    assert voice.speaker is not None and voice.speaker.idle.wait(hang())
    assert "Ten-four." not in device.played()
    device.hold()
    voice.frame(_moved("Blue truck at B1: 3 ahead to B4"))
    device.wait_on_air()
    device.release()
    assert voice.speaker.idle.wait(hang())  # nothing followed: it is said
    voice.close()
    assert device.played()[-2:] == ["Blue truck: three ahead to Blue four.", "Ten-four."]


def test_the_correction_menu_says_the_item_under_the_knob() -> None:
    """Corrections are a choice too (RULINGS G5, G6): the menu says nothing as a list,
    but the item under the knob as it opens and as the knob turns."""
    device = GatedDevice()
    device.release()
    voice = Narrator(VoiceSettings(), Tones(), Speaker(device), lambda: "tenfour")
    menu = ("Red truck at R5", "Green truck at G20", "Smokey 1 at B7")
    opened = voice.frame(Screen(title="CORRECTION", lines=(Part("Fix a piece", "text"),),
                                menu=menu))
    turned = voice.frame(Screen(title="CORRECTION", lines=(Part("Fix a piece", "text"),),
                                menu=menu, cursor=2))
    voice.close()
    assert opened == Utterance("Red truck at Red five.", OPTION)
    assert turned == Utterance("Smokey one at Blue seven.", OPTION)


# -- the brief form (issue 43's product call: read fewer options by default) -------------


def test_by_default_a_choice_says_who_and_how_many() -> None:
    """"Blue: seven choices.": heard whole within one gesture at 3 s a gesture (issue 43,
    a listener who browses); the knob says each option as it lands on it."""
    screens = _screens("tenfour", 3, 44, ["human"] * 3)
    police = [s for s in screens if s.menu and utterance(s, TENFOUR) is not None
              and utterance(s, TENFOUR).kind == "choice"]  # type: ignore[union-attr]
    assert police, "no police choice came up in this seeded game"
    for screen in police:
        said = utterance(screen, TENFOUR)
        assert said is not None and said.kind == "choice"
        count = f"{number_words(len(screen.menu))} choices."
        assert said.text.endswith(count) or len(screen.menu) == 1, said.text
        assert "break one nine" not in said.text.lower()
    assert utterance(CHOICE, TENFOUR) == Utterance("Red: three choices.", "choice")


def test_the_brief_form_says_the_only_option_and_counts_two() -> None:
    two = Screen(title="10-4  RED", lines=(Part("Red: move either truck 3", "instruction"),),
                 menu=("Red truck at R13: 3 to R16", "Green truck at R1: 3 to R4"))
    assert utterance(two, TENFOUR) == Utterance("Red: two choices.", "choice")
    bump = Screen(title="BUMP 'EM  RED", lines=(
        Part("Red drew 1: choose a move", "instruction"),),
        menu=("Red car at T9: 1 to T10", "Red car in pit enters at T5"))
    assert utterance(bump, BUMPEM) == Utterance("Red drew one: two choices.", "choice")
    bumped = Screen(title="BUMP 'EM  RED", lines=(
        Part("Yellow drew BUMP 'EM! Choose a move", "instruction"),),
        menu=("Yellow car in pit onto Red car at T20", "Yellow car in pit onto Red car at T37"))
    assert utterance(bumped, BUMPEM) == Utterance("Yellow drew Bump 'em! Two choices.",
                                                  "choice")
    only = Screen(title="BUMP 'EM  RED", lines=(
        Part("Red drew 1: choose a move", "instruction"),), menu=("Red car at T9: 1 to T10",))
    assert utterance(only, BUMPEM) == Utterance("Red drew one: Track nine to track ten.",
                                                "choice")


def test_the_knob_says_a_move_along_one_route_short() -> None:
    """"Yellow truck, Blue one to two.": the piece, then its move, the route or the
    track named once; its number only where two options say the same words."""
    trucks = Screen(title="10-4  BLUE", lines=(Part("Blue: move either truck 1", "instruction"),),
                    menu=("Blue truck at B1: 1 to B2", "Yellow truck at B1: 1 to B2"))
    assert highlighted(_turned(trucks, 1), TENFOUR) == Utterance(
        "Yellow truck, Blue one to two.", OPTION)
    bump = Screen(title="BUMP 'EM  RED", lines=(
        Part("Red drew 1: choose a move", "instruction"),),
        menu=("Red car at T9: 1 to T10", "Red car in pit enters at T5"))
    assert highlighted(bump, BUMPEM) == Utterance("Track nine to ten.", OPTION)
    assert highlighted(_turned(bump, 1), BUMPEM) == Utterance("Pit to track five.", OPTION)
    same = Screen(title="CORRECTION", lines=(Part("Fix a piece", "text"),),
                  menu=("Smokey 1 at B7", "Smokey 1 at B7"), cursor=1)
    assert highlighted(same, TENFOUR) == Utterance("Two: Smokey one at Blue seven.", OPTION)


def test_the_news_before_a_choice_is_said_short_in_the_brief_form() -> None:
    """The news and who chooses fit one gesture at 3 s (issue 43: "Blue spins twelve.
    Blue goes first. Blue: four choices." took 4.1 s): the news as one sentence, its
    reason in brackets left to the screen, then who chooses, unless it says who goes
    first."""
    screen = Screen(title="10-4  BLUE", lines=(
        Part("Blue spins 12", "news"), Part("Blue goes first", "news"),
        Part("Blue: put a Smokey into any Bear Trap", "instruction")),
        menu=tuple(f"Put Smokey 1 into the Bear Trap on {c}"
                   for c in ("Red", "Green", "Blue", "Yellow")))
    assert utterance(screen, TENFOUR) == Utterance("Blue spins twelve, Blue goes first.",
                                                   "choice")
    lost = Screen(title="10-4  BLUE", lines=(
        Part("Red loses this turn (caught speeding)", "news"),
        Part("Blue: which truck?", "instruction")),
        menu=("Blue truck at B5", "Yellow truck at B19 (Hammer Up)"))
    assert utterance(lost, TENFOUR) == Utterance("Red loses this turn: Blue chooses.", "choice")
    assert utterance(lost, TENFOUR, "all") is not None and "(caught speeding)" in (
        utterance(lost, TENFOUR, "all").text), "every option read: the news as it was"  # type: ignore[union-attr]


def test_the_choices_setting_reads_every_option() -> None:
    device = GatedDevice()
    device.release()
    voice = Narrator(VoiceSettings(choices="all"), Tones(), Speaker(device), lambda: "tenfour")
    said = voice.frame(CHOICE)
    voice.close()
    assert said == utterance(CHOICE, TENFOUR, "all") and said is not None
    assert "Bear: Red route" in said.text


def test_a_choice_made_is_cut_and_its_result_said_at_once() -> None:
    """Once the table has picked, the rest of the choice is history (its result says
    what was picked): the voice stays current instead of finishing a menu."""
    device = GatedDevice()
    voice = Narrator(VoiceSettings(choices="all"), Tones(), Speaker(device),
                     lambda: "tenfour")
    listed = voice.frame(CHOICE)
    assert listed is not None
    device.wait_on_air()
    voice.frame(_turned(CHOICE, 2))  # browsing does not make it
    assert not next(h for h in device.heard if h.key == listed.text).cut
    result = voice.frame(Screen(title="10-4  RED", big="POLICE", lines=(
        Part("Bear out of Yellowstone Park to the Red route", "result"),)))
    device.release()
    assert voice.speaker is not None and voice.speaker.idle.wait(hang())
    voice.close()
    assert result is not None and result.kind == "police"
    assert next(h for h in device.heard if h.key == listed.text).cut
    assert device.whole(result.text)


def test_a_choice_not_made_stays_out_of_a_merge_and_history_drops_out() -> None:
    """A voice behind merges what waits, but the choice waiting is said as itself (it
    is cut once made); a merge merged again leaves out the card its move follows."""
    device = GatedDevice()
    voice = Narrator(VoiceSettings(), Tones(), Speaker(device), lambda: "tenfour")
    told: list[Utterance] = []
    voice.on_merge = lambda texts, short: told.append(short)
    voice.frame(_moved("Red truck at R1: 3 ahead to R4"))
    device.wait_on_air()
    voice.frame(_moved("Blue truck at B1: 3 ahead to B4"))
    choice = voice.frame(CHOICE)
    assert choice is not None and choice.kind == "choice"
    assert told and all(choice.text not in t.text for t in told), told
    card = voice.frame(Screen(title="10-4  GREEN", lines=(
        Part('"Keep the shiny side up. Spin the Lo-Band"', "card"),)))
    assert card is not None and card.kind == "card"
    voice.frame(_moved("Green truck at G1: 8 ahead to G9"))
    device.release()
    assert voice.speaker is not None and voice.speaker.idle.wait(hang())
    voice.close()
    last = told[-1].text
    assert "Green to Green nine." in last and "shiny side" not in last, last


class SentenceTones(Tones):
    """Half a second of tone for every sentence, as the synthesizer makes a clip of each."""

    def transmission(self, text: str, volume: float) -> Transmission:
        return Transmission(text, [partial(tone) for _ in sentences(text)], volume)


def test_a_cards_instruction_is_left_out_once_the_table_has_spun() -> None:
    """A voice behind drops routine text, never a fact: the card is read whole, but its
    instruction and warnings are history once the spin has come."""
    device = GatedDevice()
    voice = Narrator(VoiceSettings(), SentenceTones(), Speaker(device), lambda: "tenfour")
    screen = Screen(title="10-4  GREEN", lines=(
        Part('"Convoy coming through: stay in line"', "card"),
        Part("Green: spin the LO knob (Lo-Band)", "instruction"),
        Part("Bear watching the Green route: spin 7 at most", "warning")))
    card = voice.frame(screen)
    assert card is not None and card.kind == "card"
    history = acted_on(screen, TENFOUR)
    assert history and card.text.endswith(history), (card.text, history)
    assert history.endswith("Bear watching the Green route: spin seven at most."), history
    device.wait_on_air()
    spinning = Screen(title="10-4  GREEN", lines=(Part("spinning...", "text"),))
    assert voice.frame(spinning) is None  # the table spun
    device.release()
    assert voice.speaker is not None and voice.speaker.idle.wait(hang())
    voice.close()
    heard = next(h for h in device.heard if h.key == card.text)
    assert heard.finished and not heard.cut, "the card itself is said whole"
    kept = len(sentences(card.text)) - len(sentences(history))
    assert kept > 0 and heard.samples == int(RATE * 0.5) * kept, "its instruction left out"


def test_a_card_the_table_has_not_acted_on_is_said_to_its_end() -> None:
    device = GatedDevice()
    device.release()
    voice = Narrator(VoiceSettings(), SentenceTones(), Speaker(device), lambda: "tenfour")
    card = voice.frame(Screen(title="10-4  GREEN", lines=(
        Part('"Convoy coming through: stay in line"', "card"),
        Part("Bear watching the Green route: spin 7 at most", "warning"))))
    assert voice.speaker is not None and voice.speaker.idle.wait(hang())
    voice.close()
    assert card is not None
    heard = next(h for h in device.heard if h.key == card.text)
    assert heard.samples == int(RATE * 0.5) * len(sentences(card.text))
