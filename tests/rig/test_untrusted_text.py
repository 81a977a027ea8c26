"""Text from data files, journals and card maps never reaches the terminal as control
characters: a crafted board name or space id cannot clear the screen or forge output."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

from engine.selfplay import sample_chance
from rig.core.session import Session
from rig.gamebuild import build_game
from tests.daemon.helpers import write_config
from tests.slowdown import hang

ROOT = Path(__file__).resolve().parents[2]
ESC = "\\u001b[2J\\u001b]0;pwned\\u0007"
"""In TOML: clear the screen, retitle the window, ring the bell."""


def _cbrig(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rig.cli", *args], capture_output=True,
                          text=True, timeout=hang())


def _no_controls(text: str) -> None:
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", text), repr(text)


def _crafted_board(tmp_path: Path) -> Path:
    text = (ROOT / "engine" / "tenfour" / "data" / "tenfour_board.toml").read_text(encoding="utf-8")
    text = re.sub(r'^name = ".*"$', lambda m: f'name = "Evil{ESC}"', text, count=1,
                  flags=re.M)
    text = re.sub(r'"([RGBY])(\d+)"', lambda m: f'"{m.group(1)}{ESC}{m.group(2)}"', text)
    path = tmp_path / "board.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_board_check_shows_a_crafted_name_and_ids_escaped(tmp_path):
    result = _cbrig("board", "check", str(_crafted_board(tmp_path)))
    assert result.returncode == 0, result.stderr
    _no_controls(result.stdout + result.stderr)
    assert "Evil\\x1b[2J\\x1b]0;pwned\\x07" in result.stdout


def test_board_check_problems_and_file_names_are_escaped(tmp_path):
    board = _crafted_board(tmp_path)
    text = board.read_text(encoding="utf-8").replace('"Evil', '["Evil', 1)
    crafted_name = tmp_path / "board\x1b[2J.toml"
    crafted_name.write_text(text, encoding="utf-8")
    result = _cbrig("board", "check", str(crafted_name))
    assert result.returncode == 1
    _no_controls(result.stdout + result.stderr)
    assert "board\\x1b[2J.toml" in result.stdout + result.stderr


def test_replay_shows_crafted_space_ids_escaped(tmp_path):
    game = build_game("tenfour", players=3, data={"board": str(_crafted_board(tmp_path))})
    journal = tmp_path / "game.jsonl"
    session = Session.start(game, journal, {"created": "2026-12-01T00:00:00Z"})
    rng = random.Random(3)
    while session.steps < 30:
        state = session.state
        if state.is_chance_node():
            session.apply(sample_chance(state.chance_outcomes(), rng))
        else:
            session.apply(next(iter(state.legal_actions())))
    session.close()
    result = _cbrig("replay", str(journal))
    assert result.returncode == 0, result.stderr
    _no_controls(result.stdout + result.stderr)
    assert re.search(r"truck\W.{0,4}[GB]\\x1b\[2J", result.stdout), \
        result.stdout


def test_cards_show_escapes_tags_and_card_ids(tmp_path):
    config = write_config(tmp_path)
    cards = tmp_path / "state" / "cards.toml"
    cards.parent.mkdir()
    cards.write_text(f'[tags]\n"0003887558{ESC}" = "M01{ESC}"\n', encoding="utf-8")
    result = _cbrig("cards", "show", "--config", str(config))
    assert result.returncode == 0, result.stderr
    _no_controls(result.stdout + result.stderr)
    assert "M01\\x1b[2J" in result.stdout and "0003887558\\x1b[2J" in result.stdout


def test_replay_of_a_crafted_journal_name_and_error_is_escaped(tmp_path):
    journal = tmp_path / "game\x1b[2J.jsonl"
    journal.write_text('{"format": "cbrig-journal\\u001b[2J"}\n', encoding="utf-8")
    result = _cbrig("replay", str(journal))
    assert result.returncode == 1
    _no_controls(result.stdout + result.stderr)
    assert "game\\x1b[2J.jsonl" in result.stderr
