"""Whole seeded games of both games drawn on an OLED on the fake I2C bus: after every
frame (each input, each spin-animation frame, each computer choice), what the decoded
panel shows is the frame the rig rendered; also with the bus failing part-way through
writes now and then."""

from __future__ import annotations

import random
from typing import Any

import pytest

from hardware.clock import FakeClock
from hardware.display import OledDisplay, i2c_device_factory
from hardware.display.fakebus import FakeBus, FakeSmbus2, bits_of, fake_bus
from hardware.display.pages import ADDRESSING, luma_frame_bits
from rig.core.autopilot import gestures_for
from rig.desktop.emulated import new_emulated_rig
from rig.screens.render import render

GAMES = (("tenfour", 4), ("bumpem", 3))


class PanelCheck:
    """Draws each screen on the OLED and remembers the frame the panel should show."""

    def __init__(self, driver: str, faults: random.Random | None = None,
                 nibbles_edit_pointer: bool = False) -> None:
        self.bus: FakeBus = fake_bus(driver, nibbles_edit_pointer=nibbles_edit_pointer)
        self.clock = FakeClock()
        self.display = OledDisplay(i2c_device_factory(driver, smbus=FakeSmbus2(self.bus)),
                                   clock=self.clock, backoff_initial=0.5)
        self.faults = faults
        self.wanted: bytes | None = None
        self.frames = 0
        self.failures = 0
        self.bits: list[int] = []

    def draw(self, screen: Any) -> None:
        frame = render(screen)
        self.wanted = frame.tobytes()
        if self.faults is not None and self.faults.random() < 0.05:
            self.bus.fail_after = self.faults.randrange(0, 200)
        self.display.show(frame)
        self.bits.append(bits_of(self.bus.take()))
        if not self.display.ok:  # failed part-way: let the backoff pass and recover
            self.failures += 1
            self.bus.fail_after = None
            self.clock.advance(1.0)
            assert self.display.poll() is True
        self.frames += 1
        self.check()

    def check(self) -> None:
        assert self.wanted is not None
        assert self.bus.image().tobytes() == self.wanted


def play(game: str, players: int, seed: int, check: PanelCheck) -> None:
    rig = new_emulated_rig(game, players, seed=seed, draw=check.draw)
    rng = random.Random(f"bus-game:{seed}")
    inputs = 0
    while not rig.session.state.is_terminal():
        for gesture in gestures_for(rig.controller, rng):
            rig.loop.step(gesture)
            check.check()
            inputs += 1
            rig.settle()  # every animation frame and the computer's choice: drawn, checked
        assert inputs < 20_000


@pytest.mark.parametrize("nibbles_edit_pointer", [False, True])
@pytest.mark.parametrize("driver", ("ssd1306", "sh1106"))
@pytest.mark.parametrize(("game", "players"), GAMES)
def test_the_panel_equals_every_frame_of_seeded_games(driver: str, game: str, players: int,
                                                      nibbles_edit_pointer: bool) -> None:
    """Under both readings of a lone column nibble command (see fakebus.Panel)."""
    check = PanelCheck(driver, nibbles_edit_pointer=nibbles_edit_pointer)
    play(game, players, 1, check)
    assert check.frames > 100
    full = luma_frame_bits(ADDRESSING[driver])
    partial = check.bits[1:]  # after the first, whole, frame
    assert max(partial) <= full
    assert sum(partial) < 0.7 * len(partial) * full


@pytest.mark.parametrize("driver", ("ssd1306", "sh1106"))
@pytest.mark.parametrize(("game", "players"), GAMES)
def test_the_panel_is_repaired_after_bus_errors_mid_game(driver: str, game: str,
                                                         players: int) -> None:
    check = PanelCheck(driver, faults=random.Random(f"faults:{game}:{driver}"))
    play(game, players, 7, check)
    assert check.failures >= 3
