"""I2C bus traffic per frame: what the OLED driver sends, counted on a fake bus.

Seeded games of 10-Four (4 players) and Bump 'Em (3 players) are played through an
:class:`rig.desktop.emulated.EmulatedRig` by the autopilot (the gestures a table makes); every
frame is drawn with :func:`rig.screens.render.render` onto an :class:`hardware.display.
OledDisplay` whose luma driver (the real ``ssd1306`` or ``sh1106`` class and luma's real
``i2c`` interface) writes to :class:`hardware.display.fakebus.FakeSmbus2`, once per
controller. Each write transfer is counted as on the wire: start, the address byte, the
control byte and the payload at 9 bits a byte (8 + acknowledge), stop; bus time is bits
divided by the clock (100 kHz, 400 kHz, 1 MHz), a lower bound (no clock stretching, no
gaps between transfers). A frame is counted by what caused it: the input (turn, press,
spin, card_presented), a spin-animation tick (spin_tick), or what follows by itself
(settle: the spin's result, the computer's choice); and by the screen kind drawn. The
decoded panel is checked against the rendered frame after every frame. The whole frame
(bus_full_frame) is what luma's own ``display`` sends for any change, and what the rig
sent before partial updates.
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

from bench import progress
from bench.frames import screen_kind
from bench.latency import event_kind
from bench.stats import percentile, rnd
from rig.registry import entries

CLOCKS_HZ = {"100kHz": 100_000, "400kHz": 400_000, "1MHz": 1_000_000}
DRIVERS = ("ssd1306", "sh1106")
GAMES = tuple((game.name, game.bench.bus_players) for game in entries()
              if game.bench.bus_players is not None)
"""(game, players) the bus bench draws: the registry's bus cases."""
INPUT_KINDS = ("turn", "press", "spin", "card_presented")
METHOD = __doc__.strip().replace("\n", " ") if __doc__ else ""


class _Recorder:
    """Draws every screen on the OLED and files the transfers of each frame."""

    def __init__(self, driver: str) -> None:
        from hardware.display import OledDisplay, i2c_device_factory
        from hardware.display.fakebus import FakeSmbus2, fake_bus

        self.driver = driver
        self.bus = fake_bus(driver)
        self.display = OledDisplay(i2c_device_factory(driver, smbus=FakeSmbus2(self.bus)))
        self.cause = "start"
        self.controller: Any = None
        self.rows: list[tuple[str, str, str, int, int]] = []
        """(game, cause, screen kind, bits, bytes on the wire) per frame."""
        self.game = ""
        self.mismatches = 0

    def draw(self, screen: Any) -> None:
        from rig.screens.render import render

        frame = render(screen)
        self.bus.take()
        if not self.display.show(frame):
            return
        transfers = self.bus.take()
        if self.bus.image().tobytes() != frame.tobytes():
            self.mismatches += 1
        cause = self.cause
        if cause == "settle" and self.controller is not None \
                and self.controller.animation is not None:
            cause = "spin_tick"
        kind = screen_kind(self.controller, screen) if self.controller else "setup_menu"
        self.rows.append((self.game, cause, kind or "other",
                          sum(t.bits for t in transfers),
                          sum(1 + len(t.payload) for t in transfers)))


def _play(recorder: _Recorder, game: str, players: int, seed: int) -> None:
    from rig.core.autopilot import gestures_for
    from rig.desktop.emulated import new_emulated_rig

    recorder.game, recorder.cause, recorder.controller = game, "start", None
    rig = new_emulated_rig(game, players, seed=seed, draw=recorder.draw)
    recorder.controller = rig.controller
    rng = random.Random(f"bench-bus:{game}:{seed}")
    steps = 0
    while not rig.session.state.is_terminal():
        for gesture in gestures_for(rig.controller, rng):
            recorder.cause = event_kind(gesture)
            rig.loop.step(gesture)
            recorder.cause = "settle"
            rig.settle()
            steps += 1
        progress.tick("  bus: %s, %s %dp seed %d, input %d", recorder.driver, game, players,
                      seed, steps)
        if steps > 50_000:
            raise RuntimeError("the game did not end")


