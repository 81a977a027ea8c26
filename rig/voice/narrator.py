"""The rig's voice: every frame's utterance synthesized, given a CB radio's sound, cached,
and handed to the speaker (RULINGS G6).

- :class:`Synthesizer` says one sentence with espeak-ng (chosen on measurement: see
  docs/VOICE.md), cut to its sound and given its pause, and, for the radio effect,
  passes it through sox: light saturation, a 300-3,400 Hz band with gentle slopes, a
  presence boost, compression (docs/VOICE.md, "The radio effect"); the squelch burst
  and the roger beep are made with the same band. Each
  sentence is rendered once into ``<state>/voice/`` as a WAV keyed by (text, voice,
  effect) and read back after that (rig.voice.cache: checked when read, made again when
  damaged, capped, giving way on a short disk); a cache that cannot be written (a full
  disk, a link) is logged once and the rig goes on rendering in memory.
- :class:`Narrator` turns each frame into a transmission: the screen's utterance
  (:mod:`rig.voice.speech`), said once, with its priority (`MUST_HEAR`): a card, a move, a
  police move, an alert and the winner are said to the end; a prompt or a refusal yields
  to what follows and is dropped once the table has acted on it (hardware.speaker). The
  event loop only calls :meth:`Narrator.post`, which never waits for audio (the
  narrator's thread works out the words, the speaker's worker synthesizes and plays).
- A missing synthesizer, effect or device is one log line and a note on the screen
  ("no sound"); the game goes on silently.
"""

from __future__ import annotations

import hashlib
import logging
import math
import re
import shutil
import subprocess
import threading
from array import array
from collections import deque
from collections.abc import Callable
from functools import partial
from pathlib import Path

from hardware.mailbox import Mailbox, start_worker
from hardware.speaker import AplayBackend, Backend, Clip, ClipError, Speaker, Transmission
from rig.screens.screen import Screen
from rig.voice.cache import ClipCache
from rig.voice.control import VoiceControl
from rig.voice.effects import Effect, effect_named, needs_sox
from rig.voice.espeak import library
from rig.voice.settings import VOICE_EFFECTS as EFFECTS
from rig.voice.settings import VoiceConfig
from rig.voice.speech import (
    FLAVOUR_KIND,
    MUST_HEAR,
    OPTION,
    Utterance,
    Vocabulary,
    acted_on,
    highlighted,
    merged,
    utterance,
    vocabulary_for,
)
from rig.voice.wav import pcm_of_wav, wav_bytes

log = logging.getLogger(__name__)

RADIO_RATE = 16000
"""The radio effect's sample rate: enough for the band and its gentle slopes (8 kHz
Nyquist), and it halves the cache and the work of every later step against espeak-ng's
22,050."""
RADIO_BAND = (300, 3400)
"""The CB speech band, Hz: the corners of two-pole (12 dB an octave) high- and low-pass
filters, not a brick wall. A steep 300-3,000 Hz band cut the consonants' energy above it
(s, t, f, the "k" of "track") and with it the numbers: an offline recognizer's word error
rate went from 0.28 (plain) to 0.74 with that band alone (docs/VOICE.md); the gentle
slopes keep the radio's thin, boxy sound and enough of the hiss of an "s"."""
PRESENCE = (2200, 4)
"""A gentle presence boost (Hz, dB; Q 1, about 1.4 octaves wide) where a small
speaker's voice is understood: a CB set's microphone and speaker peak there too."""
OVERDRIVE = 3
"""sox overdrive gain (dB): a light AM-style saturation, the rig's grit. Light enough
not to clip the words (peaks are held by the compressor after it); its harmonics also
brighten the consonants the band rounds off."""
COMPAND = ("0.004,0.1", "6:-70,-70,-30,-24,0,-10")
"""Compression instead of clipping (sox compand: 4 ms attack, 100 ms release; soft knee;
2:1 above -30 dB, 0 dB in comes out at -10): loud vowels and soft consonants come out
closer in level, every sentence at the same loudness, no sample at full scale."""
LEVEL_DB = 1
"""The compressor's output gain: every sentence's peak between -6 and -2 dBFS (0.50 to
0.77 of full scale measured over a seeded game's sentences; no clipping, the tests
measure it), with no second reading of the sound (sox's normalising ``gain -n`` reads
it twice, 12 ms more a clip)."""
SYNTHESIZER = "espeak-ng"
SENTENCE_PAUSE = 0.3
"""Seconds of silence after a sentence, after its last sound: espeak-ng run on a whole
utterance pauses about this long between sentences (0.33 s measured), and a listener
(or a recognizer) needs it to hear where one ends. With 0.15 s the joined clips were
understood worse than espeak-ng's own run (docs/VOICE.md)."""
CLAUSE_PAUSE = 0.18
"""Silence after a clause said as a clip of its own ("Blue truck at Blue five:"):
espeak-ng's own pause at a colon (about 0.2 s)."""
TRAILING_QUIET = 300
"""A sample under this (of 32,767) after the last word is silence: the library ends a
sentence at its last sound, the program adds 0.3 s of its own; both are cut to the
sound and given the same pause, so clips join alike however they were made."""
TAIL = 0.03
"""Seconds kept after the last loud sample: a word's release is quiet but heard."""


