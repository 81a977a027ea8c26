"""The OLED on a fake I2C bus: luma's real drivers and interface write bytes, a model of
each controller's memory decodes them, and the decoded panel must equal the frame.

Covers the page packing, the SSD1306 and SH1106 addressing, partial updates (only the
changed pages and columns, fewer bits than a whole frame), repair after a write that
fails part-way, and the retry loop leaving no descriptor, atexit hook or half-built
device behind when the panel is unplugged (issue 13, fault 8).
"""

from __future__ import annotations

import atexit
import gc
import os
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PIL import Image

from hardware.clock import FakeClock
from hardware.display import OledDisplay, draw_text, i2c_device_factory, new_frame
from hardware.display.fakebus import FakeBus, FakeSmbus2, Transfer, bits_of, fake_bus
from hardware.display.pages import (
    ADDRESSING,
    ALWAYS_JOINED_GAP,
    FRAME_BYTES,
    Window,
    frame_pages,
    luma_frame_bits,
    pages_image,
    plan,
    plan_bits,
)
from hardware.events import DisplayStatus, HardwareEvent

DRIVERS = ("ssd1306", "sh1106")


def random_frame(rng: random.Random) -> Image.Image:
    return Image.frombytes("1", (128, 64), bytes(rng.getrandbits(8) for _ in range(1024)))


def edited(frame: Image.Image, rng: random.Random) -> Image.Image:
    """A copy with a few random text blocks or boxes drawn or erased."""
    out = frame.copy()
    for _ in range(rng.randint(1, 3)):
        x, y = rng.randrange(128), rng.randrange(64)
        if rng.random() < 0.5:
            draw_text(out, (x, y), rng.choice(["7", "MOVE 9", "R13", "*"]),
                      fill=rng.choice([0, 255]))
        else:
            w, h = rng.randint(1, 40), rng.randint(1, 20)
            out.paste(rng.choice([0, 255]), (x, y, min(128, x + w), min(64, y + h)))
    return out


def display_on(bus: FakeBus, clock: Any = None, emit: Any = None) -> OledDisplay:
    return OledDisplay(i2c_device_factory(bus.panel.__class__.__name__[:-5].lower(),
                                          smbus=FakeSmbus2(bus)),
                       emit, clock=clock or FakeClock(), backoff_initial=1.0)


def shown(bus: FakeBus) -> bytes:
    return bus.image().tobytes()


# -- packing and the decoders ------------------------------------------------------------


def test_page_packing_round_trips_and_matches_luma() -> None:
    rng = random.Random(1)
    for _ in range(20):
        frame = random_frame(rng)
        assert pages_image(frame_pages(frame)).tobytes() == frame.tobytes()
    frame = new_frame()
    frame.putpixel((5, 9), 1)  # page 1, bit 1 of column 5
    pages = frame_pages(frame)
    assert pages[1][5] == 0b10 and sum(map(sum, pages)) == 2


@pytest.mark.parametrize("driver", DRIVERS)
def test_luma_whole_frames_decode_to_the_frame(driver: str) -> None:
    """luma's own ``display`` (not ours) through the decoder: the decoder is right."""
    bus = fake_bus(driver)
    device: Any = i2c_device_factory(driver, smbus=FakeSmbus2(bus))()
    assert bus.panel.display_on and shown(bus) == new_frame().tobytes()  # luma clears
    rng = random.Random(driver)
    for _ in range(5):
        frame = random_frame(rng)
        device.display(frame)
        assert shown(bus) == frame.tobytes()


