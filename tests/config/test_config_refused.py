"""One way out for a config a command cannot use: the mistakes said, then exit 78."""

from __future__ import annotations

from pathlib import Path

import pytest

from rig.cli import main


def test_print_refuses_a_bad_config_like_every_command(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[game]\nplayers = 9\n")
    assert main(["print", "board", "--config", str(bad), "--out", str(tmp_path / "b.pdf")]) \
        == 78
    err = capsys.readouterr().err
    assert "cbrig print: the config has mistakes:" in err
    assert f"{bad}:2: game.players: 9 is out of range" in err
    assert not (tmp_path / "b.pdf").exists()


def test_an_unreadable_config_is_refused_with_the_reason(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "show", "--config", str(tmp_path)]) == 78
    assert "cbrig cards:" in capsys.readouterr().err