VoiceSettings = VoiceConfig
"""The ``[voice]`` section (rig.config reads and validates it)."""


# -- synthesis ---------------------------------------------------------------------------


def roger_tones(rate: int = RADIO_RATE) -> bytes:
    """1,000 Hz then 1,500 Hz, 90 ms each with 5 ms ramps (no clicks), at half scale:
    well inside the radio band."""
    out = array("h")
    for hz in (1000, 1500):
        count = int(rate * 0.09)
        ramp = int(rate * 0.005)
        for i in range(count):
            edge = min(1.0, i / ramp, (count - 1 - i) / ramp)
            out.append(int(16000 * edge * math.sin(2 * math.pi * hz * i / rate)))
    return out.tobytes()


def paused(clip: Clip, text: str) -> Clip:
    """The sentence cut to its last sound and given the pause that ends it
    (`SENTENCE_PAUSE`, `CLAUSE_PAUSE` after a colon): the same join whether the library
    or the program said it."""
    values = array("h")
    values.frombytes(clip.pcm)
    end = len(values)
    while end > 0 and abs(values[end - 1]) < TRAILING_QUIET:
        end -= 1
    end = min(len(values), end + int(clip.rate * TAIL))
    pause = CLAUSE_PAUSE if text.rstrip().endswith(":") else SENTENCE_PAUSE
    return Clip(clip.rate, values[:end].tobytes() + bytes(int(clip.rate * pause) * 2))


def cache_key(text: str, voice: str, effect: str) -> str:
    return hashlib.sha256(f"{text}\0{voice}\0{effect}".encode()).hexdigest()[:32]


def clip_key(text: str, voice: str, effect: str) -> str:
    """The cache's name for a sentence said in `voice` through `effect` (the effect as the
    cache knows it: with its chain and its joins)."""
    return cache_key(text, voice, _effect_key(effect))


_SENTENCES = re.compile(r"(?<=[.!?])\s+")
_CLAUSE = re.compile(r"(?<=:)\s+")
CLAUSE_MIN = 12
"""A clause before a colon is a clip of its own from this many characters ("Blue truck
at Blue five:"); a shorter one stays with what follows ("Red: draw a Mike card.")."""


def sentences(text: str) -> list[str]:
    """An utterance in sentences (and the clauses before a colon, "Blue truck at Blue
    five:"): each is a clip of its own, so the first sounds while the next is made, and
    one said before ("Ten-four.", "Red: draw a Mike card.") is already cached."""
    out: list[str] = []
    for sentence in _SENTENCES.split(text.strip()):
        parts = _CLAUSE.split(sentence)
        for part in parts:
            if out and out[-1].endswith(":") and len(out[-1]) < CLAUSE_MIN:
                out[-1] += " " + part
            elif part:
                out.append(part)
    return out


