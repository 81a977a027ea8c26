"""Draw the README's screen pictures with the rig's own PNG display (x4 scale).

    .venv/bin/python docs/screens/make.py

Each picture is a key screen from tests/rig/screens.py rendered by rig.screens.render.render and
written by hardware.display.desktop.PngDisplay, exactly as `cbrig emulate` would.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from hardware.display.desktop import PngDisplay  # noqa: E402
from rig.screens.render import render  # noqa: E402
from tests.rig.screens import KEY_SCREENS  # noqa: E402

PICTURES = ("draw_card", "bear_warning", "move_result", "alert", "police", "bumpem_move",
            "bumpem_result", "correction_pieces", "correction_places")


def main() -> None:
    for name in PICTURES:
        display = PngDisplay(HERE / ".frames")
        display.show(render(KEY_SCREENS[name]))
        display.paths[-1].replace(HERE / f"{name}.png")
    (HERE / ".frames").rmdir()


if __name__ == "__main__":
    main()
