"""What the rig says: one short utterance per screen, made from the screen's own parts.

RULINGS G6: where the rig has a sound output it speaks what the table must know (whose
turn, the card drawn with its text, the spin and the move, the police move chosen, every
alert, the winner) with the same pieces, numbers and places as the screen. So speech is
not written a second time: :func:`utterance` takes the :class:`~rig.screens.screen.Screen` the
controller already built, keeps the parts a person needs to hear (by their roles: the
instruction, the card, the warning, the news, the result, the alert; never the menu, the
hint or the footer) and lets the game's vocabulary say its place codes as words
("B13": "Blue thirteen"). Voice and screen cannot drift apart: they are one value.

Said for the ear, not read off the screen (G6: say little): a prompt says its news and
its first instruction (the how-to lines after it are for the eyes: "Tap it on the
rig"); a card is read in full and the instruction after it only where it adds to the
card; a line that starts with the piece and place the line before it ended on says
them once; the options of a choice are said where the game asks for it, grouped so a
listener can choose from them.

Each game's vocabulary (its codes, its slang, which results move a police piece, what
leads a card, which choices are read out) is its folder's ``speech`` module
(``rig/games/<name>/speech.py``), named by its registry entry and found by game name
through :func:`vocabulary_for`: no game's words are here.
Everything here is pure: no audio, no clock; :mod:`rig.voice.narrator` speaks the result.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from rig.screens import words
from rig.screens.screen import Part, Screen
from rig.voice.vocabulary import Vocabulary, number_words
from valueclass import Frozen, set_field

EVENTS = ("turn", "choice", "card", "move", "police", "alert", "winner", "refusal")
"""The kinds of utterance, which the ``[voice] events`` setting picks from:

- turn: whose turn it is and what to do (draw, spin), with the news before it;
- choice: a person's choice (a police move, which truck, which move) with its options,
  short and grouped, or their count where the knob reads them one by one ("option");
- card: the card drawn, read aloud with its printed text, and what to do with it;
- move: the result of a move (where the piece goes);
- police: a move of a piece no player owns (the game says which: 10-Four's police);
- alert: a catch, a bump, a slide, a zoom, a reshuffle;
- winner: the winner and the sign-off;
- refusal: why an input was refused, in a few words.
"""

MUST_HEAR = frozenset({"card", "choice", "move", "police", "alert", "winner"})
"""The kinds the table must hear whole (RULINGS G6): never cut by what follows. A turn
prompt, a refusal and the option under the knob are routine: they yield, and are dropped
once the table acted. A choice is heard before it is made: browsing its options (which
says each under the knob, routine) never cuts it."""
FLAVOUR_KIND = "flavour"
"""The kind of the CB slang said after a moment (`Vocabulary.FLAVOUR`): routine."""
OPTION = "option"
"""The kind of the option under the knob, said as the knob turns on a choice (as a
screen reader does): routine, said when the ``choice`` event is."""
OPTIONS_MOST_WORDS = 16
"""A choice whose options, grouped, say more than this many words says how many there
are instead, and the knob says each ("Eleven moves: turn to hear each"): a listener
holds a short list, not a long one."""

CHOICES = ("brief", "all")
"""How a person's choice is said, the ``[voice] choices`` setting:

- brief (the default): who chooses and how many options ("Blue: seven choices."), the
  one option said whole where there is only one; each turn of the knob says the option
  it lands on, short ("Smokey one, Blue nineteen."), as a screen reader does. The
  prompt and each option fit one gesture at 3 s a gesture (at most 2.6 s of speech,
  measured: docs/VOICE.md), so a listener who browses hears the prompt before the
  first turn and each option before the next.
- all: every option read out, short and grouped, or their count where they are too
  many to hold (`OPTIONS_MOST_WORDS`).
"""

SPOKEN_ROLES = frozenset({"news", "card", "instruction", "warning", "text"})
"""The parts of a prompt screen that are said (not the hint, the computer's note, the
refusal, which is said alone, nor any menu item)."""
MOMENT_ROLES = frozenset({"result", "alert"})
"""The roles of a result or alert screen's parts (rig.core.controller's moments)."""
SPINNING = words.SPINNING
"""The spin animation's line (rig.core.controller): the animation is silent."""
JOIN_TITLE = words.JOIN_TITLE
"""The setup menu's "Phones: join" screen (rig.core.join): its code is said digit by
digit, not its addresses."""
DIGITS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
CORRECTION = words.CORRECTION_TITLE
SILENT_TITLES = frozenset({CORRECTION, words.NEW_GAME_TITLE})
"""Screens a person works through with the knobs (nothing there to announce)."""


