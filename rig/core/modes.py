"""The controller's modes: which part of the rig takes an input and what the screen shows.

One value says it (modelled on boardgame.io's declared stages), so the controller's
`handle` and `screen` dispatch on the same thing and cannot disagree:

- `Playing`: the game's own prompt takes input (a menu, a spin, a card);
- `Acknowledging`: a result or an alert fills the screen until the table presses;
- `Spinning`: the spinner animates; the result it led to (if any) shows next;
- `Correcting`: the correction menu (RULINGS G5) is open over the game; the result or
  alert it covered (if any) shows again when it closes.

An animation and a correction menu never coexist, and what waits underneath either is a
`Moment` or nothing, never another animation: the types leave no room for it. Every
change of mode goes through `next_mode`, which refuses a change the table cannot make.

A refusal ("! Spin the HI knob") is not a mode: it is a line that fades on its own
clock, drawn on the screens that take input, and outlives a change of mode.
"""

from __future__ import annotations

from typing import TypeAlias

from rig.core.corrections import CorrectionMenu
from rig.screens.screen import Part
from valueclass import Frozen


class Moment(Frozen):
    """A screen the table acknowledges before the next prompt: the result of the last
    move, titled with the mover (so the big number is the mover's), and any alert."""

    title: str
    parts: tuple[Part, ...]
    big: str = ""
    alert: bool = False


class Animation(Frozen):
    values: list[str]
    started: float
    ends: float
    final: str
    title: str = ""
    """The spinner's title: the spin has already moved the game on to the next player."""


class Playing(Frozen):
    """The game's prompt takes the input."""


class Acknowledging(Frozen):
    moment: Moment


class Spinning(Frozen):
    animation: Animation
    then: Moment | None = None


class Correcting(Frozen):
    menu: CorrectionMenu
    beneath: Moment | None = None


Mode: TypeAlias = Playing | Acknowledging | Spinning | Correcting
Settled: TypeAlias = Playing | Acknowledging
"""A mode that is not over the game: what an animation or a menu gives way to."""


# -- what makes the mode change ---------------------------------------------------------


class MomentArrived(Frozen):
    """An input's result or alert, or none (a test dismissing it)."""

    moment: Moment | None


class Acknowledged(Frozen):
    """A press or turn on a result screen: it goes, and is not also a choice."""


class SpinStarted(Frozen):
    animation: Animation


class SpinEnded(Frozen):
    """Its time ran out, or any input came (which is then handled as usual)."""


class CorrectionOpened(Frozen):
    menu: CorrectionMenu


class CorrectionClosed(Frozen):
    """Closed from the menu, by a long press, or because a correction was applied."""


class TakenBack(Frozen):
    """The last input was taken back: the result it led to goes with it."""


Trigger: TypeAlias = (MomentArrived | Acknowledged | SpinStarted | SpinEnded | CorrectionOpened
                      | CorrectionClosed | TakenBack)


class IllegalTransition(RuntimeError):
    """The controller asked for a change of mode the table cannot make (a bug)."""


def pending(mode: Mode) -> Moment | None:
    """The result or alert waiting to be acknowledged, shown now or after this mode."""
    if isinstance(mode, Acknowledging):
        return mode.moment
    if isinstance(mode, Spinning):
        return mode.then
    if isinstance(mode, Correcting):
        return mode.beneath
    return None


def settled(moment: Moment | None) -> Settled:
    return Playing() if moment is None else Acknowledging(moment)


def next_mode(mode: Mode, trigger: Trigger) -> Mode:
    """The one table of mode changes; anything else raises `IllegalTransition`."""
    if isinstance(trigger, MomentArrived):
        return _with_moment(mode, trigger.moment)
    if isinstance(trigger, SpinEnded) and isinstance(mode, Spinning):
        return settled(mode.then)
    if isinstance(trigger, CorrectionClosed) and isinstance(mode, Correcting):
        return settled(mode.beneath)
    if isinstance(trigger, TakenBack) and isinstance(mode, Correcting):
        return Playing()
    if isinstance(trigger, Acknowledged) and isinstance(mode, Acknowledging):
        return Playing()
    if isinstance(mode, Playing | Acknowledging):
        if isinstance(trigger, SpinStarted):
            return Spinning(trigger.animation, then=pending(mode))
        if isinstance(trigger, CorrectionOpened):
            return Correcting(trigger.menu, beneath=pending(mode))
    raise IllegalTransition(f"{type(trigger).__name__} while {type(mode).__name__}")


def _with_moment(mode: Mode, moment: Moment | None) -> Mode:
    """A new result replaces the one waiting, wherever it waits."""
    if isinstance(mode, Spinning):
        return Spinning(mode.animation, then=moment)
    if isinstance(mode, Correcting):
        return Correcting(mode.menu, beneath=moment)
    return settled(moment)
