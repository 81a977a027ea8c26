"""The table's voice: the spoken form of each screen (speech), the narrator that
synthesizes and schedules it (narrator), its settings (control), the espeak-ng library
(espeak) and the clip cache (cache). The devices it speaks through stay with their kind:
hardware.speaker on a rig, rig.web.voice in a browser."""

from __future__ import annotations

import importlib
import warnings

from rig.moved import MovedName


def __getattr__(name: str) -> object:
    """The old ``rig.voice`` module's names (the narrator's, since cbrig 0.2.0), with a
    MovedName warning naming ``rig.voice.narrator``."""
    if name.startswith("__"):
        raise AttributeError(name)
    narrator = importlib.import_module("rig.voice.narrator")
    if not hasattr(narrator, name):
        raise AttributeError(f"module 'rig.voice' has no attribute {name!r}")
    warnings.warn(MovedName(f"rig.voice.{name}", f"rig.voice.narrator.{name}"), stacklevel=2)
    return getattr(narrator, name)
