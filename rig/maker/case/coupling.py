"""How well a card's tag couples to the reader's antenna where the card lies.

The model: the reader's antenna is one rectangular loop along the outline of its
antenna area (wiring/parts.toml `antenna`, or the RDM6300's separate coil), the tag one
circular loop of TAG_LOOP_DIAMETER, parallel to it `distance` mm above. The mutual
inductance between them is proportional to the net magnetic flux the antenna's current
sends through the tag's loop, computed here by the Biot-Savart law (the field of a
rectangular loop, as Microchip AN710 "Antenna Circuit Design for RFID Applications"
derives on its axis, integrated here off the axis too). Inside the antenna's winding the
field's axial part points one way, just outside it the other way, so a tag straddling
the winding loses flux fast and crosses a null: NXP's antenna design guide for the
PN53x (AN1445) and the RDM6300 datasheet's "put the card over the coil" say the same in
words. The read zone is where the tag keeps at least READ_ZONE of a centred tag's flux.
"""

from __future__ import annotations

import itertools

import numpy as np
from numpy.typing import NDArray

from rig.maker.case.tag import TAG_DIAMETER

TAG_LOOP_DIAMETER = TAG_DIAMETER - 3.0
"""A 25 mm sticker's winding runs about 1.5 mm inside its edge."""
READ_ZONE = 0.5
"""The inner read zone: at least half the flux of a tag centred over the antenna (half
the mutual inductance: the read range shrinks by about a fifth, and the card lies a few
mm from the antenna, well inside it)."""


def _loop(width: float, height: float, pieces: int = 400) -> tuple[NDArray[np.float64],
                                                                    NDArray[np.float64]]:
    """Midpoints and vectors of a rectangular loop's short pieces, centred on 0, z = 0."""
    w, h = width / 2, height / 2
    corners = np.array([(-w, -h), (w, -h), (w, h), (-w, h), (-w, -h)])
    mids, steps = [], []
    perimeter = 2 * (width + height)
    for a, b in itertools.pairwise(corners):
        n = max(4, int(pieces * np.linalg.norm(b - a) / perimeter))
        t = (np.arange(n) + 0.5) / n
        mids.append(a + np.outer(t, b - a))
        steps.append(np.repeat(((b - a) / n)[None, :], n, axis=0))
    return np.concatenate(mids), np.concatenate(steps)


def flux(antenna: tuple[float, float], offset: tuple[float, float], distance: float,
         loop_diameter: float = TAG_LOOP_DIAMETER) -> float:
    """The axial flux (arbitrary units) through a tag loop centred `offset` from the
    antenna's centre, `distance` above it."""
    mids, steps = _loop(*antenna)
    r = loop_diameter / 2
    # the tag's disc sampled on a polar grid (equal areas per ring)
    rings = 16
    radii = r * np.sqrt((np.arange(rings) + 0.5) / rings)
    angles = np.linspace(0, 2 * np.pi, 48, endpoint=False)
    px = offset[0] + np.outer(radii, np.cos(angles)).ravel()
    py = offset[1] + np.outer(radii, np.sin(angles)).ravel()
    dx = px[:, None] - mids[None, :, 0]
    dy = py[:, None] - mids[None, :, 1]
    cube = (dx * dx + dy * dy + distance * distance) ** 1.5
    # Bz of each piece dl at the point: (dl x r)_z / |r|^3
    bz = (steps[None, :, 0] * dy - steps[None, :, 1] * dx) / cube
    return float(bz.sum() * (np.pi * r * r) / len(px))


def coupling(antenna: tuple[float, float], offset: tuple[float, float],
             distance: float) -> float:
    """The flux through a tag at `offset`, as a share of a centred tag's."""
    return flux(antenna, offset, distance) / flux(antenna, (0.0, 0.0), distance)


__all__ = ["READ_ZONE", "TAG_LOOP_DIAMETER", "coupling", "flux"]