def test_controllers_are_addressed_their_own_way() -> None:
    frame = new_frame()
    draw_text(frame, (40, 20), "X")  # columns 40-44, rows 20-26: pages 2 and 3
    expected = {
        # SSD1306: column range 40-44, page range 2-3, in one window
        "ssd1306": [bytes([0x00, 0x21, 40, 44, 0x22, 2, 3])],
        # SH1106: page 2 then page 3, column 42 = 40 + the 2-column offset: low nibble
        # 0x0A, high nibble 0x12; on page 3 the high nibble is already 2 (commanded 42,
        # pointer at 47), so only the low nibble is sent
        "sh1106": [bytes([0x00, 0xB2, 0x0A, 0x12]), bytes([0x00, 0xB3, 0x0A])],
    }
    for driver in DRIVERS:
        bus = fake_bus(driver)
        display = display_on(bus)
        assert display.show(new_frame()) is True  # first frame: whole
        assert bits_of(bus.take()) >= 9000
        assert display.show(frame) is True
        transfers = bus.take()
        commands = [t.payload for t in transfers if not t.is_data]
        assert commands == expected[driver]
        assert sum(len(t.payload) - 1 for t in transfers if t.is_data) == 10
        assert shown(bus) == frame.tobytes()
    # the SH1106 columns outside the 128 shown were never written
    assert all(row[0] == row[1] == row[130] == row[131] == 0 for row in bus.panel.ram)


# -- partial updates ---------------------------------------------------------------------


@pytest.mark.parametrize("nibbles_edit_pointer", [False, True])
@pytest.mark.parametrize("driver", DRIVERS)
def test_partial_updates_keep_the_panel_equal_to_every_frame(
        driver: str, nibbles_edit_pointer: bool) -> None:
    """Also when a lone column nibble command edits the moving pointer instead of the
    commanded column (the datasheets leave it open; the planner is right either way)."""
    bus = fake_bus(driver, nibbles_edit_pointer=nibbles_edit_pointer)
    display = display_on(bus)
    rng = random.Random(f"partial:{driver}")
    frame = new_frame()
    display.show(frame)
    bus.take()
    full_bits = luma_frame_bits(ADDRESSING[driver])
    for _ in range(300):
        frame = edited(frame, rng) if rng.random() < 0.95 else random_frame(rng)
        sent = display.show(frame)
        bits = bits_of(bus.take())
        assert shown(bus) == frame.tobytes()
        assert bits <= full_bits and (bits > 0) == sent


@pytest.mark.parametrize("driver", DRIVERS)
def test_plan_covers_every_change_and_never_costs_more_than_a_whole_frame(
        driver: str) -> None:
    addressing = ADDRESSING[driver]
    rng = random.Random(f"plan:{driver}")
    full = luma_frame_bits(addressing)
    for _ in range(200):
        old = random_frame(rng) if rng.random() < 0.3 else new_frame()
        new = edited(old, rng)
        old_pages, new_pages = frame_pages(old), frame_pages(new)
        windows = plan(old_pages, new_pages, addressing)
        panel = [bytearray(p) for p in old_pages]
        for w in windows:
            assert isinstance(w, Window)
            assert addressing.multi_page or w.first_page == w.last_page
            data = w.data(new_pages)
            for i, page in enumerate(range(w.first_page, w.last_page + 1)):
                panel[page][w.first_column:w.last_column + 1] = \
                    data[i * w.columns:(i + 1) * w.columns]
        assert tuple(bytes(p) for p in panel) == new_pages
        assert sum(addressing.window_bits(w) for w in windows) <= full
        steps, _ = addressing.plan(old_pages, new_pages, addressing.after_reset())
        assert plan_bits(steps) <= full
    assert plan(frame_pages(new_frame()), frame_pages(new_frame()), addressing) == []
    assert addressing.plan(frame_pages(new_frame()), frame_pages(new_frame()))[0] == []


@pytest.mark.parametrize("driver", DRIVERS)
def test_shorter_commands_never_add_transfers(driver: str) -> None:
    """Only the address commands that change are sent, so a plan costs at most the
    bits of the same windows with luma's full commands, in no more transfers (each
    transfer has a fixed cost on a real bus beyond its bits)."""
    addressing = ADDRESSING[driver]
    rng = random.Random(f"shorter:{driver}")
    pointer = addressing.after_reset()
    frame = new_frame()
    old = None
    saved = 0
    for _ in range(300):
        frame = edited(frame, rng)
        new = frame_pages(frame)
        windows = plan(old, new, addressing)
        steps, pointer = addressing.plan(old, new, pointer)
        assert [s.window for s in steps] == windows
        assert sum(len(s.commands) <= addressing.command_bytes for s in steps) == len(steps)
        luma_bits = sum(addressing.window_bits(w) for w in windows)
        assert plan_bits(steps) <= luma_bits
        saved += luma_bits - plan_bits(steps)
        old = new
    assert saved > 0


