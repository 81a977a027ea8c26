"""Measurements of a built case, shared by its tests and by `cbrig case build`'s summary:
open edges, bridges, clearances between parts, overlaps with the printed parts."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from manifold3d import Manifold
from numpy.typing import NDArray

from rig.maker.case import coupling, tag
from rig.maker.case import geometry as G
from rig.maker.case import layout as L
from rig.maker.case.build import Built
from rig.maker.case.parts import Connector
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


# -- local wall thickness ----------------------------------------------------------------------

THICK_STEP = 0.5
"""Boundary samples along each slice's outline, and the pitch of horizontal slices (mm)."""
THICK_PITCH = 1.0
"""The pitch of the upright slices (mm)."""
THICK_REACH = 6.0
"""Rays stop here: a wall thicker than this is reported as this."""

_UPRIGHT = {
    # slicing axis -> (3x3 rotation taking the part to a frame whose z is that axis,
    #                  the bed's up direction in the slice's 2D plane)
    "x": (np.array([[0.0, 1, 0], [0, 0, 1], [1, 0, 0]]), (0.0, 1.0)),
    "y": (np.array([[0.0, 0, 1], [1, 0, 0], [0, 1, 0]]), (1.0, 0.0)),
}


def _boundary_samples(polygons: list[NDArray[np.float64]], step: float
                      ) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64],
                                 NDArray[np.float64]]:
    """Points along every edge of a slice (each edge's middle at least), the inward
    normal there (material lies left of every edge: outlines run anticlockwise, holes
    clockwise), and the edges themselves (starts, ends)."""
    starts = np.concatenate([p for p in polygons])
    ends = np.concatenate([np.roll(p, -1, axis=0) for p in polygons])
    edge = ends - starts
    length = np.linalg.norm(edge, axis=1)
    keep = length > 1e-9
    starts, ends, edge, length = starts[keep], ends[keep], edge[keep], length[keep]
    count = np.maximum(1, np.ceil(length / step)).astype(np.int64)
    which = np.repeat(np.arange(len(edge)), count)
    first = np.cumsum(count) - count
    k = np.arange(len(which)) - np.repeat(first, count)
    frac = (k + 0.5) / count[which]
    points = starts[which] + edge[which] * frac[:, None]
    normal = np.stack([-edge[:, 1], edge[:, 0]], axis=1) / length[:, None]
    return points, normal[which], starts, ends