class Utterance(Frozen):
    """One thing to say, and what kind of moment it is (see `EVENTS`)."""

    __slots__ = ("kind", "text")
    text: str
    kind: str

    def __init__(self, text: str, kind: str) -> None:
        set_field(self, "text", text)
        set_field(self, "kind", kind)


_SENTENCE_START = re.compile(r"(?<=[.!?] )[a-z]")


BEHIND_KEEPS = frozenset({"winner", "choice"})
"""What a voice that has fallen behind still says whole: the winner and a person's
choice not made yet; the rest it says in brief (an alert's brief keeps its headline and
every piece it names: the game says it)."""
HISTORY_ONCE_FOLLOWED = frozenset({"card", "choice"})
"""What is history once anything follows it in the queue: a card (its move is queued or
the table has gone on) and a choice (it was made: its result follows)."""


def merged(vocabulary: Vocabulary, queued: list[Utterance]) -> Utterance | None:
    """What is queued, in fewer words (RULINGS G6: when the voice falls behind a fast
    table it says what is queued in fewer words, never a history): each utterance in
    its brief (`Vocabulary.brief`); a card left out when a move follows it and a choice
    when anything does (it was made), both whole when newest (still news); the winner
    whole; None when nothing would be shorter (several said as one transmission are:
    one squelch and roger beep). One utterance waiting is said in brief too: it waits
    because the voice is behind."""
    if not queued:
        return None
    out: list[str] = []
    for at, said in enumerate(queued):
        later = queued[at + 1:]
        if said.kind in HISTORY_ONCE_FOLLOWED and later:
            if said.kind == "card" and not any(u.kind in ("move", "alert", "police")
                                               for u in later):
                out.append(_sentence(vocabulary.brief(said.text, said.kind)))
            continue  # made, or its move queued: history now
        if said.kind in BEHIND_KEEPS or said.kind == "card":
            out.append(said.text)  # the newest card or choice: still news
        elif brief := vocabulary.brief(said.text, said.kind):
            out.append(_sentence(brief))
    text = " ".join(out)
    if not text or len(text) > sum(len(u.text) + 1 for u in queued) - 1:
        return None
    if len(queued) == 1 and text == queued[0].text:
        return None
    kinds = [u.kind for u in queued]
    kind = next((k for k in ("winner", "alert", "police", "move", "card") if k in kinds),
                kinds[-1])
    return Utterance(text, kind)


def said_as(vocabulary: Vocabulary, parts: Iterable[Part]) -> str:
    """Parts said as `utterance` says them (for a vocabulary's `likely` texts)."""
    return _say(vocabulary, parts)


def vocabulary_for(game: str) -> Vocabulary:
    """The vocabulary of a game by its registered name (a game without one of its own
    gets the base: numbers and capitals only)."""
    from rig.registry import find

    found = find(game)
    if found is None or found.speech is None:
        return Vocabulary()
    return found.speech()


