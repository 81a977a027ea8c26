"""Is the voice understood through the radio? An offline recognizer's word error rate.

    .venv/bin/python -m bench.radio_wer              # the report: 3 seeds of each game
    .venv/bin/python -m bench.radio_wer --seeds 1    # fewer utterances, quicker

The rig's own utterances of seeded games (rig.voice.speech, as the narrator says them) are
rendered three ways and given to pocketsphinx (PyPI; its bundled en-US acoustic model
and dictionary), with a bigram language model built here, only from the utterances of
OTHER seeds (so the recognizer knows the rig's phrasing, not the sentences it hears):

- ``radio``: the rig's radio transmission (squelch, sentences through the effect, roger
  beep), as the speaker plays it (``Synthesizer.whole``);
- ``plain``: the rig's plain voice, the same sentences joined the same way;
- ``straight``: ``espeak-ng`` run once on the whole utterance, the reference for how
  joining and levelling the clips may cost (the same synthesizer, rate and voice).

Each is resampled to the recognizer's 16 kHz by sox (the same conversion for all). The
figures: word error rate (substitutions, deletions and insertions over the reference
words) and how many of the number words ("fifty-eight" is two) the recognizer got right.
A recognizer's wideband model overstates what an ear loses through a 3 kHz band; the
ranking is what matters: the numbers are what the table must hear. The suite holds the
ratios (tests/voice/test_radio_intelligibility.py); this prints them.
"""

from __future__ import annotations

import argparse
import itertools
import math
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hardware.speaker import Clip

CONDITIONS = ("radio", "plain", "straight")
RECOGNIZER_RATE = 16000
NUMBER_WORDS = frozenset((
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
    "hundred",
))
GAMES = (("tenfour", 2, "two-player"), ("bumpem", 2, None))
"""The seeded games (game, players, variant) the utterances come from."""
TEST_SEEDS = (3, 1, 5)
"""The seeds whose utterances are heard; the language model is built from the others."""
MODEL_SEEDS = tuple(range(10, 22))
"""The other seeds: the language model's text."""


# -- the utterances ---------------------------------------------------------------------


def game_utterances(game: str, players: int, variant: str | None, seed: int) -> list[str]:
    """What the rig says in one whole seeded game, in order, each distinct text once."""
    import random

    from rig.core.autopilot import play_out
    from rig.desktop.emulated import new_emulated_rig
    from rig.voice.speech import utterance, vocabulary_for

    rig = new_emulated_rig(game, players, variant=variant, seed=seed)
    play_out(rig, random.Random(seed))
    vocabulary = vocabulary_for(game)
    out: list[str] = []
    for screen in rig.screens:
        said = utterance(screen, vocabulary)
        if said is not None and said.text not in out:
            out.append(said.text)
    return out


def words(text: str) -> list[str]:
    """The words a recognizer would write: lower case, hyphens as spaces ("fifty-eight"
    is two words, as the dictionary has them), no punctuation but a word's apostrophe."""
    text = text.lower().replace("-", " ")
    return [w.strip("'") if w not in ("'em",) else w
            for w in re.findall(r"[a-z0-9']+", text) if w.strip("'")]


# -- the language model -----------------------------------------------------------------


DISCOUNT = 0.5
"""Absolute discounting of every seen bigram; what it frees goes to the unigrams."""


def arpa_bigram(sentences: Iterable[Sequence[str]]) -> str:
    """A bigram language model in ARPA form: unigrams add-one smoothed, bigrams with
    absolute discounting and a back-off weight that makes each history sum to one."""
    unigrams: Counter[str] = Counter()
    bigrams: Counter[tuple[str, str]] = Counter()
    for sentence in sentences:
        tokens = ["<s>", *sentence, "</s>"]
        unigrams.update(tokens)
        bigrams.update(itertools.pairwise(tokens))
    vocab = sorted(unigrams)
    spoken = [w for w in vocab if w != "<s>"]  # a sentence's start is never predicted
    total = sum(unigrams[w] for w in spoken) + len(spoken)
    p1 = {w: (unigrams[w] + 1) / total for w in spoken}
    history: dict[str, list[tuple[str, int]]] = {}
    for (a, b), n in bigrams.items():
        history.setdefault(a, []).append((b, n))
    p2: dict[tuple[str, str], float] = {}
    backoff: dict[str, float] = {}
    for a, followers in history.items():
        count = sum(n for _, n in followers)
        for b, n in followers:
            p2[(a, b)] = (n - DISCOUNT) / count
        freed = DISCOUNT * len(followers) / count
        unseen = 1.0 - sum(p1[b] for b, _ in followers)
        backoff[a] = freed / unseen if unseen > 0 else 1.0
    lines = ["\\data\\", f"ngram 1={len(vocab)}", f"ngram 2={len(p2)}", "", "\\1-grams:"]
    for w in vocab:
        prob = -99.0 if w == "<s>" else math.log10(p1[w])
        lines.append(f"{prob:.4f} {w} {math.log10(backoff.get(w, 1.0)):.4f}")
    lines += ["", "\\2-grams:"]
    lines += [f"{math.log10(p):.4f} {a} {b}" for (a, b), p in sorted(p2.items())]
    lines += ["", "\\end\\", ""]
    return "\n".join(lines)


