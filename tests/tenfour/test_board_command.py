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


def test_outputs_default_into_one_ignored_folder_and_hints_name_the_venv_s_cbrig(
        tmp_path, monkeypatch, capsys):
    """Issue 47: `print`, `board copy` and `board show` left files loose in the checkout.
    With no destination each writes into ./cbrig-out/ (the checkout's .gitignore
    ignores it); print board and print all name their PDFs alike; the copy's hint names
    the cbrig that runs (the venv's), not a bare `cbrig`."""
    import argparse
    import sys
    from pathlib import Path

    from rig.commands import printing
    from rig.commands._out import OUT_DIR, cbrig_command

    monkeypatch.chdir(tmp_path)
    assert main(["board", "copy", "default"]) == 0
    copied = tmp_path / OUT_DIR / "tenfour-board.toml"
    assert copied.is_file()
    said = capsys.readouterr().out
    assert f"edit it, then: {cbrig_command()} board check cbrig-out/tenfour-board.toml" in said
    if sys.prefix != sys.base_prefix:  # the suite runs in the venv: the hint names it
        assert cbrig_command().endswith("/bin/cbrig") and cbrig_command() != "cbrig"
    assert main(["board", "show", "default"]) == 0
    assert (tmp_path / OUT_DIR / "tenfour-board.png").is_file()
    one = argparse.Namespace(what="board", out=None)
    every = argparse.Namespace(what="all", out=None)
    assert printing._out_path(one, "tenfour", "board") == OUT_DIR / "tenfour-board.pdf"
    assert printing._out_path(every, "tenfour", "board") == OUT_DIR / "tenfour-board.pdf"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cbrig-out"]
    ignored = (Path(__file__).resolve().parents[2] / ".gitignore").read_text().splitlines()
    assert f"/{OUT_DIR}/" in ignored