class Synthesizer:
    """espeak-ng (+ sox for the radio effect), with the phrase cache (module doc)."""

    def __init__(self, settings: VoiceSettings, cache: Path | None) -> None:
        self.settings = settings
        self.nice = shutil.which("nice")
        """Renders ahead (`warm`) run under nice: the table's own phrases come first."""
        self.cache = cache
        self.store = ClipCache(cache) if cache is not None else None
        """The clips on disk (rig.voice.cache); None: made each time."""
        self.renders = 0
        """Clips synthesized (not read from the cache): the bench and tests count them."""
        self.espeak = shutil.which(SYNTHESIZER)
        self.sox = shutil.which("sox")
        self.in_process = True
        """Say a phrase wanted now with libespeak-ng in this process (rig.voice.espeak), not
        the program (which renders ahead, under nice, and stands in if it must)."""

    @property
    def voice(self) -> str:
        return f"{SYNTHESIZER}:{self.settings.voice}:{self.settings.rate}"

    @property
    def effect(self) -> str:
        """The effect in use: one made with sox needs it; without it the plain voice (said
        once in the log by :meth:`problem`)."""
        return self.settings.effect if self.sox is not None else "plain"

    def problem(self) -> str:
        """Why the rig cannot speak ("" when it can)."""
        if self.espeak is None:
            return f"{SYNTHESIZER} is not installed (apt-get install espeak-ng)"
        return ""

    def clip(self, text: str, low: bool = False) -> Clip:
        """One sentence, from the cache or made now (and cached); ``low``: at a low
        CPU priority (a render ahead of its moment)."""
        effect = self.effect
        key = clip_key(text, self.voice, effect)
        cached = self._read(key)
        if cached is not None:
            return cached
        clip = self._render(text, effect, low)
        self._write(key, clip)
        return clip

    def warm(self, texts: list[str]) -> threading.Thread | None:
        """Render every sentence of ``texts`` not cached yet, on a thread of its own and
        under nice, so that they are cached when said; None when there is no cache to
        fill or no synthesizer."""
        if self.cache is None or self.espeak is None:
            return None

        def run() -> None:
            if self.store is not None and not self.store.usable():
                return  # nothing would be kept: rendering ahead is wasted work
            for text in texts:
                for sentence in sentences(text):
                    try:
                        self.clip(sentence, low=True)
                    except ClipError as exc:
                        log.info("voice: not rendered ahead: %s", exc)
                        return

        thread = threading.Thread(target=run, name="voice-ahead", daemon=True)
        thread.start()
        return thread

    def squelch(self) -> Clip:
        """The burst of noise as the carrier opens (band-limited like the voice)."""
        return self._sound("<squelch>", ["synth", "0.16", "whitenoise", "vol", "0.35",
                                         "fade", "q", "0.01", "0.16", "0.06"])

    def roger_beep(self) -> Clip:
        """The roger beep at the end of a transmission: a rising two-tone chirp, then
        the squelch tail as the carrier drops."""
        beep = roger_tones()
        tail = self._sound("<tail>", ["synth", "0.07", "whitenoise", "vol", "0.25",
                                      "fade", "q", "0", "0.07", "0.05"])
        return Clip(RADIO_RATE, beep + tail.pcm)

    def transmission(self, text: str, volume: float) -> Transmission:
        """The clips of one utterance, made lazily on the speaker's worker. Without a
        synthesizer it fails at once: no squelch burst on a device opened for nothing."""
        if self.espeak is None:
            return Transmission(text, [self._unable], volume)
        said = sentences(text)
        parts: list[Callable[[], Clip]] = [partial(self.clip, s) for s in said]
        if effect_named(self.effect).transmission and said:
            parts = [self.squelch, *parts[:-1], partial(self._last, said[-1]),
                     self.roger_beep]
        return Transmission(text, parts, volume)

    def _last(self, text: str) -> Clip:
        """The last sentence of a radio transmission, without its pause: the roger beep
        ends the transmission at once, as an operator lets go of the key (the pause
        between sentences is for the listener; dead air before the beep only delays
        the table, about 0.3 s an utterance)."""
        clip = self.clip(text)
        pause = int(clip.rate * (CLAUSE_PAUSE if text.rstrip().endswith(":")
                                 else SENTENCE_PAUSE)) * 2
        return Clip(clip.rate, clip.pcm[:-pause]) if 0 < pause < len(clip.pcm) else clip

    def whole(self, text: str) -> Clip:
        """The whole transmission as one clip (the browser plays it as one WAV)."""
        clips = [make() for make in self.transmission(text, 1.0).clips]
        return Clip(clips[0].rate, b"".join(c.pcm for c in clips))

    def _unable(self) -> Clip:
        raise ClipError(self.problem())

    # -- the tools ---------------------------------------------------------------------
    def _render(self, text: str, effect: str, low: bool = False) -> Clip:
        if self.espeak is None:
            raise ClipError(self.problem())
        self.renders += 1
        lower = [self.nice, "-n", "15"] if low and self.nice else []
        spoken = None if low else self._in_process(text)
        if spoken is None:
            spoken = pcm_of_wav(_run([*lower, self.espeak, "--stdout", "-v",
                                      self.settings.voice, "-s", str(self.settings.rate),
                                      text]))
        spoken = paused(spoken, text)
        kind = effect_named(effect)
        if not kind.sox or self.sox is None:
            return spoken
        # a WAV that says its length (espeak-ng streams it unknown; the fade needs it)
        known = wav_bytes(spoken)
        return Clip(kind.rate, _run([*lower, self.sox, "-q", "-R", "-t", "wav", "-",
                                     *_raw_out(kind.rate), *kind.sox], known))

    def _in_process(self, text: str) -> Clip | None:
        """The sentence by the library, or None to run the program instead."""
        if not self.in_process:
            return None

        loaded = library()
        if loaded is None:
            return None
        try:
            rate, pcm = loaded.say(text, self.settings.voice, self.settings.rate)
        except OSError as exc:
            raise ClipError(f"{SYNTHESIZER}: {exc}") from exc
        if not pcm:
            raise ClipError(f"{SYNTHESIZER} said nothing for {text!r}")
        return Clip(rate, pcm)

    def _sound(self, name: str, effects: list[str]) -> Clip:
        key = cache_key(name + " ".join(effects), "sox", _effect_key(RADIO.name))
        cached = self._read(key)
        if cached is not None:
            return cached
        if self.sox is None:
            raise ClipError("sox is not installed (apt-get install sox)")
        clip = Clip(RADIO_RATE, _run([self.sox, "-q", "-R", "-n", *_RAW_OUT, *effects, *_BAND,
                                      *_FADES]))
        self._write(key, clip)
        return clip

    # -- the cache ---------------------------------------------------------------------
    def _read(self, key: str) -> Clip | None:
        """The clip cached under ``key``; None when not cached, or damaged (made again)."""
        found = self.store.get(key) if self.store is not None else None
        return None if found is None else Clip(*found)

    def _write(self, key: str, clip: Clip) -> None:
        """Whole or not at all (rig.voice.cache); a cache that cannot be written is said
        once and the voice goes on without it."""
        if self.store is not None:
            self.store.put(key, clip.rate, clip.pcm)

    def cached(self, text: str) -> bool:
        """Whether every sentence of ``text`` is in the cache already."""
        effect = self.effect
        return all(self._read(clip_key(s, self.voice, effect)) is not None
                   for s in sentences(text))


