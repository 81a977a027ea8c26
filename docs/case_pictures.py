"""Make docs/CASE.md's and the README's pictures from real `cbrig case build` output.

    .venv/bin/python docs/case_pictures.py [--no-slice]

Builds the case for the reference wiring (wiring/config.toml: Pi Zero 2 W, SSD1306,
RDM6300, buzzer and LED) and copies its pictures and bill of materials into
docs/images/case/; then builds the Pi 4 + SH1106 + PN532 + speaker variant and keeps its
assembled and inside pictures beside them. Needs the case extra.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from rig.cli import main

DOCS = Path(__file__).resolve().parent
OUT = DOCS / "images" / "case"
CONFIG = DOCS.parent / "wiring" / "config.toml"
SLICE = ("--slice",) if "--no-slice" not in sys.argv[1:] else ()
"""The BOMs carry PrusaSlicer's print time and filament (prusa-slicer on the PATH)."""


def build(folder: Path, *extra: str) -> None:
    if main(["case", "build", "--out", str(folder), "--config", str(CONFIG), *extra]) != 0:
        sys.exit("cbrig case build failed")


def run() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        reference = Path(scratch) / "reference"
        build(reference, *SLICE)
        for picture in sorted(reference.glob("*.png")):
            shutil.copy(picture, OUT / picture.name)
        shutil.copy(reference / "bom.md", OUT / "bom-reference.md")
        variant = Path(scratch) / "variant"
        build(variant, "--pi", "pi4", "--display", "sh1106", "--reader", "pn532", "--speaker",
              *SLICE)
        for name in ("case-assembled", "case-inside", "case-back"):
            shutil.copy(variant / f"{name}.png", OUT / f"{name}-pi4-speaker.png")
        shutil.copy(variant / "bom.md", OUT / "bom-pi4-speaker.md")
    print(f"pictures in {OUT}")


if __name__ == "__main__":
    run()
