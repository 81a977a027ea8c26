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

Choices are a kind of their own (RULINGS G6: a choice is heard before it is made): an
utterance on a person's choice screen (a menu, no computer's note) is a "choice", and it
lost words if it was cut or never started, or if its last word came after the press
that made the pick ("late"); one on a computer seat's choice screen is a "cpu prompt"
(its words are counted: a computer's menu is never read out). A computer's pick is said
when an utterance of the act that carried it out (its result: a move, a police move, an
alert) was heard whole.

The held-out shape (`HELD_OUT`): seeds the bench's own figures do not use, with
computer seats, and the two-player 10-Four, the same measures.

The CB slang said in silent time (kind "flavour": "Ten-four." after a move) is counted
apart: how often it was handed and heard whole; it is not in the speech a turn (it
yields to every word the table needs, so it adds nothing to the lag).
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
PERSONS = ("browses", "presses", "listens")
PERSON = "browses"
"""How the simulated person makes a choice: "browses" (the default), as a screen-reader
user does: one step of the knob a gesture from the option under it to the one they
pick (at least one, so an option is heard by the knob), then the press a gesture later;
"presses": the turn and the press in one act, a gesture after the choice is shown (the
model before issue 43's second round, kept for comparison); "listens": as "browses",
but a player who relies on the voice (issue 43 item 2: one who cannot read the OLED):
each act on their choice screen (each knob step, the press) comes a gesture after the
act before, or once what the voice said on that choice screen so far (its prompt, the
option under the knob) has ended, whichever is later (`_listen`). Only what a listener
hears is used: when a transmission ends (its roger beep), or that the voice is quiet.
Acts outside choices keep the plain pace."""
LISTEN_MOST = 30.0
"""Table seconds past its pace a listener waits at most for the voice (ends a hang: the
voice never goes this long on one choice)."""
LISTEN_POLL = 0.02
"""Table seconds between two looks at the voice while a listener waits."""
GAMES = (("tenfour", 3), ("bumpem", 3))
HELD_OUT = (("tenfour", 3, "human,easy,human", (41, 44)),
            ("tenfour", 2, "human,human", (41, 44)),
            ("bumpem", 3, "human,easy,human", (41, 44)))
"""The held-out shape: (game, players, seats, seeds), seeds other than the bench's own
(7, 8), computer seats (level easy: its choice is quick and seeded) and the two-player
10-Four."""
MUST_HEAR = ("card", "move", "police", "alert", "winner")
"""The kinds the table must hear whole (RULINGS G6): a loss there is a failure."""
CHOICES = "brief"
"""How choices are said in the run (``[voice] choices``: rig.voice.speech.CHOICES);
``--choices all`` measures the other."""
PICKS = ("cpu pick", "press")
"""The kinds of the records of a pick (a computer's, a person's press), not utterances."""
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
        self.cut_at: float | None = None
        """When it was cut (table time)."""
        self.finished = False

    @property
    def seconds(self) -> float:
        return self.samples / self.rate if self.rate else 0.0


class _PacedDevice:
    """A mock sound device that plays in (scaled) real time and records what it heard."""

    def __init__(self, clock: _Clock | None = None) -> None:
        self.opened: list[_Heard] = []
        self.clock = clock

    def open(self, rate: int, label: str) -> Any:
        heard = _Heard(rate)
        self.opened.append(heard)
        clock = self.clock
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
                heard.cut_at = clock() if clock is not None else None
                stopped.set()

        return Stream()


class _Said:
    """One utterance handed to the speaker, and what became of it."""

    def __init__(self, text: str, shown: float, turn: int, act: int = 0,
                 choice: str = "") -> None:
        self.text = text
        self.kind = ""
        self.shown = shown
        self.turn = turn
        self.act = act
        """The act (a group of gestures) whose frame this is."""
        self.choice = choice
        """"human" or "cpu": said on a choice screen (a menu) of a person or a computer."""
        self.pick: float | None = None
        """When the act after this one (the pick, on a choice screen) came."""
        self.merged_into: _Said | None = None
        """The transmission that said this one in fewer words with others (the voice
        had fallen behind): this one is heard when that one is."""
        self.merge = False
        """This one says others in fewer words."""
        self.full = 0.0
        """Seconds of speech in it (without the radio's squelch and roger beep)."""
        self.lead = 0.0
        """Seconds of squelch before the first word."""
        self.tail = 0.0
        """Seconds of roger beep after the last."""
        self.history = 0.0
        """Seconds of it that are history once the table acts (a card's instruction
        after the card: rig.voice.speech.acted_on), left out when the spin comes first:
        not lost words."""
        self.history_clips: frozenset[int] = frozenset()
        self.first_sound: float | None = None
        self.heard: _Heard | None = None
        self.clips: object = None
        """The transmission's clips: the speaker's transmission is known by them (the
        narrator may hand over a copy with its priority)."""
        self.picked_option: _Said | None = None
        """On a person's press (kind "press"): the option under the knob it picked (the
        last one said after the knob's last step), if one was said."""

    @property
    def ended(self) -> bool:
        """Over as a listener hears it: played to its end (roger beep) or cut (what said
        it, when merged); one not started counts by `_listen`'s quiet voice."""
        said = self.merged_into or self
        return said.heard is not None and (said.heard.finished or said.heard.cut)

    @property
    def lost(self) -> bool:
        if self.merged_into is not None:
            return self.merged_into.lost
        if self.heard is None:
            return True  # never started
        return self.heard.seconds < self.lead + self.full - self.history - LOST_TOLERANCE

    @property
    def dropped(self) -> bool:
        return self.heard is None and self.merged_into is None

    @property
    def lag(self) -> float | None:
        """From the frame shown to the first sound of what said it (merged: the merged
        transmission's first sound)."""
        said = self.merged_into or self
        return None if said.first_sound is None else said.first_sound - self.shown

    @property
    def late(self) -> bool:
        """Its last word came after the pick (a choice heard only after it was made)."""
        said = self.merged_into or self
        if said.first_sound is None or self.pick is None:
            return False
        return said.first_sound + said.lead + said.full > self.pick + LOST_TOLERANCE

    @property
    def cut_at_pick(self) -> bool:
        """Cut (not finished) once the pick had come: a choice the table made is history
        (rig.voice.narrator cuts it), so its words after the pick were not lost to it;
        they were not heard before the pick either."""
        said = self.merged_into or self
        if not self.lost or said.heard is None or self.pick is None:
            return False
        if said.heard.cut_at is not None:
            return said.heard.cut_at >= self.pick - LOST_TOLERANCE
        return said.first_sound is not None and \
            said.first_sound + said.heard.seconds >= self.pick - LOST_TOLERANCE

    @property
    def heard_by_pick(self) -> bool:
        """Heard whole, its last word before the pick (a choice heard before it was
        made; in the brief form, its brief form: rig.voice.speech.CHOICES)."""
        return not self.lost and not self.late

    @property
    def label(self) -> str:
        """The kind the figures count it as (choices apart: see the module doc)."""
        if self.merge:
            return "merged"
        if self.choice == "human" and self.kind in ("turn", "choice"):
            return "choice"
        if self.choice == "cpu" and self.kind in ("turn", "choice"):
            return "cpu prompt"
        return self.kind or "?"


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
    """When the frame being said was shown, in which turn and act, on what screen."""

    at = 0.0
    turn = 0
    act = 0
    choice = ""


def _rig(game: str, players: int, seed: int, seats: str | None) -> Any:
    """The emulated rig of a seeded game, with computer seats where ``seats`` says."""
    from rig.core.computer import seat_for
    from rig.core.controller import Seat
    from rig.desktop.emulated import new_emulated_rig

    levels = seats.split(",") if seats else ["human"] * players
    made = [Seat() if level == "human" else seat_for(game, level, seed=seed + i)
            for i, level in enumerate(levels)]
    return new_emulated_rig(game, players, seed=seed, seats=made)


def _computer_turn(rig: Any) -> bool:
    """Whether the act about to be made carries out a computer seat's choice."""
    state = rig.session.state
    if rig.controller.alert is not None or state.is_terminal() or state.is_chance_node():
        return False
    return bool(rig.controller.seats[state.current_player()].chooser is not None)


class _Acts:
    """What `_groups` knows of each act besides its gestures (acts count from 1; 0 is
    the first frame)."""

    def __init__(self) -> None:
        self.computer: set[int] = set()
        """The acts that carry out a computer's choice."""
        self.choice: dict[int, int] = {}
        """Each act on a person's choice screen (a knob step, the press): the act whose
        frame showed that choice (its screen, its prompt)."""
        self.presses: set[int] = set()
        """The presses that end a browsed choice (the knob stepped before them)."""


def _person_choice(gestures: list[Any], rig: Any) -> bool:
    """Whether `gestures` make a person's choice on a menu (a press at the end)."""
    from hardware.events import KnobPress

    return bool(gestures) and isinstance(gestures[-1], KnobPress) \
        and not _computer_turn(rig) and rig.controller.alert is None \
        and not rig.session.state.is_chance_node() and bool(rig.controller.choices())


def _groups(game: str, players: int, seed: int, count: int,
            seats: str | None = None) -> tuple[list[list[Any]], _Acts]:
    """The gestures of the first `count` acts of a seeded game (the game is the same
    whatever the voice does: its chance and the autopilot's choices are seeded), and
    what is known of its acts (`_Acts`)."""
    from rig.core.autopilot import gestures_for

    rig = _rig(game, players, seed, seats)
    rng = random.Random(seed)
    out: list[list[Any]] = []
    acts = _Acts()
    while not rig.session.state.is_terminal() and len(out) < count:
        if _computer_turn(rig):
            acts.computer.add(len(out) + 1)  # acts count from 1 (0: the first frame)
        gestures = gestures_for(rig.controller, rng)
        steps = _browse(gestures, rig) if PERSON in ("browses", "listens") else [gestures]
        if PERSON != "presses" and _person_choice(gestures, rig):
            for index in range(len(steps)):  # act len(out) showed the choice
                acts.choice[len(out) + 1 + index] = len(out)
            if len(steps) > 1:
                acts.presses.add(len(out) + len(steps))
        for step in steps:
            for gesture in step:
                rig.loop.step(gesture)
            rig.settle()
        out += steps
    return out, acts


def _browse(gestures: list[Any], rig: Any) -> list[list[Any]]:
    """A person's choice as a listener makes it (`PERSON` "browses"): one step of the
    knob a gesture, from the option under it to the one they pick, the shorter way
    round (at least one step where there are several options: away and back), then
    the press a gesture later; each its own act. Any other act: as it is."""
    from hardware.events import KnobPress, KnobTurn

    if not gestures or not isinstance(gestures[-1], KnobPress) or _computer_turn(rig) \
            or rig.controller.alert is not None or rig.session.state.is_chance_node():
        return [gestures]
    count = len(rig.controller.choices())
    if count < 2:
        return [gestures]
    delta = sum(g.steps for g in gestures if isinstance(g, KnobTurn)) % count
    if delta > count // 2:
        delta -= count
    turns = [1 if delta > 0 else -1] * abs(delta) if delta else \
        ([1, -1] if count > 2 else [1, 1])
    return [[KnobTurn(gestures[-1].knob, step)] for step in turns] + [[gestures[-1]]]


def _warm(game: str, players: int, seed: int, count: int, synthesizer: Any,
          seats: str | None = None) -> None:
    """Every sentence the game's first acts will say, rendered into the cache."""
    from rig.core.autopilot import gestures_for
    from rig.voice.narrator import sentences
    from rig.voice.speech import utterance, vocabulary_for

    rig = _rig(game, players, seed, seats)
    rng = random.Random(seed)
    vocabulary = vocabulary_for(game)
    for _ in range(count):
        if rig.session.state.is_terminal():
            break
        gestures = gestures_for(rig.controller, rng)
        for step in _browse(gestures, rig) if PERSON != "presses" else [gestures]:
            for gesture in step:
                rig.loop.step(gesture)
            rig.settle()
    texts = {said.text for screen in rig.screens
             if (said := utterance(screen, vocabulary, CHOICES)) is not None}
    texts |= set(_likely(vocabulary, rig.screens))
    for text in sorted(texts):
        for sentence in sentences(text):
            synthesizer.clip(sentence)
    if synthesizer.effect == "radio":
        synthesizer.squelch()
        synthesizer.roger_beep()


def _likely(vocabulary: Any, screens: list[Any]) -> list[str]:
    """What the voice may say beyond each screen's utterance (the option under the knob
    as it turns, where the narrator says it), to render ahead too."""
    from rig.voice.speech import highlighted

    return [said.text for screen in screens if screen.menu
            and (said := highlighted(screen, vocabulary)) is not None]


def _screen_choice(screen: Any) -> str:
    """"human" or "cpu" for a choice screen (a menu), "" for any other."""
    if not screen.menu or screen.title in ("CORRECTION", "NEW GAME"):
        return ""
    return "cpu" if any(p.role == "cpu" for p in screen.parts()) else "human"


def _listen(due: float, waited: Any, clock: Any, quiet: Any,
            most: float = LISTEN_MOST) -> tuple[float, float]:
    """When a listener's act comes (`PERSON` "listens"): at `due` (a gesture after the
    act before), or later, once every utterance `waited()` gives (what the voice said
    on the choice screen so far: its prompt, the option under the knob) has ended as
    heard (`_Said.ended`), or none of them can start any more (`quiet()`: the voice is
    silent, nothing waiting); at most `most` past `due`. Sleeps on `clock` till then and
    returns it, and the seconds waited past the plain pace (0 when nothing was waited
    for: the plain pace's own lateness on a busy machine is not the listener's)."""
    clock.sleep_until(due)
    plain = float(clock())
    while clock() < due + most:
        if all(r.ended or (r.heard is None and r.merged_into is None and quiet())
               for r in waited()):
            break
        clock.sleep_until(clock() + LISTEN_POLL)
    return float(clock()), float(clock()) - plain


def _play(game: str, players: int, seed: int, count: int, pace: float,
          cache: Path, seats: str | None = None,
          waits: list[float] | None = None) -> tuple[list[_Said], int]:
    """One seeded game's first `count` acts at `pace`, through the narrator. With the
    person "listens", each choice's seconds past the plain pace go onto `waits`."""
    from hardware.speaker import Speaker
    from rig.config import VoiceConfig
    from rig.voice.narrator import Narrator, Synthesizer

    settings = VoiceConfig(effect="radio" if shutil.which("sox") else "plain",
                           choices=CHOICES)
    synthesizer = Synthesizer(settings, cache)
    _warm(game, players, seed, count, synthesizer, seats)
    groups, acts = _groups(game, players, seed, count, seats)
    computer = acts.computer
    clock = _Clock()
    device = _PacedDevice(clock)
    said: list[_Said] = []
    by_transmission: dict[int, _Said] = {}
    lock = threading.Lock()
    rig = _rig(game, players, seed, seats)
    turns = _Turns(rig.session.state)
    act_times: list[float] = [0.0]

    def on_sound(transmission: Any, when: float) -> None:
        with lock:
            record = by_transmission.get(id(transmission.clips))
            if record is not None and record.first_sound is None:
                record.first_sound = when
                record.heard = device.opened[-1]
                record.history_clips = transmission.history

    shown = _Shown()

    class Recording(Synthesizer):
        """The synthesizer, noting each transmission the narrator hands over."""

        def transmission(self, text: str, *args: Any, **kwargs: Any) -> Any:
            made = super().transmission(text, *args, **kwargs)
            with lock:
                record = _Said(text, shown.at, shown.turn, shown.act, shown.choice)
                said.append(record)
                record.clips = made.clips  # kept: the id stays this transmission's
                by_transmission[id(made.clips)] = record
            return made

    def on_say(utterance: Any) -> None:
        with lock:
            if said and said[-1].text == utterance.text and not said[-1].kind:
                said[-1].kind = utterance.kind

    shown_at: dict[int, tuple[float, int, int]] = {}

    class Timed(Narrator):
        """The narrator, knowing when the frame it works on was shown."""

        def frame(self, screen: Any, game: str | None = None) -> Any:
            shown.at, shown.turn, shown.act = shown_at.pop(
                id(screen), (clock(), turns.count, len(act_times) - 1))
            shown.choice = _screen_choice(screen)
            return super().frame(screen, game)

    def on_merge(texts: list[str], short: Any) -> None:
        with lock:
            into = next(r for r in reversed(said) if r.text == short.text)
            into.kind, into.merge = short.kind, True
            for text in texts:
                record = next((r for r in reversed(said) if r.text == text and r is not into
                               and r.heard is None and r.merged_into is None), None)
                if record is not None:
                    record.merged_into = into

    speaker = Speaker(device, on_sound=on_sound, clock=clock)
    narrator = Timed(settings, Recording(settings, cache), speaker, lambda: game)
    narrator.on_say = on_say
    narrator.on_merge = on_merge

    def on_frame(screen: Any) -> None:
        shown_at[id(screen)] = (clock(), turns.seen(rig.session.state), len(act_times) - 1)
        narrator.post(screen)

    rig.pause = lambda seconds: clock.sleep_until(clock() + seconds)
    rig.loop.on_frame = on_frame
    rig.loop.refresh()
    added: dict[int, float] = defaultdict(float)  # a choice's seconds past the pace

    def waited(first: int, last: int) -> list[_Said]:
        with lock:
            return [r for r in said if first <= r.act <= last and r.choice == "human"]

    def quiet() -> bool:
        return narrator.idle.is_set() and speaker.idle.is_set()

    for act, gestures in enumerate(groups, start=1):
        due = clock() + pace
        if PERSON == "listens" and act in acts.choice:
            shown_by = acts.choice[act]
            _, extra = _listen(due, lambda first=shown_by, last=act - 1: waited(first, last),
                               clock, quiet)
            added[shown_by] += extra
        else:
            clock.sleep_until(due)
        act_times.append(clock())
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
        if record.history_clips:
            clips = synthesizer.transmission(record.text, 1.0).clips
            record.history = sum(clips[i]().seconds for i in record.history_clips)
        if record.choice and record.act + 1 < len(act_times):
            record.pick = act_times[record.act + 1]
    picks = [_Said("", 0.0, 0, act, "pick") for act in sorted(computer)
             if act < len(act_times)]
    for pick in picks:  # a computer's pick: said if its act's result was heard whole
        pick.kind = "cpu pick"
        heard = [r for r in said if r.act == pick.act and r.kind in MUST_HEAR and not r.lost]
        pick.heard = (heard[0].merged_into or heard[0]).heard if heard else None
    presses = [_Said("", 0.0, 0, act, "press") for act in sorted(acts.presses)
               if act < len(act_times)]
    for press in presses:  # the option it picked: the last said after the knob's last step
        press.kind = "press"
        options = [r for r in said if r.act == press.act - 1 and r.kind == "option"]
        press.picked_option = options[-1] if options else None
    if waits is not None and PERSON == "listens":
        waits += [added[shown_by] for shown_by in sorted(set(acts.choice.values()))
                  if shown_by + 1 < len(act_times)]
    return said + picks + presses, turns.count + 1


def _kinds(said: list[_Said]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    kinds: dict[str, list[_Said]] = defaultdict(list)
    for record in said:
        kinds[record.label].append(record)
    picks = kinds.pop("cpu pick", [])
    presses = kinds.pop("press", [])
    merges = kinds.get("merged", [])
    if merges:
        out["merged away"] = sum(1 for r in said if r.merged_into is not None)
    if picks:
        out["cpu pick"] = {"picks": len(picks),
                           "said": sum(1 for p in picks if p.heard is not None)}
    for kind, records in sorted(kinds.items()):
        lags = [r.lag for r in records if r.lag is not None and not r.merge]
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
            "words_p50": rnd(percentile([len(r.text.split()) for r in records], 50)),
        }
        if kind == "choice":
            out[kind]["late"] = sum(1 for r in records if r.late and not r.lost)
            out[kind]["cut_at_pick"] = sum(1 for r in records if r.cut_at_pick)
            out[kind]["waiting_at_pick"] = sum(1 for r in records if r.dropped)
            out[kind]["lost_before_pick"] = sum(1 for r in records if r.lost
                                                and not r.cut_at_pick and not r.dropped)
            out[kind]["heard_by_pick"] = sum(1 for r in records if r.heard_by_pick)
        if kind == "option":  # the options the knob landed on, heard before the pick
            out[kind]["heard_by_pick"] = sum(1 for r in records if r.heard_by_pick
                                             and r.pick is not None)
            out[kind]["lost_before_pick"] = sum(1 for r in records if r.lost
                                                and not r.cut_at_pick and not r.dropped)
            if presses:  # RULINGS G6: "the highlighted one as the knob turns"
                out[kind]["presses"] = len(presses)
                out[kind]["picked_heard_by_press"] = sum(
                    1 for p in presses
                    if p.picked_option is not None and p.picked_option.heard_by_pick)
        if kind in ("choice", "option"):  # what was not heard by the pick, and why
            out[kind]["missed"] = [_missed(r) for r in records
                                   if not r.heard_by_pick and r.pick is not None]
    return out


def _missed(record: _Said) -> str:
    """A choice or option not heard whole by its pick: its words, its seconds of
    speech, when its first sound came and when the pick came (table seconds after its
    frame was shown)."""
    said = record.merged_into or record
    start = "never" if said.first_sound is None else f"{said.first_sound - record.shown:.2f} s"
    pick = record.pick - record.shown if record.pick is not None else 0.0
    return f"{record.text} | {record.full:.2f} s of speech, first sound {start}, pick {pick:.2f} s"


def _summary(said: list[_Said], turns: int,
             waits: list[float] | None = None) -> dict[str, Any]:
    kinds = _kinds(said)
    lags = [r.lag for r in said if r.lag is not None and not r.merge
            and r.kind not in (*PICKS, "flavour")]
    must = [r for r in said if r.kind in MUST_HEAR and not r.merge]  # merged away: counted
    said = [r for r in said if r.kind not in (*PICKS, "flavour")
            and r.merged_into is None]
    per_turn: dict[int, list[_Said]] = defaultdict(list)
    for record in said:
        per_turn[record.turn].append(record)
    offered = [sum(r.full for r in rs) for rs in per_turn.values()]
    on_air = [sum(r.lead + r.full + r.tail for r in rs) for rs in per_turn.values()]
    words = [sum(len(r.text.split()) for r in rs) for rs in per_turn.values()]
    heard = sum(r.heard.seconds for r in said if r.heard is not None)
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
        "kinds": kinds,
        "example_turn": [f"[{r.kind}] {r.text}" for r in example],
        **({"listener": _waits(waits)} if waits is not None and PERSON == "listens" else {}),
    }


