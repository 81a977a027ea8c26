"""What the rig says (RULINGS G6): golden spoken texts of every screen kind of both
games, and every utterance of whole seeded games checked against its screen: the same
pieces, numbers and places, in the same order, the slang aside.

Set UPDATE_GOLDEN=1 to rewrite tests/voice/golden_speech.json after a deliberate change
of wording, then read the diff.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from cbrig.games.bumpem.speech import bare_cars
from rig.screens.screen import Part, Screen
from rig.voice.speech import (
    MOMENT_ROLES,
    SPOKEN_ROLES,
    number_words,
    utterance,
    vocabulary_for,
)
from tests.voice.speechgames import GAMES, game_screens, screen_kind

GOLDEN = Path(__file__).with_name("golden_speech.json")
SEEDS = (1, 2)


def test_numbers_in_words() -> None:
    said = {n: number_words(n) for n in (0, 7, 13, 20, 35, 99, 100, 115, 1000, 2024)}
    assert said == {0: "zero", 7: "seven", 13: "thirteen", 20: "twenty", 35: "thirty-five",
                    99: "ninety-nine", 100: "one hundred", 115: "one hundred and fifteen",
                    1000: "one thousand", 2024: "two thousand and twenty-four"}


@pytest.mark.parametrize(("game", "text", "said"), [
    ("tenfour", "Blue truck at B5: 8 ahead to B13", "Blue truck at Blue five: eight ahead to "
                                                    "Blue thirteen"),
    ("tenfour", "Smokey 2: 10 to G3 by short cut R16-G2", "Smokey two: ten to Green three by "
                                                          "the short cut between Red sixteen "
                                                          "and Green two"),
    ("tenfour", "Green: flick the LO knob (Lo-Band), move spin +1",
     "Green: flick the low knob, move spin plus one"),
    ("tenfour", "BEAR BITE!", "bear bite!"),
    ("bumpem", "Red car at T35: 7 to T42", "Red car at track thirty-five: seven to track "
                                           "forty-two"),
    ("bumpem", "Blue car in home stretch 3", "Blue car in home stretch three"),
    ("bumpem", "Red draws Bump 'em!", "Red draws Bump 'em!"),
])
def test_place_codes_said_as_words(game: str, text: str, said: str) -> None:
    assert vocabulary_for(game).words(text) == said


def golden_kinds() -> dict[str, dict[str, dict[str, str]]]:
    """The first screen of each kind in the seeded games, with what is said for it."""
    out: dict[str, dict[str, dict[str, str]]] = {}
    for game, players, variant in GAMES:
        kinds = out.setdefault(game, {})
        for seed in SEEDS:
            for screen in game_screens(game, players, variant, seed):
                kind = screen_kind(screen)
                if kind in kinds:
                    continue
                said = utterance(screen, vocabulary_for(game))
                kinds[kind] = {"screen": screen.plain(),
                               "says": said.text if said else "",
                               "as": said.kind if said else "(silent)"}
    return {game: dict(sorted(kinds.items())) for game, kinds in out.items()}


def test_golden_spoken_texts() -> None:
    found = golden_kinds()
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.write_text(json.dumps(found, indent=1, ensure_ascii=False) + "\n")
    golden = json.loads(GOLDEN.read_text())
    assert sorted(found) == sorted(golden)
    for game in golden:
        assert sorted(found[game]) == sorted(golden[game]), f"{game}: screen kinds changed"
        for kind, expected in golden[game].items():
            assert found[game][kind] == expected, f"{game} {kind}"


def test_every_screen_kind_is_covered() -> None:
    """Both games' announcements are in the golden file: a kind silent there (other than
    the animation and the knobs' menus) would be a screen the table is not told."""
    golden = json.loads(GOLDEN.read_text())
    silent = {(g, k) for g, kinds in golden.items() for k, v in kinds.items()
              if v["as"] == "(silent)"}
    assert silent == {("tenfour", "spinning")}
    wanted = {"tenfour": {"prompt draw", "prompt card", "prompt card break one nine",
                          "prompt card bear watching", "prompt hammer up", "result move",
                          "result police", "prompt police release", "prompt police move",
                          "alert BEAR BITE!", "alert BEAR TRAP! BEAR BITE!",
                          "alert BEAR IN THE AIR!", "alert RESHUFFLE",
                          "alert 10-4, WINNER!", "game over", "refusal",
                          "prompt start order"},
              "bumpem": {"prompt ticket", "prompt choose move", "result move",
                         "result forced move", "alert BUMPED!", "alert OIL SLICK!",
                         "alert TURBO ZOOM!", "alert CHECKERED FLAG", "game over",
                         "refusal"}}
    for game, kinds in wanted.items():
        assert kinds <= set(golden[game]), kinds - set(golden[game])


