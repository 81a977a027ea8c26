"""Key screens drawn pixel for pixel as the OLED shows them (luma's dummy device).

Set UPDATE_GOLDEN=1 to rewrite the images after a deliberate change, then look at them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from hardware.display.oled import OledDisplay, dummy_device_factory
from rig.screens.render import render, rows
from rig.screens.screen import MORE_BELOW
from tests.rig.screens import KEY_SCREENS
from tests.rig.test_screen_audit import check_fits

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
def test_every_key_screen_fits_the_oled_with_nothing_lost(name):
    check_fits(KEY_SCREENS[name])
    assert len(rows(KEY_SCREENS[name])) <= 8


def test_the_selected_menu_item_is_shown_whole():
    text = rows(KEY_SCREENS["police"])
    assert "> Smokey 1 in the" in text
    assert "  Bear Trap on" in text
    assert f"{MORE_BELOW} Yellow: 10 to Y19" in text, "and says that more options follow"
