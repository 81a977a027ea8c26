"""Make docs/audio/sample.ogg and two-player.ogg: seeded turns as the rig says them, through
the radio effect.

    .venv/bin/python docs/audio/make.py

sample.ogg: Red's first turn of a seeded 10-Four game for three (`cbrig demo --seed 3`),
a police turn: the card, the move, the police choice and the police move. two-player.ogg:
Blue's third turn of a two-player game (`--players 2 --seed 41`): the card, the choice of
truck (which, from where, to where), the option under the knob, the move (a catch). The demo
narrates each with the rig's own narrator and synthesizer into a recording device
(`--record`, the announcements given), then sox encodes it as Vorbis and measures it
(`sox FILE -n stat`: the peak must stay below full scale). Needs espeak-ng and sox
(apt-get install espeak-ng sox libsox-fmt-all: the Vorbis encoder is in libsox-fmt-all).
"""

from __future__ import annotations

import contextlib
import io
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

SAMPLES = (
    ("sample.ogg", 3, 3, "4-10"),
    ("two-player.ogg", 41, 2, "32-36"),
)
"""(file, seed, players, announcements): the lines of the demo's "(voice)" transcript
recorded. sample.ogg: who goes first and the draw, the police card read aloud, the move,
the police choice, the option under the knob, the police move; two-player.ogg: the draw,
the card, the truck choice, the option under the knob, the move and its catch."""


def main() -> int:
    sox = shutil.which("sox")
    if sox is None or shutil.which("espeak-ng") is None:
        print("needs espeak-ng and sox: apt-get install -y espeak-ng sox libsox-fmt-all",
              file=sys.stderr)
        return 1
    for name, seed, players, lines in SAMPLES:
        if not _record(sox, HERE / name, seed, players, lines):
            return 1
    return 0


def _record(sox: str, output: Path, seed: int, players: int, lines: str) -> bool:
    from rig.cli import main as cbrig

    with tempfile.TemporaryDirectory() as tmp:
        turn = Path(tmp) / "turn.wav"
        transcript = io.StringIO()
        with contextlib.redirect_stdout(transcript):  # the whole game's screens
            code = cbrig(["demo", "--fast", "--voice", "--seed", str(seed), "--players",
                          str(players), "--record", str(turn), "--record-lines", lines])
        said = [line for line in transcript.getvalue().splitlines()
                if line.startswith("(voice)")]
        first, last = (int(n) for n in lines.split("-"))
        print(f"{output.name}:", *said[first - 1:last], sep="\n  ")
        if code != 0 or not turn.exists():
            print("the demo did not record the turn", file=sys.stderr)
            return False
        subprocess.run([sox, str(turn), "-C", "4", str(output)], check=True)
    stat = subprocess.run([sox, str(output), "-n", "stat"], capture_output=True, text=True,
                          check=True).stderr
    print(f"{output}:\n{stat}")
    return True


if __name__ == "__main__":
    sys.exit(main())
