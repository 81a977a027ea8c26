"""Hardware event scripts run headlessly through `cbrig emulate --script`."""

from __future__ import annotations

from pathlib import Path

import pytest

from rig.cli import main
from rig.desktop.emulated import new_emulated_rig
from rig.desktop.script import ScriptError, execute, parse

SCRIPTS = Path(__file__).parent / "scripts"


def test_the_opening_script_passes_through_the_cli(capsys):
    code = main(["emulate", "--players", "3", "--seed", "1",
                 "--script", str(SCRIPTS / "tenfour_opening.script")])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "$ spin hi 7" in out
    assert "MOVE 7" in out


def test_a_failed_expectation_exits_non_zero_naming_the_line(tmp_path, capsys):
    script = tmp_path / "bad.script"
    script.write_text("# comment\nspin hi 4\nexpect \"Blue goes first\"\n")
    code = main(["emulate", "--players", "3", "--script", str(script)])
    err = capsys.readouterr().err
    assert code == 1
    assert f"{script}:line 3: expected 'Blue goes first'" in err


@pytest.mark.parametrize(("text", "line", "message"), [
    ("press hi\nfrobnicate\n", 2, "unknown command 'frobnicate'"),
    ("turn middle 2\n", 1, "knob must be hi or lo"),
    ("wait soon\n", 1, "'soon' is not a number"),
    ("expect \"unclosed\n", 1, "cannot read"),
    ("spin\n", 1, "spin takes 1..2 arguments"),
])
def test_malformed_scripts_are_refused_before_anything_runs(text, line, message):
    with pytest.raises(ScriptError) as error:
        parse(text)
    assert error.value.line == line
    assert message in str(error.value)


def test_execute_reports_each_changed_screen():
    rig = new_emulated_rig("bumpem", 2, seed=3)
    said: list[str] = []
    execute(rig, parse("press hi\nshow\n"), say=said.append)
    assert said[0] == "$ press hi"
    assert any("draws" in s for s in said[1:])
