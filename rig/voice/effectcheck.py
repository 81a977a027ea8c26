"""The battery any voice effect runs on itself (``cbrig.conformance.check_effect``;
the effect table is rig.voice.effects). Apart from the table, which the config reads at
every start, because it runs sox."""

from __future__ import annotations

import io
import math
import shutil
import subprocess
import wave
from array import array

from rig.voice.effects import RATES, VoiceEffect, as_effect


class EffectCheckError(AssertionError):
    """An effect broke the contract: the message names it and the check."""


def _require(name: str, condition: bool, message: str) -> None:
    if not condition:
        raise EffectCheckError(f"voice effect {name!r}: {message}")


def _tone(seconds: float = 0.5, rate: int = 22050) -> bytes:
    """A WAV (its length in its header, as the narrator hands sox a sentence) of a
    rising tone with a voice's loudness."""
    samples = array("h", (int(8000 * math.sin(2 * math.pi * (300 + 600 * i / (seconds * rate))
                                              * i / rate))
                          for i in range(int(seconds * rate))))
    out = io.BytesIO()
    with wave.open(out, "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(rate)
        wav.writeframes(samples.tobytes())
    return out.getvalue()


def check_effect(effect: object, sox: str | None = None) -> VoiceEffect:
    """The battery a voice effect runs on itself: a name, a title, a sox chain of words
    and a rate sox can write; the chain run by sox on a spoken-length tone gives sound
    at that rate. EffectCheckError names the effect and the check (and says so when sox,
    which a chain needs, is not installed)."""
    try:
        found = as_effect(effect)
    except TypeError as exc:
        raise EffectCheckError(str(exc)) from exc
    name = found.name
    _require(name, bool(name) and name == name.strip().lower() and " " not in name,
             "a name in lower case, one word")
    _require(name, isinstance(found.title, str) and bool(found.title), "a title")
    _require(name, isinstance(found.sox, tuple) and all(isinstance(w, str) for w in found.sox),
             "sox: a tuple of words")
    _require(name, isinstance(found.rate, int) and found.rate in RATES,
             f"rate {found.rate!r} is not {RATES.start}-{RATES.stop - 1} Hz")
    _require(name, isinstance(found.transmission, bool), "transmission: True or False")
    if not found.sox:
        return found
    program = sox or shutil.which("sox")
    _require(name, program is not None, "its chain needs sox (apt-get install sox)")
    assert program is not None
    tone = _tone()
    done = subprocess.run([program, "-q", "-R", "-t", "wav", "-", "-t", "raw", "-r",
                           str(found.rate), "-e", "signed", "-b", "16", "-c", "1", "-",
                           *found.sox], input=tone, capture_output=True, check=False,
                          timeout=60)
    if done.returncode != 0:
        said = done.stderr.decode(errors="replace").strip().splitlines()
        raise EffectCheckError(f"voice effect {name!r}: sox refused the chain: "
                               f"{said[-1] if said else done.returncode}")
    pcm = done.stdout
    _require(name, len(pcm) >= found.rate // 10 and len(pcm) % 2 == 0,
             f"the chain gave {len(pcm)} bytes for half a second of voice")
    _require(name, any(pcm), "the chain gave silence")
    return found