def _times(bits: float) -> dict[str, float]:
    return {name: rnd(1000 * bits / hz) for name, hz in CLOCKS_HZ.items()}


def _block(rows: list[tuple[str, str, str, int, int]], full_bits: int) -> dict[str, Any]:
    """Bytes, bits, share of a whole frame and bus ms (from the median bits) of rows."""
    bits = [r[3] for r in rows]
    wire = [r[4] for r in rows]
    return {
        "n": len(rows),
        "bytes_p50": rnd(percentile(wire, 50)),
        "bytes_p90": rnd(percentile(wire, 90)),
        "bytes_max": max(wire),
        "bits_p50": rnd(percentile(bits, 50)),
        "share_of_full_frame_p50": rnd(percentile(bits, 50) / full_bits),
        "share_of_full_frame_p90": rnd(percentile(bits, 90) / full_bits),
        "share_of_full_frame_max": rnd(max(bits) / full_bits),
        "ms_p50": _times(percentile(bits, 50)),
        "ms_max": _times(max(bits)),
    }


def _full_frame(driver: str) -> dict[str, Any]:
    from hardware.display.pages import ADDRESSING, FULL_WINDOW, luma_frame_bits

    addressing = ADDRESSING[driver]
    windows = addressing.full()
    bits = luma_frame_bits(addressing)
    wire = sum(2 + len(addressing.commands(w)) + 2 + w.size for w in windows)
    return {"bytes": wire, "bits": bits, "data_bytes": FULL_WINDOW.size, "ms": _times(bits)}


def measure(quick: bool) -> dict[str, Any]:
    seeds = range(1) if quick else range(3)
    full: dict[str, Any] = {}
    per_input: dict[str, Any] = {}
    per_screen: dict[str, Any] = {}
    per_game: dict[str, Any] = {}
    inputs_share: dict[str, float] = {}
    tick_share: dict[str, float] = {}
    mismatches = 0
    frames = 0
    for driver in DRIVERS:
        progress.say(f"  bus: {driver}, {len(GAMES) * len(seeds)} games")
        recorder = _Recorder(driver)
        for game, players in GAMES:
            for seed in seeds:
                _play(recorder, game, players, seed)
        mismatches += recorder.mismatches
        rows = [r for r in recorder.rows if r[1] != "start"]
        frames += len(rows)
        full[driver] = _full_frame(driver)
        full_bits = full[driver]["bits"]
        by_cause: dict[str, list[Any]] = defaultdict(list)
        by_screen: dict[str, list[Any]] = defaultdict(list)
        by_game: dict[str, list[Any]] = defaultdict(list)
        for row in rows:
            by_cause[row[1]].append(row)
            by_screen[row[2]].append(row)
            if row[1] in INPUT_KINDS:
                by_game[row[0]].append(row)
        inputs = [r for r in rows if r[1] in INPUT_KINDS]
        per_input[driver] = {"all_inputs": _block(inputs, full_bits),
                             **{k: _block(v, full_bits) for k, v in sorted(by_cause.items())}}
        per_screen[driver] = {k: _block(v, full_bits) for k, v in sorted(by_screen.items())}
        per_game[driver] = {k: _block(v, full_bits) for k, v in sorted(by_game.items())}
        inputs_share[driver] = per_input[driver]["all_inputs"]["share_of_full_frame_p50"]
        ticks = by_cause.get("spin_tick", [])
        tick_share[driver] = rnd(max(r[3] for r in ticks) / full_bits) if ticks else 0.0
    return {
        "bus_full_frame": full,
        "bus_per_input": per_input,
        "bus_per_screen_kind": per_screen,
        "bus_inputs_per_game": per_game,
        "bus_input_share_of_full_frame_p50": max(inputs_share.values()),
        "bus_spin_tick_share_of_full_frame_max": max(tick_share.values()),
        "bus_frames": frames,
        "bus_panel_mismatches": mismatches,
        "bus_games": {game: len(seeds) for game, _ in GAMES},
    }