def _waits(waits: list[float]) -> dict[str, Any]:
    """How much later a listener's choices are made than at the plain pace (table
    seconds per choice, summed over its acts). It waited on a choice when it looked at
    the voice again at least once (the time to look once is not a wait)."""
    return {"choices": len(waits), "waited": sum(1 for w in waits if w >= LISTEN_POLL / 2),
            "added_s": [rnd(w) for w in waits],
            "added_s_p50": rnd(percentile(waits, 50)) if waits else 0.0,
            "added_s_p95": rnd(percentile(waits, 95)) if waits else 0.0,
            "added_s_max": rnd(max(waits, default=0.0))}


def measure(quick: bool, paces: tuple[float, ...] = PACES) -> dict[str, Any]:
    """The table-pace section (skipped, saying why, without espeak-ng)."""
    if shutil.which("espeak-ng") is None:
        return {"voice_pace": {"skipped": "espeak-ng is not installed "
                                          "(apt-get install espeak-ng)"}}
    seeds = (7,) if quick else (7, 8)
    count = 30 if quick else 80
    out: dict[str, Any] = {"speed": SPEED, "acts_per_game": count, "seeds": list(seeds),
                           "effect": "radio" if shutil.which("sox") else "plain",
                           "choices": CHOICES, "person": PERSON}
    with tempfile.TemporaryDirectory(prefix="cbrig-voice-pace-") as tmp:
        cache = Path(tmp) / "voice"
        for pace in paces:
            for game, players in GAMES:
                said: list[_Said] = []
                turns = 0
                waits: list[float] = []
                for seed in seeds:
                    got, counted = _play(game, players, seed, count, pace, cache,
                                         waits=waits)
                    for record in got:
                        record.turn += turns  # each game's turns after the last's
                    said += got
                    turns += counted
                out[f"{game}@{pace:g}s"] = _summary(said, turns, waits)
        out.update(held_out(quick, cache, paces))
    return {"voice_pace": out}


