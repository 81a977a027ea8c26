"""The state directory's modes, and making its directories.

Apart from :mod:`rig.journal` (which uses them) because the daemon makes the state
directory before its first screen, and the journal (with ``json``) is only needed
after READY unless a game is resumed.
"""

from __future__ import annotations

import os
from pathlib import Path

FILE_MODE = 0o600
"""Journals, archives and small state files: the owner only."""
DIR_MODE = 0o700
"""Directories the rig makes for them."""


def make_private_dir(directory: str | os.PathLike[str]) -> None:
    """Make `directory` (and missing parents) with ``DIR_MODE`` for the one it names.

    An existing directory is left as it is: it may be shared (a home directory, /tmp),
    and the files the rig puts in it are private on their own."""
    Path(directory).mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
