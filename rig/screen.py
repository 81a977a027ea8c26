"""What the OLED shows, as data: the controller builds it, the renderer draws it.

Keeping the screen a plain value lets the loop skip unchanged frames by comparing
screens, and lets scripts and tests `expect` on text without reading pixels.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

COLUMNS = 21
"""Characters per line in the small font (6-pixel cells on a 128-pixel screen)."""


@dataclass(frozen=True)
class Screen:
    title: str
    lines: tuple[str, ...] = ()
    big: str | None = None
    menu: tuple[str, ...] = ()
    cursor: int = 0
    alert: bool = False
    footer: str = ""
    status: str = ""

    def text(self) -> str:
        """Plain text of everything on screen, for transcripts and `expect`."""
        parts = [self.title + (f" [{self.status}]" if self.status else "")]
        if self.big:
            parts.append(self.big)
        parts.extend(self.lines)
        for index, item in enumerate(self.menu):
            parts.append(("> " if index == self.cursor else "  ") + item)
        if self.footer:
            parts.append(self.footer)
        return "\n".join(parts)

    def plain(self) -> str:
        """All the text with line breaks folded to spaces: what `expect` matches against,
        so a phrase still matches where the screen wrapped it."""
        return _fold(self.text())


def _fold(text: str) -> str:
    return " ".join(text.split())


def wrap(text: str, width: int = COLUMNS) -> list[str]:
    """Wrap plain text to the screen width, keeping words whole where possible."""
    out: list[str] = []
    for paragraph in text.split("\n"):
        out.extend(textwrap.wrap(paragraph, width) or [""])
    return out
