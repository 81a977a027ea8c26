"""`cbrig board check|show`: located problems, a summary, and a drawing."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from rig.cli import main
from rig.datafiles import read_data


def test_check_default_board_prints_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["board", "check", "default"]) == 0
    out = capsys.readouterr().out
    assert "default:tenfour_board.toml: OK" in out
    assert "80 spaces in 4 routes" in out and "4 Bear Traps" in out
    assert "2 short cuts" in out and "4 Hammer Up curves" in out


def test_check_bad_board_lists_every_located_problem(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    text, _ = read_data("default:tenfour_board.toml", "engine.tenfour.data")
    bad = text.replace('"G5"', '"R5"', 1).replace('exit = "G2"', 'exit = "Q2"')
    path = tmp_path / "board.toml"
    path.write_text(bad, encoding="utf-8")
    assert main(["board", "check", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    lines = bad.splitlines()
    route_line = next(n for n, line in enumerate(lines, 1) if '"G4", "R5"' in line)
    exit_line = next(n for n, line in enumerate(lines, 1) if 'exit = "Q2"' in line)
    assert f"{path}:{route_line}: route[1].spaces: duplicate id 'R5' (already a highway space)" \
        in out
    assert any(line.startswith(f"{path}:{exit_line}: shortcut[0].exit:") for line in out)


def test_missing_file_is_exit_2(tmp_path: Path) -> None:
    assert main(["board", "check", str(tmp_path / "nope.toml")]) == 2


def test_show_draws_a_png(tmp_path: Path) -> None:
    out = tmp_path / "board.png"
    assert main(["board", "show", "default", "--png", str(out)]) == 0
    with Image.open(out) as image:
        assert image.format == "PNG" and image.width >= 800
        # route colours are on the picture (red route fill)
        assert (244, 170, 170) in {c for _, c in image.convert("RGB").getcolors(1 << 20) or []}


def test_bumpem_boards_dispatch_to_their_own_loader(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["board", "check", "default", "--game", "bumpem"]) == 0
    assert "bumpem_board.toml: OK" in capsys.readouterr().out


def test_copy_gives_the_owner_an_editable_copy_that_checks_and_is_never_overwritten(
        tmp_path, capsys):
    mine = tmp_path / "myboard.toml"
    assert main(["board", "copy", "default", str(mine)]) == 0
    assert main(["board", "check", str(mine)]) == 0
    assert f"{mine}: OK" in capsys.readouterr().out
    mine.write_text("# edited\n")
    assert main(["board", "copy", "default", str(mine)]) == 2
    assert "exists; not overwritten" in capsys.readouterr().err
    assert mine.read_text() == "# edited\n"
