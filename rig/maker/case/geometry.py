"""The solids: each printed part and each electronic part, built with manifold3d.

Every printed part is made in assembly position (case coordinates, rig.maker.case.layout) and
has a print transform that lays it on the bed in the orientation that needs no support.
manifold3d's booleans always give a closed, manifold solid; the tests check the exported
meshes again with another library.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import manifold3d as m3d
import numpy as np
from manifold3d import Manifold as M
from numpy.typing import NDArray

from hardware.display.font import GLYPHS_5X7
from rig.maker.case import layout as L
from rig.maker.case.layout import Boss, Layout, Opening, Placed
from rig.maker.case.parts import Connector
from valueclass import Frozen

SEGMENTS = 48
"""Facets on a full circle: 0.4 mm chords on the 30 mm knob, finer than a nozzle."""
EPS = 0.01

KNOB_LABELS = {"hi": ("HI", "BAND"), "lo": ("LO", "BAND")}


class PrintedPart(Frozen):
    name: str
    solid: M
    """In assembly position (case coordinates)."""
    to_bed: NDArray[np.float64]
    """4x4: assembly position -> print position (on the bed, z = 0 the bed)."""
    orientation: str
    """How it lies on the bed, in words (for the BOM and the guide)."""

    def on_bed(self) -> M:
        return self.solid.transform(self.to_bed[:3, :])


class PartBody(Frozen):
    key: str
    solid: M
    """What the part is (board and its main components), for pictures and contact."""
    keepout: M
    """The room it needs: outline plus tolerance, from `below` under to `above` over."""
    extra: M
    """What sticks out through the case on purpose (bushing, shaft, nut, LED dome)."""


# -- small solids ------------------------------------------------------------------------

def box(x0: float, y0: float, z0: float, x1: float, y1: float, z1: float) -> M:
    return M.cube((x1 - x0, y1 - y0, z1 - z0)).translate((x0, y0, z0))


def cyl_z(x: float, y: float, z0: float, z1: float, d: float, segments: int = SEGMENTS) -> M:
    return M.cylinder(z1 - z0, d / 2, d / 2, segments).translate((x, y, z0))


def cyl_y(x: float, z: float, y0: float, y1: float, d: float, segments: int = SEGMENTS) -> M:
    """A cylinder along y from y0 to y1 centred on (x, z)."""
    return M.cylinder(y1 - y0, d / 2, d / 2, segments).rotate((-90, 0, 0)).translate((x, y0, z))


def union(solids: Iterable[M]) -> M:
    items = list(solids)
    return M.batch_boolean(items, m3d.OpType.Add) if items else M()


def d_profile(diameter: float, flat: float) -> m3d.CrossSection:
    """A D-shaft's cross-section: a circle cut by a flat `flat` from the far side."""
    r = diameter / 2
    circle = m3d.CrossSection.circle(r, SEGMENTS)
    keep = m3d.CrossSection.square((2 * r + 2, flat)).translate((-r - 1, -r))
    return circle ^ keep


def matrix(rotate_x: float = 0.0, translate: tuple[float, float, float] = (0, 0, 0)
           ) -> NDArray[np.float64]:
    a = math.radians(rotate_x)
    t = np.eye(4)
    t[1, 1], t[1, 2], t[2, 1], t[2, 2] = math.cos(a), -math.sin(a), math.sin(a), math.cos(a)
    t[:3, 3] = translate
    return t


def _to_bed(solid: M, rotation: NDArray[np.float64]) -> NDArray[np.float64]:
    """`rotation`, then the part moved to sit on z = 0 at the bed's corner."""
    lo = np.array(solid.transform(rotation[:3, :]).bounding_box()[:3])
    shift = np.eye(4)
    shift[:3, 3] = -lo
    out: NDArray[np.float64] = shift @ rotation
    return out


def placed_solid(placed: Placed, local: M) -> M:
    """A solid made in a part's own coordinates, moved to its place in the case."""
    if placed.orient == "panel":
        return local.rotate((0, 0, placed.turn)).rotate((90, 0, 0)).translate(placed.origin)
    if placed.turn == 90:
        return local.rotate((0, 0, 90)).translate(placed.origin)
    return local.translate(placed.origin)


