"""Why espeak-ng and sox (docs/VOICE.md): the candidates measured on this machine.

    python -m bench.voice_choice

For each typical phrase (a prompt, a move, a catch), the best of ``ROUNDS`` wall-clock
runs of each synthesizer writing a WAV (process start included, as the rig runs it),
the audio's length, its sample rate; then the radio effect done by sox and by pure
Python (two biquads per band edge and a tanh saturation over the same samples); and the
installed size of each Debian package (dpkg's Installed-Size). Nothing is gated.
"""

from __future__ import annotations

import math
import shutil
import subprocess
import tempfile
import time
from array import array
from pathlib import Path

PHRASES = (
    "Blue: draw a Mike card. Tap it on the rig.",
    "Blue truck at Blue five: eight ahead to Blue thirteen. Ten-four.",
    "Bear bite! Blue truck at Yellow three: six ahead to Yellow nine. Blue truck at "
    "Yellow nine caught by Smokey one: to the side of the road, loses next turn.",
)
ROUNDS = 7
PACKAGES = {"espeak-ng": ("espeak-ng", "espeak-ng-data", "libespeak-ng1", "libpcaudio0",
                          "libsonic0"),
            "flite": ("flite", "libflite1"),
            "sox": ("sox", "libsox3", "libsox-fmt-base")}


def best(command: list[str], data: bytes | None = None) -> float:
    times = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        subprocess.run(command, input=data, capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    return min(times) * 1000


def wav_seconds(path: Path) -> tuple[float, int]:
    import wave

    with wave.open(str(path)) as w:
        return w.getnframes() / w.getframerate(), w.getframerate()


def installed_kb(packages: tuple[str, ...]) -> int | None:
    total = 0
    for package in packages:
        done = subprocess.run(["dpkg-query", "-W", "-f=${Installed-Size}", package],
                              capture_output=True, text=True, check=False)
        if done.returncode != 0 or not done.stdout.strip():
            return None
        total += int(done.stdout)
    return total


def biquad(x: list[float], b: tuple[float, float, float], a: tuple[float, float]) -> list[float]:
    y = [0.0] * len(x)
    x1 = x2 = y1 = y2 = 0.0
    for i, v in enumerate(x):
        out = b[0] * v + b[1] * x1 + b[2] * x2 - a[0] * y1 - a[1] * y2
        x2, x1, y2, y1 = x1, v, y1, out
        y[i] = out
    return y


def python_effect(samples: array[int], rate: int) -> float:
    """ms for a pure-Python band-pass (2 high-pass + 2 low-pass biquads) and tanh."""
    def coefficients(hz: float, high: bool) -> tuple[tuple[float, float, float],
                                                     tuple[float, float]]:
        w = 2 * math.pi * hz / rate
        alpha = math.sin(w) / (2 * 0.7071)
        cos = math.cos(w)
        a0 = 1 + alpha
        if high:
            b = ((1 + cos) / 2, -(1 + cos), (1 + cos) / 2)
        else:
            b = ((1 - cos) / 2, 1 - cos, (1 - cos) / 2)
        return (b[0] / a0, b[1] / a0, b[2] / a0), (-2 * cos / a0, (1 - alpha) / a0)

    start = time.perf_counter()
    y = [float(s) for s in samples]
    for hz, high in ((300, True), (300, True), (3000, False), (3000, False)):
        b, a = coefficients(hz, high)
        y = biquad(y, b, a)
    _ = [math.tanh(v / 16384) for v in y]
    return (time.perf_counter() - start) * 1000


def main() -> int:
    tmp = Path(tempfile.mkdtemp(prefix="cbrig-voice-choice-"))
    espeak, flite, sox = (shutil.which(c) for c in ("espeak-ng", "flite", "sox"))
    print(f"best of {ROUNDS} runs, wall clock, process start included")
    for phrase in PHRASES:
        print(f"\n{len(phrase)} characters: {phrase[:60]}...")
        wav = tmp / "e.wav"
        if espeak:
            ms = best([espeak, "-s", "165", "-w", str(wav), phrase])
            seconds, rate = wav_seconds(wav)
            print(f"  espeak-ng  {ms:6.1f} ms for {seconds:5.2f} s of speech at {rate} Hz")
        if flite:
            fwav = tmp / "f.wav"
            ms = best([flite, "-t", phrase, "-o", str(fwav)])
            seconds, rate = wav_seconds(fwav)
            print(f"  flite      {ms:6.1f} ms for {seconds:5.2f} s of speech at {rate} Hz")
        if espeak and sox:
            data = wav.read_bytes()
            ms = best([sox, "-q", "-R", "-t", "wav", "-", "-t", "raw", "-r", "16000", "-e",
                       "signed", "-b", "16", "-c", "1", "-", "overdrive", "6", "sinc",
                       "300-3000", "gain", "-3"], data)
            print(f"  radio effect by sox            {ms:6.1f} ms")
            import wave

            with wave.open(str(wav)) as w:
                samples = array("h")
                samples.frombytes(w.readframes(w.getnframes()))
                rate = w.getframerate()
            print(f"  radio effect in pure Python    {python_effect(samples, rate):6.1f} ms")
    print("\ninstalled size (dpkg Installed-Size, KiB):")
    for name, packages in PACKAGES.items():
        kb = installed_kb(packages)
        print(f"  {name:<10} {kb if kb is not None else 'not installed'}  ({', '.join(packages)})")
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
