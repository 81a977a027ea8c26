"""The voice's faults of issue 35 (item 4), reproduced with stub commands: what the owner
would see, as figures. Run on any tree (PYTHONPATH=<tree>) to compare before and after.

    python -m bench.voice_faults leak 1000    # espeak-ng missing: children, fds, lines
    python -m bench.voice_faults flap         # a broken aplay, a third of prompts cut
    python -m bench.voice_faults hung never-reads|never-exits

No audio: ``aplay`` and ``sox`` are small shell scripts in a temporary directory.
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import tempfile
import threading
import time
from functools import partial
from pathlib import Path

from hardware.speaker import AplayBackend, Clip, Speaker, Transmission


class _Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def _stub(directory: Path, name: str, body: str) -> str:
    path = directory / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)
    return str(path)


def _children() -> int:
    return sum(len(Path(f"/proc/self/task/{task}/children").read_text().split())
               for task in os.listdir("/proc/self/task"))


def _fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def _same(clip: Clip) -> Clip:
    return clip


def leak(count: int, lines: _Lines) -> str:
    from rig.voice.narrator import VoiceSettings, build_narrator

    directory = Path(tempfile.mkdtemp())
    cat, head = shutil.which("cat"), shutil.which("head")
    aplay = _stub(directory, "aplay", f"exec {cat} >/dev/null")
    _stub(directory, "sox", f"exec {head} -c 3200 /dev/zero")
    os.environ["PATH"] = str(directory)  # no espeak-ng
    fds = _fds()
    narrator = build_narrator(VoiceSettings(), directory / "voice", lambda: "tenfour",
                              backend=AplayBackend(command=aplay))
    assert narrator.speaker is not None and narrator.synthesizer is not None
    for n in range(count):
        narrator.speaker.say(narrator.synthesizer.transmission(f"Red truck {n}.", 0.8))
        if not narrator.speaker.idle.wait(10):
            return f"the speaker is stuck after {n} transmissions"
    faults = sum("no sound" in line or "not installed" in line for line in lines.lines)
    return (f"{count} transmissions without espeak-ng: {_children()} child processes, "
            f"{_fds() - fds:+d} descriptors, {faults} fault lines")


def flap(lines: _Lines) -> str:
    directory = Path(tempfile.mkdtemp())
    aplay = _stub(directory, "aplay", "cat >/dev/null\necho 'aplay: main:831: audio open "
                  "error: Device or resource busy' >&2\nexit 1")
    tone = Clip(16000, b"\x10\x00" * 800)
    speaker = Speaker(AplayBackend(command=aplay))
    for _ in range(100):
        speaker.say(Transmission("whole", [partial(_same, tone)]))
        speaker.idle.wait(10)
        speaker.say(Transmission("quick", [partial(_same, tone)]))
        speaker.say(Transmission("newer", [partial(_same, tone)]))
        speaker.idle.wait(10)
        release, started = threading.Event(), threading.Event()

        def held(release: threading.Event = release,
                 started: threading.Event = started) -> Clip:
            started.set()
            release.wait(10)
            return tone

        speaker.say(Transmission("cut", [partial(_same, tone), held]))
        started.wait(10)
        speaker.stop()
        release.set()
        speaker.idle.wait(10)
    speaker.close()
    down = sum("no sound" in line for line in lines.lines)
    back = sum("sound is back" in line for line in lines.lines)
    return (f"a broken aplay over 300 transmissions (100 cut): {down} 'no sound' lines, "
            f"{back} 'sound is back' lines")


def hung(kind: str) -> str:
    directory = Path(tempfile.mkdtemp())
    body = "exec sleep 600" if kind == "never-reads" else "cat >/dev/null; exec sleep 600"
    aplay = _stub(directory, "aplay", body)
    faults: list[str] = []
    speaker = Speaker(AplayBackend(command=aplay), on_fault=faults.append)
    clip = Clip(22050, b"\x10\x00" * 22050 * 3)
    start = time.monotonic()
    speaker.say(Transmission("hung", [partial(_same, clip)]))
    if not speaker.idle.wait(20):
        speaker.close()  # cuts it: the stub is killed
        return f"{kind}, a 3 s clip: still stuck after 20 s, nothing reported"
    speaker.close()
    return (f"{kind}, a 3 s clip: reported after {time.monotonic() - start:.1f} s: "
            f"{faults[0] if faults else 'no fault'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("case", choices=("leak", "flap", "hung"))
    parser.add_argument("arg", nargs="?", default="")
    args = parser.parse_args()
    lines = _Lines()
    logging.getLogger().addHandler(lines)
    logging.getLogger().setLevel(logging.INFO)
    if args.case == "leak":
        print(leak(int(args.arg or 1000), lines))
    elif args.case == "flap":
        print(flap(lines))
    else:
        print(hung(args.arg or "never-reads"))


if __name__ == "__main__":
    main()