def dictionary_for(vocab: Iterable[str], full: Path) -> str:
    """The lines of the bundled pronouncing dictionary for ``vocab`` (and their
    alternative pronunciations, ``word(2)``)."""
    wanted = set(vocab)
    out = []
    for line in full.read_text(encoding="utf-8").splitlines():
        head = line.split(" ", 1)[0]
        if head.split("(", 1)[0] in wanted:
            out.append(line)
    return "\n".join(out) + "\n"


# -- the recognizer ---------------------------------------------------------------------


@dataclass
class Recognizer:
    """pocketsphinx with its en-US acoustic model, our bigram model and dictionary: one
    decoder per condition, so that what one condition sounds like cannot change how
    another is heard (a decoder keeps some state from one utterance to the next)."""

    model_text: list[list[str]]
    workdir: Path
    decoders: dict[str, Any] = field(init=False, default_factory=dict)
    """pocketsphinx.Decoder by condition (its package has no type information)."""

    def __post_init__(self) -> None:
        from pocketsphinx import get_model_path

        models = Path(get_model_path())
        full = models / "en-us" / "cmudict-en-us.dict"
        known = {line.split(" ", 1)[0].split("(", 1)[0]
                 for line in full.read_text(encoding="utf-8").splitlines()}
        sentences = [[w for w in s if w in known] for s in self.model_text]
        (self.workdir / "rig.lm").write_text(arpa_bigram(sentences))
        (self.workdir / "rig.dict").write_text(
            dictionary_for({w for s in sentences for w in s}, full))
        self.acoustic = models / "en-us" / "en-us"

    def _decoder(self, condition: str) -> Any:
        from pocketsphinx import Decoder

        if condition not in self.decoders:
            # cmn="batch": each utterance's cepstral mean from itself, not carried over
            # from the utterances before ("live", the default)
            self.decoders[condition] = Decoder(
                hmm=str(self.acoustic), lm=str(self.workdir / "rig.lm"),
                dict=str(self.workdir / "rig.dict"), samprate=RECOGNIZER_RATE,
                cmn="batch", logfn="/dev/null")
        return self.decoders[condition]

    def hear(self, pcm: bytes, condition: str = "") -> list[str]:
        """The words heard in 16 kHz mono 16-bit samples (by ``condition``'s decoder)."""
        decoder = self._decoder(condition)
        decoder.start_utt()
        decoder.process_raw(pcm, full_utt=True)
        decoder.end_utt()
        hyp = decoder.hyp()
        return words(hyp.hypstr) if hyp is not None else []


# -- scoring ----------------------------------------------------------------------------


def align(ref: Sequence[str], hyp: Sequence[str]) -> tuple[int, list[bool]]:
    """Edit distance of the word sequences, and for each reference word whether the
    best alignment matched it exactly."""
    n, m = len(ref), len(hyp)
    cost = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        cost[i][0] = i
    for j in range(m + 1):
        cost[0][j] = j
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            same = ref[i - 1] == hyp[j - 1]
            cost[i][j] = min(cost[i - 1][j - 1] + (0 if same else 1),
                             cost[i - 1][j] + 1, cost[i][j - 1] + 1)
    matched = [False] * n
    i, j = n, m
    while i > 0 and j > 0:
        if ref[i - 1] == hyp[j - 1] and cost[i][j] == cost[i - 1][j - 1]:
            matched[i - 1] = True
            i, j = i - 1, j - 1
        elif cost[i][j] == cost[i - 1][j - 1] + 1:
            i, j = i - 1, j - 1
        elif cost[i][j] == cost[i - 1][j] + 1:
            i -= 1
        else:
            j -= 1
    return cost[n][m], matched


@dataclass
class Score:
    errors: int = 0
    words: int = 0
    numbers_heard: int = 0
    numbers: int = 0

    def add(self, ref: Sequence[str], hyp: Sequence[str]) -> None:
        distance, matched = align(ref, hyp)
        self.errors += distance
        self.words += len(ref)
        for word, ok in zip(ref, matched, strict=True):
            if word in NUMBER_WORDS:
                self.numbers += 1
                self.numbers_heard += ok

    @property
    def wer(self) -> float:
        return self.errors / self.words if self.words else 0.0


# -- rendering --------------------------------------------------------------------------


def to_recognizer(clip: Clip, sox: str) -> bytes:
    """The clip at 16 kHz (sox's rate conversion; unchanged if it is at 16 kHz)."""
    if clip.rate == RECOGNIZER_RATE:
        return clip.pcm
    raw = ["-t", "raw", "-e", "signed", "-b", "16", "-c", "1"]
    # -R: sox's dither repeatable, as the rig's own sox runs are (the recognizer hears a
    # different word now and then for a different dither in a pause)
    done = subprocess.run([sox, "-q", "-R", *raw, "-r", str(clip.rate), "-", *raw,
                           "-r", str(RECOGNIZER_RATE), "-"], input=clip.pcm,
                          capture_output=True, check=True)
    return done.stdout


