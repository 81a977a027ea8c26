"""`cbrig run --autoplay`: a game played out by itself through the real loop (the kill
tests, the benchmarks)."""

from __future__ import annotations

import os
import queue
import signal
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from rig.core.app import App
from rig.core.loop import RigLoop, Stop
from rig.core.service import ServiceNotifier, StepSeeded

if TYPE_CHECKING:
    from rig.core.session import Session


class Autoplay:
    """Plays the app's game out, seeded, saying its progress to the service manager."""

    def __init__(self, loop: RigLoop, app: App, notifier: ServiceNotifier, seed: int,
                 crash_at: int | None, archive: Callable[[Session], str]) -> None:
        self.loop = loop
        self.app = app
        self.notifier = notifier
        self.seed = seed
        self.crash_at = crash_at
        """SIGKILL ourselves once this many inputs are saved (the kill tests)."""
        self.archive = archive
        """Files the finished game (the daemon's shelf); what to tell the table, or ""."""

    def run(self) -> None:
        """Feed gestures one by one through the real loop, like a very fast table."""
        from rig.core.autopilot import gestures_for

        assert self.loop is not None and self.app is not None
        last = -1
        while True:
            try:
                event = self.loop.events.get_nowait()
            except queue.Empty:
                event = None
            if isinstance(event, Stop):
                return
            controller = self.app.controller
            if controller is None:
                return
            if controller.session.state.is_terminal():
                problem = self.archive(controller.session)
                if problem:
                    self.app.error = problem
                self.app.to_menu()
                return
            steps = controller.session.steps
            if self.crash_at is not None and steps >= self.crash_at:
                os.kill(os.getpid(), signal.SIGKILL)  # no clean-up at all, as a power cut
            if steps != last:
                self.notifier.status(f"inputs {steps}")
                last = steps
            rng = StepSeeded(self.seed, partial(int, steps), "choice")
            gestures = gestures_for(controller, rng)
            if not gestures:
                self.loop.run_due()  # the computer thinks, a slice at a time
            for gesture in gestures:
                self.loop.step(gesture)
                controller.animation = None  # a robot has seen the spin: no wait for it
                controller.face.settled_at = None  # nor the new screen (no double-press guard)
                self.loop.run_due()
