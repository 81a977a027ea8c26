"""`cbrig run` starts with the garbage collector paused and resumes it, frozen, once READY
is sent (rig.core.collector); every other command, and a failed start, leave it as it was."""

from __future__ import annotations

import gc

import pytest

from rig.cli import main
from rig.config import GameConfig
from rig.core import collector
from rig.desktop.desk import DeskRig, desk_config


@pytest.fixture(autouse=True)
def _collector_restored():
    yield
    gc.unfreeze()
    gc.enable()


def test_run_starts_with_collection_paused_and_then_resumes_it(monkeypatch) -> None:
    import rig.commands.run as run_command

    seen = []
    monkeypatch.setattr(run_command, "run", lambda args: seen.append(gc.isenabled()) or 0)
    assert main(["run"]) == 0
    assert seen == [False] and gc.isenabled()


def test_a_start_that_fails_before_ready_resumes_collection(tmp_path) -> None:
    assert main(["run", "--config", str(tmp_path / "missing.toml")]) == 78
    assert gc.isenabled()


def test_other_commands_collect_as_usual(monkeypatch, capsys) -> None:
    import rig.commands.config as config_command

    seen = []
    monkeypatch.setattr(config_command, "run", lambda args: seen.append(gc.isenabled()) or 0)
    assert main(["config", "check"]) == 0
    assert seen == [True]


def test_the_daemon_freezes_what_start_up_made_and_collects_after_ready(tmp_path) -> None:
    rig = DeskRig(config=desk_config(GameConfig(players=2), tmp_path), seed=1, signals=False)
    assert collector.pause()
    try:
        rig.start()
        assert gc.isenabled() and gc.get_freeze_count() > 10_000
    finally:
        rig.stop()


def test_a_collector_paused_by_someone_else_is_not_paused_again() -> None:
    gc.disable()
    assert collector.pause() is False
