"""The voice at the table's pace (RULINGS G6 revised, issue 34): a radio channel with
priorities. What the table must hear (a card, a move, a police move, an alert, the
winner) is never cut by what follows; a routine prompt yields, is dropped once the table
acted on it, and is dropped when it waited too long behind must-hear speech, so the
voice never runs far behind the screen.

No sleeps: a gated device holds each transmission's first write until the test lets it
go, and the speaker's clock is the test's own.
"""

from __future__ import annotations

import json
import threading
from functools import partial

from hardware.speaker import ROUTINE_LAG, Clip, Speaker, Stream, Transmission
from rig.screens.screen import Part, Screen
from rig.voice.narrator import Narrator, Synthesizer, VoiceSettings
from tests.slowdown import HANG, hang, scaled

RATE = 8000


def tone(seconds: float = 0.5) -> Clip:
    return Clip(RATE, b"\x10\x00" * int(RATE * seconds))


def said(key: str, must_hear: bool) -> Transmission:
    return Transmission(key, [partial(tone)], must_hear=must_hear)


class Heard:
    def __init__(self, key: str) -> None:
        self.key = key
        self.samples = 0
        self.cut = False
        self.finished = False


class GatedDevice:
    """Each transmission's stream waits at its first write until `release`d (or cut):
    the test decides how long each one is "on the air"."""

    def __init__(self) -> None:
        self.heard: list[Heard] = []
        self.on_air = threading.Semaphore(0)
        """Released once for each transmission that reached the device."""
        self._gates: list[threading.Event] = []
        self._free = False
        self._lock = threading.Lock()

    def open(self, rate: int, label: str) -> Stream:
        heard = Heard(label)
        gate = threading.Event()
        with self._lock:
            self.heard.append(heard)
            self._gates.append(gate)
            if self._free:
                gate.set()
        self.on_air.release()

        class Gated:
            def write(self, pcm: bytes) -> None:
                gate.wait(hang())
                if not heard.cut:
                    heard.samples += len(pcm) // 2

            def finish(self) -> None:
                heard.finished = not heard.cut

            def abort(self) -> None:
                heard.cut = True
                gate.set()

        return Gated()

    def wait_on_air(self) -> None:
        assert self.on_air.acquire(timeout=scaled(HANG)), "nothing reached the device"

    def release(self) -> None:
        """Let every transmission play out, those opened so far and those to come (until
        `hold`)."""
        with self._lock:
            self._free = True
            for gate in self._gates:
                gate.set()

    def hold(self) -> None:
        """Transmissions opened from now on wait for `release` again."""
        with self._lock:
            self._free = False

    def played(self) -> list[str]:
        return [h.key for h in self.heard]

    def whole(self, key: str) -> bool:
        heard = next(h for h in self.heard if h.key == key)
        return heard.finished and heard.samples == int(RATE * 0.5)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def speaker() -> tuple[Speaker, GatedDevice, Clock]:
    device = GatedDevice()
    clock = Clock()
    return Speaker(device, clock=clock), device, clock


def test_must_hear_speech_is_never_cut_by_what_follows() -> None:
    voice, device, _ = speaker()
    voice.say(said("card read aloud", True))
    device.wait_on_air()
    voice.say(said("next prompt", False))
    voice.say(said("move result", True))
    voice.stop()  # the spin: a screen with nothing to say
    voice.say(said("catch alert", True))
    device.release()
    assert voice.idle.wait(hang())
    voice.close()
    assert device.played() == ["card read aloud", "move result", "catch alert"]
    assert all(device.whole(k) for k in device.played())


def test_a_routine_prompt_yields_to_what_follows() -> None:
    voice, device, _ = speaker()
    voice.say(said("Red: draw a Mike card.", False))
    device.wait_on_air()
    voice.say(said("the card read aloud", True))  # the card was tapped: the prompt is stale
    device.release()
    assert voice.idle.wait(hang())
    voice.close()
    prompt, card = device.heard
    assert prompt.cut and not prompt.finished
    assert card.key == "the card read aloud" and device.whole(card.key)


def test_a_routine_prompt_is_cut_when_the_table_acts() -> None:
    voice, device, _ = speaker()
    voice.say(said("Red: flick the high knob.", False))
    device.wait_on_air()
    voice.stop()  # flicked: the spin shows
    assert voice.idle.wait(hang())
    voice.close()
    [prompt] = device.heard
    assert prompt.cut and prompt.samples == 0


def test_a_waiting_prompt_the_table_acted_on_is_dropped() -> None:
    voice, device, _ = speaker()
    voice.say(said("move result", True))
    device.wait_on_air()
    voice.say(said("Blue: draw a Mike card.", False))  # waits behind the result
    voice.say(said("Blue's card read aloud", True))  # Blue tapped before it was said
    device.release()
    assert voice.idle.wait(hang())
    voice.close()
    assert device.played() == ["move result", "Blue's card read aloud"]
    assert voice.dropped == 1


def test_a_prompt_that_waited_too_long_is_dropped_and_one_in_time_is_said() -> None:
    voice, device, clock = speaker()
    voice.say(said("long alert", True))
    device.wait_on_air()
    voice.say(said("stale prompt", False))
    clock.now = ROUTINE_LAG + 0.5  # the alert went on longer than the lag allows
    device.release()
    assert voice.idle.wait(hang())
    assert device.played() == ["long alert"] and voice.dropped == 1
    device.hold()
    voice.say(said("another alert", True))
    device.wait_on_air()
    voice.say(said("prompt in time", False))
    clock.now += ROUTINE_LAG - 0.5
    device.release()
    assert voice.idle.wait(hang())
    voice.close()
    assert device.played() == ["long alert", "another alert", "prompt in time"]
    assert device.whole("prompt in time")


