"""The daemon speaks every frame's utterance (through a recording backend here), the
setup menu switches the voice and its volume, and a lost device is one log line and
"no sound" on the screen while the game goes on."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from hardware.events import KnobPress, KnobTurn
from hardware.speaker import MockBackend
from rig.config import load_config
from rig.core.daemon import Daemon
from rig.core.service import QuietNotifier
from tests.daemon.helpers import write_config
from tests.slowdown import hang
from tests.system_tools import require_commands


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[tuple[Daemon, MockBackend]]:
    require_commands({"espeak-ng": "espeak-ng", "sox": "sox"})
    config = load_config(write_config(tmp_path, game="bumpem", players=2))
    backend = MockBackend()
    daemon = Daemon(config=config, notifier=QuietNotifier(), sound_backend=backend)
    daemon.start()
    yield daemon, backend
    daemon.stop()


def select(daemon: Daemon, label: str) -> None:
    assert daemon.app is not None and daemon.loop is not None
    items = daemon.app.screen().menu
    row = next(i for i, item in enumerate(items) if item.startswith(label))
    daemon.loop.step(KnobTurn("hi", row - daemon.app.screen().cursor))
    daemon.loop.step(KnobPress("hi"))


def settle(daemon: Daemon) -> None:
    """Wait for the voice's worker, then handle what it posted (a fault, a recovery);
    the screen has been seen by then (the double-press guard is over: issue 43)."""
    assert daemon.narrator is not None and daemon.loop is not None
    assert daemon.narrator.idle.wait(hang()) and daemon.narrator.speaker.idle.wait(hang())
    while not daemon.loop.events.empty():
        daemon.loop.step(daemon.loop.events.get_nowait())
    controller = daemon.app.controller if daemon.app is not None else None
    if controller is not None:
        controller.face.settled_at = None


def test_the_game_is_spoken_and_the_menu_switches_the_voice(
        rig: tuple[Daemon, MockBackend]) -> None:
    daemon, backend = rig
    assert daemon.app is not None
    menu = daemon.app.screen().menu
    assert "Voice: on" in menu and "Volume: 80%" in menu
    select(daemon, "Volume")
    assert "Volume: 100%" in daemon.app.screen().menu
    select(daemon, "START")
    settle(daemon)
    assert daemon.loop is not None
    assert [p.key for p in backend.played] == ["Red: take a ticket."]
    assert backend.played[0].finished and backend.played[0].seconds > 1.0
    daemon.loop.step(KnobPress("hi"))  # a ticket: a result or a choice, said
    settle(daemon)
    assert len(backend.played) == 2 and backend.played[1].key.startswith("Red dr")
    kept = (daemon.config.state.directory / "voice.conf").read_text()
    assert kept == "enabled = true\nvolume = 100\n"


def test_voice_off_on_the_menu_is_silence(rig: tuple[Daemon, MockBackend]) -> None:
    daemon, backend = rig
    select(daemon, "Voice")
    assert daemon.app is not None and "Voice: off" in daemon.app.screen().menu
    select(daemon, "START")
    settle(daemon)
    assert backend.played == []


def test_a_lost_device_is_one_line_and_a_note_on_screen(
        rig: tuple[Daemon, MockBackend], caplog: pytest.LogCaptureFixture) -> None:
    daemon, backend = rig
    assert daemon.loop is not None
    backend.fail = "device vanished"
    with caplog.at_level(logging.WARNING):
        select(daemon, "START")
        settle(daemon)
        assert daemon.app is not None
        assert "no sound" in daemon.app.screen().title + daemon.app.screen().plain()
        daemon.loop.step(KnobPress("hi"))  # the game goes on
        settle(daemon)
    assert [r.message for r in caplog.records if "no sound" in r.message] == [
        "voice: no sound (device vanished); the game goes on silently"]
    backend.fail = None
    daemon.loop.step(KnobPress("hi"))
    settle(daemon)
    assert "no sound" not in daemon.app.screen().plain()


def test_the_desk_says_once_where_the_voice_is_heard(tmp_path: Path) -> None:
    """The terminal emulator's greeting: the host's sound output, or that there is none
    (this test machine has no sound card unless /dev/snd says otherwise)."""
    from rig.config import GameConfig
    from rig.desktop.desk import DeskRig, desk_config, start_desk
    from rig.voice.narrator import sound_card_present

    rig = DeskRig(config=desk_config(GameConfig(players=2), tmp_path), signals=False)
    greeting = start_desk(rig, new=False)
    try:
        if sound_card_present():
            assert greeting.endswith("Voice: speaking on the default sound output.")
        else:
            assert greeting.endswith("Voice: no sound output here, the rig is silent.")
            assert rig.daemon.narrator is None
    finally:
        rig.stop()
