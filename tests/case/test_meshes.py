"""Every printed part: a closed manifold mesh (checked again by trimesh on the exported
STL), on a 220 x 220 mm bed, no overhang beyond 45 degrees but short bridges, and no
wall thinner than 1.6 mm."""

from __future__ import annotations

import math
from typing import Any

import pytest

from rig.case import layout as L
from tests.case.conftest import Case

pytestmark = pytest.mark.case


def test_every_exported_mesh_is_watertight_and_manifold(case: Case) -> None:
    import numpy as np
    import trimesh

    from rig.case.export import read_stl

    for name, path in case.stl.items():
        mesh = trimesh.load_mesh(path, process=True)
        assert mesh.is_watertight, name
        assert mesh.is_winding_consistent, name
        assert mesh.is_volume and mesh.volume > 0, name
        # and by hand: every edge is used by exactly two triangles, once each way
        _, triangles = read_stl(path)
        edges = np.concatenate([triangles[:, [0, 1]], triangles[:, [1, 2]],
                                triangles[:, [2, 0]]])
        directed = {tuple(e) for e in edges.tolist()}
        assert len(directed) == len(edges), f"{name}: an edge used twice the same way"
        assert all((b, a) in directed for a, b in directed), f"{name}: an open edge"
        assert case.printed[name].solid.status().name == "NoError"


def test_every_part_fits_the_bed_lying_on_it(case: Case) -> None:
    for part in case.built.printed:
        x0, y0, z0, x1, y1, _ = part.on_bed().bounding_box()
        assert (x0, y0, z0) == pytest.approx((0, 0, 0), abs=1e-6), part.name
        assert x1 <= L.BED and y1 <= L.BED, f"{part.name}: {x1:.0f} x {y1:.0f} mm"


def _downward_regions(vertices: Any, triangles: Any, normals: Any) -> list[Any]:
    """Groups of connected horizontal downward triangles above the bed (each a bridge)."""
    import numpy as np

    flat = np.flatnonzero((normals[:, 2] < -0.999) & (vertices[triangles][:, :, 2].min(axis=1)
                                                     > 1e-3))
    parent = {int(i): int(i) for i in flat}

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    by_vertex: dict[int, int] = {}
    for i in flat:
        for v in triangles[i]:
            other = by_vertex.setdefault(int(v), int(i))
            parent[root(int(i))] = root(other)
    groups: dict[int, list[int]] = {}
    for i in flat:
        groups.setdefault(root(int(i)), []).append(int(i))
    return [triangles[g] for g in groups.values()]


def test_no_overhang_beyond_45_degrees_and_bridges_within_the_stated_span(case: Case) -> None:
    import numpy as np

    from rig.case.geometry import mesh_arrays

    limit = -math.cos(math.radians(L.MAX_OVERHANG))
    for part in case.built.printed:
        vertices, triangles = mesh_arrays(part.on_bed())
        corners = vertices[triangles]
        normals = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
        areas = np.linalg.norm(normals, axis=1)
        normals = normals / np.maximum(areas, 1e-12)[:, None]
        on_bed = corners[:, :, 2].max(axis=1) < 1e-3
        steep = (normals[:, 2] < limit - 1e-6) & (normals[:, 2] > -0.999) & ~on_bed
        assert not steep[areas > 1e-6].any(), (
            f"{part.name}: faces lean more than {L.MAX_OVERHANG} degrees from vertical at "
            f"{corners[steep][:3, 0].tolist()}")
        for region in _downward_regions(vertices, triangles, normals):
            pts = vertices[region.ravel()]
            span = float((pts[:, :2].max(axis=0) - pts[:, :2].min(axis=0)).max())
            assert span <= L.MAX_BRIDGE, (
                f"{part.name}: a {span:.1f} mm bridge at z {pts[0, 2]:.1f} "
                f"(over {L.MAX_BRIDGE} mm)")


def test_no_wall_is_thinner_than_1_6_mm(case: Case) -> None:
    """Slice each part across all three axes; opening each slice by half the minimum
    wall (shrink, then grow back) wipes out anything thinner: nothing may vanish.
    Horizontal slices measure the upright walls (in any direction); the upright slices
    measure plates and floors in z only (the slice is first stretched 20 times
    sideways), so that a slice grazing a round post is not taken for a thin wall."""
    import manifold3d as m3d

    half = L.MIN_WALL / 2 - 0.01
    # (turn that brings the slicing axis to z, stretch of the slice's two axes)
    views = (((0, 0, 0), (1.0, 1.0)), ((90, 0, 0), (20.0, 1.0)), ((0, 90, 0), (1.0, 20.0)))
    for part in case.built.printed:
        solid = part.on_bed()
        for turn, stretch in views:
            turned = solid.rotate(turn)
            z0, z1 = turned.bounding_box()[2], turned.bounding_box()[5]
            # the knobs' raised letters (0.6 mm) are lettering, not walls
            top = z1 - (0.7 if part.name.startswith("knob") and turn == (0, 0, 0) else 0.0)
            steps = max(int((top - z0) / 1.5), 2)
            for k in range(1, steps):
                z = z0 + (top - z0) * k / steps
                section = turned.slice(z).scale(stretch)
                opened = section.offset(-half, m3d.JoinType.Miter).offset(
                    half, m3d.JoinType.Miter)
                lost = (section.area() - opened.area()) / (stretch[0] * stretch[1])
                assert lost < 1.0, (f"{part.name}: {lost:.1f} mm2 thinner than "
                                    f"{L.MIN_WALL} mm in the slice at {z:.1f} (turned {turn})")
