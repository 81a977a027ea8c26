"""Hardware event scripts: what tests and bug reports feed an emulated rig.

One command a line; `#` starts a comment:

    turn hi +2          turn a knob (hi or lo) by signed detents
    spin hi [VALUE]     flick a knob; VALUE forces the spin result (emulation only)
    press hi            short press
    hold hi             long press (opens and closes the correction menu)
    tap CARD            present the card enrolled as CARD (a deck id) and remove it
    tag TAG             present a raw tag (an unknown card) and remove it
    wait MS             let MS milliseconds pass
    expect "TEXT"       the current screen must contain TEXT (case-insensitive)
    show                print the current screen into the transcript
"""

from __future__ import annotations

import shlex
from collections.abc import Callable

from rig.desktop.emulated import EmulatedRig
from rig.screens.render import boxed
from valueclass import Frozen


class ScriptError(Exception):
    """A script line that is malformed or whose expectation failed."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


class Command(Frozen):
    line: int
    verb: str
    args: tuple[str, ...]


KNOBS = ("hi", "lo")
ARITY = {"turn": (2, 2), "spin": (1, 2), "press": (1, 1), "hold": (1, 1), "tap": (1, 1),
         "tag": (1, 1), "wait": (1, 1), "expect": (1, 1), "show": (0, 0)}


def parse(text: str) -> list[Command]:
    commands = []
    for number, raw in enumerate(text.splitlines(), start=1):
        try:
            words = shlex.split(raw, comments=True)
        except ValueError as exc:
            raise ScriptError(number, f"cannot read {raw.strip()!r}: {exc}") from exc
        if not words:
            continue
        verb, args = words[0].lower(), tuple(words[1:])
        if verb not in ARITY:
            raise ScriptError(number, f"unknown command {verb!r}; known: {', '.join(ARITY)}")
        low, high = ARITY[verb]
        if not low <= len(args) <= high:
            raise ScriptError(number, f"{verb} takes {low}..{high} arguments, got {len(args)}")
        if verb in {"turn", "spin", "press", "hold"} and args[0] not in KNOBS:
            raise ScriptError(number, f"knob must be hi or lo, not {args[0]!r}")
        numeric = {"turn": 1, "spin": 1, "wait": 0}
        if verb in numeric and len(args) > numeric[verb]:
            try:
                int(args[numeric[verb]])
            except ValueError as exc:
                raise ScriptError(number, f"{verb}: {args[numeric[verb]]!r} is not a number") \
                    from exc
        commands.append(Command(number, verb, args))
    return commands


def execute(rig: EmulatedRig, commands: list[Command],
            say: Callable[[str], None] = print) -> None:
    """Run commands against `rig`, reporting each screen; raise ScriptError on a miss."""
    for command in commands:
        say(f"$ {command.verb} {' '.join(command.args)}".rstrip())
        before = rig.screen
        _run_one(rig, command)
        after = rig.screen
        if command.verb == "show" or after != before:
            say(boxed(after))


def _run_one(rig: EmulatedRig, command: Command) -> None:
    verb, args = command.verb, command.args
    if verb == "turn":
        rig.turn(args[0], int(args[1]))
    elif verb == "spin":
        rig.spin(args[0], int(args[1]) if len(args) > 1 else None)
    elif verb == "press":
        rig.press(args[0])
    elif verb == "hold":
        rig.hold(args[0])
    elif verb == "tap":
        rig.tap(card_id=args[0])
    elif verb == "tag":
        rig.tap(tag=args[0])
    elif verb == "wait":
        rig.wait(int(args[0]) / 1000)
    elif verb == "expect" and not _on_screen(rig, args[0]):
        raise ScriptError(command.line,
                          f"expected {args[0]!r} on screen, which shows:\n{rig.screen.text()}")


def _on_screen(rig: EmulatedRig, text: str) -> bool:
    return " ".join(text.split()).lower() in rig.screen.plain().lower()

