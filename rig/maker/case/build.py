"""`cbrig case build`: every printed part as STL and 3MF, the bill of materials and the
pictures (assembled, exploded, inside, each part on the bed)."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path

import numpy as np
from manifold3d import Manifold

from rig.maker.case import geometry as G
from rig.maker.case import layout as L
from rig.maker.case.export import write_3mf, write_stl
from rig.maker.case.layout import Layout
from rig.maker.case.render import Mesh, bed_mesh, render, save_png
from rig.maker.case.slicing import Sliced, duration, fits, slice_stl
from valueclass import Frozen

PRINT_COLOURS: dict[str, tuple[int, int, int]] = {
    "tray": (72, 74, 82), "faceplate": (196, 194, 186), "lid": (88, 90, 100),
    "knob hi": (40, 40, 44), "knob lo": (40, 40, 44),
}
PART_COLOURS: dict[str, tuple[int, int, int]] = {
    "pi": (46, 140, 76), "display": (40, 70, 160), "encoder": (60, 90, 180),
    "reader": (196, 70, 60), "antenna": (205, 140, 40), "buzzer": (30, 30, 30),
    "led": (230, 40, 40), "amplifier": (120, 60, 160), "speaker": (150, 150, 150),
}
CARD_COLOUR = (238, 214, 120)


class Built(Frozen):
    layout: Layout
    printed: tuple[G.PrintedPart, ...]
    bodies: tuple[G.PartBody, ...]
    seconds: float


def build_solids(layout: Layout) -> Built:
    start = time.perf_counter()
    printed = tuple(G.printed_parts(layout))
    bodies = tuple(G.part_bodies(layout))
    return Built(layout, printed, bodies, time.perf_counter() - start)


def _mesh(solid: Manifold, colour: tuple[int, int, int],
          offset: tuple[float, float, float] = (0.0, 0.0, 0.0)) -> Mesh:
    vertices, triangles = G.mesh_arrays(solid)
    return vertices + np.array(offset), triangles, colour


def _card(layout: Layout) -> Manifold:
    x0, y0, x1, y1 = layout.recess
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    w, d = L.CARD
    z = layout.height - L.RECESS_DEPTH
    return G.box(cx - w / 2, cy - d / 2, z, cx + w / 2, cy + d / 2, z + 0.4)


EXPLODE = {"lid": (0.0, 0.0, 75.0), "faceplate": (0.0, -55.0, 0.0),
           "knob hi": (0.0, -105.0, 0.0), "knob lo": (0.0, -105.0, 0.0)}


def pictures(built: Built, out: Path,
             progress: Callable[[str], None] = lambda _: None) -> list[Path]:
    """The assembly pictures and each part on the bed; returns the files written."""
    lay = built.layout
    files = []
    colour_of = {p.key: PART_COLOURS[p.part.role] for p in lay.placed}
    parts = {p.name: p for p in built.printed}
    assembled = [_mesh(p.solid, PRINT_COLOURS[p.name]) for p in built.printed]
    assembled.append(_mesh(_card(lay), CARD_COLOUR))
    shots: list[tuple[str, list[Mesh], tuple[float, float], str]] = [
        ("assembled", assembled, (-30.0, 28.0),
         "The rig in a box, assembled, a card on the reader"),
    ]
    bodies = [_mesh(b.solid + b.extra, colour_of[b.key]) for b in built.bodies]
    exploded = [_mesh(p.solid, PRINT_COLOURS[p.name], EXPLODE.get(p.name, (0, 0, 0)))
                for p in built.printed]
    panel_parts = {p.key for p in lay.placed if p.orient == "panel"}
    for b in built.bodies:
        offset = EXPLODE["faceplate"] if b.key in panel_parts else (0.0, 0.0, 0.0)
        exploded.append(_mesh(b.solid + b.extra, colour_of[b.key], offset))
    shots.append(("exploded", exploded, (-30.0, 32.0),
                  "Exploded: lid up, faceplate and knobs forward"))
    inside = [_mesh(parts["tray"].solid, PRINT_COLOURS["tray"]),
              _mesh(parts["faceplate"].solid, PRINT_COLOURS["faceplate"]), *bodies]
    shots.append(("inside", inside, (205.0, 55.0),
                  "Inside, lid off: every board on its bosses"))
    shots.append(("back", [_mesh(parts["tray"].solid, PRINT_COLOURS["tray"]), *bodies],
                  (150.0, 18.0), "The back and right walls: the Pi's sockets at their openings"))
    behind = [_mesh(parts["faceplate"].solid, PRINT_COLOURS["faceplate"]),
              *[_mesh(b.solid + b.extra, colour_of[b.key]) for b in built.bodies
                if b.key in panel_parts]]
    shots.append(("faceplate-back", behind, (160.0, 20.0),
                  "The faceplate from behind: " + faceplate_parts(lay)))
    for name, meshes, (azimuth, elevation), title in shots:
        progress(f"drawing case-{name}.png")
        path = out / f"case-{name}.png"
        render(meshes, path, title=title, azimuth=azimuth, elevation=elevation)
        files.append(path)
    for part in built.printed:
        progress(f"drawing {part.name} on the bed")
        path = out / f"bed-{part.name.replace(' ', '-')}.png"
        _bed_picture(part, path)
        files.append(path)
    return files


def faceplate_parts(lay: Layout) -> str:
    """What the faceplate carries, in words, as built."""
    names = {"speaker": "speaker", "display": "display", "led": "LED", "buzzer": "buzzer"}
    found = [names[p.part.role] for p in lay.placed
             if p.orient == "panel" and p.part.role in names]
    found.insert(1 if lay.has("speaker") else 0, "knobs")
    return ", ".join(found)


def _bed_picture(part: G.PrintedPart, path: Path) -> None:
    """The part centred on a 220 x 220 mm bed as the slicer shows it (left) and close up
    from the same side (right), side by side in one picture."""
    from PIL import Image

    x0, y0, _, x1, y1, _ = G.bounds(part.on_bed())
    centred = part.on_bed().translate(((L.BED - x1 - x0) / 2, (L.BED - y1 - y0) / 2, 0.0))
    colour = PRINT_COLOURS[part.name]
    left, right = path.with_suffix(".bed.png"), path.with_suffix(".near.png")
    render([bed_mesh(L.BED), _mesh(centred, colour)], left, azimuth=-20.0, elevation=50.0,
           size=(640, 560), title=f"{part.name}: {part.orientation}")
    render([_mesh(centred, colour)], right, azimuth=-20.0, elevation=50.0, size=(640, 560),
           title="close up")
    sheet = Image.new("RGB", (1280, 560))
    for i, half in enumerate((left, right)):
        with Image.open(half) as image:
            sheet.paste(image.convert("RGB"), (640 * i, 0))
        half.unlink()
    save_png(sheet, path)


def bill_of_materials(built: Built, sliced: Mapping[str, Sliced] | None = None) -> str:
    """The BOM as Markdown: printed parts, screws and inserts, and the parts themselves."""
    lay = built.layout
    lines = ["# Bill of materials", "",
             f"Console {lay.width:.0f} x {lay.depth:.0f} x {lay.height:.0f} mm for: "
             f"{_describe(lay)}.", "", "## Printed parts (PLA or PETG, 0.2 mm layers, "
             "3 walls, no supports)", "",
             "| Part | File | Size on the bed (mm) | Lies | Fits a bed of (mm) | Print time | "
             "Filament |", "| --- | --- | --- | --- | --- | --- | --- |"]
    total_s = total_g = 0.0
    for p in built.printed:
        x0, y0, z0, x1, y1, z1 = G.bounds(p.on_bed())
        slug = p.name.replace(" ", "-")
        beds = ", ".join(name for name, ok in fits((x1 - x0, y1 - y0)).items() if ok)
        done = (sliced or {}).get(slug)
        figures = "| not sliced | not sliced |" if done is None else (
            f"| {duration(done.seconds)} | {done.grams:.0f} g ({done.metres:.1f} m) |")
        if done is not None:
            total_s += done.seconds
            total_g += done.grams
        lines.append(f"| {p.name} | {slug}.stl, {slug}.3mf | {x1 - x0:.1f} x {y1 - y0:.1f} x "
                     f"{z1 - z0:.1f} | {p.orientation} | {beds} {figures}")
    if sliced:
        lines += ["", f"All parts: {duration(total_s)} of printing and {total_g:.0f} g of PLA "
                  "(PrusaSlicer's estimate with rig/maker/case/slicer.ini)."]
    else:
        lines += ["", "Print time and filament: `cbrig case build --slice` (PrusaSlicer)."]
    hardware: Counter[str] = Counter()
    steps: Counter[str] = Counter()
    for b in lay.bosses:
        if b.clamp:
            hardware[f"{b.washer:.0f} mm fender washer, 3.2 mm hole (clamps an edge)"] += 1
        if b.collar:
            steps[f"{lay.get(b.holds).part.name}: a step {b.collar:.1f} mm tall, "
                  f"{b.collar_diameter:.1f} mm across, on each clamp post beside the edge, "
                  "so the washer lies flat"] += 1
        length = screw_length(held_by(lay, b), b.depth)
        kind = "pan head screw" if b.fixing == "insert" else (
            "self-tapping pan head screw (for plastic)")
        if b.fixing == "insert":
            hardware[f"{b.screw} heat-set insert, {L.INSERT_LENGTH[b.screw]} mm long "
                     f"({b.hole} mm hole, {b.depth} mm deep)"] += 1
        hardware[f"{b.screw} x {length} {kind}"] += 1
    knob = next(p.part for p in lay.placed if p.part.role == "encoder")
    if knob.nut:
        hardware["M7 x 0.75 nut (comes with the KY-040) and washer"] += 2
    hardware["self-adhesive rubber foot, 10 mm (under the tray's corners)"] += 4
    lines += ["", "## Screws, inserts, washers, feet", "", "| Qty | Item |", "| --- | --- |"]
    lines += [f"| {n} | {item} |" for item, n in sorted(hardware.items())]
    if steps:
        lines += ["", "Printed with the tray (the spacers under the clamp washers):", ""]
        lines += [f"- {n} x {item}" for item, n in sorted(steps.items())]
    lines += ["", "## Parts held by the case (wiring/parts.toml)", "",
              "| Qty | Part | Held by | Source |", "| --- | --- | --- | --- |"]
    counts: Counter[str] = Counter(p.part.id for p in lay.placed)
    seen: set[str] = set()
    for placed in lay.placed:
        part = placed.part
        if part.id in seen:
            continue
        seen.add(part.id)
        lines.append(f"| {counts[part.id]} | {part.name} | {_held(part.mount)} | "
                     f"{part.source} |")
    lines += ["", "Wiring: wiring/README.md (the same part names)."]
    return "\n".join(lines) + "\n"


SCREW_LENGTHS = (4, 5, 6, 8, 10, 12, 16, 20)


def held_by(lay: Layout, boss: L.Boss) -> float:
    """What a boss's screw passes through before it bites: the lid, the board, or (a
    clamp) the board's edge or the speaker's rim and the washer."""
    if boss.holds == "lid":
        return L.LID
    held = lay.get(boss.holds).part.thickness
    if boss.clamp:  # the washer, and the air beside the edge a post with no step leaves
        held = 0.0 if boss.collar else (L.SPEAKER_RIM if boss.holds == "speaker" else held)
        held += L.WASHER_THICKNESS
    return held


def screw_length(held: float, depth: float) -> int:
    """The longest common screw length (mm) through `held` mm of board (and washer) that
    does not bottom out in a hole `depth` deep."""
    return max(n for n in SCREW_LENGTHS if n <= held + depth + 1e-6)


def _held(mount: str) -> str:
    return {"screws": "screws into its bosses", "clamp": "washers over its edges",
            "nut": "its bushing nut, on the faceplate", "socket": "a printed ring",
            "press": "pressed into its hole"}[mount]


def _describe(lay: Layout) -> str:
    pi, display, reader, speaker, buzzer, led = lay.config
    bits = [f"Pi {pi}", display, f"reader {reader}"]
    bits += [name for name, on in (("speaker", speaker), ("buzzer", buzzer), ("LED", led))
             if on]
    return ", ".join(bits)


def write_all(built: Built, out: Path, *, images: bool = True,
              progress: Callable[[str], None] = lambda _: None,
              slice_with: str | None = None) -> list[Path]:
    """Every part's STL and 3MF, bom.md and (with `images`) the pictures, into `out`;
    with `slice_with` (the prusa-slicer command) each part sliced too, its G-code
    written and its print time and filament in the BOM."""
    out.mkdir(parents=True, exist_ok=True)
    files = []
    for part in built.printed:
        vertices, triangles = G.mesh_arrays(part.on_bed())
        slug = part.name.replace(" ", "-")
        for suffix, writer in ((".stl", write_stl), (".3mf", write_3mf)):
            path = out / f"{slug}{suffix}"
            writer(path, vertices, triangles, part.name)
            files.append(path)
        progress(f"wrote {slug} ({len(triangles)} triangles)")
    sliced: dict[str, Sliced] = {}
    if slice_with:
        for part in built.printed:
            slug = part.name.replace(" ", "-")
            progress(f"slicing {slug} with PrusaSlicer")
            gcode = out / f"{slug}.gcode"
            sliced[slug] = slice_stl(out / f"{slug}.stl", gcode, slice_with)
            files.append(gcode)
    bom = out / "bom.md"
    bom.write_text(bill_of_materials(built, sliced), encoding="utf-8")
    files.append(bom)
    if images:
        progress("drawing the pictures")
        files += pictures(built, out, progress)
    return files


__all__ = ["Built", "bill_of_materials", "build_solids", "faceplate_parts", "held_by",
           "pictures", "screw_length", "write_all"]
