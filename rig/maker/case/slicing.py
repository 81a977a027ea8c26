"""A real slicer's word on each printed part: PrusaSlicer's command line (Debian
`prusa-slicer`) slices the STL with rig/maker/case/slicer.ini (PLA, 0.4 mm nozzle, 0.2 mm
layers, 3 perimeters, 15 % infill, no supports) and reports the print time and the
filament; any warning or error it logs is kept. Also: which common beds a part fits."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from valueclass import Frozen

SETTINGS = Path(__file__).with_name("slicer.ini")
BEDS = {"180 x 180": (180.0, 180.0), "220 x 220": (220.0, 220.0),
        "250 x 210": (250.0, 210.0)}
"""Prusa Mini / Bambu A1 mini; Ender 3 class; Prusa MK3/MK4 (250 x 210)."""


class Sliced(Frozen):
    part: str
    seconds: float
    """PrusaSlicer's estimate (normal mode)."""
    grams: float
    metres: float
    problems: tuple[str, ...]
    """Warnings and errors the slicer logged (none for a clean part)."""


def slicer() -> str | None:
    return shutil.which("prusa-slicer")


_TIME = re.compile(r"^; estimated printing time \(normal mode\) = (.+)$", re.M)
_GRAMS = re.compile(r"^; total filament used \[g\] = ([\d.]+)$", re.M)
_MM = re.compile(r"^; filament used \[mm\] = ([\d.]+)$", re.M)


def _seconds(text: str) -> float:
    units = {"d": 86400, "h": 3600, "m": 60, "s": 1}
    return float(sum(int(n) * units[u] for n, u in re.findall(r"(\d+)([dhms])", text)))


def slice_stl(stl: Path, gcode: Path, command: str = "prusa-slicer") -> Sliced:
    """Slice one STL (centred on the bed) into `gcode`; RuntimeError if it cannot."""
    run = subprocess.run(
        [command, "--loglevel", "2", "--export-gcode", "--load", str(SETTINGS),
         "--center", "125,125", "-o", str(gcode), str(stl)],
        capture_output=True, text=True, check=False)
    said = (run.stdout + run.stderr).splitlines()
    problems = tuple(line for line in said if re.search(r"warning|error", line, re.I))
    if run.returncode != 0 or not gcode.exists():
        raise RuntimeError(f"prusa-slicer failed on {stl.name} ({run.returncode}): "
                           + " ".join(said[-5:]))
    text = gcode.read_text(encoding="utf-8", errors="replace")
    time, grams, mm = _TIME.search(text), _GRAMS.search(text), _MM.search(text)
    if time is None or grams is None or mm is None:
        raise RuntimeError(f"prusa-slicer wrote no time or filament for {stl.name}")
    return Sliced(part=stl.stem, seconds=_seconds(time.group(1)), grams=float(grams.group(1)),
                  metres=float(mm.group(1)) / 1000, problems=problems)


def fits(size: tuple[float, float]) -> dict[str, bool]:
    """Whether a part `size` (x, y on the bed) fits each bed, turned either way."""
    x, y = size
    return {name: (x <= w and y <= h) or (y <= w and x <= h) for name, (w, h) in BEDS.items()}


def duration(seconds: float) -> str:
    hours, rest = divmod(round(seconds / 60), 60)
    return f"{hours} h {rest:02d} min" if hours else f"{rest} min"


__all__ = ["BEDS", "SETTINGS", "Sliced", "duration", "fits", "slice_stl", "slicer"]