def _raw_out(rate: int) -> list[str]:
    return ["-t", "raw", "-r", str(rate), "-e", "signed", "-b", "16", "-c", "1", "-"]


_RAW_OUT = _raw_out(RADIO_RATE)
_BAND = ["highpass", str(RADIO_BAND[0]), "lowpass", str(RADIO_BAND[1])]
_FADES = ["fade", "q", "0.01", "-0", "0.01"]
"""10 ms in and out: clips follow each other without a click where they join."""
_RADIO = ["overdrive", str(OVERDRIVE), *_BAND,
          "equalizer", str(PRESENCE[0]), "1q", f"+{PRESENCE[1]}",
          "compand", *COMPAND, str(LEVEL_DB), "-90", *_FADES]
"""The radio effect on a sentence: light saturation, the band's gentle slopes, the
presence boost, compression to one level, fades."""
RADIO = Effect(name="radio", title="a CB radio: 300-3,400 Hz, squelch, roger beep",
               sox=tuple(_RADIO), rate=RADIO_RATE, transmission=True)
"""``effect = "radio"`` in the effect table (rig.voice.effects)."""


def _effect_key(effect: str) -> str:
    """The effect as the cache knows it: its whole sox chain and the pauses that end a
    clip, so that a changed effect or join renders anew instead of playing clips made
    the old way."""
    joins = f"pauses {SENTENCE_PAUSE} {CLAUSE_PAUSE} {TAIL}"
    return " ".join([effect, *effect_named(effect).sox, joins])


