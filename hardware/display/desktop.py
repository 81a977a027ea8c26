"""Displays for a desktop, where there is no panel: each frame drawn in a terminal as
text (Unicode half blocks, two pixel rows per character line: `cbrig emulate`) or
written as a PNG file (the daemon's ``png`` driver, docs/screens)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from PIL import Image

from hardware.display.base import FrameSink, check_frame
from hardware.display.kinds import DisplayDriver, DisplaySettings
from hardware.events import Emit

# (top pixel, bottom pixel) -> character
_HALF = {(0, 0): " ", (1, 0): "\u2580", (0, 1): "\u2584", (1, 1): "\u2588"}


def render_halfblocks(frame: Image.Image, border: bool = False) -> str:
    """The frame as lines of text, one character per column and two rows per line
    (128x64 -> 32 lines of 128 characters). Lit pixels are drawn."""
    img = frame if frame.mode == "1" else frame.convert("1")
    width, height = img.size
    px = img.load()
    assert px is not None
    lines = []
    for y in range(0, height, 2):
        row = []
        for x in range(width):
            top = 1 if px[x, y] else 0
            bottom = 1 if y + 1 < height and px[x, y + 1] else 0
            row.append(_HALF[(top, bottom)])
        lines.append("".join(row))
    if border:
        bar = "\u2500" * width
        lines = [
            "\u250c" + bar + "\u2510",
            *("\u2502" + line + "\u2502" for line in lines),
            "\u2514" + bar + "\u2518",
        ]
    return "\n".join(lines)


class TerminalDisplay(FrameSink):
    """Draws each new frame in the terminal, in place (cursor home) by default."""

    def __init__(
        self, stream: TextIO | None = None, *, in_place: bool = True, border: bool = True
    ) -> None:
        super().__init__()
        self._stream = stream if stream is not None else sys.stdout
        self._in_place = in_place
        self._border = border

    def _send(self, frame: Image.Image) -> None:
        text = render_halfblocks(frame, border=self._border)
        prefix = "\x1b[H" if self._in_place else ""
        self._stream.write(prefix + text + "\n")
        self._stream.flush()


def save_png(frame: Image.Image, path: str | Path, scale: int = 4) -> Path:
    """Write ``frame`` as a PNG scaled up ``scale`` times (nearest neighbour, crisp)."""
    check_frame(frame)
    out = Path(path)
    big = frame.convert("L").resize(
        (frame.width * scale, frame.height * scale), Image.Resampling.NEAREST
    )
    big.save(out, format="PNG")
    return out


class PngDisplay(FrameSink):
    """Writes each new frame as ``frame_000001.png`` ... in ``directory`` (x4)."""

    def __init__(self, directory: str | Path, scale: int = 4) -> None:
        super().__init__()
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.scale = scale
        self.paths: list[Path] = []

    def _send(self, frame: Image.Image) -> None:
        path = self.directory / f"frame_{len(self.paths) + 1:06d}.png"
        self.paths.append(save_png(frame, path, self.scale))


TERMINAL = DisplayDriver(name="terminal", title="the frames drawn in this terminal",
                         make=lambda emit, settings: TerminalDisplay())
"""``driver = "terminal"`` in the display table (hardware.display.kinds)."""


def _png(emit: Emit, settings: DisplaySettings) -> PngDisplay:
    folder = settings.folder
    if folder is None:  # no state folder (the battery): one of its own
        from tempfile import mkdtemp  # tempfile brings shutil: not on a rig's start

        folder = Path(mkdtemp(prefix="cbrig-png-"))
    return PngDisplay(folder / "screens")


PNG = DisplayDriver(name="png", title="each frame a PNG in the state folder's screens/",
                    make=_png)
"""``driver = "png"`` in the display table (a headless rig: the appliance test)."""

__all__ = ["PNG", "TERMINAL", "PngDisplay", "TerminalDisplay", "render_halfblocks", "save_png"]