def test_the_same_rectangle_again_needs_no_address_commands() -> None:
    """SSD1306: a window sent in full leaves the pointer at its own start, so toggling
    the same rectangle (a menu cursor moving back and forth) sends data only."""
    bus = fake_bus("ssd1306")
    display = display_on(bus)
    display.show(new_frame())
    lit = new_frame()
    lit.paste(255, (10, 8, 60, 24))  # pages 1-2, columns 10-59
    for frame in (lit, new_frame(), lit):
        bus.take()
        assert display.show(frame) is True
        assert shown(bus) == frame.tobytes()
    transfers = bus.take()
    assert [t.is_data for t in transfers] == [True]


def test_runs_joined_in_c_are_joined_by_every_planner() -> None:
    for addressing in ADDRESSING.values():
        assert addressing.overhead_bits // 9 >= ALWAYS_JOINED_GAP


def test_partial_off_sends_whole_frames() -> None:
    bus = fake_bus("ssd1306")
    display = OledDisplay(i2c_device_factory("ssd1306", smbus=FakeSmbus2(bus)), partial=False)
    a, b = new_frame(), new_frame()
    draw_text(b, (0, 0), "1")
    display.show(a)
    bus.take()
    display.show(b)
    assert sum(len(t.payload) - 1 for t in bus.take() if t.is_data) == FRAME_BYTES


# -- bus errors --------------------------------------------------------------------------


@pytest.mark.parametrize("driver", DRIVERS)
def test_a_write_failing_part_way_is_repaired_by_the_next_frame(driver: str) -> None:
    """A transfer stops after a random number of bytes (the bytes before reach the
    panel); the display reports the outage, and after the backoff the panel again
    equals the newest frame, whatever the failure left on it."""
    rng = random.Random(f"faults:{driver}")
    clock = FakeClock()
    events: list[HardwareEvent] = []
    bus = fake_bus(driver)
    display = display_on(bus, clock, events.append)
    frame = new_frame()
    display.show(frame)
    for _ in range(60):
        before, frame = frame, edited(frame, rng)
        if frame.tobytes() == before.tobytes():
            continue
        bus.fail_after = rng.randrange(0, 60)
        ok = display.show(frame)
        if ok:  # the failure point lay beyond this frame's bytes
            bus.fail_after = None
            assert shown(bus) == frame.tobytes()
            continue
        assert display.ok is False and isinstance(events[-1], DisplayStatus)
        if rng.random() < 0.5:  # a newer frame comes while the panel is down
            frame = edited(frame, rng)
            assert display.show(frame) is False
        clock.advance(60)
        assert display.poll() is True
        assert display.ok and events[-1] == DisplayStatus(True, "oled recovered")
        assert shown(bus) == frame.tobytes()
    assert display.stats.errors > 20


# -- fault 8: the retry loop leaks nothing -----------------------------------------------


def open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.fixture
def live_atexit_hooks(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[], int]]:
    """Counts hooks registered and not unregistered while the test runs
    (``atexit._ncallbacks`` does not go down on unregister)."""
    live: list[Any] = []
    real_register, real_unregister = atexit.register, atexit.unregister

    def register(func: Any, *args: Any, **kwargs: Any) -> Any:
        live.append(func)
        return real_register(func, *args, **kwargs)

    def unregister(func: Any) -> None:
        live[:] = [f for f in live if f != func]
        real_unregister(func)

    monkeypatch.setattr(atexit, "register", register)
    monkeypatch.setattr(atexit, "unregister", unregister)
    yield lambda: len(live)


def luma_devices_alive() -> int:
    from luma.core.device import device

    gc.collect()
    return sum(1 for obj in gc.get_objects() if isinstance(obj, device))


