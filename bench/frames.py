"""Frame render time per screen kind: `rig.screens.render.render(Screen)` -> 128x64 image.

The screens are the rig's own: the setup menu from ``SetupMenu``; the others are
collected from seeded 10-Four games played through an ``EmulatedRig`` (no journal), the
first of each kind drawn: a draw prompt, a spin animation frame, a truck-move menu, a
police menu (BREAK ONE NINE), an alert (inverted; a BEAR BITE when one came up) and the winner (the
"10-4, WINNER!" alert). Each is rendered
once to warm the glyph cache, then timed in batches on the thread's CPU clock
(time.thread_time, so other load on the machine does not count); the figure is the
median batch mean, with the best batch and the wall-clock median beside it.
"""

from __future__ import annotations

import random
import time
from typing import Any

from bench import progress
from bench.stats import median, rnd

KINDS = ("setup_menu", "draw_prompt", "spin_animation", "move_menu", "police_menu",
         "alert", "winner")
METHOD = __doc__.strip().replace("\n", " ") if __doc__ else ""


def screen_kind(controller: Any, screen: Any) -> str:
    """Which of KINDS a game screen is ("" for none of them)."""
    state = controller.session.state
    if state.is_terminal():
        return "winner" if controller.animation is None else ""
    if screen.alert:
        return "alert"
    if controller.animation is not None:
        return "spin_animation"
    if state.is_chance_node():
        return "draw_prompt" if state.prompt().kind == "draw" else ""
    if not screen.menu:
        return ""
    return "police_menu" if state.prompt().kind == "police" else "move_menu"


def collect_screens(max_games: int = 40) -> dict[str, Any]:
    """One Screen of each kind from the real controller."""
    from rig.core.autopilot import gestures_for
    from rig.core.setup_menu import SetupMenu
    from rig.desktop.emulated import new_emulated_rig

    found: dict[str, Any] = {"setup_menu": SetupMenu().screen()}
    for seed in range(max_games):
        current: dict[str, Any] = {}

        def classify(screen: Any, current: dict[str, Any] = current) -> None:
            rig = current.get("rig")
            if rig is None:
                return
            kind = screen_kind(rig.controller, screen)
            if kind == "alert" and "BEAR" in screen.title \
                    and "BEAR" not in found.get(kind, screen).title:
                found.pop(kind)  # a BEAR BITE is the alert that matters most
            if kind and kind not in found:
                found[kind] = screen

        rig = new_emulated_rig("tenfour", 4, seed=seed, draw=classify)
        current["rig"] = rig
        rng = random.Random(f"bench-frames:{seed}")
        while not rig.session.state.is_terminal():
            for gesture in gestures_for(rig.controller, rng):
                rig.loop.step(gesture)
                rig.settle()
        if all(kind in found for kind in KINDS) and "BEAR" in found["alert"].title:
            break
    return found


def measure(quick: bool) -> dict[str, Any]:
    from rig.screens.render import render

    screens = collect_screens()
    batches, per_batch = (5, 40) if quick else (15, 200)
    out: dict[str, Any] = {}
    detail: dict[str, Any] = {}
    for kind in KINDS:
        screen = screens.get(kind)
        if screen is None:
            out[kind] = None
            continue
        render(screen)
        means = []
        walls = []
        for _ in range(batches):
            progress.tick("  frame render: %s", kind)
            wall = time.perf_counter()
            start = time.thread_time()
            for _ in range(per_batch):
                render(screen)
            means.append((time.thread_time() - start) / per_batch)
            walls.append((time.perf_counter() - wall) / per_batch)
        out[kind] = rnd(median(means) * 1000)
        detail[kind] = {"best_ms": rnd(min(means) * 1000),
                        "wall_median_ms": rnd(median(walls) * 1000),
                        "renders": batches * per_batch,
                        "text": screen.text().splitlines()[:3]}
    return {"frame_render_ms": out, "frame_render_detail": detail}
