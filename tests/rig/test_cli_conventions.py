"""The command line's conventions: --version, help for every argument, one exit status
for a bad config, the allowed range for a bad player count, messages that read well."""

from __future__ import annotations

import argparse
import importlib
import json
import re
import tomllib
from pathlib import Path

import pytest

from rig.cli import COMMANDS, main

REPO = Path(__file__).resolve().parents[2]


def test_version_is_the_packages(capsys) -> None:
    assert main(["--version"]) == 0
    version = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]
    assert capsys.readouterr().out == f"cbrig {version}\n"


def test_the_journal_header_names_the_program_version(tmp_path: Path) -> None:
    from rig import version
    from rig.desktop.emulated import new_emulated_rig

    journal = tmp_path / "game.jsonl"
    new_emulated_rig("tenfour", 3, seed=1, journal=journal)
    header = json.loads(journal.read_text().splitlines()[0])
    assert header["cbrig"] == version() != "unknown"


def test_a_license_file_matches_pyproject() -> None:
    declared = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["license"]
    text = (REPO / "LICENSE").read_text()
    assert declared == {"text": "MIT"}
    assert text.startswith("MIT License\n")
    assert "Permission is hereby granted, free of charge" in text


def _parsers(parser: argparse.ArgumentParser, name: str):
    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub_name, sub in action.choices.items():
                yield from _parsers(sub, f"{name} {sub_name}")


def _all_parsers():
    for name, (module_name, help_text) in COMMANDS.items():
        module = importlib.import_module(f"rig.commands.{module_name}")
        parser = argparse.ArgumentParser(prog=f"cbrig {name}", description=help_text)
        module.add_arguments(parser)
        yield from _parsers(parser, f"cbrig {name}")


def test_every_argument_of_every_command_has_help() -> None:
    missing = []
    for name, parser in _all_parsers():
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
                continue
            if action.help == argparse.SUPPRESS:
                continue
            if not action.help:
                missing.append(f"{name}: {'/'.join(action.option_strings) or action.dest}")
    assert missing == []


def test_top_level_help_is_for_users(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "10-Four, Good Buddy" in out and "Bump 'Em" in out
    assert "docs/INSTALL.md" in out
    assert "78" in out and "cbrig COMMAND --help" in out
    said = " ".join(out.split())  # the wheel has no docs/: the help says where each is
    assert "python -m pydoc cbrig.game" in said
    for named in re.finditer(r"docs/\S+", said):
        assert "in the source" in said[named.end():named.end() + 60], said[named.start():]


@pytest.mark.parametrize("command", ["simulate", "demo", "emulate"])
def test_a_player_count_out_of_range_names_the_range(command: str, capsys) -> None:
    assert main([command, "--game", "bumpem", "--players", "7", "--script", "/dev/null"]
                if command == "emulate" else [command, "--game", "bumpem", "--players", "7"]) == 2
    err = capsys.readouterr().err
    assert "Bump 'Em is for 2 to 4 players, not 7" in err


def test_simulate_says_a_human_seat_cannot_be_simulated(capsys) -> None:
    assert main(["simulate", "--players", "2", "--seats", "human,random"]) == 2
    err = capsys.readouterr().err
    assert "human" in err and "plays every seat itself" in err


def test_a_damaged_journal_is_named_once(tmp_path: Path, capsys) -> None:
    journal = tmp_path / "tr2.jsonl"
    journal.write_text('{"format": "nope"}\n')
    assert main(["replay", str(journal)]) == 1
    err = capsys.readouterr().err
    assert err.count("tr2.jsonl") == 1, err


def test_board_check_counts_its_problems_in_words(tmp_path: Path, capsys) -> None:
    board = tmp_path / "b.toml"
    board.write_text("name = 3\n")
    assert main(["board", "check", str(board)]) != 0
    err = capsys.readouterr().err
    assert "problem(s)" not in err and ("1 problem" in err or "problems" in err)


def test_a_bad_seat_lists_every_choice_human_too(capsys) -> None:
    assert main(["demo", "--players", "3", "--seats", "human,foo,easy"]) == 2
    assert "choose one of human, easy, medium, hard" in capsys.readouterr().err


def test_the_simulate_progress_bar_shows_rate_and_time_left_a_few_times_a_second() -> None:
    from rig.commands.simulate import Progress

    now = [0.0]
    written: list[str] = []
    bar = Progress(1000, written.append, clock=lambda: now[0], per_second=4)
    for done in range(1, 1001):
        now[0] += 0.002  # 500 games a second, 2 s in all
        bar.update(done)
    bar.finish()
    assert 8 <= bar.draws <= 10  # 4 a second over 2 s, plus the last
    assert len(written) == bar.draws + 1
    assert written[-2].startswith("\r[" + "#" * 30 + "] 1000/1000  500.0 games/s  0:00 left")
    middle = written[len(written) // 2]
    assert "games/s" in middle and " left" in middle
    assert "126/1000  500.0 games/s  0:02 left" in written[1]  # 874 to go at 500/s: 1.7 s
    assert written[-1] == "\n"


def test_the_simulate_bar_moves_inside_a_long_game() -> None:
    """Computer seats can think for seconds a game: the bar shows the steps of the game
    being played, a few times a second, not only finished games."""
    from rig.commands.simulate import Progress

    now = [0.0]
    written: list[str] = []
    bar = Progress(10, written.append, clock=lambda: now[0], per_second=4)
    bar.update(3)
    on_step = bar.stepper(3)
    for _ in range(40):
        now[0] += 0.1  # a slow decision every 0.1 s
        on_step()
    # at most 4 a second: every third 0.1 s step, 13 times over 4 s
    assert len(written) - 1 == 13
    assert "] 3/10, game 4 at step 39" in written[-1]
    assert all("game 4 at step" in line for line in written[1:])
