"""The next frame is rendered while the input's fsync runs, and shown only after it.

A stand-in for the ``os`` module that ``rig.core.journal`` sees records when each fsync
starts and finishes (and can hold it until the frame has been rendered, or make it
fail); the loop's render and show record when they run. Durability is unchanged: no
frame, buzzer or game over reaches the table before the input it shows is on disk, and
an input whose fsync fails is taken back and refused.
"""

from __future__ import annotations

import errno
import os
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import rig.core.journal as journal_module
from hardware.events import KnobPress
from rig.core.autopilot import gestures_for
from rig.core.session import Session
from rig.desktop.emulated import EmulatedRig
from rig.gamebuild import build_game
from rig.screens.screen import Screen
from tests.slowdown import hang


class RecordingOs:
    """``os`` with a recorded (and steerable) fsync and fdatasync (both logged as
    "fsync"); everything else passes through."""

    def __init__(self, log: list[str]) -> None:
        self.log = log
        self.hold_until: threading.Event | None = None
        self.fail = 0
        """How many fsyncs from now fail (the append's; the roll-back's then works)."""
        self.threads: set[str] = set()

    def __getattr__(self, name: str) -> Any:
        return getattr(os, name)

    def fsync(self, fd: int) -> None:
        self._sync(os.fsync, fd)

    def fdatasync(self, fd: int) -> None:
        """The journal's appends make their lines durable with this (no size change)."""
        self._sync(os.fdatasync, fd)

    def _sync(self, real: Any, fd: int) -> None:
        self.log.append("fsync-start")
        self.threads.add(threading.current_thread().name)
        if self.hold_until is not None:
            assert self.hold_until.wait(hang()), "the frame was not rendered during the fsync"
        if self.fail:
            self.fail -= 1
            self.log.append("fsync-failed")
            raise OSError(errno.EIO, "Input/output error")
        real(fd)
        self.log.append("fsync-done")


@pytest.fixture
def log() -> list[str]:
    return []


@pytest.fixture
def fake_os(log: list[str], monkeypatch: pytest.MonkeyPatch) -> Iterator[RecordingOs]:
    stand_in = RecordingOs(log)
    monkeypatch.setattr(journal_module, "os", stand_in)
    yield stand_in


def overlapping_rig(tmp_path: Path, log: list[str], game: str = "tenfour",
                    players: int = 2) -> tuple[EmulatedRig, list[Screen]]:
    shown: list[Screen] = []

    def render(screen: Screen) -> Screen:
        log.append("render")
        return screen

    def show(frame: Screen) -> None:
        log.append("show")
        shown.append(frame)

    session = Session.start(build_game(game, players=players), tmp_path / "current.jsonl",
                            {"created": "test"})
    rig = EmulatedRig(session=session, seed=3, render=render, show=show, virtual_deck=True)
    log.clear()
    return rig, shown


def test_the_frame_is_rendered_during_the_fsync_and_shown_after_it(
        tmp_path: Path, log: list[str], fake_os: RecordingOs) -> None:
    rig, shown = overlapping_rig(tmp_path, log)
    fake_os.threads.clear()  # creating the journal fsyncs on this thread, as it must
    rendered = threading.Event()
    fake_os.hold_until = rendered  # the fsync cannot finish before the frame is rendered
    original_render = rig.render
    assert original_render is not None

    def render_then_release(screen: Screen) -> Screen:
        frame = original_render(screen)
        rendered.set()
        return frame

    rig.render = render_then_release
    steps = rig.session.steps
    rig.loop.step(KnobPress("hi"))  # a virtual draw: one journaled input
    assert rig.session.steps == steps + 1
    # the helper thread may log its start before or after the render begins
    assert sorted(log) == ["fsync-done", "fsync-start", "render", "show"]
    assert log.index("render") < log.index("fsync-done") < log.index("show")
    assert fake_os.threads == {"journal-fsync"}  # not the loop's thread
    assert shown[-1] == rig.controller.screen()
    assert len(rig.session.journal.entries) == steps + 1  # type: ignore[union-attr]


def test_no_frame_is_shown_before_its_fsync_in_a_whole_game(
        tmp_path: Path, log: list[str], fake_os: RecordingOs) -> None:
    rig, shown = overlapping_rig(tmp_path, log, "bumpem", 3)
    rng = random.Random(5)
    alerts: list[int] = []
    rig.controller.on_alert = lambda notice: (log.append("alert"), alerts.append(1))
    while not rig.session.state.is_terminal():
        for gesture in gestures_for(rig.controller, rng):
            rig.loop.step(gesture)
            rig.settle()
    starts = log.count("fsync-start")
    assert starts == log.count("fsync-done") == rig.session.steps > 50
    # every show and every alert comes after all the fsyncs started before it are done
    open_syncs = 0
    for entry in log:
        if entry == "fsync-start":
            open_syncs += 1
        elif entry == "fsync-done":
            open_syncs -= 1
        elif entry in ("show", "alert"):
            assert open_syncs == 0, entry
    assert len(shown) > 50
    # the header and one line an input, then the journal's zero-filled tail
    assert (tmp_path / "current.jsonl").read_bytes().count(b"\n") == rig.session.steps + 1


def test_a_failed_fsync_takes_the_input_back_and_refuses_it(
        tmp_path: Path, log: list[str], fake_os: RecordingOs) -> None:
    rig, shown = overlapping_rig(tmp_path, log)
    before_state = rig.session.state.to_json()  # type: ignore[attr-defined]
    before_steps = rig.session.steps
    before_lines = (tmp_path / "current.jsonl").read_bytes().rstrip(b"\0")
    fired: list[str] = []
    rig.controller.on_alert = lambda notice: fired.append("alert")
    fake_os.fail = 1
    rig.loop.step(KnobPress("hi"))
    # rendered from the accepted input, not shown; the refusal rendered and shown
    assert log.count("render") == 2 and log.count("show") == 1 and log[-1] == "show"
    assert log.index("fsync-failed") < log.index("show")
    assert "NOT SAVED" in shown[-1].text()  # the table sees the refusal, not the input
    assert rig.session.steps == before_steps
    assert rig.session.state.to_json() == before_state  # type: ignore[attr-defined]
    assert (tmp_path / "current.jsonl").read_bytes() == before_lines  # rolled back
    assert fired == []
    # the disk recovers: the same input now goes through
    log.clear()
    rig.loop.step(KnobPress("hi"))
    assert rig.session.steps == before_steps + 1
    # shown last, after every sync it started (the roll-back cut the journal's zero tail,
    # so this append first grows it with a full fsync, then syncs its line); whether the
    # line's sync ends before or after the render is the disk's affair
    assert log[-1] == "show" and "fsync-failed" not in log
    assert log.count("fsync-start") == log.count("fsync-done") == 2