# -- the same pieces, numbers and places as the screen ----------------------------------

COLOURS = ("red", "green", "blue", "yellow")
PIECES = ("truck", "car", "smokey", "bear", "ticket", "card")
PLACES = ("track", "pit", "finish", "home", "stretch", "trap", "cut", "road", "park",
          "route", "space")
CODES = {"R": "red", "G": "green", "B": "blue", "Y": "yellow", "T": "track"}
WORD_NUMBERS = {w: n for n, w in enumerate((
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
    "eighteen", "nineteen"))}
TENS = {w: 10 * (i + 2) for i, w in enumerate((
    "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"))}


def atoms(text: str) -> list[str]:
    """The pieces, colours, numbers and places a text names, in order. Printed codes are
    read here with the test's own table ("B13": blue 13, "T35": track 35); numbers in
    digits and in words both count ("thirty-five" is 35, "ten-four" is 10 and 4)."""
    text = re.sub(r"\b([RGBYT])(\d+)\b", lambda m: f"{CODES[m.group(1)]} {m.group(2)}", text)
    out: list[str] = []
    for word in re.findall(r"[A-Za-z]+(?:-[A-Za-z]+)?|\d+", text.lower()):
        head, _, tail = word.partition("-")
        if word.isdigit():
            out.append(str(int(word)))
        elif head in TENS and tail in WORD_NUMBERS:
            out.append(str(TENS[head] + WORD_NUMBERS[tail]))
        else:
            for piece in (head, tail):
                if piece in WORD_NUMBERS:
                    out.append(str(WORD_NUMBERS[piece]))
                elif piece in TENS:
                    out.append(str(TENS[piece]))
                elif piece.rstrip("s") in COLOURS + PIECES + PLACES:
                    out.append(piece.rstrip("s"))
    return out


def spoken_parts(screen: Screen) -> list[Part]:
    """The parts of a screen a person may hear: a refusal alone; a result or alert
    screen's headline and lines; a prompt's news, card, instructions and warnings, and
    its menu (a choice read out)."""
    parts = screen.parts()
    refusal = [p for p in parts if p.role == "refusal"]
    if refusal:
        return refusal
    if parts and all(p.role in MOMENT_ROLES for p in parts):
        return [Part(screen.title)] * screen.alert + list(parts)
    return [p for p in parts if p.role in SPOKEN_ROLES] + [Part(m) for m in screen.menu]


TRUCK_FROM = re.compile(r"^(\w+ truck) at [RGBY]\d+(?=: \d+ ahead)")
"""10-Four's truck move from where it stands: said without it (one truck a colour)."""


def must_parts(screen: Screen, game: str) -> list[Part]:
    """The parts whose pieces, numbers and places are all said: every line of a result
    or alert (but the space a 10-Four truck starts from), and a prompt's news, card and
    warnings (a prompt's instruction may be left to the card that says it, a how-to
    line to the screen)."""
    parts = spoken_parts(screen)
    if parts and all(p.role in MOMENT_ROLES for p in screen.parts()):
        if game == "tenfour":
            return [Part(TRUCK_FROM.sub(r"\1", p.text), p.role) for p in parts]
        return parts
    return [p for p in parts if p.role in ("news", "card", "warning", "refusal")]