class Renderer:
    """The three ways of saying an utterance (module doc)."""

    def __init__(self, espeak: str, sox: str) -> None:
        from rig.config import VoiceConfig
        from rig.voice.narrator import Synthesizer

        self.espeak, self.sox = espeak, sox
        self.settings = VoiceConfig()
        self.synth = {effect: Synthesizer(VoiceConfig(effect=effect), None)
                      for effect in ("radio", "plain")}

    def render(self, condition: str, text: str) -> bytes:
        from rig.voice.narrator import pcm_of_wav

        if condition == "straight":
            wav = subprocess.run([self.espeak, "--stdout", "-v", self.settings.voice, "-s",
                                  str(self.settings.rate), text], capture_output=True,
                                 check=True).stdout
            clip = pcm_of_wav(wav)
        else:
            clip = self.synth[condition].whole(text)
        return to_recognizer(clip, self.sox)


# -- the measurement --------------------------------------------------------------------


@dataclass
class Result:
    scores: dict[str, Score]
    utterances: int
    heard: dict[str, list[tuple[str, str]]]
    seconds: float


PER_GAME = 10
"""Utterances heard from each seeded game: spread evenly over the game (its start, its
middle and its end say different things)."""


def spread(items: Sequence[str], count: int) -> list[str]:
    """``count`` of ``items`` evenly spaced from first to last (all if fewer)."""
    if count >= len(items):
        return list(items)
    step = (len(items) - 1) / max(1, count - 1)
    return [items[round(i * step)] for i in range(count)]


def heard_utterances(test_seeds: Sequence[int], per_game: int = PER_GAME) -> list[str]:
    """The utterances heard: ``per_game`` of each test seed's games, each text once."""
    out: list[str] = []
    for game, players, variant in GAMES:
        for seed in test_seeds:
            out += spread(game_utterances(game, players, variant, seed), per_game)
    return list(dict.fromkeys(out))


def model_utterances(model_seeds: Sequence[int]) -> list[list[str]]:
    """The language model's text: the model seeds' utterances as word lists (a phrase
    every game says, "Red: draw a Mike card.", is in it: the rig's phrasing, as a radio
    operator knows the channel's; a seed's own numbers and cards are not)."""
    out = []
    for game, players, variant in GAMES:
        for seed in model_seeds:
            out += [words(t) for t in game_utterances(game, players, variant, seed)]
    return out


def measure(espeak: str, sox: str, test_seeds: Sequence[int] = TEST_SEEDS,
            model_seeds: Sequence[int] = MODEL_SEEDS, per_game: int = PER_GAME,
            conditions: Sequence[str] = CONDITIONS) -> Result:
    started = time.monotonic()
    heard = heard_utterances(test_seeds, per_game)
    model = model_utterances([s for s in model_seeds if s not in test_seeds])
    renderer = Renderer(espeak, sox)
    scores = {c: Score() for c in conditions}
    said: dict[str, list[tuple[str, str]]] = {c: [] for c in conditions}
    with tempfile.TemporaryDirectory() as tmp:
        recognizer = Recognizer(model, Path(tmp))
        for text in heard:
            ref = words(text)
            for condition in conditions:
                hyp = recognizer.hear(renderer.render(condition, text), condition)
                scores[condition].add(ref, hyp)
                said[condition].append((" ".join(ref), " ".join(hyp)))
    return Result(scores, len(heard), said, time.monotonic() - started)


def report(result: Result) -> str:
    lines = [f"{result.utterances} utterances, {result.seconds:.0f} s",
             "condition  WER    errors/words  number words heard"]
    for condition, s in result.scores.items():
        lines.append(f"{condition:9}  {s.wer:.3f}  {s.errors:4}/{s.words:<5}     "
                     f"{s.numbers_heard}/{s.numbers}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=len(TEST_SEEDS),
                        help="how many test seeds of each game (default: all three)")
    parser.add_argument("--per-game", type=int, default=PER_GAME,
                        help=f"utterances heard of each seeded game (default {PER_GAME})")
    parser.add_argument("--show", action="store_true", help="print each utterance heard")
    args = parser.parse_args(argv)
    espeak, sox = shutil.which("espeak-ng"), shutil.which("sox")
    if espeak is None or sox is None:
        print("needs espeak-ng and sox: apt-get install -y espeak-ng sox", file=sys.stderr)
        return 1
    result = measure(espeak, sox, TEST_SEEDS[:args.seeds],
                     per_game=args.per_game)
    if args.show:
        for condition, pairs in result.heard.items():
            for ref, hyp in pairs:
                print(f"{condition:8} {ref}\n{'':8} {hyp}")
    print(report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