def held_out(quick: bool, cache: Path, paces: tuple[float, ...] = PACES) -> dict[str, Any]:
    """The held-out shape (`HELD_OUT`), keyed "game/players/seats@pace"."""
    count = 30 if quick else 80
    out: dict[str, Any] = {}
    for pace in paces:
        for game, players, seats, seeds in HELD_OUT:
            said: list[_Said] = []
            turns = 0
            waits: list[float] = []
            for seed in seeds[:1] if quick else seeds:
                got, counted = _play(game, players, seed, count, pace, cache, seats, waits)
                for record in got:
                    record.turn += turns
                said += got
                turns += counted
            cpu = "+cpu" if "easy" in seats else ""
            out[f"{game}/{players}p{cpu} held-out {list(seeds)}@{pace:g}s"] = \
                _summary(said, turns, waits)
    return out


def summary_lines(report: dict[str, Any]) -> list[str]:
    pace = report.get("voice_pace")
    if not pace:
        return []
    if "skipped" in pace:
        return [f"  voice at table pace: skipped ({pace['skipped']})"]
    lines = [f"  voice at table pace ({pace['effect']}, choices "
             f"{pace.get('choices', 'all')}, the person {pace.get('person', 'presses')}, "
             f"x{pace['speed']:g} real time, "
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
            if kind == "merged away":
                lines.append(f"      merged away {k:>4} (said in brief by a merged one)")
                continue
            if kind == "cpu pick":
                lines.append(f"      cpu pick {k['picks']:>4} picks, said {k['said']}")
                continue
            late = f", late {k['late']}" if "late" in k else ""
            if "cut_at_pick" in k:
                late += (f", cut at the pick {k['cut_at_pick']}, not started by the pick "
                         f"{k.get('waiting_at_pick', 0)}, lost before the pick "
                         f"{k['lost_before_pick']}, heard whole before the pick "
                         f"{k['heard_by_pick']}/{k['handed']}")
            elif "heard_by_pick" in k:
                late += f", heard whole before the pick {k['heard_by_pick']}/{k['handed']}"
                if "presses" in k:
                    late += (f", the picked one heard whole before the press "
                             f"{k['picked_heard_by_press']}/{k['presses']}")
            lines.append(f"      {kind:<8} {k['handed']:>4} said, cut {k['cut']:>3}, dropped "
                         f"{k['dropped']:>3} (lost {k['lost_words_share']:.0%}), "
                         f"{k['seconds_p50']} s each, lag p50 {k['lag_s_p50']} s "
                         f"p95 {k['lag_s_p95']} s, {k['words_p50']} words{late}")
        if "listener" in run:
            w = run["listener"]
            lines.append(f"      listener waited at {w['waited']}/{w['choices']} choices, "
                         f"added a choice p50 {w['added_s_p50']} s p95 {w['added_s_p95']} s "
                         f"max {w['added_s_max']} s")
        lines += [f"      a turn: {line}" for line in run["example_turn"]]
    return lines


def main() -> int:
    """``python -m bench.voice_pace [--quick] [--held-out-only] [--paces 2,3,5]
    [--choices brief|all] [--person browses|presses|listens]``: the table-pace figures printed
    (a JSON copy with --json FILE)."""
    import argparse
    import json

    global CHOICES, PERSON

    parser = argparse.ArgumentParser(prog="python -m bench.voice_pace")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--held-out-only", action="store_true")
    parser.add_argument("--paces", default="2,3,5")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--choices", choices=("brief", "all"), default=CHOICES)
    parser.add_argument("--person", choices=PERSONS, default=PERSON)
    args = parser.parse_args()
    CHOICES, PERSON = args.choices, args.person
    paces = tuple(float(p) for p in args.paces.split(","))
    if args.held_out_only:
        with tempfile.TemporaryDirectory(prefix="cbrig-voice-pace-") as tmp:
            out: dict[str, Any] = {"speed": SPEED, "acts_per_game": 30 if args.quick else 80,
                                   "seeds": "held out", "choices": CHOICES, "person": PERSON,
                                   "effect": "radio" if shutil.which("sox") else "plain"}
            out.update(held_out(args.quick, Path(tmp) / "voice", paces))
        report = {"voice_pace": out}
    else:
        report = measure(args.quick, paces)
    print("\n".join(summary_lines(report)))
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
