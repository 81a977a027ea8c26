"""The interactive desktop emulator: the OLED drawn in the terminal, keys for the knobs.

Waits on the keyboard with `select` until a key or the controller's next deadline, so
an idle emulator uses no CPU, like the real rig.
"""

from __future__ import annotations

import os
import random
import select
import sys
import termios
import time
import tty

from rig.controller import Tick
from rig.emulated import EmulatedRig

KNOB_KEYS = {
    "a": ("turn", "hi", -1), "d": ("turn", "hi", 1), "w": ("spin", "hi", 0),
    "s": ("press", "hi", 0), "S": ("hold", "hi", 0),
    "j": ("turn", "lo", -1), "l": ("turn", "lo", 1), "i": ("spin", "lo", 0),
    "k": ("press", "lo", 0), "K": ("hold", "lo", 0),
}


def interactive(rig: EmulatedRig, keys_help: str) -> int:
    if not sys.stdin.isatty():
        print("cbrig emulate: needs a terminal (or use --script FILE)", file=sys.stderr)
        return 2
    from rig.render import render_terminal

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    rng = random.SystemRandom()
    message = ""
    try:
        tty.setcbreak(fd)
        while True:
            rig.clock.now = time.monotonic()
            _draw(render_terminal(rig.screen), keys_help, message)
            due = rig.controller.next_deadline()
            timeout = None if due is None else max(0.0, due - time.monotonic())
            ready, _, _ = select.select([fd], [], [], timeout)
            rig.clock.now = time.monotonic()
            if not ready:
                rig.loop.step(Tick(rig.clock.now))
                continue
            key = os.read(fd, 1).decode(errors="ignore")
            message = ""
            if key == "q":
                return 0
            if key in KNOB_KEYS:
                verb, knob, steps = KNOB_KEYS[key]
                if verb == "turn":
                    rig.turn(knob, steps)
                elif verb == "spin":
                    rig.controller.forced_spin = None
                    from hardware.events import KnobSpin

                    rig.loop.step(KnobSpin(knob, 0.7))
                elif verb == "press":
                    rig.press(knob)
                else:
                    rig.hold(knob)
            elif key == "n":
                message = _tap_random(rig, rng)
            elif key == "c":
                termios.tcsetattr(fd, termios.TCSADRAIN, saved)
                card = input("card id to tap: ").strip()
                tty.setcbreak(fd)
                if card:
                    rig.tap(card_id=card)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        print()


def _tap_random(rig: EmulatedRig, rng: random.SystemRandom) -> str:
    state = rig.session.state
    view = rig.controller.view
    if not state.is_chance_node() or view.chance_input(state).kind != "card":
        rig.tap(card_id=rng.choice(view.card_ids(rig.session.game)))
        return "tapped a card"
    from engine.selfplay import sample_chance

    card = view.card_for_action(sample_chance(state.chance_outcomes(), rng))
    rig.tap(card_id=card)
    return f"tapped {card}"


def _draw(picture: str, keys_help: str, message: str) -> None:
    sys.stdout.write("\x1b[H\x1b[2J" + picture + "\n" + keys_help + "\n" + message + "\n")
    sys.stdout.flush()
