"""Pictures of the case without a GPU: a small software renderer (numpy + Pillow).

Orthographic view, back faces culled, flat Lambert shading, a z-buffer filled one
triangle at a time (numpy inside each triangle's box), at twice the size and scaled down
for smooth edges. Enough
to see the shape, the holes and where each part goes; not a photorealistic render.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw

Colour = tuple[int, int, int]
Mesh = tuple[NDArray[np.float64], NDArray[np.int64], Colour]

BACKGROUND: Colour = (246, 244, 238)
SUPERSAMPLE = 2


def view_matrix(azimuth: float, elevation: float) -> NDArray[np.float64]:
    """Rows: screen right, screen up, towards the viewer; azimuth about z from the front
    (-y), elevation above the horizon, both in degrees."""
    a, e = math.radians(azimuth), math.radians(elevation)
    toward = np.array([math.sin(a) * math.cos(e), -math.cos(a) * math.cos(e), math.sin(e)])
    right = np.cross([0.0, 0.0, 1.0], toward)
    right /= np.linalg.norm(right)
    up = np.cross(toward, right)
    return np.stack([right, up, toward])


def render(meshes: Sequence[Mesh], path: Path, *, azimuth: float = -30.0,
           elevation: float = 28.0, size: tuple[int, int] = (1000, 720),
           title: str = "", margin: float = 0.06) -> None:
    """Draw `meshes` (vertices, triangles, colour) to a PNG at `path`."""
    view = view_matrix(azimuth, elevation)
    light = np.array([-0.35, 0.45, 0.82])
    light /= np.linalg.norm(light)
    polys: list[NDArray[np.float64]] = []
    depths_z: list[NDArray[np.float64]] = []
    colours: list[NDArray[np.uint8]] = []
    for vertices, triangles, colour in meshes:
        if len(triangles) == 0:
            continue
        v = vertices @ view.T
        tri = v[triangles]
        normal = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
        length = np.linalg.norm(normal, axis=1)
        keep = (normal[:, 2] > 1e-9) & (length > 1e-12)
        if not keep.any():
            continue
        tri, normal, length = tri[keep], normal[keep], length[keep]
        unit = normal / length[:, None]
        shade = 0.42 + 0.58 * np.clip(unit @ light, 0.0, 1.0)
        polys.append(tri[:, :, :2])
        depths_z.append(tri[:, :, 2])
        colours.append(np.clip(np.outer(shade, colour), 0, 255).astype(np.uint8))
    width, height = size
    big = (width * SUPERSAMPLE, height * SUPERSAMPLE)
    pixels = np.empty((big[1], big[0], 3), dtype=np.uint8)
    pixels[:] = BACKGROUND
    if polys:
        xy = np.concatenate(polys)
        depth = np.concatenate(depths_z)
        rgb = np.concatenate(colours)
        lo, hi = xy.reshape(-1, 2).min(axis=0), xy.reshape(-1, 2).max(axis=0)
        top = 0.1 if title else 0.0
        scale = min(big[0] * (1 - 2 * margin) / max(hi[0] - lo[0], 1e-9),
                    big[1] * (1 - 2 * margin - top) / max(hi[1] - lo[1], 1e-9))
        centre = (lo + hi) / 2
        screen = np.empty_like(xy)
        screen[..., 0] = big[0] / 2 + (xy[..., 0] - centre[0]) * scale
        screen[..., 1] = big[1] * (0.5 + top / 2) - (xy[..., 1] - centre[1]) * scale
        zbuf = _rasterise(pixels, screen, depth, rgb)
        _outline(pixels, zbuf, step=0.3)
    image = Image.fromarray(pixels, "RGB")
    image = image.resize(size, Image.Resampling.LANCZOS)
    if title:
        from PIL import ImageFont

        draw = ImageDraw.Draw(image)
        font = ImageFont.load_default(size=22)
        draw.text((18, 14), title, fill=(40, 40, 40), font=font)
    save_png(image, path)


def save_png(image: Image.Image, path: Path) -> None:
    """A 192-colour palette PNG: a third of the size of full colour, the same to the eye
    for flat-shaded parts."""
    image.quantize(colors=192, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)


def _rasterise(pixels: NDArray[np.uint8], screen: NDArray[np.float64],
               depth: NDArray[np.float64], rgb: NDArray[np.uint8]) -> NDArray[np.float64]:
    """Fill each triangle (screen corners, per-corner depth towards the viewer) into
    `pixels` where it is nearer than what is there: a z-buffer, one triangle at a time
    over its bounding box (vectorised inside the box)."""
    h, w = pixels.shape[:2]
    zbuf = np.full((h, w), -np.inf)
    x0 = np.clip(np.floor(screen[:, :, 0].min(axis=1)), 0, w - 1).astype(int)
    x1 = np.clip(np.ceil(screen[:, :, 0].max(axis=1)), 0, w - 1).astype(int)
    y0 = np.clip(np.floor(screen[:, :, 1].min(axis=1)), 0, h - 1).astype(int)
    y1 = np.clip(np.ceil(screen[:, :, 1].max(axis=1)), 0, h - 1).astype(int)
    for i in range(len(screen)):
        (ax, ay), (bx, by), (cx, cy) = screen[i]
        area = (bx - ax) * (cy - ay) - (cx - ax) * (by - ay)
        if abs(area) < 1e-9:
            continue
        xs = np.arange(x0[i], x1[i] + 1) + 0.5
        ys = np.arange(y0[i], y1[i] + 1)[:, None] + 0.5
        w0 = ((bx - xs) * (cy - ys) - (cx - xs) * (by - ys)) / area
        w1 = ((cx - xs) * (ay - ys) - (ax - xs) * (cy - ys)) / area
        w2 = 1.0 - w0 - w1
        inside = (w0 >= -1e-6) & (w1 >= -1e-6) & (w2 >= -1e-6)
        if not inside.any():
            continue
        z = w0 * depth[i, 0] + w1 * depth[i, 1] + w2 * depth[i, 2]
        window = zbuf[y0[i]:y1[i] + 1, x0[i]:x1[i] + 1]
        nearer = inside & (z > window)
        window[nearer] = z[nearer]
        pixels[y0[i]:y1[i] + 1, x0[i]:x1[i] + 1][nearer] = rgb[i]
    return zbuf


def _outline(pixels: NDArray[np.uint8], zbuf: NDArray[np.float64], step: float) -> None:
    """Darken pixels where the depth jumps by more than `step` mm to a neighbour: the
    edges of steps, holes and raised letters, which flat shading alone hides when faces
    point the same way."""
    z = np.where(np.isfinite(zbuf), zbuf, -1e6)
    jump = np.zeros(z.shape, dtype=bool)
    jump[:, 1:] |= np.abs(np.diff(z, axis=1)) > step
    jump[1:, :] |= np.abs(np.diff(z, axis=0)) > step
    jump &= np.isfinite(zbuf)
    pixels[jump] = (pixels[jump] * 0.45).astype(np.uint8)


def bed_mesh(size: float = 220.0) -> Mesh:
    """The print bed, a thin plate under z = 0, for the on-the-bed pictures."""
    s = size
    vertices = np.array([[0, 0, -1.0], [s, 0, -1.0], [s, s, -1.0], [0, s, -1.0],
                         [0, 0, -0.01], [s, 0, -0.01], [s, s, -0.01], [0, s, -0.01]])
    faces = np.array([[4, 5, 6], [4, 6, 7], [0, 2, 1], [0, 3, 2], [0, 1, 5], [0, 5, 4],
                      [1, 2, 6], [1, 6, 5], [2, 3, 7], [2, 7, 6], [3, 0, 4], [3, 4, 7]])
    return vertices, faces, (168, 172, 178)


__all__ = ["Mesh", "bed_mesh", "render", "save_png", "view_matrix"]