def text_solid(text: str, pixel: float, height: float) -> M:
    """`text` in the rig's own 5x7 pixel font, one box per run of lit pixels, centred on
    the origin, `height` tall: raised lettering that prints on an upward face."""
    boxes = []
    width = len(text) * 6 - 1
    for i, char in enumerate(text):
        columns = GLYPHS_5X7.get(char, GLYPHS_5X7["?"])
        for col, bits in enumerate(columns):
            row = 0
            while row < 7:
                if bits >> row & 1:
                    end = row
                    while end + 1 < 7 and bits >> (end + 1) & 1:
                        end += 1
                    x = (i * 6 + col - width / 2) * pixel
                    y0 = (3.5 - end - 1) * pixel
                    y1 = (3.5 - row) * pixel
                    # grown a little so that pixels meeting corner to corner overlap:
                    # a solid, not two boxes sharing an edge (no manifold mesh has that)
                    g = 0.06
                    boxes.append(box(x - g, y0 - g, 0, x + pixel + g, y1 + g, height))
                    row = end + 1
                else:
                    row += 1
    return union(boxes)


# -- the printed parts -----------------------------------------------------------------------

def _bosses(lay: Layout, axis: str) -> tuple[list[M], list[M]]:
    """The posts standing along `axis` ("z": on the floor, "y": on the faceplate) and the
    holes bored into them."""
    pairs = [_boss(b) for b in lay.bosses if b.axis == axis]
    return [post for post, _ in pairs], [hole for _, hole in pairs]


def _boss(b: Boss) -> tuple[M, M]:
    """The boss's post and the hole bored into its end."""
    x, y, z = b.center
    if b.axis == "z":
        post = cyl_z(x, y, z - EPS, z + b.length, b.diameter, 32)
        top = z + b.length + b.collar
        if b.collar:
            post += cyl_z(x, y, z + b.length - EPS, top, b.collar_diameter, 32)
        hole = cyl_z(x, y, top - b.depth, top + 1, b.hole, 24)
    else:
        post = cyl_y(x, z, y - EPS, y + b.length, b.diameter, 32)
        hole = cyl_y(x, z, y + b.length - b.depth, y + b.length + 1, b.hole, 24)
    return post, hole


def opening_solid(o: Opening, lay: Layout, inside: float = 1.0, outside: float = 1.0) -> M:
    """What an opening cuts: its outline through the wall, from `inside` mm in from the
    wall's inner face to `outside` mm past its outer face."""
    section = m3d.CrossSection([list(o.outline())])
    length = L.WALL + inside + outside
    prism = section.extrude(length)
    if o.wall == "right":  # (along y, z, out x): w -> x from the inner face outwards
        x0 = lay.width - L.WALL - inside
        return prism.transform([[0, 0, 1, x0], [1, 0, 0, 0], [0, 1, 0, 0]])
    y1 = lay.depth + outside  # (along x, z, w): w -> y from outside inwards
    return prism.transform([[1, 0, 0, 0], [0, 0, -1, y1], [0, 1, 0, 0]])


def tray(lay: Layout) -> PrintedPart:
    w, d, top = lay.width, lay.depth, lay.lid_underside
    shell = box(0, 0, 0, w, d, top) - box(L.WALL, -1, L.FLOOR, w - L.WALL, d - L.WALL, top + 1)
    panel_back = lay.panel_y[1]
    frame = [
        box(L.WALL - EPS, 0, 0, L.WALL + L.FRAME_LIP, L.FRAME_DEPTH, top),
        box(w - L.WALL - L.FRAME_LIP, 0, 0, w - L.WALL + EPS, L.FRAME_DEPTH, top),
        box(L.WALL - EPS, 0, 0, w - L.WALL + EPS, L.FRAME_DEPTH, L.FLOOR + L.FRAME_LIP),
        box(L.WALL - EPS, panel_back + L.SLOT_GAP, 0, L.WALL + 3.0,
            panel_back + L.SLOT_GAP + L.RIB, top),
        box(w - L.WALL - 3.0, panel_back + L.SLOT_GAP, 0, w - L.WALL + EPS,
            panel_back + L.SLOT_GAP + L.RIB, top),
        box(L.WALL - EPS, panel_back + L.SLOT_GAP, 0, w - L.WALL + EPS,
            panel_back + L.SLOT_GAP + L.RIB, L.FLOOR + 3.0),
    ]
    posts, cuts = _bosses(lay, "z")
    spigot_d, spigot_h = L.LID_SPIGOT
    for x, y in lay.lid_screws:  # the rings that locate the lid, bored for the insert
        posts.append(cyl_z(x, y, top - EPS, top + spigot_h, spigot_d, 32))
        cuts.append(cyl_z(x, y, top - 1, top + spigot_h + 1, L.INSERT_HOLE[L.LID_SCREW], 24))
    for o in lay.openings:
        cuts.append(opening_solid(o, lay))
    for y0, y1, z0, z1 in lay.vents_side:
        cuts.append(box(-1, y0, z0, L.WALL + 1, y1, z1))
    for x0, y0, x1, y1 in lay.vents_top:
        cuts.append(box(x0, y0, -1, x1, y1, L.FLOOR + 1))
    solid = union([shell, *frame, *posts]) - union(cuts)
    return PrintedPart("tray", solid, _to_bed(solid, np.eye(4)), "floor down, as it stands")