@pytest.mark.parametrize("driver", DRIVERS)
def test_unplugged_panel_retries_leak_no_descriptor_hook_or_device(
        driver: str, live_atexit_hooks: Callable[[], int]) -> None:
    """The bus opens (a real descriptor), the driver's init sequence gets no
    acknowledgement and its constructor raises: 200 attempts later nothing is left."""
    clock = FakeClock()
    bus = fake_bus(driver)
    bus.unplugged = True
    smbus = FakeSmbus2(bus)
    display = OledDisplay(i2c_device_factory(driver, smbus=smbus), clock=clock,
                          backoff_initial=1.0, backoff_max=1.0)
    display.show(new_frame())  # the first attempt: imports luma, opens and fails
    fds, hooks, devices = open_descriptors(), live_atexit_hooks(), luma_devices_alive()
    frame = new_frame()
    for i in range(200):
        clock.advance(1.0)
        frame = new_frame()
        draw_text(frame, (0, 0), str(i), fill=255)
        assert display.show(frame) is False
    assert bus.opened == 201 and bus.closed == 201
    assert (open_descriptors(), live_atexit_hooks(), luma_devices_alive()) == \
        (fds, hooks, devices)
    assert display.stats.errors == 201
    # plugged back in: the next attempt works, and still no hook is left behind
    bus.unplugged = False
    clock.advance(1.0)
    assert display.poll() is True and shown(bus) == frame.tobytes()
    assert live_atexit_hooks() == hooks
    display.close()
    assert bus.closed == bus.opened == 202


def test_a_write_failure_mid_game_releases_the_old_device(
        live_atexit_hooks: Callable[[], int]) -> None:
    clock = FakeClock()
    bus = fake_bus("ssd1306")
    display = display_on(bus, clock)
    frame = new_frame()
    display.show(frame)
    hooks, fds = live_atexit_hooks(), open_descriptors()
    for i in range(50):
        frame = new_frame()
        draw_text(frame, (0, 0), str(i), fill=255)
        bus.fail_after = 3
        assert display.show(frame) is False
        clock.advance(60)
        assert display.poll() is True
    assert (live_atexit_hooks(), open_descriptors()) == (hooks, fds)
    assert bus.opened - bus.closed == 1


def test_transfers_are_counted_as_on_the_wire() -> None:
    # start + address + control + 6 commands (9 bits each) + stop
    assert Transfer(0x3C, bytes(7)).bits == 2 + 9 * 8
    bus = fake_bus("ssd1306")
    device: Any = i2c_device_factory("ssd1306", smbus=FakeSmbus2(bus))()
    bus.take()
    device.display(new_frame())  # luma: one command transfer, one 1024-byte data transfer
    assert [len(t.payload) for t in bus.take()] == [7, 1025]


@pytest.mark.parametrize("driver", DRIVERS)
def test_a_plan_prepared_ahead_is_used_only_while_it_still_fits(driver: str) -> None:
    """``prepare`` works the plan out ahead (the daemon does it while the fsync runs),
    so ``show`` only writes; a plan made before another frame went out is stale (the
    panel changed) and is worked out again: the panel always ends up equal to the frame."""
    bus = fake_bus(driver)
    display = display_on(bus)
    display.show(new_frame())
    rng = random.Random(f"prepare:{driver}")
    addressing = display.addressing
    assert addressing is not None
    planned = 0
    real_plan = addressing.plan

    def counting_plan(*args: Any, **kwargs: Any) -> Any:
        nonlocal planned
        planned += 1
        return real_plan(*args, **kwargs)

    display.addressing = type(addressing)()
    display.addressing.plan = counting_plan  # type: ignore[method-assign]
    frame = new_frame()
    for _ in range(40):
        frame = edited(frame, rng)
        display.prepare(frame)
        before = planned
        display.show(frame)
        assert planned == before  # prepared: nothing worked out again
        assert shown(bus) == frame.tobytes()
    stale = edited(frame, rng)
    display.prepare(stale)
    other = edited(stale, rng)
    display.show(other)  # sent in between: the prepared plan no longer fits the panel
    display.show(stale)
    assert shown(bus) == stale.tobytes()
