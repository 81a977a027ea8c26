"""Print docs/CASE.md's table of checks and clearances for the four tested configurations.

    .venv/bin/python docs/case_figures.py

For each configuration (the ones tests/case/ builds): the console's size, the mesh
checks, the largest bridge, each part's clearance to its nearest neighbour (keep-out to
keep-out, each grown by its tolerance), the card-to-antenna and antenna-to-Pi distances,
and the time to build the solids. Needs the case extra.
"""

from __future__ import annotations

import time

from rig.case.build import build_solids
from rig.case.checks import summarise
from rig.case.layout import CHECKED, plan
from rig.case.parts import load_parts


def run() -> None:
    table = load_parts()
    print("| configuration | console (mm) | open edges / steep faces | largest bridge | "
          "nearest neighbour of each part (mm) | card to antenna | antenna to Pi | solids |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, choice in CHECKED.items():
        start = time.perf_counter()
        built = build_solids(plan(table, choice))
        seconds = time.perf_counter() - start
        summary = summarise(built)
        bodies = {b.key: b for b in built.bodies}
        nearest = []
        for key, body in bodies.items():
            gap = min(float(body.keepout.min_gap(other.keepout, 50.0))
                      for k, other in bodies.items() if k != key)
            nearest.append(f"{key} {gap:.1f}")
        lay = built.layout
        coil = bodies["antenna" if lay.has("antenna") else "reader"].solid
        pi_gap = float(bodies["pi"].solid.min_gap(coil, 100.0))
        print(f"| {name} | {lay.width:.0f} x {lay.depth:.0f} x {lay.height:.0f} | "
              f"{summary.open_edges} / {summary.steep_faces} | "
              f"{summary.largest_bridge:.1f} mm | {', '.join(nearest)} | "
              f"{summary.card_to_antenna:.1f} mm | {pi_gap:.1f} mm | {seconds:.2f} s |")


if __name__ == "__main__":
    run()
