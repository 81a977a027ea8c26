"""The enclosure's tests: each configuration is built once per session and shared.

The CAD library (the `case` extra) is imported inside the fixtures, never at collection:
the arm64 CI job deselects the `case` marker and has no manifold3d to import."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from rig.maker.case.layout import CHECKED

if TYPE_CHECKING:
    from rig.maker.case.build import Built

CONFIGS = CHECKED


class Case:
    """One built configuration and its exported STL files."""

    def __init__(self, built: Built, stl: dict[str, Path]) -> None:
        self.built = built
        self.layout = built.layout
        self.stl = stl
        self.printed = {p.name: p for p in built.printed}
        self.bodies = {b.key: b for b in built.bodies}


@pytest.fixture(scope="session")
def cases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Case]:
    from rig.maker.case import geometry as G
    from rig.maker.case.build import build_solids
    from rig.maker.case.export import write_stl
    from rig.maker.case.layout import plan
    from rig.maker.case.parts import load_parts

    table = load_parts()
    out: dict[str, Case] = {}
    for name, choice in CONFIGS.items():
        built = build_solids(plan(table, choice))
        folder = tmp_path_factory.mktemp(name)
        stl = {}
        for part in built.printed:
            vertices, triangles = G.mesh_arrays(part.on_bed())
            path = folder / f"{part.name.replace(' ', '-')}.stl"
            write_stl(path, vertices, triangles, part.name)
            stl[part.name] = path
        out[name] = Case(built, stl)
    return out


@pytest.fixture(params=list(CONFIGS))
def case(request: pytest.FixtureRequest, cases: dict[str, Case]) -> Case:
    return cases[request.param]
