"""Deeply nested TOML or JSON (``x = [[[[...]]]]``, 50,000 deep) is refused with the
file and the line, by every command that reads such a file: it used to be a
RecursionError traceback (and `cbrig run` exited 1 naming no file)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.datafile import parse_toml
from engine.errors import DataError
from rig.core.journal import Journal
from rig.core.journalread import JournalError, parse_journal
from tests.slowdown import hang

DEPTH = 50_000


def deep_toml(path: Path, line: int = 3) -> Path:
    filler = "".join(f"# line {n}\n" for n in range(1, line))
    path.write_text(f"{filler}x = {'[' * DEPTH}{']' * DEPTH}\n")
    return path


def cbrig(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rig.cli", *args], capture_output=True,
                          text=True, timeout=hang())


def test_the_toml_parser_names_the_line():
    text = "a = 1\nb = 2\n" + f"x = {'[' * DEPTH}{']' * DEPTH}\n"
    with pytest.raises(DataError) as caught:
        parse_toml(text, "deep.toml")
    assert str(caught.value.problems[0]).startswith("deep.toml:3: ")
    assert "nested too deeply" in str(caught.value)


def test_a_deep_inline_table_is_found_too():
    text = "[game]\nname = 'x'\nopts = " + "{a = " * DEPTH + "1" + "}" * DEPTH + "\n"
    with pytest.raises(DataError) as caught:
        parse_toml(text, "deep.toml")
    assert caught.value.problems[0].line == 3


@pytest.mark.parametrize("command", [
    ("config", "check", "{file}"),
    ("config", "show", "{file}"),
    ("board", "check", "{file}"),
    ("cards", "show", "--config", "{file}"),
    ("run", "--config", "{file}"),
], ids=lambda c: " ".join(c[:2]))
def test_commands_refuse_a_deep_toml_file_with_file_and_line(tmp_path, command):
    path = deep_toml(tmp_path / "deep.toml")
    result = cbrig(*(part.format(file=path) for part in command))
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    assert result.returncode in (1, 78)
    assert f"{path}:3" in result.stderr + result.stdout
    assert "nested too deeply" in result.stderr + result.stdout


def _journal_with(tmp_path: Path, line: bytes) -> Path:
    path = tmp_path / "game.jsonl"
    header = {"format": "cbrig-journal", "version": 1, "seq": 0, "game": {},
              "created": "2026-12-02T10:00:00Z"}
    path.write_bytes(json.dumps(header).encode() + b"\n" + line + b"\n" + b'{"seq":2}\n')
    return path


def test_replay_refuses_a_deep_journal_line_with_file_and_line(tmp_path):
    path = _journal_with(tmp_path, b'{"seq":1,"action":' + b"[" * DEPTH + b"]" * DEPTH + b"}")
    result = cbrig("replay", str(path))
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    assert result.returncode == 1
    assert f"{path}:2" in result.stderr and "nested too deeply" in result.stderr


def test_the_journal_reader_names_a_deep_line():
    deep = b'{"seq":1,"action":' + b"[" * DEPTH + b"]" * DEPTH + b"}\n"
    header = json.dumps({"format": "cbrig-journal", "version": 1, "seq": 0, "game": {},
                         "created": "x"}).encode() + b"\n"
    with pytest.raises(JournalError, match=r":2: damaged line .*nested too deeply"):
        parse_journal(header + deep + b'{"seq":2,"action":{}}\n')
    with pytest.raises(JournalError, match=r":1: bad journal header: .*nested too deeply"):
        parse_journal(b'{"a":' + b"[" * DEPTH + b"]" * DEPTH + b"}\n")


def test_the_daemon_sets_a_deep_journal_aside_and_ignores_a_deep_card_map(tmp_path):
    from rig.config import load_config
    from rig.core.daemon import Daemon
    from tests.daemon.helpers import Quiet, write_config

    config = load_config(write_config(tmp_path, game="tenfour", players=3))
    config.state.directory.mkdir(parents=True)
    deep_toml(config.reader.cards)
    current = config.state.current
    current.write_bytes(b'{"format":' + b"[" * DEPTH + b"]" * DEPTH + b"}\n")
    daemon = Daemon(config=config, notifier=Quiet())
    try:
        daemon.start()
        assert daemon.app is not None and daemon.app.controller is None
        assert "Old game set aside" in daemon.app.screen().plain()
        assert daemon.cards == {}
    finally:
        daemon.stop()
    assert not current.exists()


def test_a_journal_opened_with_a_deep_last_line_cuts_it(tmp_path):
    path = tmp_path / "current.jsonl"
    with Journal.create(path, {"game": {"game": "x"}, "created": "x"}) as journal:
        journal.append({"kind": "spin"})
    good = path.read_bytes()
    path.write_bytes(good + b'{"seq":2,"action":' + b"[" * DEPTH + b"]" * DEPTH + b"}\n")
    journal, recovery = Journal.open(path)
    journal.close()
    assert recovery.line == 3 and "nested too deeply" in (recovery.reason or "")
    assert path.read_bytes() == good
