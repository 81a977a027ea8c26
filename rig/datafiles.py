"""Read the data files (boards, bands, decks, tickets) the engine parses.

The engine takes text, never paths, so it stays pure; this module is where a path or
a shipped default becomes (text, source) for the engine and for error messages.
"""

from __future__ import annotations

from pathlib import Path

DEFAULT_PREFIX = "default:"


def default_source(filename: str) -> str:
    """The name a shipped default file goes by in journals and error messages."""
    return f"{DEFAULT_PREFIX}{filename}"


def _shipped(name: str, package: str) -> Path:
    """A file of the game's data package. Its directory, not importlib.resources: the
    package is always installed as files (pip unpacks wheels), and resources costs
    ~10 ms of imports at every start (it matters on a Pi Zero)."""
    import importlib

    module = importlib.import_module(package)
    return Path(next(iter(module.__path__))) / name


def is_shipped(ref: str, package: str) -> bool:
    """``ref`` names a file shipped in the data `package` ("default:NAME", NAME a plain
    file name there: no directory, so a journal header cannot point it anywhere else)."""
    if not ref.startswith(DEFAULT_PREFIX):
        return False
    name = ref[len(DEFAULT_PREFIX):]
    return (bool(name) and "/" not in name and "\\" not in name and name not in (".", "..")
            and _shipped(name, package).is_file())


def read_data(ref: str | Path, package: str) -> tuple[str, str]:
    """Return (text, source) for a shipped default ("default:NAME": a file of the game's
    data `package`, GameFacts.data_package) or a file path.

    Raises FileNotFoundError / OSError with the offending name for the caller to report.
    """
    ref = str(ref)
    if ref.startswith(DEFAULT_PREFIX):
        name = ref[len(DEFAULT_PREFIX):]
        if not is_shipped(ref, package):
            raise FileNotFoundError(f"no shipped data file named {name!r}")
        resource = _shipped(name, package)
        return resource.read_text(encoding="utf-8"), ref
    path = Path(ref)
    return path.read_text(encoding="utf-8"), str(path)
