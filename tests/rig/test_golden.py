"""Key screens drawn pixel for pixel as the OLED shows them (luma's dummy device).

Set UPDATE_GOLDEN=1 to rewrite the images after a deliberate change, then look at them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from hardware.display.oled import OledDisplay, dummy_device_factory
from rig.render import render, rows
from tests.rig.screens import KEY_SCREENS

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("name", sorted(KEY_SCREENS))
def test_key_screen_matches_its_golden_image(name):
    frame = render(KEY_SCREENS[name])
    display = OledDisplay(dummy_device_factory())
    assert display.show(frame)
    shown = display.device.image.convert("1")
    path = GOLDEN / f"{name}.png"
    if os.environ.get("UPDATE_GOLDEN"):
        shown.save(path)
    golden = Image.open(path).convert("1")
    assert ImageChops.difference(shown, golden).getbbox() is None, f"{name} changed"


@pytest.mark.parametrize("name", sorted(KEY_SCREENS))
def test_every_key_screen_fits_the_oled(name):
    screen_rows = rows(KEY_SCREENS[name])
    big_rows = 2 if KEY_SCREENS[name].big else 0
    assert len(screen_rows) - (1 if big_rows else 0) + big_rows <= 8
    assert all(len(row) <= 21 for row in screen_rows[1:] if not row.startswith("<<"))


def test_the_selected_menu_item_is_shown_whole():
    text = rows(KEY_SCREENS["police"])
    assert "> Smokey 1: 10 ahead" in text
    assert "  by the short cut" in text
