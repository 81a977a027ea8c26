"""`hard` hints in the loop: how soon a hint shows, how long a slice can hold an input,
and what the loop costs once the search is done.

For each game, a rig with a `hard` hint at every seat (as shipped: `hint_level = "hard"`,
`think_ms` 100, calibrated on this machine) is played by the autopilot to a decision; there
the real `RigLoop.run` is started on its own thread with no input waiting, as at a table
where nobody has moved yet:

* hint_to_show_ms: from starting the loop to the frame with the hint's star drawn (the
  first decision of a game configuration includes the budget's calibration; every search
  is seeded, so the work is the same on every run, only the machine's speed differs);
  hint_cpu_ms the loop thread's CPU until then (other load on the machine does not
  inflate it);
* slice_ms, slice_cpu_ms: each slice (a Tick the loop handles while no event waits),
  wall and thread CPU: the most an input arriving mid-search waits for the loop;
* idle_loop_wakeups: what the loop did after the step that drew the hint, counted (its
  handled events and ticks, and redraws but the hint's own), up to the Stop that ends
  it `IDLE_SECONDS` later, and idle_deadlines_after_hint: the decisions after whose hint
  the controller still had a deadline (a loop with none sleeps until an input comes,
  however long it is left): both 0 when nothing is left to think about, on any
  machine at any load (issue 46: a window's rate counted, on a loaded machine, the
  hint's own redraw finishing after the star was seen);
* idle_loop_cpu_ms_per_s: the loop thread's CPU (`time.pthread_getcpuclockid`) over
  that window, reported.

    .venv/bin/python -m bench.thinking [--decisions N]
"""

from __future__ import annotations

import argparse
import json
import random
import threading
import time
from typing import Any

from bench.stats import rnd, summary_ms

GAMES = (("tenfour", "standard", 4), ("tenfour", "two-player", 2), ("bumpem", "standard", 4))
IDLE_SECONDS = 1.0
SHOW_TIMEOUT_SECONDS = 60.0
"""Longest the bench waits for a hint's star (a search runs ~0.1-1 s): past it, a bug."""


def measure(decisions: int = 4) -> dict[str, Any]:
    shows: list[float] = []
    cpus: list[float] = []
    slices: list[tuple[float, float]] = []
    idle_cpu: list[float] = []
    wakeups: list[int] = []
    deadlines = 0
    by_game: dict[str, dict[str, Any]] = {}
    for name, variant, players in GAMES:
        game_shows: list[float] = []
        for decision in _decisions(name, variant, players, decisions):
            game_shows.append(decision["show"])
            cpus.append(decision["cpu"])
            slices.extend(decision["slices"])
            idle_cpu.append(decision["idle_cpu"])
            wakeups.append(decision["wakeups"])
            deadlines += decision["deadline"] is not None
        shows.extend(game_shows)
        by_game[f"{name}/{variant}/{players}p"] = {
            "first_hint_to_show_ms": rnd(game_shows[0] * 1000),
            "later_hints_to_show_ms": summary_ms(game_shows[1:]),
        }
    return {
        "hint_to_show_ms": summary_ms(shows),
        "hint_to_show_by_game": by_game,
        "hint_cpu_ms": summary_ms(cpus),
        "slice_ms": summary_ms([wall for wall, _ in slices]),
        "slice_cpu_ms": summary_ms([cpu for _, cpu in slices]),
        "idle_loop_cpu_ms_per_s": rnd(max(idle_cpu) * 1000),
        "idle_loop_wakeups": sum(wakeups),
        "idle_deadlines_after_hint": deadlines,
        "think_ms": 100,
        "method": (__doc__ or "").strip().split("\n\n")[0].replace("\n", " "),
    }


