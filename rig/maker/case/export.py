"""Mesh files: binary STL (every slicer) and 3MF (millimetres stated, one object).

manifold3d writes no files; both formats are small enough to write here, so the case
extra needs no mesh-IO library.
"""

from __future__ import annotations

import struct
import zipfile
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

_STL_TRIANGLE = np.dtype([("normal", "<f4", 3), ("v", "<f4", (3, 3)), ("attr", "<u2")])


def write_stl(path: Path, vertices: NDArray[np.float64], triangles: NDArray[np.int64],
              name: str) -> None:
    """Binary STL: an 80-byte header, the count, then each facet's normal and corners."""
    corners = vertices[triangles]
    normals = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    lengths = np.linalg.norm(normals, axis=1, keepdims=True)
    normals = np.divide(normals, lengths, out=np.zeros_like(normals), where=lengths > 0)
    records = np.zeros(len(triangles), dtype=_STL_TRIANGLE)
    records["normal"] = normals
    records["v"] = corners
    header = f"cb-rig case: {name}".encode("ascii", "replace")[:80].ljust(80, b" ")
    with path.open("wb") as out:
        out.write(header)
        out.write(struct.pack("<I", len(triangles)))
        out.write(records.tobytes())


_CONTENT_TYPES = """<?xml version="1.0" encoding="UTF-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml"/>
</Types>
"""
_RELS = """<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Target="/3D/3dmodel.model" Id="rel0" Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"/>
</Relationships>
"""


def write_3mf(path: Path, vertices: NDArray[np.float64], triangles: NDArray[np.int64],
              name: str) -> None:
    """A 3MF package (3MF core spec 1.x): one mesh object, unit millimetre."""
    verts = "".join(f'<vertex x="{x:.4f}" y="{y:.4f}" z="{z:.4f}"/>' for x, y, z in vertices)
    tris = "".join(f'<triangle v1="{a}" v2="{b}" v3="{c}"/>' for a, b, c in triangles)
    model = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<model unit="millimeter" xml:lang="en-US" '
        'xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02">\n'
        f'<metadata name="Title">cb-rig case: {name}</metadata>\n'
        f'<resources><object id="1" name="{name}" type="model"><mesh>'
        f"<vertices>{verts}</vertices><triangles>{tris}</triangles>"
        "</mesh></object></resources>\n"
        '<build><item objectid="1"/></build>\n</model>\n')
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as package:
        package.writestr("[Content_Types].xml", _CONTENT_TYPES)
        package.writestr("_rels/.rels", _RELS)
        package.writestr("3D/3dmodel.model", model)


def read_stl(path: Path) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """A binary STL back as welded vertices and triangles (for the checks)."""
    data = path.read_bytes()
    (count,) = struct.unpack_from("<I", data, 80)
    records = np.frombuffer(data, dtype=_STL_TRIANGLE, count=count, offset=84)
    corners = records["v"].reshape(-1, 3).astype(np.float64)
    unique, inverse = np.unique(corners, axis=0, return_inverse=True)
    return unique, inverse.reshape(-1, 3).astype(np.int64)


__all__ = ["read_stl", "write_3mf", "write_stl"]
