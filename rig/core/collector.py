"""The garbage collector while `cbrig run` starts: paused until READY, then resumed with
what start-up made frozen.

Start-up imports ~140 modules and makes their classes, functions and tables: tens of
thousands of objects, nearly all of them kept for the life of the process, which the
collector's passes walk for nothing (17 generation-0 passes and one generation-1 pass by
READY here, 3-8 ms of a ~100 ms start). :func:`pause` stops collection for the start;
:func:`resume_frozen`, once READY=1 is sent, moves every object made so far to the
permanent generation (``gc.freeze``: later collections in the game loop do not walk
them either) and collects again from there. Nothing else changes: reference counting
frees everything that is not in a cycle meanwhile.
"""

from __future__ import annotations

import gc


def pause() -> bool:
    """Stop automatic collection; True if this call stopped it (its caller then makes
    sure it resumes, READY or not)."""
    if not gc.isenabled():
        return False
    gc.disable()
    return True


def resume_frozen() -> None:
    """After READY: freeze what start-up made and collect again (if paused)."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()
