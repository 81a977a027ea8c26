"""Display: skip-unchanged, luma dummy device, recovery with backoff, renderers, fonts."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image, ImageChops

from hardware.clock import FakeClock
from hardware.display import (
    HUGE,
    LARGE,
    SMALL,
    MemoryDisplay,
    OledDisplay,
    PngDisplay,
    TerminalDisplay,
    draw_text,
    dummy_device_factory,
    i2c_device_factory,
    new_frame,
    render_halfblocks,
    save_png,
    text_width,
)
from hardware.display.font import GLYPHS_5X7, draw_centered, text_height
from hardware.events import DisplayStatus, HardwareEvent


def frame_with(text: str, xy: tuple[int, int] = (0, 0)) -> Image.Image:
    f = new_frame()
    draw_text(f, xy, text)
    return f


def same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a.convert("L"), b.convert("L")).getbbox() is None


# -- luma dummy device ----------------------------------------------------------------


def test_dummy_device_gets_the_frame_and_unchanged_frames_are_skipped() -> None:
    d = OledDisplay(dummy_device_factory())
    a, b = frame_with("HELLO"), frame_with("WORLD")
    assert d.show(a) is True
    assert d.device is not None and d.device.persist is True
    assert same(d.device.image, a)  # type: ignore[attr-defined]
    assert d.show(a.copy()) is False  # equal content, different object
    assert d.show(b) is True
    assert same(d.device.image, b)  # type: ignore[attr-defined]
    assert (d.stats.sent, d.stats.skipped, d.stats.errors) == (2, 1, 0)


def test_wrong_frame_rejected() -> None:
    d = OledDisplay(dummy_device_factory())
    with pytest.raises(ValueError):
        d.show(Image.new("RGB", (128, 64)))
    with pytest.raises(ValueError):
        d.show(Image.new("1", (128, 32)))


class FlakyDevice:
    def __init__(self, log: list[str]) -> None:
        self.persist = False
        self.broken = False
        self.log = log
        self.frames: list[bytes] = []

    def display(self, image: Image.Image) -> None:
        if self.broken:
            raise OSError(121, "Remote I/O error")
        self.frames.append(image.tobytes())

    def cleanup(self) -> None:
        self.log.append(f"cleanup persist={self.persist}")


class FlakyFactory:
    def __init__(self) -> None:
        self.devices: list[FlakyDevice] = []
        self.fail_next = 0
        self.calls = 0
        self.log: list[str] = []

    def __call__(self) -> Any:
        self.calls += 1
        if self.fail_next:
            self.fail_next -= 1
            raise OSError(5, "Input/output error")
        dev = FlakyDevice(self.log)
        self.devices.append(dev)
        return dev


def test_recovers_from_oserror_mid_game_with_backoff() -> None:
    clock = FakeClock()
    events: list[HardwareEvent] = []
    factory = FlakyFactory()
    d = OledDisplay(factory, events.append, clock=clock, backoff_initial=1.0, backoff_max=4.0)
    a, b, c = frame_with("A"), frame_with("B"), frame_with("C")
    assert d.show(a)
    factory.devices[0].broken = True
    assert d.show(b) is False  # the game goes on: nothing raised
    assert events == [
        DisplayStatus(False, "oled write failed (OSError: [Errno 121] Remote I/O error)")
    ]
    assert d.device is None and d.stats.errors == 1
    # within the backoff: no attempt to re-create
    clock.advance(0.5)
    assert d.show(c) is False
    assert factory.calls == 1
    # backoff over, but the panel is still missing: second failure, no second status
    factory.fail_next = 1
    clock.advance(0.6)
    assert d.show(b) is False
    assert factory.calls == 2 and len(events) == 1
    clock.advance(1.5)  # backoff doubled to 2 s
    assert d.poll() is False and factory.calls == 2
    clock.advance(0.6)
    assert d.poll() is True  # newest frame re-sent on recovery
    assert factory.calls == 3
    assert factory.devices[-1].frames == [b.tobytes()]
    assert factory.devices[-1].persist is True
    assert events[-1] == DisplayStatus(True, "oled recovered")
    assert d.show(b) is False  # and is now the last frame sent
    assert d.stats.dropped >= 3


def test_unchanged_frame_is_resent_after_recovery() -> None:
    clock = FakeClock()
    factory = FlakyFactory()
    d = OledDisplay(factory, clock=clock, backoff_initial=0.1)
    a = frame_with("SAME")
    d.show(a)
    factory.devices[0].broken = True
    d.show(frame_with("OTHER"))
    clock.advance(1)
    assert d.show(a) is True  # the panel state is unknown after a failure
    assert factory.devices[-1].frames == [a.tobytes()]


def test_missing_i2c_bus_reported_not_raised(tmp_path: Any) -> None:
    events: list[HardwareEvent] = []
    # port 97: no /dev/i2c-97 on a test machine: luma raises DeviceNotFoundError
    d = OledDisplay(i2c_device_factory("sh1106", port=97), events.append, clock=FakeClock())
    assert d.show(frame_with("X")) is False
    assert len(events) == 1 and isinstance(events[0], DisplayStatus) and not events[0].ok
    assert d.stats.errors == 1


def test_driver_is_checked() -> None:
    with pytest.raises(ValueError, match="ssd1306"):
        i2c_device_factory("ssd1309x")


def test_close_persists_message() -> None:
    factory = FlakyFactory()
    d = OledDisplay(factory)
    d.show(frame_with("PLAYING"))
    bye = frame_with("RIG OFF")
    d.close(bye)
    assert factory.devices[0].frames[-1] == bye.tobytes()
    assert factory.log == ["cleanup persist=True"]
    assert d.device is None


def test_memory_display_records_frames() -> None:
    m = MemoryDisplay()
    m.show(frame_with("1"))
    m.show(frame_with("1"))
    m.close(frame_with("2"))
    assert len(m.frames) == 2 and m.closed and m.stats.skipped == 1


# -- terminal and PNG -----------------------------------------------------------------


def test_halfblock_rendering() -> None:
    f = new_frame()
    f.putpixel((0, 0), 1)  # top only
    f.putpixel((1, 1), 1)  # bottom only
    f.putpixel((2, 0), 1)
    f.putpixel((2, 1), 1)  # both
    lines = render_halfblocks(f).split("\n")
    assert len(lines) == 32 and all(len(line) == 128 for line in lines)
    assert lines[0][:4] == "\u2580\u2584\u2588 "
    assert set("".join(lines[1:])) == {" "}


GOLDEN_HI = """\
\u2588   \u2588  \u2580\u2588\u2580
\u2588\u2584\u2584\u2584\u2588   \u2588
\u2588   \u2588   \u2588
\u2580   \u2580  \u2580\u2580\u2580"""


def test_golden_text_render() -> None:
    f = new_frame()
    draw_text(f, (0, 0), "HI")
    lines = render_halfblocks(f).split("\n")
    got = "\n".join(line.rstrip() for line in lines[:4])
    assert got == GOLDEN_HI
    assert all(line.strip() == "" for line in lines[4:])


def test_terminal_display_draws_in_place_and_skips() -> None:
    out = io.StringIO()
    t = TerminalDisplay(out)
    assert t.show(frame_with("A"))
    assert not t.show(frame_with("A"))
    text = out.getvalue()
    assert text.startswith("\x1b[H\u250c") and text.count("\x1b[H") == 1


def test_png_writer_scales_x4(tmp_path: Any) -> None:
    f = frame_with("X")
    path = save_png(f, tmp_path / "shot.png")
    img = Image.open(path)
    assert img.size == (512, 256)
    assert img.getpixel((0, 0)) == 255 and img.getpixel((3, 3)) == 255  # X's corner, 4x4
    assert img.getpixel((4, 0)) == 0
    p = PngDisplay(tmp_path / "frames")
    p.show(f)
    p.show(f)
    p.show(frame_with("Y"))
    assert [x.name for x in p.paths] == ["frame_000001.png", "frame_000002.png"]


# -- fonts ----------------------------------------------------------------------------


def test_font_covers_printable_ascii() -> None:
    assert set(GLYPHS_5X7) == {chr(c) for c in range(32, 127)}
    assert all(len(g) == 5 and all(0 <= col < 0x80 for col in g) for g in GLYPHS_5X7.values())
    shapes = [g for ch, g in GLYPHS_5X7.items() if ch != " "]
    assert len(set(shapes)) == len(shapes)  # every glyph distinct
    assert not any(GLYPHS_5X7[" "])


def test_small_font_grid_is_21_by_8() -> None:
    assert SMALL.chars_per_line() == 21 and SMALL.lines() == 8
    assert text_width("A" * 21, SMALL) <= 128 < text_width("A" * 22, SMALL)
    assert text_height("a\nb\nc", SMALL) == 24
    assert (LARGE.cell_width, LARGE.cell_height) == (12, 16)
    assert HUGE.chars_per_line() == 7


def test_draw_text_pixels() -> None:
    f = new_frame()
    end = draw_text(f, (10, 5), "I")
    assert end == 16
    lit = {(x, y) for x in range(128) for y in range(64) if f.getpixel((x, y))}
    # "I": a bar in the middle column with serifs top and bottom
    expected = {(12, 5 + r) for r in range(7)} | {(11, 5), (13, 5), (11, 11), (13, 11)}
    assert lit == expected


def test_large_font_is_the_small_one_scaled() -> None:
    small, large = new_frame(), new_frame()
    draw_text(small, (0, 0), "42")
    draw_text(large, (0, 0), "42", LARGE)
    scaled = small.crop((0, 0, 64, 32)).resize((128, 64), Image.Resampling.NEAREST)
    assert same(scaled, large)


def test_centered_and_unknown_chars() -> None:
    f = new_frame()
    draw_centered(f, 0, "\u00e9")  # not ASCII: drawn as "?"
    g = new_frame()
    draw_text(g, ((128 - 5) // 2, 0), "?")
    assert same(f, g)


def test_glyph_cells_are_what_draw_text_draws() -> None:
    """The render's glyph masks are packed from the font's columns without ImageDraw
    (kept off the start-up path); they must be the cells draw_text draws, every
    character of every size (and the ``?`` of one outside ASCII)."""
    from hardware.display.font import HUGE, LARGE, SMALL, draw_text, glyph_cell

    for font in (SMALL, LARGE, HUGE):
        for char in [chr(code) for code in range(32, 127)] + ["\u00e9"]:
            cell = Image.new("1", (font.cell_width, font.cell_height), 0)
            draw_text(cell, (0, 0), char, font, fill=255)
            packed = glyph_cell(char, font)
            assert packed.mode == "1" and packed.size == cell.size
            assert packed.tobytes() == cell.tobytes(), (font.name, char)
