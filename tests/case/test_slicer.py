"""A real slicer in the suite: PrusaSlicer's command line (Debian `prusa-slicer`, installed
by the suite) slices every distinct printed part of every checked configuration with no
warning and reports a print time and filament."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from tests.case.conftest import Case
from tests.system_tools import require_command

pytestmark = pytest.mark.case


def test_prusaslicer_slices_every_part_of_every_configuration_without_a_warning(
        cases: dict[str, Case], tmp_path: Path) -> None:
    """The parts that are the same in several configurations (the knobs, mostly) are
    sliced once: identical STL bytes, identical G-code. Every move of the G-code (skirt
    and travel included) lies on the bed slicer.ini names, and inside every bed the BOM
    says the part fits (the G-code's extents, turned either way: issue 47 found a speaker
    build's skirt from X -2.86 to 222.86 on a 220 mm bed)."""
    from rig.maker.case import geometry as G
    from rig.maker.case.build import bill_of_materials
    from rig.maker.case.slicing import BEDS, SLICED_BED, fits, slice_stl

    command = require_command("prusa-slicer", "prusa-slicer")
    seen: dict[str, str] = {}
    for name, case in cases.items():
        for part, stl in case.stl.items():
            digest = hashlib.sha256(stl.read_bytes()).hexdigest()
            if digest in seen:
                continue
            seen[digest] = f"{name}/{part}"
            done = slice_stl(stl, tmp_path / f"{digest[:12]}.gcode", command)
            assert done.problems == (), f"{name}/{part}: {done.problems}"
            assert done.seconds > 60 and done.grams > 1.0, f"{name}/{part}: {done}"
            x0, y0, x1, y1 = done.extents
            assert x0 >= 0 and x1 <= SLICED_BED[0] and y0 >= 0 and y1 <= SLICED_BED[1], (
                f"{name}/{part}: G-code from ({x0}, {y0}) to ({x1}, {y1}), off the "
                f"{SLICED_BED} bed")
            bx0, by0, _, bx1, by1, _ = G.bounds(case.printed[part].on_bed())
            named = [bed for bed, ok in fits((bx1 - bx0, by1 - by0)).items() if ok]
            row = next(line for line in bill_of_materials(case.built).splitlines()
                       if line.startswith(f"| {part} |"))
            assert all(bed in row for bed in named), (row, named)  # what the BOM says
            assert all(bed not in row for bed in set(BEDS) - set(named)), (row, named)
            span = (x1 - x0, y1 - y0)
            for bed in named:
                assert fits(span, margin=0.0)[bed], (
                    f"{name}/{part}: the BOM says it fits {bed}, its G-code spans "
                    f"{span[0]:.2f} x {span[1]:.2f} mm")
    assert len(seen) >= 3 * len(cases) + 2  # a tray, faceplate and lid each; two knobs


def test_the_slicer_s_report_is_read_and_its_failures_are_not_hidden(tmp_path: Path) -> None:
    from rig.maker.case.export import write_stl
    from rig.maker.case.geometry import box, mesh_arrays
    from rig.maker.case.slicing import duration, fits, gcode_extents, slice_stl

    command = require_command("prusa-slicer", "prusa-slicer")
    cube = tmp_path / "cube.stl"
    write_stl(cube, *mesh_arrays(box(0, 0, 0, 20, 20, 20)), "cube")
    done = slice_stl(cube, tmp_path / "cube.gcode", command)
    assert done.problems == () and 60 < done.seconds < 4 * 3600
    assert 2.0 < done.grams < 9.92  # a solid 20 mm PLA cube weighs 9.92 g; 15 % infill less
    # a block floating over another, empty layers between: the slicer's warning is kept
    gap = tmp_path / "gap.stl"
    write_stl(gap, *mesh_arrays(box(0, 0, 0, 10, 10, 5) + box(30, 30, 8, 40, 40, 12)), "gap")
    warned = slice_stl(gap, tmp_path / "gap.gcode", command).problems
    assert any("Empty layer" in line for line in warned), warned
    with pytest.raises(RuntimeError, match=r"prusa-slicer failed on nothing\.stl"):
        (tmp_path / "nothing.stl").write_bytes(b"solid nothing\nendsolid nothing\n")
        slice_stl(tmp_path / "nothing.stl", tmp_path / "nothing.gcode", command)
    assert duration(3 * 3600 + 7 * 60) == "3 h 07 min" and duration(600) == "10 min"
    assert fits((174.0, 130.0)) == {"180 x 180": True, "220 x 220": True, "250 x 210": True}
    assert fits((175.0, 130.0)) == {"180 x 180": False, "220 x 220": True, "250 x 210": True}
    assert fits((214.0, 130.0)) == {"180 x 180": False, "220 x 220": True, "250 x 210": True}
    assert fits((215.0, 130.0)) == {"180 x 180": False, "220 x 220": False, "250 x 210": True}
    assert fits((175.0, 130.0), margin=0.0)["180 x 180"]
    # the extents are every move's X and Y; a cube of 20 mm centred on the bed with its
    # skirt 2 mm out spans about 24.5 mm
    x0, y0, x1, y1 = done.extents
    assert 23.5 < x1 - x0 < 26 and 23.5 < y1 - y0 < 26, done.extents
    assert (x0 + x1) / 2 == pytest.approx(125.0, abs=0.5)
    assert (y0 + y1) / 2 == pytest.approx(105.0, abs=0.5)
    assert gcode_extents("G28\nG1 Z5 F5000\nG1 X-2.5 Y3 E1 ; skirt\nG0 X222.86\n"
                         "; G1 X999 Y999\nM104 S0\n") == (-2.5, 3.0, 222.86, 3.0)
