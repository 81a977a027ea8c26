"""Abandoning a game (RULINGS G7): from the correction menu, confirmed, journaled as an
input, archived like a finished game (never deleted), back to the setup menu; a rig that
stops between the journal line and the filing files it at the next start."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from hardware.events import KnobLongPress, KnobPress, KnobTurn
from rig.config import load_config
from rig.core.app import App
from rig.core.autopilot import gestures_for
from rig.core.daemon import Daemon
from rig.core.filing import archive_name
from rig.core.journalread import read_journal
from rig.core.loop import Tick
from rig.core.replay import ReplayError, effective_inputs, replay
from rig.core.setup_menu import SetupChoice
from tests.daemon.helpers import Quiet, write_config

ABANDON_ROW = "Abandon this game"


def _rig(tmp_path: Path, game: str, players: int, seed: int = 3) -> tuple[Daemon, App]:
    config = load_config(write_config(tmp_path, game=game, players=players))
    config.state.directory.mkdir(parents=True)
    daemon = Daemon(config=config, notifier=Quiet())
    controller = daemon._start_game(SetupChoice(game=game, players=players,
                                                levels=("human",) * players, hints=False))
    daemon.app = App(daemon._start_game, daemon._finish_game, controller=controller,
                     defaults=daemon._defaults())
    rng = random.Random(seed)
    controller.chance.rng = random.Random(seed)  # the draws, seeded
    controller.on_alert = None  # no buzzer here
    while controller.session.steps < 8:
        for gesture in gestures_for(controller, rng):
            daemon.app.handle(gesture)
            controller.face.settled_at = None  # a robot has seen the new screen (issue 43)
            daemon.app.handle(Tick())
    return daemon, daemon.app


def _to_row(app: App, words: str) -> None:
    """Turn the open menu to the row that starts with ``words``."""
    screen = app.screen()
    index = next(i for i, item in enumerate(screen.menu) if item.startswith(words))
    app.handle(KnobTurn("hi", index - screen.cursor))


@pytest.mark.parametrize(("game", "players"), [("tenfour", 2), ("tenfour", 3),
                                               ("bumpem", 2), ("bumpem", 4)])
def test_abandoning_is_confirmed_journaled_archived_and_back_at_the_setup_menu(
        tmp_path, game, players):
    daemon, app = _rig(tmp_path, game, players)
    controller = app.controller
    assert controller is not None
    state = controller.session.state.clone()
    current = daemon.config.state.current
    header = read_journal(current).header
    app.handle(KnobLongPress("hi"))
    _to_row(app, ABANDON_ROW)
    app.handle(KnobPress("hi"))
    confirm = app.screen()
    assert "Abandon this game?" in confirm.plain()
    assert confirm.menu[confirm.cursor] == "Back", "the confirmation starts on Back"
    app.handle(KnobPress("hi"))  # Back: nothing abandoned
    assert app.controller is controller and current.exists()
    _to_row(app, ABANDON_ROW)
    app.handle(KnobPress("hi"))
    _to_row(app, "Yes")
    app.handle(KnobPress("hi"))
    assert app.controller is None and app.menu is not None
    screen = app.screen()
    assert screen.title == "NEW GAME"
    assert "abandoned" in screen.plain().lower() and "filed" in screen.plain().lower()
    assert not current.exists()
    filed = list(daemon.config.state.games.iterdir())
    assert [p.name for p in filed] == ["000001-" + archive_name(header)], \
        "filed like a finished game"
    contents = read_journal(filed[0])
    assert contents.entries[-1] == {"kind": "abandon"}
    _, replayed = replay(contents.header, contents.entries)
    assert replayed == state, "the abandoned game replays to where it was left"


def test_a_game_abandoned_just_before_a_power_cut_is_filed_at_the_next_start(tmp_path):
    daemon, app = _rig(tmp_path, "bumpem", 2)
    controller = app.controller
    assert controller is not None
    controller.session.abandon()  # the journal line is written, the filing never ran
    controller.session.close()
    again = Daemon(config=daemon.config, notifier=Quiet())
    assert again._resume() is None, "an abandoned game is not resumed"
    assert not daemon.config.state.current.exists()
    assert len(list(daemon.config.state.games.iterdir())) == 1


def test_nothing_may_follow_an_abandon_in_a_journal():
    entries: list[dict[str, Any]] = [{"kind": "draw"}, {"kind": "abandon"}, {"kind": "x"}]
    with pytest.raises(ReplayError, match=r"line 4: .*abandoned"):
        effective_inputs(entries)
    assert effective_inputs(entries[:2]) == [(2, entries[0])]


def test_replay_reads_an_abandoned_game(tmp_path, capsys):
    import argparse

    from rig.commands.replay import run

    daemon, app = _rig(tmp_path, "tenfour", 3)
    controller = app.controller
    assert controller is not None
    steps = len(controller.session.history)
    controller.session.abandon()
    controller.session.close()
    assert run(argparse.Namespace(file=daemon.config.state.current, json=False,
                                  steps=False)) == 0
    out = capsys.readouterr().out
    assert f"{steps + 1} inputs replayed" in out and "abandoned" in out
    assert "line" in out and "the table abandoned the game here" in out


@pytest.mark.parametrize("game", ["tenfour", "bumpem"])
def test_an_emulated_rig_says_the_game_was_abandoned_and_takes_no_more_input(game):
    from rig.desktop.emulated import new_emulated_rig

    rig = new_emulated_rig(game, 3, seed=2)
    rig.hold()
    _to_row_rig(rig, ABANDON_ROW)
    rig.press()
    _to_row_rig(rig, "Yes")
    rig.press()
    assert rig.session.abandoned
    screen = rig.screen
    assert screen.title == "GAME ABANDONED" and "filed" in screen.plain()
    steps = rig.session.steps
    rig.press()
    rig.hold()
    assert rig.session.steps == steps and rig.controller.correction is None
    assert "long press for a new game" in rig.screen.plain()


def _to_row_rig(rig: Any, words: str) -> None:
    screen = rig.screen
    index = next(i for i, item in enumerate(screen.menu) if item.startswith(words))
    rig.turn("hi", index - screen.cursor)
