"""Every printed part: a closed manifold mesh (checked again by trimesh on the exported
STL), on a 220 x 220 mm bed, no overhang beyond 45 degrees but short bridges, and no
wall thinner than 1.6 mm."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from rig.maker.case import layout as L
from tests.case.conftest import Case

if TYPE_CHECKING:
    from rig.maker.case.checks import Thin

pytestmark = pytest.mark.case


def test_every_exported_mesh_is_watertight_and_manifold(case: Case) -> None:
    import trimesh

    from rig.maker.case.checks import open_edges
    from rig.maker.case.export import read_stl

    for name, path in case.stl.items():
        mesh = trimesh.load_mesh(path, process=True)
        assert mesh.is_watertight, name
        assert mesh.is_winding_consistent, name
        assert mesh.is_volume and mesh.volume > 0, name
        # and by hand: every edge is used by exactly two triangles, once each way
        _, triangles = read_stl(path)
        assert open_edges(triangles) == 0, name
        assert case.printed[name].solid.status().name == "NoError"


def test_every_part_fits_the_bed_lying_on_it(case: Case) -> None:
    for part in case.built.printed:
        x0, y0, z0, x1, y1, _ = part.on_bed().bounding_box()
        assert (x0, y0, z0) == pytest.approx((0, 0, 0), abs=1e-6), part.name
        assert x1 <= L.BED and y1 <= L.BED, f"{part.name}: {x1:.0f} x {y1:.0f} mm"


def test_no_overhang_beyond_45_degrees_and_bridges_within_the_stated_span(case: Case) -> None:
    from rig.maker.case.checks import bridges, steep_faces
    from rig.maker.case.geometry import mesh_arrays

    for part in case.built.printed:
        vertices, triangles = mesh_arrays(part.on_bed())
        assert steep_faces(vertices, triangles) == 0, (
            f"{part.name}: faces lean more than {L.MAX_OVERHANG} degrees from vertical")
        spans = bridges(vertices, triangles)
        assert max(spans, default=0.0) <= L.MAX_BRIDGE, f"{part.name}: bridges {spans}"


def test_the_overhang_check_finds_a_ledge_and_a_long_bridge() -> None:
    """The checks themselves: a 30 mm arch has a 30 mm bridge; a cone standing on its
    point leans too far if it widens faster than it rises; a plain post has neither."""
    from manifold3d import Manifold

    from rig.maker.case.checks import bridges, steep_faces
    from rig.maker.case.geometry import box, mesh_arrays

    arch = box(0, 0, 0, 40, 5, 10) - box(5, -1, -1, 35, 6, 6)
    assert max(bridges(*mesh_arrays(arch))) == pytest.approx(30.0)
    steep = Manifold.cylinder(5, 1, 10, 32)  # sides 61 degrees from vertical
    assert steep_faces(*mesh_arrays(steep)) > 0
    fine = Manifold.cylinder(10, 1, 10, 32)  # 42 degrees: prints without support
    assert steep_faces(*mesh_arrays(fine)) == 0
    post = Manifold.cylinder(10, 5, 5, 32)
    assert steep_faces(*mesh_arrays(post)) == 0 and bridges(*mesh_arrays(post)) == []


def test_no_wall_or_web_is_thinner_than_1_6_mm(case: Case) -> None:
    """Local thickness by rays (rig.maker.case.checks.wall_thickness) across level slices and
    up and down through upright ones: every wall, web, floor, ceiling and bridge is at
    least MIN_WALL, but for the thin features named in THIN_FEATURES."""
    from rig.maker.case.checks import thinnest_wall

    for part in case.built.printed:
        thin = thinnest_wall(part)
        assert thin.thickness >= L.MIN_WALL - 0.01, (
            f"{part.name}: {thin.thickness:.2f} mm at {thin.at} (measured {thin.way})")


def test_the_wall_check_measures_a_sliver_between_two_openings_locally() -> None:
    """The Pi Zero tray's old right wall: a 2 mm wall with two plug openings 0.6 mm apart
    (the micro-USB pair). Rays across each slice find the 0.6 mm web where it is, though
    it is a tiny share of the part (an area balance over the whole slice missed it); the
    same wall with the openings 2 mm apart measures 2 mm."""
    from rig.maker.case.checks import wall_thickness
    from rig.maker.case.geometry import box

    def wall(web: float) -> Thin:
        solid = box(0, 0, 0, 100, 2.0, 40) - box(20, -1, 6, 40, 3, 14) - box(
            40 + web, -1, 6, 60 + web, 3, 14)
        return wall_thickness(solid)[0]

    thin = wall(0.6)
    assert thin.thickness == pytest.approx(0.6, abs=0.01)
    assert 39.99 <= thin.at[0] <= 40.61 and 6 <= thin.at[2] <= 14 and thin.way == "across"
    assert wall(2.0).thickness == pytest.approx(2.0, abs=0.01)
    # a thin floor (a plate 1.0 mm thick under a wall) is measured upright
    floor = box(0, 0, 0, 60, 40, 1.0) + box(0, 0, 0, 60, 2.0, 20)
    assert wall_thickness(floor)[0].thickness == pytest.approx(1.0, abs=0.01)
    assert wall_thickness(floor)[0].way == "up"
