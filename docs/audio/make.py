"""Make docs/audio/sample.ogg: one seeded turn as the rig says it, through the radio effect.

    .venv/bin/python docs/audio/make.py

Red's first turn of a seeded 10-Four game for three (`cbrig demo --seed 3`): the demo
narrates it with the rig's own narrator and synthesizer into a recording device
(`--record`, announcements ANNOUNCEMENTS), then sox encodes it as Vorbis and measures it
(`sox sample.ogg -n stat`: the peak must stay below full scale). Needs espeak-ng and sox
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

SEED = 3
PLAYERS = 3
ANNOUNCEMENTS = "4-8"
"""Who goes first and the draw, the card read aloud, the move, the police (lines of the
demo's transcript, docs/audio/said-tenfour-seed3.txt)."""
OUTPUT = HERE / "sample.ogg"


def main() -> int:
    from rig.cli import main as cbrig

    sox = shutil.which("sox")
    if sox is None or shutil.which("espeak-ng") is None:
        print("needs espeak-ng and sox: apt-get install -y espeak-ng sox libsox-fmt-all",
              file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        turn = Path(tmp) / "turn.wav"
        transcript = io.StringIO()
        with contextlib.redirect_stdout(transcript):  # the whole game's screens
            code = cbrig(["demo", "--fast", "--voice", "--seed", str(SEED), "--players",
                          str(PLAYERS), "--record", str(turn), "--record-lines",
                          ANNOUNCEMENTS])
        print(*[line for line in transcript.getvalue().splitlines()
                if line.startswith("(voice: ")], sep="\n")
        if code != 0 or not turn.exists():
            print("the demo did not record the turn", file=sys.stderr)
            return 1
        subprocess.run([sox, str(turn), "-C", "4", str(OUTPUT)], check=True)
    stat = subprocess.run([sox, str(OUTPUT), "-n", "stat"], capture_output=True, text=True,
                          check=True).stderr
    print(f"{OUTPUT}:\n{stat}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
