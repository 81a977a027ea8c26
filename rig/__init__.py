"""The rig: one event loop joining the rules engine, the hardware and the screen."""

from __future__ import annotations

from rig import moved

moved.install()  # the old module names (rig.views, rig.printout...): rig/moved.py


def version() -> str:
    """The installed cbrig version (pyproject's), or "unknown" when run from a bare tree."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("cbrig")
    except PackageNotFoundError:
        return "unknown"