def in_order(said: list[str], shown: list[str]) -> bool:
    """Whether every atom said is shown, in the screen's order (a subsequence)."""
    rest = iter(shown)
    return all(atom in rest for atom in said)


@pytest.mark.parametrize(("game", "players", "variant"), GAMES)
def test_every_utterance_names_what_its_screen_names(game: str, players: int,
                                                     variant: str | None) -> None:
    """Nothing said that the screen does not show, in its order; every piece, number and
    place of a result, an alert, a card, the news and a warning said (a repeat of the
    piece and place just said, once)."""
    checked = 0
    for screen in game_screens(game, players, variant, 1):
        said = utterance(screen, vocabulary_for(game))
        if said is None:
            assert screen_kind(screen) in ("spinning", "menu"), screen.text()
            continue
        # a command for the owner in brackets ("(cbrig cards enroll)") is read, not said
        def shown(parts: list[Part]) -> list[str]:
            text = re.sub(r"\(cbrig [^)]*\)", "", " ".join(p.text for p in parts))
            return atoms(bare_cars(text))  # "bumps Yellow T57" said as a car (issue 43)

        words = atoms(said.text)  # the slang said is the screen's ("Breaker one-nine")
        if said.kind == "choice":  # how many there are, where the knob says each: not shown
            # ("Seven choices." in brief, or "...: turn the knob to hear each." in all), and
            # the options said short and grouped ("Red or Green trap"): in any order
            words = atoms(re.sub(r"[\w-]+ choices(: turn the knob to hear each)?\.", "",
                                 said.text))
            assert set(words) <= set(shown(spoken_parts(screen))), (screen.text(), said.text)
        else:
            assert in_order(words, shown(spoken_parts(screen))), (screen.text(), said.text)
        assert set(shown(must_parts(screen, game))) <= set(words), (screen.text(), said.text)
        checked += 1
    assert checked > 50


def test_a_changed_place_changes_the_words() -> None:
    """The check above can fail: a wrong place in the words is caught by `atoms`."""
    assert atoms("Blue truck at Blue five: eight ahead to Blue thirteen") == \
        atoms("Blue truck at B5: 8 ahead to B13")
    assert atoms("Blue truck at Blue five: eight ahead to Blue fourteen") != \
        atoms("Blue truck at B5: 8 ahead to B13")
    assert not in_order(atoms("Blue truck: eight ahead to Blue fourteen"),
                        atoms("Blue truck at B5: 8 ahead to B13"))
    assert not in_order(atoms("Blue thirteen, Blue five"), atoms("Blue truck at B5: 8 to B13"))


def test_a_game_s_after_move_slang_decorates_its_move_results_only() -> None:
    """`AFTER_MOVE` (docs/ENGINE_CONTRACT.md) is said after a move's result, never after
    a prompt or an alert; `decorations` names it for the screen comparisons."""
    from rig.screens.screen import Part, Screen
    from rig.voice.speech import Vocabulary

    class Oinking(Vocabulary):
        AFTER_MOVE = "Oink."

    moved = Screen(title="PIG  RED", big="MOVE 7",
                   lines=(Part("Red pig: 7 ahead to 12", "result"),))
    prompt = Screen(title="PIG  RED", lines=(Part("Red: roll the die", "instruction"),))
    said = utterance(moved, Oinking())
    assert said is not None and said.text.endswith("twelve. Oink.")
    plain = utterance(moved, Vocabulary())
    assert plain is not None and plain.text.endswith("twelve.")
    asked = utterance(prompt, Oinking())
    assert asked is not None and "Oink" not in asked.text
    assert Oinking().decorations == ("Oink.",) and Vocabulary().decorations == ()