def _sentence(text: str) -> str:
    """A spoken sentence ends in a stop (a pause in every synthesizer)."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def _say(vocabulary: Vocabulary, parts: Iterable[Part], lead: str = "",
         tail: str = "") -> str:
    sentences = [lead] if lead else []
    sentences += [_sentence(vocabulary.words(p.text)) for p in parts]
    sentences += [tail] if tail else []
    return _SENTENCE_START.sub(lambda m: m.group(0).upper(),
                               " ".join(s for s in sentences if s))


@lru_cache(maxsize=256)
def utterance(screen: Screen, vocabulary: Vocabulary,
              choices: str = "brief") -> Utterance | None:
    """What to say for this screen, or None for a screen that says nothing new (the
    spin animation, menus a person works through, an empty screen).

    A refusal is said alone, in its few words; a result or alert screen says each of
    its lines (an alert after its headline), a piece and place said once; a prompt
    says the news, the card, its first instruction and the warnings, in screen order
    (see the module doc), and the options where the game reads them out (``choices``:
    in brief or all of them, `CHOICES`).
    """
    if screen.title in SILENT_TITLES:
        return None
    if screen.title == JOIN_TITLE and screen.big:  # the board's join code, digit by digit
        digits = ", ".join(" ".join(DIGITS[int(c)] for c in group if c.isdigit())
                           for group in screen.big.split())
        return Utterance(f"The board's join code: {digits}.", "turn")
    parts = screen.parts()
    refusal = next((p for p in parts if p.role == "refusal"), None)
    if refusal is not None:
        return Utterance(_say(vocabulary, [Part(refusal.text.removeprefix("! "))]), "refusal")
    if any(p.text == SPINNING for p in parts) or not parts:
        return None
    if all(p.role in MOMENT_ROLES for p in parts):
        return _moment(screen, parts, vocabulary)
    spoken = _prompt_parts(parts, vocabulary)
    if not spoken:
        return None
    if screen.footer.startswith("long press"):  # the game is over: the sign-off
        return Utterance(_say(vocabulary, spoken), "winner")
    card = any(p.role == "card" for p in spoken)
    if screen.menu and any(p.role == "cpu" for p in parts):
        # a computer's choice: said as its result, never as its menu; its news is said
        news = [p for p in spoken if p.role == "news"]
        return Utterance(_say(vocabulary, news), "turn") if news else None
    brief = choices != "all" and bool(screen.menu) and vocabulary.options(screen.menu)
    if brief:
        tail = _brief_options(screen.menu, vocabulary)
    else:
        tail = _options(screen.menu, vocabulary) if screen.menu else ""
    if not card and tail:
        prompt = vocabulary.choice_prompt(_say(vocabulary, spoken))
        if brief:
            return Utterance(_brief_choice(prompt, tail, len(screen.menu)), "choice")
        if not prompt.endswith(":"):
            tail = _upper_first(tail)
        return Utterance(f"{prompt} {tail}".strip(), "choice")
    if not card:
        return Utterance(_say(vocabulary, spoken), "turn")
    lead = vocabulary.card_lead(spoken)
    said = _say(vocabulary, spoken, tail=_upper_first(tail))
    if lead:
        said = f"{lead} {_upper_first(vocabulary.led_card(said))}"
    return Utterance(said, "card")


def acted_on(screen: Screen, vocabulary: Vocabulary) -> str:
    """The end of a card's utterance that is history once the table acts on it: the
    instruction and warnings said after the card ("Spin the low band. Bear watching the
    Green route: spin seven at most."), left out when the spin comes before they are
    said (rig.voice.narrator); "" for none."""
    if screen.menu or screen.title in SILENT_TITLES:
        return ""
    spoken = _prompt_parts(screen.parts(), vocabulary)
    at = next((i for i, p in enumerate(spoken) if p.role == "card"), None)
    if at is None or at == len(spoken) - 1:
        return ""
    return _say(vocabulary, spoken[at + 1:])


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


def _prompt_parts(parts: tuple[Part, ...], vocabulary: Vocabulary) -> list[Part]:
    """The parts of a prompt that are said: the news, the card, the first instruction
    (unless it only repeats the card), the warnings."""
    spoken: list[Part] = []
    instructed = False
    card = next((p.text for p in parts if p.role == "card"), None)
    for part in parts:
        if part.role not in SPOKEN_ROLES:
            continue
        if part.role == "instruction":
            if instructed:
                continue  # a how-to line after the instruction: for the eyes
            instructed = True
            if card is not None and not vocabulary.adds(card, part.text):
                continue
        spoken.append(part)
    return spoken


def option_words(item: str, vocabulary: Vocabulary) -> str:
    """One option of a choice as it is said: the game's short form, in words."""
    return vocabulary.words(vocabulary.option(item))


_SAME_WORD = re.compile(r"\b([A-Za-z]+) ([\w-]+) (back )?to \1 ")
"""A move along one route or the track, said once: "Blue one to Blue two" is "Blue one
to two", "track nine to track ten" is "track nine to ten", "track forty-six back to
track thirty-seven" is "track forty-six back to thirty-seven" (the knob's option,
short)."""
OPTION_MOST_SECONDS = 2.6
"""The longest the option under the knob may take to say (speech, without the radio's
squelch and roger beep): a listener who browses turns the knob once a gesture, and at
3 s a gesture the option must end before the next turn cuts it (issue 43; measured in
docs/VOICE.md). tests/voice/test_choices.py holds every option of the bench's seeded
games to it."""


def knob_words(item: str, vocabulary: Vocabulary) -> str:
    """One option as the knob says it: the game's short form in words, its piece and
    its move after a comma, a route or the track named once ("Smokey one, Blue
    nineteen"; "Yellow truck to Blue two"; "track nine to ten")."""
    said = _SAME_WORD.sub(r"\1 \2 \3to ", option_words(item, vocabulary))
    return vocabulary.knob(said.replace(": ", ", "))


def highlighted(screen: Screen, vocabulary: Vocabulary) -> Utterance | None:
    """The option under the knob on a choice screen, its piece and its move after a
    comma (`knob_words`: "Smokey one, Yellow three."; "Yellow truck to Blue two."),
    or None where options are not said (a computer's choice, a game that does not read
    them). Its number in the knob's order is on the screen and not said (about 0.4 s
    a turn, issue 43), except where another option says the same words: then both are
    told apart by it ("Two: ...")."""
    if not screen.menu or any(p.role == "cpu" for p in screen.parts()):
        return None
    if screen.title != CORRECTION and not vocabulary.options(screen.menu):
        return None  # the correction menu says the item under the knob; setup does not
    at = min(screen.cursor, len(screen.menu) - 1)
    said = knob_words(screen.menu[at], vocabulary)
    if sum(1 for item in screen.menu if knob_words(item, vocabulary) == said) > 1:
        said = f"{_upper_first(number_words(at + 1))}: {said}"
    return Utterance(_sentence(said), OPTION)


def _options(menu: tuple[str, ...], vocabulary: Vocabulary,
             most: int | None = OPTIONS_MOST_WORDS) -> str:
    """A choice's options as a listener can choose from them, where the game reads them
    out: each in the game's short form (`Vocabulary.option`), the options that share
    their words before a colon said once with what follows each ("Smokey one: to Blue
    nineteen, or short cut to Yellow three"), and options that differ in one word only
    said as one ("... on Red, Green or Blue"). Too many words for a listener to hold
    (`OPTIONS_MOST_WORDS`): how many options, and the knob says each."""
    if not vocabulary.options(menu):
        return ""
    said = [option_words(item, vocabulary) for item in menu]
    groups: list[tuple[str, list[str]]] = []
    for text in said:
        head, colon, rest = text.partition(": ")
        if colon and groups and groups[-1][0] == head:
            groups[-1][1].append(rest)
        elif colon:
            groups.append((head, [rest]))
        else:
            groups.append(("", [text]))
    phrases = [f"{head}: {_either(_one_word_apart(rests, last=False))}" if head
               else rests[0] for head, rests in groups]
    listed = _sentence(_either(_one_word_apart(phrases), last="; or "))
    if most is None or len(listed.split()) <= most:
        return listed
    return f"{_upper_first(number_words(len(menu)))} choices: turn the knob to hear each."


def _brief_options(menu: tuple[str, ...], vocabulary: Vocabulary) -> str:
    """A choice's options in the brief form (`CHOICES`): how many ("seven choices."),
    the knob saying each as it lands on it; the option itself where it is the only
    one. The first option is not added: with it the prompt took 3.3-4.6 s of speech,
    longer than a gesture at 3 s (issue 43)."""
    if len(menu) == 1:
        return _options(menu, vocabulary, most=None)
    return f"{number_words(len(menu))} choices."


_LEAD_SENTENCES = re.compile(r"(?<=[.!?])\s+")
_WHO = re.compile(r"^(?P<who>[A-Z][\w']*(?: [\w']+){0,2}):(?: |$)")
"""Who chooses, as a prompt's sentence starts ("Red: ...", "Red drew one: ...")."""


_REASON = re.compile(r" \([^)]*\)(?=[.!?]?$)")
"""A reason in brackets at the end of a news line ("Red loses this turn (caught
speeding)"): for the eyes; the catch was said when it happened."""


def _brief_choice(prompt: str, count: str, options: int) -> str:
    """A choice in the brief form: its news and who chooses, then how many options
    (``count``), short enough to be heard before a listener's first turn of the knob
    at 3 s a gesture (at most 2.6 s of speech: issue 43, docs/VOICE.md):

    - no news: who and how many ("Red drew one: choose a move." -> "Red drew one: two
      choices."; "Yellow drew Bump 'em! Choose a move." -> "Yellow drew Bump 'em! Two
      choices.");
    - news: said as one sentence (its reason in brackets left to the screen), then
      who chooses ("Blue loses this turn (caught speeding). Red: which truck?" ->
      "Blue loses this turn: Red chooses."), or nothing more where the news says who
      goes first and so chooses ("Blue spins eight. Red goes first. Red: put a Smokey
      into any Bear Trap." -> "Blue spins eight, Red goes first."): with the count too
      it took 3.0-4.1 s; the knob says each option.

    The only option (``options`` 1) is said whole after the news (``count`` is it)."""
    sentences = _LEAD_SENTENCES.split(prompt.strip())
    at = next((i for i in range(len(sentences) - 1, -1, -1) if _WHO.match(sentences[i])),
              None)
    if at is None:
        return " ".join([*sentences[:-1], _upper_first(count)]).strip()
    found = _WHO.match(sentences[at])
    assert found is not None
    who = found["who"]
    news = [_REASON.sub("", s) for s in sentences[:at]]
    if news and options > 1:
        said = ", ".join(s.rstrip(".!?") for s in news)
        said = said[0] + said[1:].replace(", The ", ", the ")
        if news[-1] == f"{who} goes first.":
            return f"{said}."
        return f"{said}: {who} chooses."
    return " ".join([*news, f"{who}: {count}"])


def _either(items: list[str], last: str = ", or ") -> str:
    if len(items) <= 1:
        return "".join(items)
    joiner = "; " if last.startswith(";") else ", "
    return joiner.join(items[:-1]) + last + items[-1]


def _one_word_apart(phrases: list[str], last: bool = True) -> list[str]:
    """Neighbouring phrases that differ in one word said as one, the words listed
    ("into the Bear Trap on Red", "... on Green": "into the Bear Trap on Red or Green");
    not ``last``: only where the word that differs is not the last ("Red trap", "Green
    trap": "Red or Green trap"; but "Yellow trap", "Yellow thirteen" stay two)."""
    out: list[list[str]] = []
    varied: list[list[str]] = []
    for phrase in phrases:
        words = phrase.split()
        if out and len(out[-1]) == len(words):
            apart = [i for i, (a, b) in enumerate(zip(out[-1], words, strict=True)) if a != b]
            if not last and apart == [len(words) - 1]:
                apart = []
            if len(apart) == 1 and (len(varied[-1]) == 1 or varied[-1][0] == str(apart[0])):
                if len(varied[-1]) == 1:
                    varied[-1] = [str(apart[0]), out[-1][apart[0]]]
                varied[-1].append(words[apart[0]])
                continue
        out.append(words)
        varied.append([""])
    merged: list[str] = []
    for words, alternatives in zip(out, varied, strict=True):
        if len(alternatives) > 1:
            at = int(alternatives[0])
            words = [*words[:at], _or(alternatives[1:]), *words[at + 1:]]
        merged.append(" ".join(words))
    return merged


def _or(words: list[str]) -> str:
    return ", ".join(words[:-1]) + " or " + words[-1]


_SUBJECT = re.compile(r"^(?P<piece>\w+(?: \w+)?) at (?P<place>[A-Z]\d+) (?=[a-z])")
"""A line that starts with its piece and place ("Blue truck at Y9 caught by ...")."""


def _once(lines: list[str], vocabulary: Vocabulary) -> list[str]:
    """Each line after the first without the piece and place it starts with when the
    line before named that piece and ended on that place ("... six ahead to Y9. Blue
    truck at Y9 caught by Smokey 1": "... to Y9. Caught by Smokey 1"); a line left saying
    only what the line before said ("..., slides to T46" then "slides on the oil to T46")
    is not said; then as the game says each line (`Vocabulary.said_line`)."""
    out: list[str] = []
    for before, line in zip(["", *lines], lines, strict=False):
        said = line
        match = _SUBJECT.match(line)
        if match and match["piece"] in before and (
                f"to {match['place']}" in before or before.endswith(f"at {match['place']}")):
            said = line[match.end():]
            verb, _, rest = said.partition(" ")
            if f"{verb} to {rest.rsplit(' ', 1)[-1]}" in before:
                continue  # "slides on the oil to T46" after ", slides to T46"
            said = _upper_first(said)
        said = vocabulary.said_line(said, before)
        if said:
            out.append(said)
    return out


def _moment(screen: Screen, parts: tuple[Part, ...], vocabulary: Vocabulary) -> Utterance:
    """A result or alert screen (titled with the mover, or the alert's headline)."""
    lines = [Part(text) for text in _once([p.text for p in parts], vocabulary)]
    if screen.alert:
        kind = "winner" if screen.title in vocabulary.WINNER_TITLES else "alert"
        headline = _sentence(vocabulary.words(screen.title))
        return Utterance(_say(vocabulary, lines, lead=headline), kind)
    kind = vocabulary.result_kind(parts[0].text)
    tail = vocabulary.AFTER_MOVE if kind == "move" else ""
    return Utterance(_say(vocabulary, lines, tail=tail), kind)


__all__ = ["CHOICES", "EVENTS", "FLAVOUR_KIND", "MUST_HEAR", "OPTION", "Utterance",
           "Vocabulary", "acted_on", "highlighted", "knob_words", "merged", "number_words",
           "option_words", "utterance", "vocabulary_for"]
