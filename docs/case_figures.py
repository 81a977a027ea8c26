"""Print docs/CASE.md's tables for the checked configurations (rig/maker/case/layout.py CHECKED).

    .venv/bin/python docs/case_figures.py [--no-slice]

Per configuration and printed part: its size on the bed, the beds it fits, the thinnest
wall or web the local wall check finds (rig/maker/case/checks.py wall_thickness), and
PrusaSlicer's print time and filament (rig/maker/case/slicer.ini; parts with the same STL are
sliced once). Then per configuration: each part's envelope and its nearest printed part
and nearest other part (rig/maker/case/checks.py clearances), the knob rim gap and the tag's
worst coupling over the card's play. Then per Pi: each socket's plug, its opening, the
room round it and the largest plug that passes (rig/maker/case/checks.py plug_rooms).
Needs the case extra and prusa-slicer.
"""

from __future__ import annotations

import hashlib
import sys
import tempfile
from pathlib import Path

from rig.maker.case import geometry as G
from rig.maker.case.build import build_solids
from rig.maker.case.checks import (
    PLUG_HEADER,
    clearances,
    knob_rim_gap,
    plug_rooms,
    plug_table,
    tag_check,
    thinnest_wall,
)
from rig.maker.case.export import write_stl
from rig.maker.case.layout import CHECKED, plan
from rig.maker.case.parts import load_parts
from rig.maker.case.slicing import Sliced, duration, fits, slice_stl, slicer


def run(slice_parts: bool) -> None:
    table = load_parts()
    command = slicer() if slice_parts else None
    done: dict[str, Sliced] = {}
    parts_rows = ["| configuration | part | size on the bed (mm) | fits | thinnest wall | "
                  "print time | filament |", "| --- | --- | --- | --- | --- | --- | --- |"]
    fit_rows = ["| configuration | console (mm) | part: nearest printed part, nearest part "
                "(mm, envelope to envelope) | knob rims | card to antenna | tag coupling "
                "(worst) |", "| --- | --- | --- | --- | --- | --- |"]
    plug_rows = list(PLUG_HEADER)
    pis: set[str] = set()
    with tempfile.TemporaryDirectory() as scratch:
        for name, choice in CHECKED.items():
            built = build_solids(plan(table, choice))
            lay = built.layout
            if choice.pi not in pis:  # the openings depend on the Pi alone
                pis.add(choice.pi)
                plug_rows += plug_table(choice.pi, plug_rooms(built))
            total_s = total_g = 0.0
            for part in built.printed:
                solid = part.on_bed()
                x0, y0, z0, x1, y1, z1 = G.bounds(solid)
                beds = ", ".join(b for b, ok in fits((x1 - x0, y1 - y0)).items() if ok)
                thin = thinnest_wall(part)
                figures = "| - | - |"
                if command:
                    stl = Path(scratch) / "part.stl"
                    write_stl(stl, *G.mesh_arrays(solid), part.name)
                    digest = hashlib.sha256(stl.read_bytes()).hexdigest()
                    if digest not in done:
                        print(f"slicing {name} {part.name}", file=sys.stderr)
                        done[digest] = slice_stl(stl, Path(scratch) / "part.gcode", command)
                    s = done[digest]
                    total_s += s.seconds
                    total_g += s.grams
                    warn = f" ({len(s.problems)} warnings)" if s.problems else ""
                    figures = f"| {duration(s.seconds)} | {s.grams:.0f} g{warn} |"
                parts_rows.append(f"| {name} | {part.name} | {x1 - x0:.1f} x {y1 - y0:.1f} x "
                                  f"{z1 - z0:.1f} | {beds} | {thin.thickness:.2f} mm "
                                  f"{figures}")
            if command:
                parts_rows.append(f"| {name} | **all five** | | | | **{duration(total_s)}** "
                                  f"| **{total_g:.0f} g** |")
            near = "; ".join(f"{c.key}: {c.printed} {c.to_printed:.1f}, {c.part} "
                             f"{c.to_part:.1f}" for c in clearances(built))
            tag = tag_check(lay)
            tag_text = "no reader" if tag is None else (
                f"{tag.worst:.0%} at {tag.offset[0]:+.1f}, {tag.offset[1]:+.1f} mm "
                f"({tag.antenna[0]:.1f} x {tag.antenna[1]:.1f} mm antenna)")
            fit_rows.append(f"| {name} | {lay.width:.0f} x {lay.depth:.0f} x {lay.height:.0f} "
                            f"| {near} | {knob_rim_gap(built):.1f} mm | "
                            f"{lay.card_to_antenna():.1f} mm | {tag_text} |")
    print("\n".join(parts_rows))
    print()
    print("\n".join(fit_rows))
    print()
    print("\n".join(plug_rows))


if __name__ == "__main__":
    run("--no-slice" not in sys.argv[1:])