def _decisions(name: str, variant: str, players: int, count: int) -> list[dict[str, Any]]:
    from rig.core.autopilot import gestures_for
    from rig.core.computer import seat_for
    from rig.core.controller import Controller, ControllerOptions
    from rig.core.loop import RigLoop, Stop, Tick
    from rig.core.session import Session
    from rig.gamebuild import build_game

    game = build_game(name, players=players, variant=variant)
    session = Session.start(game, None, {"created": "bench"})
    seats = [seat_for(name, "human", seed=i, hint=True, game=game) for i in range(players)]
    controller = Controller(session, clock=time.monotonic, seats=seats,
                            options=ControllerOptions(virtual_deck=True))
    drawn: list[tuple[float, Any]] = []
    starred = threading.Event()
    at_star: list[int] = []
    """The loop's handled count when the hint's frame was drawn (before that draw is
    counted as a render)."""

    def draw(screen: Any) -> None:
        drawn.append((time.perf_counter(), screen))
        if _has_hint(screen) and not starred.is_set():
            at_star.append(_handled(loop))
            starred.set()

    loop = RigLoop(controller, draw=draw)
    slices: list[tuple[float, float]] = []
    handle = controller.handle

    def timed(event: object) -> None:
        began, cpu = time.perf_counter(), time.thread_time()
        handle(event)
        if isinstance(event, Tick):
            slices.append((time.perf_counter() - began, time.thread_time() - cpu))

    controller.handle = timed  # type: ignore[method-assign]
    rng = random.Random(f"bench-thinking:{name}:{players}")
    out: list[dict[str, Any]] = []
    while len(out) < count and not session.state.is_terminal():
        state = session.state
        if controller.decisions.choice_pending and len(state.legal_actions()) > 1 \
                and controller.alert is None and controller.animation is None:
            out.append(_one(loop, drawn, starred, slices, Stop, at_star))
        for gesture in gestures_for(controller, rng):
            loop.step(gesture)
            controller.animation = None  # seen: the next press is not too soon for it
        while controller.decisions.choice_pending and len(session.state.legal_actions()) == 1:
            loop.run_due()  # a forced move's hint: nothing to search
    return out


def _has_hint(screen: Any) -> bool:
    return any(item.startswith("* ") for item in getattr(screen, "menu", ()))


def _one(loop: Any, drawn: list[tuple[float, Any]], starred: threading.Event,
         slices: list[tuple[float, float]], stop: type, at_star: list[int]) -> dict[str, Any]:
    """Run the loop at a pending hint until its star is drawn (the draw callback says
    so), then idle; stop the loop, and count what it did after the star."""
    drawn.clear()
    slices.clear()
    starred.clear()
    at_star.clear()
    thread = threading.Thread(target=loop.run, name="rig-loop")
    started = time.perf_counter()
    thread.start()
    assert thread.ident is not None
    clock = time.pthread_getcpuclockid(thread.ident)
    if not starred.wait(SHOW_TIMEOUT_SECONDS):
        loop.post(stop())
        thread.join()
        raise RuntimeError(f"no hint drawn within {SHOW_TIMEOUT_SECONDS:.0f} s")
    thought = time.clock_gettime(clock)
    shown = next(t for t, screen in drawn if _has_hint(screen))
    cpu = time.clock_gettime(clock)
    time.sleep(IDLE_SECONDS)  # the window the idle CPU is reported over; counts need none
    idle_cpu = (time.clock_gettime(clock) - cpu) / IDLE_SECONDS
    loop.post(stop())
    thread.join()
    # after the join: the loop's counts are final. The star's own render is the one
    # counted after at_star was taken.
    wakeups = _handled(loop) - at_star[0] - 1
    return {"show": shown - started, "cpu": thought, "slices": list(slices),
            "idle_cpu": idle_cpu, "wakeups": wakeups,
            "deadline": loop.controller.next_deadline()}


def _handled(loop: Any) -> int:
    stats = loop.stats
    return int(stats.events + stats.renders + stats.screens_unchanged)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else "")
    parser.add_argument("--decisions", type=int, default=4,
                        help="hinted decisions timed per game (default 4)")
    args = parser.parse_args()
    print(json.dumps(measure(args.decisions), indent=2))


if __name__ == "__main__":
    main()
