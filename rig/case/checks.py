"""Measurements of a built case, shared by its tests and by `cbrig case build`'s summary:
open edges, bridges, clearances between parts, overlaps with the printed parts."""

from __future__ import annotations

import math

import numpy as np
from manifold3d import Manifold
from numpy.typing import NDArray

from rig.case import geometry as G
from rig.case import layout as L
from rig.case.build import Built
from valueclass import Frozen


def open_edges(triangles: NDArray[np.int64]) -> int:
    """Edges not shared by exactly two triangles running opposite ways (0: closed and
    consistently wound)."""
    edges = np.concatenate([triangles[:, [0, 1]], triangles[:, [1, 2]], triangles[:, [2, 0]]])
    directed = {(int(a), int(b)) for a, b in edges.tolist()}
    return (len(edges) - len(directed)) + sum((b, a) not in directed for a, b in directed)


def face_normals(vertices: NDArray[np.float64], triangles: NDArray[np.int64]
                 ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Unit normals and areas (twice) of each triangle."""
    corners = vertices[triangles]
    normals = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    areas = np.linalg.norm(normals, axis=1)
    return normals / np.maximum(areas, 1e-12)[:, None], areas


def steep_faces(vertices: NDArray[np.float64], triangles: NDArray[np.int64]) -> int:
    """Faces off the bed leaning down more than MAX_OVERHANG from vertical, other than
    flat ceilings (which are bridges, measured by `bridges`)."""
    normals, areas = face_normals(vertices, triangles)
    limit = -math.cos(math.radians(L.MAX_OVERHANG))
    on_bed = vertices[triangles][:, :, 2].max(axis=1) < 1e-3
    steep = (normals[:, 2] < limit - 1e-6) & (normals[:, 2] > -0.999) & ~on_bed
    return int((steep & (areas > 1e-6)).sum())


def bridges(vertices: NDArray[np.float64], triangles: NDArray[np.int64]) -> list[float]:
    """The span of each flat downward face above the bed (connected triangles form one
    face): the longer side of its box, a bound on the longest unsupported run."""
    normals, _ = face_normals(vertices, triangles)
    flat = np.flatnonzero((normals[:, 2] < -0.999)
                          & (vertices[triangles][:, :, 2].min(axis=1) > 1e-3))
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
    spans = []
    for members in groups.values():
        points = vertices[triangles[members].ravel()][:, :2]
        spans.append(float((points.max(axis=0) - points.min(axis=0)).max()))
    return spans


def printed_minus_own_bosses(built: Built, key: str) -> list[tuple[str, Manifold]]:
    """Each printed part with the posts that carry part `key` cut away: a board may rest
    on, and be screwed to, its own bosses."""
    own = []
    for b in built.layout.bosses:
        if b.holds != key:
            continue
        x, y, z = b.center
        if b.axis == "z":
            own.append(G.cyl_z(x, y, z - 1, z + b.length + 0.01, b.diameter + 0.02, 32))
        else:
            own.append(G.cyl_y(x, z, y - 1, y + b.length + 0.01, b.diameter + 0.02, 32))
    cut = G.union(own)
    return [(p.name, p.solid - cut) for p in built.printed]


def overlap(a: Manifold, b: Manifold) -> float:
    """The volume two solids share (mm3)."""
    return float((a ^ b).volume())


class Summary(Frozen):
    open_edges: int
    steep_faces: int
    largest_bridge: float
    closest_parts: tuple[str, str, float]
    worst_overlap: tuple[str, str, float]
    """The part (its keep-out) and printed part that share the most volume (0: none)."""
    card_to_antenna: float


def summarise(built: Built) -> Summary:
    edges = steep = 0
    spans = [0.0]
    for part in built.printed:
        vertices, triangles = G.mesh_arrays(part.on_bed())
        edges += open_edges(triangles)
        steep += steep_faces(vertices, triangles)
        spans += bridges(vertices, triangles)
    keys = sorted(b.key for b in built.bodies)
    bodies = {b.key: b for b in built.bodies}
    closest = ("", "", math.inf)
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            gap = float(bodies[a].keepout.min_gap(bodies[b].keepout, 20.0))
            if gap < closest[2]:
                closest = (a, b, gap)
    worst = ("", "", 0.0)
    for key in keys:
        for name, solid in printed_minus_own_bosses(built, key):
            shared = overlap(bodies[key].keepout, solid)
            if shared > worst[2]:
                worst = (key, name, shared)
    return Summary(edges, steep, max(spans), closest, worst,
                   built.layout.card_to_antenna())


def describe(summary: Summary) -> str:
    a, b, gap = summary.closest_parts
    key, name, shared = summary.worst_overlap
    overlap_text = "no part overlaps a printed part" if shared < 0.01 else (
        f"the {key} overlaps the {name} by {shared:.2f} mm3")
    return (f"checks: {summary.open_edges} open edges, {summary.steep_faces} faces over "
            f"{L.MAX_OVERHANG:.0f} degrees, largest bridge {summary.largest_bridge:.1f} mm "
            f"(limit {L.MAX_BRIDGE:.0f}); closest parts {a} and {b} {gap:.1f} mm apart; "
            f"{overlap_text}; " + (f"card to antenna {summary.card_to_antenna:.1f} mm"
                                   if math.isfinite(summary.card_to_antenna) else "no reader"))


__all__ = ["Summary", "bridges", "describe", "open_edges", "overlap",
           "printed_minus_own_bosses", "steep_faces", "summarise"]