def _run(command: list[str], data: bytes | None = None) -> bytes:
    try:
        done = subprocess.run(command, input=data, capture_output=True, check=False,
                              timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ClipError(f"{Path(command[0]).name}: {exc}") from exc
    if done.returncode != 0 or not done.stdout:
        words = done.stderr.decode(errors="replace").strip().splitlines()
        raise ClipError(f"{Path(command[0]).name} failed: "
                        f"{words[-1] if words else done.returncode}")
    return done.stdout


# -- the narrator --------------------------------------------------------------------------


class Narrator:
    """Speaks each frame's utterance once, by its priority (see the module doc). The
    event loop calls :meth:`post`, which only hands the screen over: the narrator's own
    thread works out what to say (:meth:`frame`, which a demo may call directly) and
    tells the speaker."""

    def __init__(self, settings: VoiceSettings, synthesizer: Synthesizer | None,
                 speaker: Speaker | None, game: Callable[[], str],
                 control: VoiceControl | None = None) -> None:
        """Without a synthesizer or a speaker the narrator only keeps the words (`said`,
        `on_say`): a demo on a machine without sound prints them."""
        self.settings = settings
        self.synthesizer = synthesizer
        self.speaker = speaker
        self.game = game
        self.control = control or VoiceControl(settings.enabled, settings.volume)
        self._last: Utterance | None = None
        self._cursor: int | None = None
        """Where the knob stood on the choice being said (a turn says the option under
        it: :func:`rig.voice.speech.highlighted`)."""
        self._silenced = False
        self._acting: frozenset[str] = frozenset()
        """The card being said whose instruction is history once the table acts
        (:func:`rig.voice.speech.acted_on`): trimmed then (`Speaker.trim`)."""
        self._choosing: frozenset[str] = frozenset()
        """The transmission of the choice being made: once made (anything else follows
        but the option under the knob or a refusal) it is history, cut if still on the
        air, so the voice is not behind by a menu the table has answered."""
        self.said: list[Utterance] = []
        """Every utterance handed to the speaker, in order (the demo prints them)."""
        self.on_say: Callable[[Utterance], None] | None = None
        self.on_merge: Callable[[list[str], Utterance], None] | None = None
        """Told the texts said together in fewer words, and what is said instead (the
        bench follows each utterance to the words that said it)."""
        self._handed: dict[str, list[Utterance]] = {}
        """Recent utterances by the text of their transmission (what the speaker's queue
        holds), to say what waits in fewer words (:func:`rig.voice.speech.merged`)."""
        self._pending: deque[tuple[Screen, str]] = deque()
        """Screens posted and not looked at yet, in order: every one is looked at (a
        must-hear moment shown briefly is still said)."""
        self._pending_lock = threading.Lock()
        self._inbox: Mailbox[bool] = Mailbox()
        self._thread: threading.Thread | None = None
        self.idle = self._inbox.idle
        """Set while no posted screen waits (tests and the bench wait on it)."""

    def post(self, screen: Screen) -> None:
        """The frame just shown, handed over (the loop's thread never waits here)."""
        game = self.game()
        if self._thread is None:  # only the loop's thread posts
            self._thread = start_worker(self._inbox, self._drain, "narrator")
        with self._pending_lock:
            self._pending.append((screen, game))
        self._inbox.post(True)

    def _drain(self, _: bool) -> None:
        while True:
            with self._pending_lock:
                if not self._pending:
                    return
                screen, game = self._pending.popleft()
            try:
                self.frame(screen, game)
            except Exception:  # the voice must never take the rig down
                log.exception("voice: cannot say a frame")

    def close(self) -> None:
        """Stop the narrator's thread and the speaker."""
        self._inbox.close()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
        if self.speaker is not None:
            self.speaker.close()

    def frame(self, screen: Screen, game: str | None = None) -> Utterance | None:
        """The frame now shown: say its utterance if it is new; a screen with nothing
        to say (the spin, a menu) means the table acted: a routine prompt still playing
        yields (must-hear speech goes on). Returns what was said."""
        if not self.control.enabled:  # switched off: nothing goes on being said
            if not self._silenced and self.speaker is not None:
                self.speaker.silence()
            self._silenced = True
            return None
        self._silenced = False
        name = self.game() if game is None else game
        vocabulary = vocabulary_for(name)
        said = utterance(screen, vocabulary, self.settings.choices)
        if said is None or said == self._last:
            said = self._browsed(screen, said, vocabulary)
        else:
            self._cursor = screen.cursor if screen.menu else None
        if said is None:
            if self._last is not None:
                self._made()
                self._stop()
                self._last = None
            return None
        if said.kind == OPTION:
            pass  # the choice it browses stays the moment
        elif said == self._last:
            return None  # the same moment redrawn (a page, a refusal fading)
        elif said.kind != "refusal":
            self._last = said
        if said.kind not in (OPTION, "refusal"):
            self._made()
        if not _enabled(said.kind, self.settings.events):
            self._stop()
            return None
        self._hand(said, acted_on(screen, vocabulary) if said.kind == "card" else "")
        if said.kind == "choice" and self.speaker is not None and self.synthesizer is not None:
            self._choosing = frozenset({said.text})
        self.said.append(said)
        if self.on_say is not None:
            self.on_say(said)
        if said.kind in MUST_HEAR:
            self._catch_up(vocabulary)
        slang = vocabulary.flavour(said.kind)
        if slang and _enabled(said.kind, self.settings.events):
            self._hand(Utterance(slang, FLAVOUR_KIND))  # routine: yields to what follows
            if self.on_say is not None:
                self.on_say(Utterance(slang, FLAVOUR_KIND))
        return said

    def _hand(self, said: Utterance, history: str = "") -> None:
        """Give ``said`` to the speaker, with its priority; ``history``: the end of it
        that is history once the table acts (trimmed then: `_made`)."""
        if self.speaker is None or self.synthesizer is None:
            return
        made = self.synthesizer.transmission(said.text, self.control.volume / 100)
        spoken, tail = sentences(said.text), sentences(history) if history else []
        last: frozenset[int] = frozenset()
        closing = len(made.clips) - len(spoken)  # the squelch burst and roger beep
        if tail and len(tail) < len(spoken) and spoken[-len(tail):] == tail \
                and closing in (0, 2):
            before = closing // 2  # the squelch burst, on the radio
            last = frozenset(range(before + len(spoken) - len(tail), before + len(spoken)))
            self._acting = frozenset({made.key})
        self.speaker.say(Transmission(made.key, made.clips, made.volume,
                                      must_hear=said.kind in MUST_HEAR, history=last))
        self._handed[made.key] = [said]
        if len(self._handed) > 64:
            self._handed.pop(next(iter(self._handed)))

    def _made(self) -> None:
        """The table acted: the choice being said was made (cut: `_choosing`), the card
        being said was acted on (its instruction left out: `_acting`)."""
        if self._choosing and self.speaker is not None:
            self.speaker.withdraw(self._choosing)
        if self._acting and self.speaker is not None:
            self.speaker.trim(self._acting)
        self._choosing = self._acting = frozenset()

    def _catch_up(self, vocabulary: Vocabulary) -> None:
        """Fallen behind (must-hear speech waiting behind must-hear speech): what waits
        is said in fewer words (RULINGS G6), never read out as a history."""
        if self.speaker is None or self.synthesizer is None:
            return
        synthesizer, volume, told = self.synthesizer, self.control.volume / 100, []

        def combine(waiting: list[Transmission]) -> Transmission | None:
            queued = [self._handed.get(t.key) for t in waiting]
            if any(u is None for u in queued):
                return None
            flat = [u for us in queued if us is not None for u in us]  # merged again:
            short = merged(vocabulary, flat)  # its parts, so history drops out of it
            if short is None:
                return None
            told.append(short)
            made = synthesizer.transmission(short.text, volume)
            self._handed[made.key] = flat
            return Transmission(made.key, made.clips, made.volume, must_hear=True)

        replaced = self.speaker.merge(combine, apart=lambda t: t.key in self._choosing)
        if replaced and self.on_merge is not None:
            self.on_merge([t.key for t in replaced], told[0])

    def _browsed(self, screen: Screen, said: Utterance | None,
                 vocabulary: Vocabulary) -> Utterance | None:
        """On a choice already said (or a menu that says nothing: the correction menu,
        whose item under the knob is said as it opens), a turn of the knob says the
        option now under it; else ``said`` as it was."""
        if not screen.menu:
            self._cursor = None
            return said
        if screen.cursor == self._cursor:
            return said
        first = self._cursor is None
        self._cursor = screen.cursor
        if first and said is None and screen.title != "CORRECTION":
            return said
        option = highlighted(screen, vocabulary)
        return said if option is None else option

    def warm(self, game: object, name: str) -> None:
        """Render ahead what ``game`` will say anyway (rig.voice.speech: Vocabulary.likely)."""
        if self.synthesizer is not None:
            self.synthesizer.warm(vocabulary_for(name).likely(game))

    def _stop(self) -> None:
        if self.speaker is not None:
            self.speaker.stop()


def _enabled(kind: str, events: tuple[str, ...]) -> bool:
    """Whether ``kind`` is said with the ``[voice] events`` setting: a choice and the
    option under the knob are said where "choice" is, or "turn" (a setting written
    before choices were a kind of their own)."""
    if kind in (OPTION, "choice"):
        return "choice" in events or "turn" in events
    return kind in events


def sound_card_present(devices: Path = Path("/dev/snd")) -> bool:
    """Whether ALSA has any playback device here (a Pi without a jack, an amplifier or
    a USB card has none)."""
    try:
        return any(p.name.startswith("pcm") and p.name.endswith("p")
                   for p in devices.iterdir())
    except OSError:
        return False


def voice_note(narrator: Narrator, backend: Backend | None, device: str) -> str:
    """Where the voice is heard, in one sentence (the desk's greeting), or that it
    cannot play and why: never "speaking" without a synthesizer."""
    problem = narrator.synthesizer.problem() if narrator.synthesizer is not None else ""
    if problem:
        return f"Voice: cannot play: {problem}."
    note: str = getattr(backend, "note", "")
    return note or f"Voice: speaking on the {device} sound output."


def _device(settings: VoiceSettings, backend: Backend | None) -> Backend:
    """``backend``, or aplay on the configured ALSA device."""

    return backend if backend is not None else AplayBackend(settings.device)


def build_narrator(settings: VoiceSettings, cache: Path | None, game: Callable[[], str],
                   on_fault: Callable[[str], None] | None = None,
                   on_recovered: Callable[[], None] | None = None,
                   backend: Backend | None = None,
                   control: VoiceControl | None = None) -> Narrator:
    """The narrator with espeak-ng, the cache and aplay on the configured device (or
    ``backend``); a missing synthesizer is one log line and ``on_fault``."""
    synthesizer = Synthesizer(settings, cache)
    speaker = Speaker(_device(settings, backend), on_fault=on_fault,
                      on_recovered=on_recovered)
    if synthesizer.store is not None:  # stale temporaries go, the clips are counted
        threading.Thread(target=synthesizer.store.prepare, name="voice-cache",
                         daemon=True).start()
    problem = synthesizer.problem()
    if problem:
        speaker.fault(problem)  # one line and "no sound", not one more a transmission
    elif needs_sox(effect_named(settings.effect)) and synthesizer.sox is None:
        log.warning("voice: sox is not installed (apt-get install sox): the plain voice, "
                    "without the %s effect", settings.effect)
    return Narrator(settings, synthesizer, speaker, game, control)


TEST_PHRASE = "Breaker one-nine, this is the rig. Radio check: ten-four, good buddy."
"""What `cbrig selftest` says."""


def speak_test(settings: VoiceSettings, cache: Path | None, backend: Backend | None = None,
               timeout: float = 30.0) -> str:
    """Say `TEST_PHRASE` on the configured output and wait for it (`cbrig selftest`);
    "" when it played, else why not."""
    synthesizer = Synthesizer(settings, cache)
    problem = synthesizer.problem()
    if problem:
        return problem
    faults: list[str] = []
    speaker = Speaker(_device(settings, backend), on_fault=faults.append)
    speaker.say(synthesizer.transmission(TEST_PHRASE, settings.volume / 100))
    finished = speaker.idle.wait(timeout)
    speaker.close()
    if faults:
        return faults[0]
    return "" if finished else f"still playing after {timeout:.0f} s"


__all__ = [
    "EFFECTS",
    "Narrator",
    "Synthesizer",
    "VoiceControl",
    "VoiceSettings",
    "build_narrator",
    "cache_key",
    "pcm_of_wav",
    "sentences",
    "speak_test",
    "voice_note",
    "wav_bytes",
]
