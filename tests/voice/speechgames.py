"""Seeded games through the emulated rig, every screen drawn kept, for the speech tests.

Also the screen kinds the golden spoken texts cover, named from the screen alone (its
title, the roles of its parts, a few words of its instruction), so that a kind the
games stop showing is noticed (the golden lists it and the test finds none).
"""

from __future__ import annotations

import random
from functools import cache

from rig.core.autopilot import play_out
from rig.desktop.emulated import new_emulated_rig
from rig.screens.screen import Screen

GAMES = (("tenfour", 2, "two-player"), ("tenfour", 3, None), ("tenfour", 4, None),
         ("bumpem", 2, None), ("bumpem", 3, None), ("bumpem", 4, None))


@cache
def game_screens(game: str, players: int, variant: str | None, seed: int) -> tuple[Screen, ...]:
    """Every screen drawn in one whole seeded game, in order: with a card the rig does
    not know tapped at the start (a refusal) and the winner acknowledged at the end
    (GAME OVER, the sign-off)."""
    rig = new_emulated_rig(game, players, variant=variant, seed=seed)
    rig.tap(tag="NOT-ENROLLED")
    # the refusal fades (nothing else moves the emulated clock in Bump 'Em)
    rig.wait(3.0)  # not a hang deadline: the emulated rig's clock
    play_out(rig, random.Random(seed))
    rig.press()
    return tuple(rig.screens)


def screen_kind(screen: Screen) -> str:
    """A name for what kind of screen this is (the golden file's keys)."""
    parts = screen.parts()
    roles = {p.role for p in parts}
    text = screen.plain()
    if screen.title in ("CORRECTION", "NEW GAME"):
        return "menu"
    if "refusal" in roles:
        return "refusal"
    if any(p.text == "spinning..." for p in parts):
        return "spinning"
    if parts and roles <= {"result", "alert"}:
        if screen.alert:
            return f"alert {screen.title}"
        first = parts[0].text
        if first.startswith(("Smokey", "Bear")):
            return "result police"
        if "Only move" in text:
            return "result forced move"
        if "loses" in first or "lost" in first or "No move" in text:
            return "result lost ticket"
        if " puts " in first:
            return "result smokey placed"
        return "result move"
    if screen.footer.startswith("long press"):
        return "game over"
    if "card" in roles:
        if "BREAK ONE NINE" in text.upper():
            return "prompt card break one nine"
        if "Bear watching" in text:
            return "prompt card bear watching"
        return "prompt card"
    if "HAMMER UP" in text:
        return "prompt hammer up"
    if "spin for start" in text:
        return "prompt start order"
    if "Park" in text and screen.menu:
        return "prompt police release"
    if screen.menu and "BREAK ONE NINE" in text:
        return "prompt police move"
    if screen.menu and "which truck" in text.lower():
        return "prompt declare truck"
    if screen.menu and "Smokey" in text:
        return "prompt smokey placing"
    if screen.menu:
        return "prompt choose move"
    if "Mike card" in text:
        return "prompt draw"
    if "ticket" in text:
        return "prompt ticket"
    return "prompt other"