def _ray_lengths(points: NDArray[np.float64], dirs: NDArray[np.float64],
                 starts: NDArray[np.float64], ends: NDArray[np.float64],
                 reach: float) -> NDArray[np.float64]:
    """How far each ray (point, unit direction) runs before it crosses an edge, up to
    `reach`: the wall's thickness there, measured across to the opposite boundary."""
    out = np.full(len(points), float(reach))
    if not len(points):
        return out
    order = np.lexsort((points[:, 1], np.floor(points[:, 0] / 8.0)))
    e = ends - starts
    normal = np.stack([-e[:, 1], e[:, 0]], axis=1) / np.linalg.norm(e, axis=1)[:, None]
    lo_e, hi_e = np.minimum(starts, ends), np.maximum(starts, ends)
    for chunk in np.array_split(order, max(1, len(order) // 256)):
        p, d = points[chunk], dirs[chunk]
        lo, hi = p.min(axis=0) - reach, p.max(axis=0) + reach
        near = np.flatnonzero((hi_e[:, 0] >= lo[0]) & (lo_e[:, 0] <= hi[0])
                              & (hi_e[:, 1] >= lo[1]) & (lo_e[:, 1] <= hi[1]))
        a, ee = starts[near][None, :, :], e[near][None, :, :]
        ap = a - p[:, None, :]
        dd = d[:, None, :]
        denom = dd[..., 0] * ee[..., 1] - dd[..., 1] * ee[..., 0]
        ok = np.abs(denom) > 1e-12
        safe = np.where(ok, denom, 1.0)
        t = (ap[..., 0] * ee[..., 1] - ap[..., 1] * ee[..., 0]) / safe
        s = (ap[..., 0] * dd[..., 1] - ap[..., 1] * dd[..., 0]) / safe
        hit = ok & (t > 1e-6) & (s >= -1e-9) & (s <= 1 + 1e-9)
        t = np.where(hit, t, np.inf)
        first = t.argmin(axis=1)
        length = t[np.arange(len(chunk)), first]
        # the far side must face back along the ray (within 60 degrees): a ray leaving
        # through a face it grazes started beside a corner, not across a wall
        facing = (normal[near][first] * d).sum(axis=1) < -0.5
        out[chunk] = np.where(facing & (length < reach), length, reach)
    return out


class Thin(Frozen):
    """The thinnest place a check found: thickness (mm), where (bed coordinates), and
    which way it was measured ("across" in a level slice, "up" in an upright one)."""

    thickness: float
    at: tuple[float, float, float]
    way: str


def wall_thickness(solid: Manifold, *, exempt_above: float = math.inf,
                   step: float = THICK_STEP, pitch: float = THICK_PITCH,
                   reach: float = THICK_REACH) -> list[Thin]:
    """Local wall thickness of a part as it lies on the bed, measured by rays.

    Level slices (every `step` mm up the part): from points every `step` mm along each
    outline a ray runs inward along the outline's normal until it leaves the material;
    its length is the wall's thickness there, in every direction in the bed's plane
    (upright walls, webs between openings, ribs). Upright slices across x and across y
    (every `pitch` mm): rays run straight up or down from the outline's level edges,
    measuring floors, plates, ceilings and the bridges over openings. A slice through
    the side of a round post is narrow only sideways, so upright slices measure only up
    and down. Points above `exempt_above` (a knob's lettering and pointer) are left out.
    Returns the thinnest sample of each slice (sorted, thinnest first)."""
    found: list[Thin] = []
    x0, y0, z0, x1, y1, z1 = (float(v) for v in solid.bounding_box())
    for z in np.arange(z0 + step / 2 + 0.0137, z1, step):
        if z > exempt_above:
            break
        polygons = solid.slice(float(z)).to_polygons()
        if not polygons:
            continue
        points, normals, starts, ends = _boundary_samples(polygons, step)
        t = _ray_lengths(points, normals, starts, ends, reach)
        i = int(t.argmin())
        found.append(Thin(thickness=float(t[i]), at=(float(points[i, 0]), float(points[i, 1]),
                                                      float(z)), way="across"))
    for axis, (rotation, up) in _UPRIGHT.items():
        turned = solid.transform(np.hstack([rotation, np.zeros((3, 1))]))
        lo, hi = (x0, x1) if axis == "x" else (y0, y1)
        upv = np.array(up)
        for h in np.arange(lo + pitch / 2 + 0.0137, hi, pitch):
            polygons = turned.slice(float(h)).to_polygons()
            if not polygons:
                continue
            points, normals, starts, ends = _boundary_samples(polygons, step)
            along = normals @ upv
            level = np.abs(along) > 0.7
            if not level.any():
                continue
            dirs = np.outer(np.sign(along[level]), upv)
            t = _ray_lengths(points[level], dirs, starts, ends, reach)
            pts = points[level]
            xyz = np.column_stack([pts, np.full(len(pts), h)]) @ rotation
            keep = xyz[:, 2] <= exempt_above
            if not keep.any():
                continue
            t, xyz = t[keep], xyz[keep]
            i = int(t.argmin())
            x, y, z = (float(v) for v in xyz[i])
            found.append(Thin(thickness=float(t[i]), at=(x, y, z), way="up"))
    return sorted(found, key=lambda thin: thin.thickness)


THIN_FEATURES = {
    "knob hi": "the raised lettering (HI BAND) and the pointer wedge on the knob's top",
    "knob lo": "the raised lettering (LO BAND) and the pointer wedge on the knob's top",
}
"""The features meant to be thinner than MIN_WALL, by part: all of them stand on the
knob's top face, so the wall check leaves out what lies above it."""


def thin_exempt_above(part: G.PrintedPart) -> float:
    """Where a part's named thin features start (bed height), or infinity."""
    return L.KNOB_HEIGHT - 0.01 if part.name in THIN_FEATURES else math.inf


def thinnest_wall(part: G.PrintedPart) -> Thin:
    return wall_thickness(part.on_bed(), exempt_above=thin_exempt_above(part))[0]


class Clearance(Frozen):
    """A part's envelope (its board, sockets and components as modelled) and its nearest
    printed part (the bosses it is screwed to left out) and nearest other part."""

    key: str
    printed: str
    to_printed: float
    part: str
    to_part: float


def clearances(built: Built, reach: float = 30.0) -> list[Clearance]:
    bodies = {b.key: b for b in built.bodies}
    out = []
    for key, body in bodies.items():
        walls = sorted((float(body.solid.min_gap(solid, reach)), name)
                       for name, solid in printed_minus_own_bosses(built, key))
        others = sorted((float(body.solid.min_gap(o.solid, reach)), k)
                        for k, o in bodies.items() if k != key)
        out.append(Clearance(key=key, printed=walls[0][1], to_printed=walls[0][0],
                             part=others[0][1] if others else "",
                             to_part=others[0][0] if others else math.inf))
    return out


def knob_rim_gap(built: Built) -> float:
    """Between the two printed knobs' rims, grip ribs included (mm)."""
    knobs = {p.name: p.solid for p in built.printed}
    return float(knobs["knob hi"].min_gap(knobs["knob lo"], 200.0))


class TagCheck(Frozen):
    """The card's tag over the antenna: the worst coupling (share of a centred tag's
    flux, rig/maker/case/coupling.py) over the card's play in its recess and the sticker's
    play on its spot, and where that worst tag centre lies from the antenna's centre."""

    worst: float
    offset: tuple[float, float]
    nominal: tuple[float, float]
    """The tag's centre from the antenna's centre with the card centred in its recess."""
    antenna: tuple[float, float]
    distance: float


def tag_check(lay: L.Layout, steps: int = 5) -> TagCheck | None:
    """Every card position the recess allows (CARD_CLEARANCE each way) and every sticker
    position a hand gives (STICKER_PLAY each way), on a grid: the worst coupling."""

    antenna = lay.antenna()
    if antenna is None:
        return None
    ax0, ay0, ax1, ay1, _ = antenna
    rx0, ry0, rx1, ry1 = lay.recess
    dx, dy = tag.tag_offset()
    nominal = ((rx0 + rx1) / 2 + dx - (ax0 + ax1) / 2, (ry0 + ry1) / 2 + dy - (ay0 + ay1) / 2)
    size = (ax1 - ax0, ay1 - ay0)
    play = ((rx1 - rx0) - L.CARD[0]) / 2 + tag.STICKER_PLAY
    distance = lay.card_to_antenna()
    worst = (math.inf, nominal)
    for i in range(steps):
        for j in range(steps):
            at = (nominal[0] + play * (2 * i / (steps - 1) - 1),
                  nominal[1] + play * (2 * j / (steps - 1) - 1))
            share = coupling.coupling(size, at, distance)
            if share < worst[0]:
                worst = (share, at)
    return TagCheck(worst=worst[0], offset=worst[1], nominal=nominal, antenna=size,
                    distance=distance)


class PlugRoom(Frozen):
    """One Pi socket's plug through its wall opening, measured on the solids: the plug the
    docs name (wiring/parts.toml `plug`), centred on the socket, pushed from outside up
    to the socket's face; the room round it to the nearest printed part or neighbouring
    plug (at its named size) anywhere on that path; and the largest plug that passes."""

    socket: str
    wall: str
    opening: str
    """The opening's name ("A + B" for two plugs side by side)."""
    opening_size: tuple[float, float]
    """Width along the wall and height (to the top of its cut corners)."""
    named: tuple[float, float]
    room: tuple[float, float, float, float]
    """Each side of the named plug: towards the lower and the higher end of the wall,
    below, above (mm; ROOM_REACH where nothing is that near)."""

    @property
    def largest(self) -> tuple[float, float]:
        """The widest plug (at the named height) and the tallest (at the named width) that
        pass, centred on the socket, touching."""
        a, b, below, above = self.room
        return (self.named[0] + 2 * min(a, b), self.named[1] + 2 * min(below, above))


ROOM_REACH = 8.0


def _plug_path(lay: L.Layout, c: Connector, grow: tuple[float, float, float, float] = (
        0.0, 0.0, 0.0, 0.0)) -> Manifold:
    """The plug's moulding from the socket's face out past the wall, grown (lower end,
    higher end, below, above)."""
    pi = lay.get("pi")
    w, h = c.plug
    zc = pi.origin[2] + pi.part.thickness + c.height / 2
    a, b, below, above = grow
    z0, z1 = zc - h / 2 - below, zc + h / 2 + above
    if c.edge == "bottom":  # faces the right wall; along y
        face, along, _ = pi.point(c.at, -c.overhang, 0)
        return G.box(face, along - w / 2 - a, z0, lay.width + 5, along + w / 2 + b, z1)
    along, face, _ = pi.point(pi.part.size[0] + c.overhang, c.at, 0)
    return G.box(along - w / 2 - a, face, z0, along + w / 2 + b, lay.depth + 5, z1)


def _one_side(side: int, by: float) -> tuple[float, float, float, float]:
    grow = [0.0, 0.0, 0.0, 0.0]
    grow[side] = by
    return (grow[0], grow[1], grow[2], grow[3])


def plug_rooms(built: Built) -> list[PlugRoom]:
    """Every wall socket's plug room (see PlugRoom), from the tray and lid as built."""
    lay = built.layout
    pi = lay.get("pi")
    printed = G.union(p.solid for p in built.printed if p.name in ("tray", "lid"))
    wall_of = {"bottom": "right", "right": "back"}
    out = []
    for c in pi.part.connectors:
        if c.edge not in wall_of:
            continue
        opening = next(o for o in lay.openings if c.name in o.sockets)
        reach = (ROOM_REACH,) * 4
        region = _plug_path(lay, c, reach)
        near = (printed ^ region) + G.union(
            _plug_path(lay, other) ^ region for other in pi.part.connectors
            if other is not c and other.edge == c.edge)
        room = []
        for side in range(4):
            lo, hi = 0.0, ROOM_REACH
            if (near ^ _plug_path(lay, c, _one_side(side, hi))).volume() < 1e-6:
                room.append(hi)
                continue
            for _ in range(14):
                mid = (lo + hi) / 2
                if (near ^ _plug_path(lay, c, _one_side(side, mid))).volume() < 1e-6:
                    lo = mid
                else:
                    hi = mid
            room.append(round(lo, 2))
        out.append(PlugRoom(socket=c.name, wall=wall_of[c.edge], opening=opening.name,
                            opening_size=(opening.width, opening.apex - opening.z0),
                            named=c.plug, room=(room[0], room[1], room[2], room[3])))
    return out


PLUG_HEADER = ("| Pi | socket | wall | plug the docs name (mm) | opening (mm) | room round "
               "it: sides / below and above (mm) | largest plug that passes (mm) |",
               "| --- | --- | --- | --- | --- | --- | --- |")


def plug_table(pi: str, rooms: list[PlugRoom]) -> list[str]:
    """docs/CASE.md's rows (under PLUG_HEADER) for one Pi's plugs."""
    rows = []
    for r in rooms:
        a, b, below, above = r.room
        lw, lh = r.largest
        rows.append(f"| {pi} | {r.socket} | {r.wall} | {r.named[0]:.1f} x {r.named[1]:.1f} | "
                    f"{r.opening_size[0]:.1f} x {r.opening_size[1]:.1f}"
                    f"{' (shared)' if ' + ' in r.opening else ''} | "
                    f"{min(a, b):.2f} / {min(below, above):.2f} | {lw:.1f} x {lh:.1f} |")
    return rows


class Summary(Frozen):
    open_edges: int
    steep_faces: int
    largest_bridge: float
    closest_parts: tuple[str, str, float]
    worst_overlap: tuple[str, str, float]
    """The part (its keep-out) and printed part that share the most volume (0: none)."""
    card_to_antenna: float
    thinnest: tuple[str, float]
    """The printed part with the thinnest wall or web (named thin features left out)."""
    knob_rims: float
    tag_coupling: float
    """The worst share of a centred tag's coupling over the card's play (1.0: no reader)."""


def summarise(built: Built, progress: Callable[[str], None] = lambda _: None) -> Summary:
    """Every check's figure; `progress` hears each step as it starts (the wall check of
    each part and the clearances take most of the time)."""
    edges = steep = 0
    spans = [0.0]
    progress("checking: open edges, overhangs and bridges")
    for part in built.printed:
        vertices, triangles = G.mesh_arrays(part.on_bed())
        edges += open_edges(triangles)
        steep += steep_faces(vertices, triangles)
        spans += bridges(vertices, triangles)
    keys = sorted(b.key for b in built.bodies)
    bodies = {b.key: b for b in built.bodies}
    closest = ("", "", math.inf)
    progress(f"checking: the clearances between {len(keys)} parts")
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            gap = float(bodies[a].keepout.min_gap(bodies[b].keepout, 20.0))
            if gap < closest[2]:
                closest = (a, b, gap)
    worst = ("", "", 0.0)
    progress("checking: each part against the printed parts")
    for key in keys:
        for name, solid in printed_minus_own_bosses(built, key):
            shared = overlap(bodies[key].keepout, solid)
            if shared > worst[2]:
                worst = (key, name, shared)
    thicknesses = []
    for number, p in enumerate(built.printed, 1):
        progress(f"checking: wall thickness of the {p.name} ({number}/{len(built.printed)})")
        thicknesses.append((p.name, thinnest_wall(p).thickness))
    walls = min(thicknesses, key=lambda found: found[1])
    progress("checking: the tag's coupling over the card's play")
    tag = tag_check(built.layout)
    return Summary(edges, steep, max(spans), closest, worst, built.layout.card_to_antenna(),
                   walls, knob_rim_gap(built), 1.0 if tag is None else tag.worst)


def describe(summary: Summary) -> str:
    a, b, gap = summary.closest_parts
    key, name, shared = summary.worst_overlap
    overlap_text = "no part overlaps a printed part" if shared < 0.01 else (
        f"the {key} overlaps the {name} by {shared:.2f} mm3")
    return (f"checks: {summary.open_edges} open edges, {summary.steep_faces} faces over "
            f"{L.MAX_OVERHANG:.0f} degrees, largest bridge {summary.largest_bridge:.1f} mm "
            f"(limit {L.MAX_BRIDGE:.0f}); thinnest wall {summary.thinnest[1]:.2f} mm "
            f"({summary.thinnest[0]}; at least {L.MIN_WALL}); knob rims "
            f"{summary.knob_rims:.1f} mm apart; closest parts {a} and {b} {gap:.1f} mm apart; "
            f"{overlap_text}; " + (f"card to antenna {summary.card_to_antenna:.1f} mm, the "
                                   f"tag keeps {summary.tag_coupling:.0%} of its coupling "
                                   "wherever the card lies"
                                   if math.isfinite(summary.card_to_antenna) else "no reader"))


__all__ = [
    "PLUG_HEADER",
    "THIN_FEATURES",
    "Clearance",
    "PlugRoom",
    "Summary",
    "TagCheck",
    "Thin",
    "bridges",
    "clearances",
    "describe",
    "knob_rim_gap",
    "open_edges",
    "overlap",
    "plug_rooms",
    "plug_table",
    "printed_minus_own_bosses",
    "steep_faces",
    "summarise",
    "tag_check",
    "thin_exempt_above",
    "thinnest_wall",
    "wall_thickness",
]
