"""Read the data files (boards, bands, decks, tickets) the engine parses.

The engine takes text, never paths, so it stays pure; this module is where a path or
a shipped default becomes (text, source) for the engine and for error messages.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

DEFAULT_PREFIX = "default:"


def default_source(filename: str) -> str:
    """The name a shipped default file goes by in journals and error messages."""
    return f"{DEFAULT_PREFIX}{filename}"


def read_data(ref: str | Path) -> tuple[str, str]:
    """Return (text, source) for a shipped default ("default:NAME") or a file path.

    Raises FileNotFoundError / OSError with the offending name for the caller to report.
    """
    ref = str(ref)
    if ref.startswith(DEFAULT_PREFIX):
        name = ref[len(DEFAULT_PREFIX):]
        resource = resources.files("engine.data").joinpath(name)
        if not resource.is_file():
            raise FileNotFoundError(f"no shipped data file named {name!r}")
        return resource.read_text(encoding="utf-8"), ref
    path = Path(ref)
    return path.read_text(encoding="utf-8"), str(path)
