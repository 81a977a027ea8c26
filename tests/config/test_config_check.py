"""`cbrig config check` loads everything the config points at, as START will: a broken
board file is found before the game, and a bad config exits 78 like every command."""

from __future__ import annotations

from pathlib import Path

from rig.cli import main
from tests.slowdown import hang

REPO = Path(__file__).resolve().parents[2]
BOARD = REPO / "engine/tenfour/data/tenfour_board.toml"


def write(tmp_path: Path, extra: str = "", state: Path | None = None) -> Path:
    config = tmp_path / "config.toml"
    config.write_text(f"""
[game]
name = "tenfour"
players = 3
{extra}

[state]
directory = "{state or tmp_path / 'state'}"
""")
    return config


def test_a_good_config_and_its_files_pass(tmp_path: Path, capsys) -> None:
    board = tmp_path / "my_board.toml"
    board.write_text(BOARD.read_text())
    assert main(["config", "check", str(write(tmp_path, f'[game.data]\nboard = "{board}"'))]) == 0
    out = capsys.readouterr().out
    assert f"data:    board {board}: they load" in out


def test_a_broken_board_file_is_named_with_its_line(tmp_path: Path, capsys) -> None:
    board = tmp_path / "my_board.toml"
    text = BOARD.read_text()
    board.write_text(text.replace('spaces = ["R7", "R8", "R9"]', 'spaces = ["R7", "R8", "R99"]'))
    line = 1 + text[:text.index('spaces = ["R7", "R8", "R9"]')].count("\n")
    config = write(tmp_path, f'[game.data]\nboard = "{board}"')
    assert main(["config", "check", str(config)]) == 78
    captured = capsys.readouterr()
    assert f"{board}:{line}:" in captured.out
    assert "R99" in captured.out
    assert "1 problem found" in captured.err


def test_a_state_directory_that_is_a_file_is_a_problem(tmp_path: Path, capsys) -> None:
    state = tmp_path / "state"
    state.write_text("not a directory")
    assert main(["config", "check", str(write(tmp_path, state=state))]) == 78
    assert f"{state} is not a directory" in capsys.readouterr().out


def test_enrolled_cards_the_deck_lacks_are_pointed_out(tmp_path: Path, capsys) -> None:
    (tmp_path / "state").mkdir()
    (tmp_path / "state/cards.toml").write_text('[tags]\n"1" = "M01"\n"2" = "Z9"\n')
    assert main(["config", "check", str(write(tmp_path))]) == 0
    assert "1 enrolled card not in this deck (Z9)" in capsys.readouterr().out


def test_every_command_exits_78_on_a_bad_config(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[game]\nplayers = 9\n")
    for args in (["config", "check", str(bad)], ["cards", "show", "--config", str(bad)],
                 ["rfid", "listen", "--config", str(bad)], ["run", "--config", str(bad)],
                 ["selftest", "--config", str(bad)]):
        assert main(args) == 78, args
        captured = capsys.readouterr()
        assert "players" in captured.out + captured.err, args


def test_config_check_shows_control_characters_and_clips_long_values(tmp_path):
    """A port or a path with escape sequences reached the terminal as they were, and a
    1 MB value went whole into the output (and the log)."""
    import subprocess
    import sys

    path = tmp_path / "nasty.toml"
    long_port = "/dev/" + "a" * 1_000_000
    path.write_text('[reader]\nport = "/dev/x\\u001b[31mRED\\u0007"\n'
                    '[state]\ndirectory = "/tmp/st\\u001b[2J"\n')
    result = subprocess.run([sys.executable, "-m", "rig.cli", "config", "check", str(path)],
                            capture_output=True, text=True, timeout=hang())
    assert result.returncode == 0, result.stderr
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout
    assert "/dev/x\\x1b[31mRED\\x07" in result.stdout
    assert "/tmp/st\\x1b[2J" in result.stdout

    path.write_text(f'[reader]\nport = "{long_port}"\n[game]\nname = "{"b" * 1_000_000}"\n')
    result = subprocess.run([sys.executable, "-m", "rig.cli", "config", "check", str(path)],
                            capture_output=True, text=True, timeout=hang())
    out = result.stdout + result.stderr
    assert len(out) < 5_000, len(out)
    assert "more characters" in out
    assert "too long for a serial port" in out
