"""`cbrig case build`: the files it writes, what it says, and the renderer it draws with."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

from rig.cli import main
from rig.maker.case import layout as L
from tests.case.conftest import Case
from tests.slowdown import hang

pytestmark = pytest.mark.case

REPO = Path(__file__).resolve().parents[2]


def test_case_build_writes_every_part_as_stl_and_3mf_and_a_bill_of_materials(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from rig.maker.case.export import read_stl

    out = tmp_path / "case"
    config = REPO / "wiring" / "config.toml"
    assert main(["case", "build", "--out", str(out), "--config", str(config),
                 "--pi", "pi4", "--no-pictures"]) == 0
    said = capsys.readouterr().out
    assert "5 printed parts for a" in said
    names = ("tray", "faceplate", "lid", "knob-hi", "knob-lo")
    for name in names:
        _, triangles = read_stl(out / f"{name}.stl")
        with zipfile.ZipFile(out / f"{name}.3mf") as package:
            model = package.read("3D/3dmodel.model").decode()
            assert "[Content_Types].xml" in package.namelist()
        assert 'unit="millimeter"' in model
        assert model.count("<triangle ") == len(triangles)
    bom = (out / "bom.md").read_text()
    assert "Pi pi4" in bom and "| 8 | M2.5 heat-set insert" not in bom
    assert "| 4 | M2.5 heat-set insert, 4.0 mm long (3.6 mm hole, 4.5 mm deep) |" in bom
    assert "| 4 | M3 heat-set insert, 5.7 mm long (4.0 mm hole, 6.0 mm deep) |" in bom
    assert "| 4 | M2.5 x 5 pan head screw |" in bom  # the Pi's: 1.4 mm board, 4.5 mm pocket
    assert "| 4 | M3 x 8 pan head screw |" in bom  # the lid's
    assert "| knob hi | knob-hi.stl, knob-hi.3mf |" in bom and "180 x 180, 220 x 220" in bom
    # not a terminal: no progress lines, only the summary
    assert said.count("\n") == 2 and "thinnest wall" in said and "knob rims" in said
    assert "Raspberry Pi 4 Model B" in bom and "KY-040" in bom
    assert not list(out.glob("*.png"))


def test_a_display_the_case_cannot_hold_is_refused(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "rig.toml"
    config.write_text('[display]\ndriver = "terminal"\n')
    assert main(["case", "build", "--out", str(tmp_path / "x"), "--config", str(config)]) == 1
    assert "ssd1306 or sh1106" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_without_the_case_extra_it_says_what_to_install(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "manifold3d" else real(name, *a))
    assert main(["case", "build", "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err  # cbrig is on no package index: the checkout's extra
    assert "from this checkout:" in err and "/bin/pip install -e '" in err
    assert "[case]'" in err and "cbrig[case]" not in err


def test_the_renderer_keeps_the_nearer_face_whatever_the_order(tmp_path: Path) -> None:
    """A big plate in front of a small block: drawn in either order, the block behind
    stays hidden (drawing in list order would show it when it comes last)."""
    import numpy as np
    from PIL import Image

    from rig.maker.case.geometry import box, mesh_arrays
    from rig.maker.case.render import render

    plate = mesh_arrays(box(-50, -2, -50, 50, 0, 50))
    block = mesh_arrays(box(30, 1, 30, 40, 60, 40))
    for order in ((0, 1), (1, 0)):
        meshes = [(*plate, (255, 0, 0)), (*block, (0, 0, 255))]
        path = tmp_path / f"{order}.png"
        render([meshes[i] for i in order], path, azimuth=0.0, elevation=0.0, size=(200, 200))
        pixels = np.asarray(Image.open(path).convert("RGB")).astype(int)
        blue = (pixels[:, :, 2] > 150) & (pixels[:, :, 0] < 80)
        red = (pixels[:, :, 0] > 100) & (pixels[:, :, 2] < 60)
        assert red.sum() > 0.4 * pixels.shape[0] * pixels.shape[1]
        assert blue.sum() == 0, f"the hidden block shows (order {order})"


def test_the_bill_of_materials_lists_a_boss_s_screw_for_every_boss(cases: dict[str, Case]
                                                                   ) -> None:
    from rig.maker.case.build import bill_of_materials

    for case in cases.values():
        bom = bill_of_materials(case.built)
        screws = sum(int(n) for n in re.findall(r"^\| (\d+) \| M[\d.]+ x \d+ ", bom, re.M))
        assert screws == len(case.layout.bosses)


def test_every_screw_bites_at_least_2_mm_and_never_bottoms_out(cases: dict[str, Case]) -> None:
    from rig.maker.case.build import held_by, screw_length

    for case in cases.values():
        for b in case.layout.bosses:
            held = held_by(case.layout, b)
            bite = screw_length(held, b.depth) - held
            assert 2.0 <= bite <= b.depth + 1e-6, f"{b.key}: {bite:.1f} mm in a {b.depth} hole"


def test_a_console_too_big_for_the_bed_is_refused() -> None:
    from rig.maker.case.layout import CaseChoice, plan
    from rig.maker.case.parts import TABLE_PATH, parse_parts

    text = TABLE_PATH.read_text().replace("diameter = 40.0", "diameter = 90.0")
    table = parse_parts(text, "big.toml")
    with pytest.raises(ValueError, match=r"over the 220\.0 mm bed"):
        plan(table, CaseChoice(speaker=True))


def test_a_missing_part_table_says_where_to_find_one(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["case", "build", "--out", str(tmp_path / "x"), "--parts",
                 str(tmp_path / "nope.toml")]) == 1
    err = capsys.readouterr().err
    assert "nope.toml" in err and "--parts FILE" in err


def test_a_part_table_with_mistakes_is_refused_line_by_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from rig.maker.case.parts import TABLE_PATH

    broken = tmp_path / "parts.toml"
    broken.write_text(TABLE_PATH.read_text().replace('mount = "nut"', 'mount = "glue"'))
    assert main(["case", "build", "--out", str(tmp_path / "x"), "--parts", str(broken)]) == 1
    assert re.search(r"parts\.toml:\d+: part\[6\]\.mount: 'glue' is not one of",
                     capsys.readouterr().err)


def test_the_config_decides_what_the_case_holds() -> None:
    from rig.config import parse_config
    from rig.maker.case.layout import choice_from_config, plan
    from rig.maker.case.parts import load_parts

    config = parse_config('[case]\npi = "pi4"\nspeaker = true\n[pins]\nbuzzer = false\n'
                          'led = false\n[display]\ndriver = "sh1106"\n[reader]\n'
                          'type = "pn532"\n')
    choice = choice_from_config(config)
    assert (choice.pi, choice.display, choice.reader, choice.speaker) == (
        "pi4", "sh1106", "pn532", True)
    lay = plan(load_parts(), choice)
    assert {p.part.id for p in lay.placed} == {
        "pi_4", "sh1106_13", "ky040", "pn532", "speaker_40", "max98357a"}


def test_on_a_terminal_case_build_shows_its_progress(tmp_path: Path) -> None:
    """stderr a terminal (a pty): one status line rewritten in place while it works."""
    import os
    import pty
    import subprocess
    import sys

    leader, follower = pty.openpty()
    run = subprocess.run([sys.executable, "-m", "rig.cli", "case", "build", "--out",
                          str(tmp_path / "case"), "--no-pictures"], stderr=follower,
                         stdout=subprocess.PIPE, text=True, cwd=REPO, check=False,
                         timeout=hang(600))
    os.close(follower)
    shown = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    os.close(leader)
    assert run.returncode == 0
    text = shown.decode()
    assert "\r" in text and "building the solids" in text and "wrote tray" in text
    # and while it checks the parts (23 s silent before issue 47), each step as it starts
    assert "checking: wall thickness of the tray (1/5)" in text
    assert "checking: the clearances between" in text and "checking: the tag's" in text
    assert "5 printed parts for a" in run.stdout and "cbrig case [" not in run.stdout


def test_the_bom_and_the_insert_pockets_agree(cases: dict[str, Case]) -> None:
    """Each insert the BOM names fits its pocket, and the screw through it stops short
    of the pocket's floor."""
    from rig.maker.case.build import held_by, screw_length

    for case in cases.values():
        for b in case.layout.bosses:
            if b.fixing != "insert":
                continue
            assert L.INSERT_LENGTH[b.screw] <= b.depth - 0.3, b.key
            assert screw_length(held_by(case.layout, b), b.depth) - held_by(
                case.layout, b) <= b.depth, b.key


def test_the_faceplate_caption_names_what_it_carries(cases: dict[str, Case]) -> None:
    from rig.maker.case.build import faceplate_parts

    assert faceplate_parts(cases["pi4-sh1106-pn532-speaker"].layout) == (
        "speaker, knobs, display, LED, buzzer")
    assert faceplate_parts(cases["pi5-ssd1306-rdm6300"].layout) == "knobs, display, LED"


def test_without_the_cad_library_installed_the_command_says_what_to_install(
        tmp_path: Path) -> None:
    """Really without it (a fresh interpreter that cannot import manifold3d or numpy),
    as on a Pi or an install without the case extra: the message, never a traceback."""
    import subprocess
    import sys

    code = ("import sys\n"
            "sys.modules['manifold3d'] = None\n"
            "sys.modules['numpy'] = None\n"
            "from rig.cli import main\n"
            f"raise SystemExit(main(['case', 'build', '--out', {str(tmp_path / 'x')!r}]))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 2, done.stderr
    assert "install the 'case' extra" in done.stderr and "Traceback" not in done.stderr
