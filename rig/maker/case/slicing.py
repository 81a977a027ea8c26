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
SLICED_BED = (250.0, 210.0)
"""The bed slicer.ini names; a part is centred on it."""


def _setting(name: str) -> float:
    found = re.search(rf"^{name}\s*=\s*([\d.]+)\s*$", SETTINGS.read_text(encoding="utf-8"),
                      re.M)
    if found is None:
        raise ValueError(f"{SETTINGS}: no {name}")
    return float(found.group(1))


SKIRT_MARGIN = _setting("skirt_distance") * (_setting("skirts") > 0) + 1.0
"""What the skirt adds round a part on each side: its distance from the part (slicer.ini)
and a first-layer line (at most 1 mm wide): the bed a part needs is its footprint plus
twice this."""


class Sliced(Frozen):
    part: str
    seconds: float
    """PrusaSlicer's estimate (normal mode)."""
    grams: float
    metres: float
    problems: tuple[str, ...]
    """Warnings and errors the slicer logged (none for a clean part)."""
    extents: tuple[float, float, float, float]
    """Every G0/G1 move's X and Y, skirt and travel included: x0, y0, x1, y1 (mm)."""


def slicer() -> str | None:
    return shutil.which("prusa-slicer")


_TIME = re.compile(r"^; estimated printing time \(normal mode\) = (.+)$", re.M)
_GRAMS = re.compile(r"^; total filament used \[g\] = ([\d.]+)$", re.M)
_MM = re.compile(r"^; filament used \[mm\] = ([\d.]+)$", re.M)


_MOVE = re.compile(r"^G[01]\b([^;\n]*)", re.M)
_AXIS = re.compile(r"([XY])(-?[\d.]+)")


def gcode_extents(text: str) -> tuple[float, float, float, float]:
    """The box every G0/G1 move's X and Y lie in (x0, y0, x1, y1): where the nozzle goes
    on the bed, skirt included (absolute XY, as PrusaSlicer writes them)."""
    xs: list[float] = []
    ys: list[float] = []
    for move in _MOVE.finditer(text):
        for axis, value in _AXIS.findall(move.group(1)):
            (xs if axis == "X" else ys).append(float(value))
    if not xs or not ys:
        raise ValueError("no G0/G1 move with X and Y in the G-code")
    return (min(xs), min(ys), max(xs), max(ys))


def _seconds(text: str) -> float:
    units = {"d": 86400, "h": 3600, "m": 60, "s": 1}
    return float(sum(int(n) * units[u] for n, u in re.findall(r"(\d+)([dhms])", text)))


def slice_stl(stl: Path, gcode: Path, command: str = "prusa-slicer") -> Sliced:
    """Slice one STL (centred on the bed) into `gcode`; RuntimeError if it cannot."""
    run = subprocess.run(
        [command, "--loglevel", "2", "--export-gcode", "--load", str(SETTINGS),
         "--center", f"{SLICED_BED[0] / 2:g},{SLICED_BED[1] / 2:g}", "-o", str(gcode), str(stl)],
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
                  metres=float(mm.group(1)) / 1000, problems=problems,
                  extents=gcode_extents(text))


def fits(size: tuple[float, float], margin: float = SKIRT_MARGIN) -> dict[str, bool]:
    """Whether a part `size` (x, y on the bed) fits each bed, turned either way, with
    its skirt (`margin` each side; 0 for a G-code's own extents)."""
    x, y = size[0] + 2 * margin, size[1] + 2 * margin
    return {name: (x <= w and y <= h) or (y <= w and x <= h) for name, (w, h) in BEDS.items()}


def duration(seconds: float) -> str:
    hours, rest = divmod(round(seconds / 60), 60)
    return f"{hours} h {rest:02d} min" if hours else f"{rest} min"


__all__ = ["BEDS", "SETTINGS", "SKIRT_MARGIN", "SLICED_BED", "Sliced", "duration", "fits",
           "gcode_extents", "slice_stl", "slicer"]
