"""Faults the rig survives: power cuts, a display off the bus, a read-only state dir."""

from __future__ import annotations

import random

from hardware.clock import FakeClock
from hardware.display.oled import OledDisplay
from rig.core.app import App
from rig.core.autopilot import gestures_for
from rig.core.controller import Controller
from rig.core.session import Session
from rig.core.setup_menu import SetupChoice
from rig.desktop.emulated import new_emulated_rig
from rig.screens.render import render
from tests.rig.drive import advance_to_choice


def test_a_resumed_game_says_so_and_waits_on_the_same_prompt(tmp_path):
    journal = tmp_path / "current.jsonl"
    rig = new_emulated_rig("tenfour", 4, seed=21, journal=journal)
    rng = random.Random(21)
    for _ in range(40):
        for gesture in gestures_for(rig.controller, rng):
            rig.loop.step(gesture)
            rig.settle()
    prompt = rig.session.state.prompt()
    rig.session.close()  # the plug is pulled: nothing else is written
    with journal.open("ab") as torn:
        torn.write(b'{"seq": 99, "act')  # a half-written line
    resumed = Session.resume(journal)
    controller = Controller(resumed, clock=FakeClock())
    text = controller.screen().plain()
    assert f"Resumed game at step {rig.session.steps}" in text
    assert "torn last input dropped" in text
    assert resumed.state.prompt() == prompt
    assert resumed.state == rig.session.state


class _FlakyDevice:
    """A luma device whose I2C bus drops out for a while (errno 121)."""

    def __init__(self, failures: list[bool]) -> None:
        self.failures = failures
        self.persist = False
        self.frames = 0

    def display(self, image) -> None:
        if self.failures and self.failures.pop(0):
            raise OSError(121, "Remote I/O error")
        self.frames += 1

    def cleanup(self) -> None:
        pass


def test_the_game_goes_on_while_the_display_is_off_the_bus():
    device = _FlakyDevice([False] + [True] * 5)
    clock = FakeClock()
    display = OledDisplay(lambda: device, clock=clock, backoff_initial=0.001,
                          backoff_max=0.001)
    rig = new_emulated_rig("bumpem", 2, seed=22, draw=lambda s: display.show(render(s)))
    rig.clock = clock
    rng = random.Random(22)
    for _ in range(60):
        for gesture in gestures_for(rig.controller, rng):
            rig.loop.step(gesture)
            clock.advance(0.01)
            display.poll()
    assert rig.session.steps > 20, "inputs kept being accepted"
    assert display.stats.errors >= 1
    assert device.frames > 1, "the display came back and shows the game again"


def test_a_read_only_state_directory_refuses_to_start_with_a_message(tmp_path):
    def start(choice: SetupChoice) -> Controller:
        raise PermissionError(13, "Permission denied", str(tmp_path / "current.jsonl"))

    app = App(start_game=start, finish_game=lambda c: None)
    from hardware.events import KnobPress, KnobTurn

    app.handle(KnobTurn("hi", -1))  # to START
    app.handle(KnobPress("hi"))
    assert app.controller is None
    assert "Cannot start" in app.screen().plain()
    assert "Permission denied" in app.screen().plain()


def test_a_hint_marks_the_strong_choice_for_a_person():
    from rig.core.controller import Seat

    seats = [Seat(level="hint", chooser=lambda state, legal: legal[-1]) for _ in range(2)]
    rig = new_emulated_rig("bumpem", 2, seed=23, seats=seats)
    advance_to_choice(rig, random.Random(23))
    screen = rig.screen
    assert screen.menu[-1].startswith("* ")
    assert screen.cursor == len(screen.menu) - 1
    assert "CPU" not in screen.plain()