def faceplate(lay: Layout) -> PrintedPart:
    (x0, x1), (y0, y1), (z0, z1) = lay.panel_x, lay.panel_y, lay.panel_z
    plate = box(x0, y0, z0, x1, y1, z1)
    adds, cuts = _bosses(lay, "y")
    for placed in lay.placed:
        part = placed.part
        if placed.orient != "panel":
            continue
        if part.role == "display" and part.window:
            u, v, ww, wh = part.window
            t = part.tolerance
            a = placed.point(u - t, v - t, 0)
            b_ = placed.point(u + ww + t, v + wh + t, 0)
            cuts.append(box(a[0], y0 - 1, a[2], b_[0], y1 + 1, b_[2]))
        elif part.role == "encoder" and part.shaft:
            sx, _, sz = placed.point(*part.shaft, 0)
            cuts.append(cyl_y(sx, sz, y0 - 1, y1 + 1, part.bushing_diameter + 2 * L.FIT))
        elif part.role in ("buzzer", "speaker"):
            cx, _, cz = placed.point(part.diameter / 2, part.diameter / 2, 0)
            ring_in = part.diameter + 2 * max(L.FIT, part.tolerance)
            ring_out = ring_in + 2 * L.MIN_WALL + 0.2
            ring_len = L.SPEAKER_RIM if part.role == "speaker" else 4.0
            adds.append(cyl_y(cx, cz, y1 - EPS, y1 + ring_len, ring_out, 64))
            cuts.append(cyl_y(cx, cz, y1 - EPS, y1 + ring_len + 1, ring_in, 64))
            if part.role == "buzzer":
                cuts.append(cyl_y(cx, cz, y0 - 1, y1 + 1, 3.0, 24))
        elif part.role == "led":
            cx, _, cz = placed.point(part.diameter / 2, part.diameter / 2, 0)
            cuts.append(cyl_y(cx, cz, y0 - 1, y1 + 1, part.diameter + 2 * L.FIT, 32))
    if lay.grille:
        gx, gz, gr = lay.grille
        pitch = 5.0
        n = int(gr // pitch)
        for i in range(-n, n + 1):
            for j in range(-n, n + 1):
                hx, hz = gx + i * pitch + (pitch / 2 if j % 2 else 0), gz + j * pitch * 0.866
                if math.hypot(hx - gx, hz - gz) <= gr - 1.5:
                    cuts.append(cyl_y(hx, hz, y0 - 1, y1 + 1, 3.0, 16))
    solid = union([plate, *adds]) - union(cuts)
    return PrintedPart("faceplate", solid, _to_bed(solid, matrix(90)),
                       "front face down, bosses and rings up")


def lid(lay: Layout) -> PrintedPart:
    w, d, h = lay.width, lay.depth, lay.height
    plate = box(0, 0, h - L.LID, w, d, h)
    rx0, ry0, rx1, ry1 = lay.recess
    cuts = [box(rx0, ry0, h - L.RECESS_DEPTH, rx1, ry1, h + 1)]
    spigot_d, spigot_h = L.LID_SPIGOT
    for x, y in lay.lid_screws:  # pan heads on top: a countersink would leave a knife edge
        cuts.append(cyl_z(x, y, h - L.LID - 1, h + 1, L.CLEAR_HOLE[L.LID_SCREW], 24))
        # the pocket the column's ring stands in (a 7.8 mm bridge when printed)
        cuts.append(cyl_z(x, y, h - L.LID - 1, h - L.LID + spigot_h + L.SPIGOT_FIT,
                          spigot_d + 2 * L.SPIGOT_FIT, 32))
    for x0, y0, x1, y1 in lay.vents_top:
        cuts.append(box(x0, y0, h - L.LID - 1, x1, y1, h + 1))
    # a finger notch through the lid at the recess's front edge: a fingertip goes under
    # the card's edge (1 mm of card over it) and lifts it out
    cx = (rx0 + rx1) / 2
    nw, nd = L.FINGER_NOTCH
    cuts.append(box(cx - nw / 2, ry0 - nd + 1.0, h - L.LID - 1, cx + nw / 2, ry0 + 1.0, h + 1))
    solid = plate - union(cuts)
    return PrintedPart("lid", solid, _to_bed(solid, np.eye(4)), "top face up")


def knob_local(label: tuple[str, str], shaft_d: float, flat: float, turn: float = 0.0) -> M:
    """A knob in its own coordinates: axis z, underside z = 0, pointer towards +y; its
    D bore turned `turn` degrees like the encoder it goes on, so the pointer stands up
    at the shaft's rest position."""
    r = L.KNOB_DIAMETER / 2
    h = L.KNOB_HEIGHT
    body = cyl_z(0, 0, 0, h - 1.5, 2 * r, 96)
    body += M.cylinder(1.5, r, r - 1.5, 96).translate((0, 0, h - 1.5 - EPS))
    grips = [cyl_z(r * math.cos(a), r * math.sin(a), 0, h - 3.0, 2.0, 12)
             for a in (2 * math.pi * i / 20 + math.pi / 20 for i in range(20))]
    body = union([body, *grips])
    # the pointer: a raised wedge at the rim and a groove down the side
    wedge = m3d.CrossSection([[(-2.2, r - 6.5), (2.2, r - 6.5), (0.0, r - 1.8)]])
    pointer = wedge.extrude(0.8).translate((0, 0, h - EPS))
    groove = box(-0.7, r - 1.0, -1, 0.7, r + 3, h + 1)
    recess_d, recess_h = L.KNOB_RECESS
    bore = d_profile(shaft_d + 2 * L.KNOB_BORE_CLEARANCE, flat + 2 * L.KNOB_BORE_CLEARANCE)
    bore_solid = bore.rotate(180 + turn).extrude(h - L.KNOB_TOP - recess_h + EPS).translate(
        (0, 0, recess_h - EPS))
    big, small = label
    text = [text_solid(big, 1.1, 0.6).translate((0, 2.6, h - EPS)),
            text_solid(small, 0.7, 0.6).translate((0, -5.0, h - EPS))]
    solid = union([body, pointer, *text]) - union([
        groove, cyl_z(0, 0, -1, recess_h, recess_d, 48), bore_solid])
    return solid


def knob(lay: Layout, which: str, encoder: Placed) -> PrintedPart:
    part = encoder.part
    assert part.shaft is not None
    local = knob_local(KNOB_LABELS[which], part.shaft_diameter, part.shaft_flat, encoder.turn)
    sx, _, sz = encoder.point(*part.shaft, 0)
    y_bottom = lay.panel_y[0] - L.KNOB_GAP
    solid = local.rotate((90, 0, 0)).translate((sx, y_bottom, sz))
    # back to the knob's own frame for the bed: undo the placement, top face up
    to_local = np.eye(4)
    to_local[:3, 3] = (-sx, -y_bottom, -sz)
    to_bed = _to_bed(solid, matrix(-90) @ to_local)
    return PrintedPart(f"knob {which}", solid, to_bed, "top face up, bore opening down")


def printed_parts(lay: Layout) -> list[PrintedPart]:
    out = [tray(lay), faceplate(lay), lid(lay)]
    for which in ("hi", "lo"):
        out.append(knob(lay, which, lay.get(f"{which} knob")))
    return out


# -- the electronic parts ------------------------------------------------------------------

def _local_body(placed: Placed) -> tuple[M, M, M]:
    part = placed.part
    sx, sy = part.size
    t = part.thickness
    tol = part.tolerance
    extra = M()
    if part.round:
        r = part.diameter / 2
        keep = cyl_z(r, r, -part.below, t + part.above, part.diameter + 2 * tol, 32)
        if part.role == "speaker":
            solid = cyl_z(r, r, t - 3.0, t, part.diameter, 64) + cyl_z(r, r, 0, t - 3.0, 25.0)
        elif part.role == "led":
            solid = cyl_z(r, r, 0, 1.0, part.flange or part.diameter, 24)
            solid += cyl_z(r, r, 1.0 - EPS, 1.0 + L.PANEL + 0.2, part.diameter, 24)
            extra = cyl_z(r, r, 1.0 + L.PANEL + 0.2 - EPS, t, part.diameter, 24)
            keep = cyl_z(r, r, -part.below, 1.0, part.flange + 2 * tol, 24)
        else:
            solid = cyl_z(r, r, 0, t, part.diameter, 32)
        return solid, keep, extra
    solid = box(0, 0, 0, sx, sy, t)
    keep = box(-tol, -tol, -part.below, sx + tol, sy + tol, t + part.above)
    if part.header:  # the Dupont housings on a right-angle header, beyond its edge
        edge, reach = part.header
        x0, y0, x1, y1 = {"right": (sx, -tol, sx + tol + reach, sy + tol),
                          "left": (-tol - reach, -tol, 0, sy + tol),
                          "top": (-tol, sy, sx + tol, sy + tol + reach),
                          "bottom": (-tol, -tol - reach, sx + tol, 0)}[edge]
        keep += box(x0, y0, -part.below, x1, y1, t + 2.5)
    if part.role == "display" and part.window:
        u, v, ww, wh = part.window
        # the glass: a little wider than the active area, between the corner holes
        solid += box(max(0.5, u - 2.5), v - 3.0, t - EPS, min(sx - 0.5, u + ww + 2.5),
                     v + wh + 2.0, t + part.above)
    elif part.role == "encoder" and part.shaft and part.body and part.nut:
        cu, cv = part.shaft
        bw, bd, bh = part.body
        solid += box(cu - bw / 2, cv - bd / 2, t - EPS, cu + bw / 2, cv + bd / 2, t + bh)
        z = t + bh
        bushing = cyl_z(cu, cv, z - EPS, z + part.bushing_length, part.bushing_diameter, 32)
        shaft = d_profile(part.shaft_diameter, part.shaft_flat).rotate(180).extrude(
            part.shaft_length).translate((cu, cv, z + part.bushing_length - EPS))
        nut_z = z + L.PANEL
        nut = M.cylinder(part.nut[1], part.nut[0] / 2, part.nut[0] / 2, 6).translate(
            (cu, cv, nut_z))
        extra = union([bushing, shaft, nut])
    elif part.role == "pi":
        room = L.PORT_CLEARANCE + tol
        for c in part.connectors:
            socket = socket_box(c, sx, sy, t)
            solid += box(*socket)
            x0, y0, _z0, x1, y1, z1 = socket
            keep += box(x0 - room, y0 - room, t, x1 + room, y1 + room, z1 + room)
        header_y = sy - 3.5
        solid += box(7.1, header_y - 2.55, t - EPS, 57.9, header_y + 2.55, t + 8.5)
    elif part.role == "amplifier":
        solid += box(sx - 8.0, 2.0, t - EPS, sx - 1.0, sy - 2.0, t + part.above)
    elif part.role == "antenna":
        solid = box(0, 0, 0, sx, sy, t) - box(5, 5, -1, sx - 5, sy - 5, t + 1)
    return solid, keep, extra


def socket_box(c: Connector, sx: float, sy: float, t: float
               ) -> tuple[float, float, float, float, float, float]:
    """A socket's body on its board (board coordinates): `depth` in from its edge,
    `overhang` past it, `width` across, `height` over the board's top."""
    half = c.width / 2
    if c.edge == "bottom":
        return (c.at - half, -c.overhang, t - EPS, c.at + half, c.depth, t + c.height)
    if c.edge == "top":
        return (c.at - half, sy - c.depth, t - EPS, c.at + half, sy + c.overhang, t + c.height)
    if c.edge == "left":
        return (-c.overhang, c.at - half, t - EPS, c.depth, c.at + half, t + c.height)
    return (sx - c.depth, c.at - half, t - EPS, sx + c.overhang, c.at + half, t + c.height)


def part_bodies(lay: Layout) -> list[PartBody]:
    out = []
    for placed in lay.placed:
        solid, keep, extra = _local_body(placed)
        out.append(PartBody(placed.key, placed_solid(placed, solid), placed_solid(placed, keep),
                            placed_solid(placed, extra)))
    return out


def mesh_arrays(solid: M) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """A solid's vertices (n x 3) and triangles (m x 3, counter-clockwise from outside)."""
    mesh = solid.to_mesh()
    vertices = np.asarray(mesh.vert_properties, dtype=np.float64)[:, :3]
    triangles = np.asarray(mesh.tri_verts, dtype=np.int64)
    return vertices, triangles


def bounds(solid: M) -> Sequence[float]:
    """x0, y0, z0, x1, y1, z1."""
    return tuple(float(v) for v in solid.bounding_box())


__all__ = ["PartBody", "PrintedPart", "box", "cyl_y", "cyl_z", "d_profile", "mesh_arrays",
           "opening_solid", "part_bodies", "placed_solid", "printed_parts", "socket_box",
           "text_solid"]