def test_silence_cuts_everything() -> None:
    voice, device, _ = speaker()
    voice.say(said("alert", True))
    device.wait_on_air()
    voice.say(said("winner", True))
    voice.silence()  # the voice switched off on the setup menu
    assert voice.idle.wait(hang())
    voice.close()
    [alert] = device.heard
    assert alert.cut and voice.dropped == 1


# -- the narrator gives each utterance its priority -----------------------------------

CARD = Screen(title="10-4  RED", lines=(
    Part('"Back off on it. Spin the Lo-Band."', "card"),
    Part("Red: flick the LO knob (Lo-Band)", "instruction")))
SPIN = Screen(title="10-4  RED", big="7", lines=("spinning...",))
MOVED = Screen(title="10-4  RED", big="MOVE 7",
               lines=(Part("Red truck at R1: 7 ahead to R8", "result"),), footer="press: ok")
PROMPT = Screen(title="10-4  BLUE", lines=(Part("Blue: draw a Mike card", "instruction"),
                                           Part("Tap it on the rig", "instruction")))
CARD2 = Screen(title="10-4  BLUE", lines=(
    Part('"Clear after you. Spin the Hi-Band."', "card"),
    Part("Blue: flick the HI knob (Hi-Band)", "instruction")))


class Tones(Synthesizer):
    """Half a second of tone for every utterance (no espeak-ng needed)."""

    def __init__(self, gate: threading.Event | None = None) -> None:
        super().__init__(VoiceSettings(), None)
        self.gate = gate

    def transmission(self, text: str, volume: float) -> Transmission:
        if self.gate is not None:
            assert self.gate.wait(hang())
        return Transmission(text, [partial(tone)], volume)


def test_a_brisk_turn_heard_whole_where_it_matters() -> None:
    """Card, flick, result, acknowledge, the next player taps at once: the card and the
    move are heard to the end; the next player's prompt, acted on before its turn to be
    said, is dropped; the move and the next card, queued up behind the first card (the
    device is slow), are said together in fewer words (issue 43)."""
    device = GatedDevice()
    voice = Narrator(VoiceSettings(), Tones(), Speaker(device), lambda: "tenfour")
    voice.frame(CARD)
    device.wait_on_air()  # the card is on the air: what follows waits behind it
    for screen in (SPIN, MOVED, PROMPT, CARD2):
        voice.frame(screen)
    device.release()
    assert voice.speaker is not None and voice.speaker.idle.wait(hang())
    voice.close()
    assert device.played() == ["Back off on it. Spin the low band.",
                             "Red to Red eight. Clear after you. Spin the high band."]
    assert all(device.whole(k) for k in device.played())
    assert [u.kind for u in voice.said] == ["card", "move", "turn", "card"]


def test_the_narrator_says_every_screen_posted_in_order() -> None:
    """Screens posted while the narrator's thread is busy all wait their turn: a result
    shown for a moment before the next prompt is still said."""
    gate = threading.Event()
    device = GatedDevice()
    voice = Narrator(VoiceSettings(), Tones(gate), Speaker(device), lambda: "tenfour")
    for screen in (CARD, SPIN, MOVED, PROMPT):
        voice.post(screen)
    gate.set()
    assert voice.idle.wait(hang())
    device.release()
    assert voice.speaker is not None and voice.speaker.idle.wait(hang())
    voice.close()
    assert [u.kind for u in voice.said] == ["card", "move", "turn"]
    assert device.played()[0] == "Back off on it. Spin the low band."
    assert device.played()[1] in ("Red truck: seven ahead to Red eight.",  # not behind yet
                                  "Red to Red eight.")  # behind the card: said in brief


def test_switching_the_voice_off_cuts_even_a_must_hear_moment() -> None:
    device = GatedDevice()
    voice = Narrator(VoiceSettings(), Tones(), Speaker(device), lambda: "tenfour")
    voice.frame(MOVED)
    device.wait_on_air()
    voice.control.toggle()  # the setup menu: voice off
    voice.frame(PROMPT)
    assert voice.speaker is not None and voice.speaker.idle.wait(hang())
    voice.close()
    [move] = device.heard
    assert move.cut and move.samples == 0


def test_the_page_is_told_the_priorities() -> None:
    """The browser plays the WAVs itself: each event says whether it must be heard
    whole, and a stop or the voice switched off is an event too."""
    from rig.web.hub import Hub
    from rig.web.voice import WebSound

    hub = Hub()
    box = hub.subscribe()
    voice = Speaker(WebSound(hub))
    voice.say(said("move result", True))
    assert voice.idle.wait(hang())
    voice.say(said("next prompt", False))
    assert voice.idle.wait(hang())
    voice.stop()
    voice.silence()
    voice.close()
    events: list[dict[str, object]] = []
    while len(events) < 4:
        items = box.take(10)
        assert items, "no voice event"
        for topic, data in items:
            if topic == "voice":  # each event repeats the last few: the newest has all
                events = json.loads(data)["events"]
    assert [e["seq"] for e in events] == [1, 2, 3, 4]
    assert [(e.get("text"), e.get("must"), e.get("stale")) for e in events] == [
        ("move result", True, None), ("next prompt", False, None),
        (None, None, "routine"), (None, None, "all")]
    assert events[0]["lag"] == ROUTINE_LAG

