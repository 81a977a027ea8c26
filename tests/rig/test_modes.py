"""The controller's modes (rig/core/modes.py): the table of changes, and what a table sees
as the rig moves between the game, a spin, a result and the correction menu."""

from __future__ import annotations

import random

import pytest

from hardware.events import KnobLongPress, KnobPress, KnobSpin
from rig.core.corrections import CorrectionMenu
from rig.core.modes import (
    Acknowledged,
    Acknowledging,
    Animation,
    Correcting,
    CorrectionClosed,
    CorrectionOpened,
    IllegalTransition,
    Moment,
    MomentArrived,
    Playing,
    SpinEnded,
    Spinning,
    SpinStarted,
    TakenBack,
    next_mode,
)
from rig.desktop.emulated import new_emulated_rig
from rig.screens.screen import Part
from tests.rig.drive import advance_to_choice

MOMENT = Moment(title="10-4  RED", parts=(Part("Red truck at R4: 9 ahead", "result"),),
                big="MOVE 9")
LATER = Moment(title="BEAR BITE!", parts=(Part("Red caught", "alert"),), alert=True)
ANIMATION = Animation(values=["1", "2"], started=0.0, ends=1.0, final="2")
_RIG = new_emulated_rig("bumpem", 2, seed=1)
MENU = CorrectionMenu(_RIG.controller.view, _RIG.session.state, [])


# -- the table of changes -----------------------------------------------------------------


@pytest.mark.parametrize("then", [None, MOMENT])
def test_a_spin_gives_way_to_the_result_it_covered(then):
    spinning = next_mode(Playing() if then is None else Acknowledging(then),
                         SpinStarted(ANIMATION))
    assert spinning == Spinning(ANIMATION, then=then)
    assert next_mode(spinning, SpinEnded()) == (Playing() if then is None
                                                else Acknowledging(then))


def test_the_menu_gives_back_the_result_it_covered_and_a_take_back_drops_it():
    correcting = next_mode(Acknowledging(MOMENT), CorrectionOpened(MENU))
    assert correcting == Correcting(MENU, beneath=MOMENT)
    assert next_mode(correcting, CorrectionClosed()) == Acknowledging(MOMENT)
    assert next_mode(correcting, TakenBack()) == Playing()


def test_a_new_result_replaces_the_waiting_one_wherever_it_waits():
    assert next_mode(Playing(), MomentArrived(MOMENT)) == Acknowledging(MOMENT)
    assert next_mode(Acknowledging(MOMENT), MomentArrived(LATER)) == Acknowledging(LATER)
    assert next_mode(Spinning(ANIMATION, MOMENT), MomentArrived(LATER)) == \
        Spinning(ANIMATION, LATER)
    assert next_mode(Correcting(MENU, MOMENT), MomentArrived(None)) == Correcting(MENU, None)
    assert next_mode(Acknowledging(MOMENT), Acknowledged()) == Playing()


@pytest.mark.parametrize(("mode", "trigger"), [
    (Correcting(MENU), SpinStarted(ANIMATION)),
    (Spinning(ANIMATION), CorrectionOpened(MENU)),
    (Spinning(ANIMATION), SpinStarted(ANIMATION)),
    (Correcting(MENU), CorrectionOpened(MENU)),
    (Playing(), SpinEnded()),
    (Playing(), CorrectionClosed()),
    (Playing(), Acknowledged()),
    (Acknowledging(MOMENT), TakenBack()),
])
def test_a_change_the_table_cannot_make_is_refused(mode, trigger):
    with pytest.raises(IllegalTransition):
        next_mode(mode, trigger)


# -- through the controller ----------------------------------------------------------------


def _spin_with_a_result(rig):
    """10-Four to its first move spin, then flick it (a truck move: a result follows)."""
    for value in (12, 2, 2):
        rig.spin("hi", value)
    rig.tap(rig.controller.view.card_ids()[0])
    prompt = rig.session.state.prompt()
    assert prompt.kind == "spin" and rig.controller.mode == Playing()
    rig.controller.chance.forced_spin = 3
    rig.loop.step(KnobSpin(prompt.band or "hi", 1.0))


def test_a_spin_animates_then_shows_its_result_then_the_next_prompt():
    rig = new_emulated_rig("tenfour", 3, seed=4)
    _spin_with_a_result(rig)
    mode = rig.controller.mode
    assert isinstance(mode, Spinning) and mode.then is not None
    assert rig.screen.lines == ("spinning...",)
    rig.settle()
    assert rig.controller.mode == Acknowledging(mode.then)
    assert rig.screen.footer == "press: ok"
    assert rig.screen.title == mode.then.title
    steps = rig.session.steps
    rig.press("hi")
    assert rig.controller.mode == Playing()
    assert rig.session.steps == steps, "the acknowledging press is not also a choice"
    assert rig.screen.title == rig.controller.view.title(rig.session.state)


def test_a_press_during_a_spin_ends_it_and_shows_its_result():
    """It does not also acknowledge the result (issue 34: the move was never shown);
    tests/rig/test_early_input.py has the rest."""
    rig = new_emulated_rig("tenfour", 3, seed=4)
    _spin_with_a_result(rig)
    result = rig.controller.alert
    steps = rig.session.steps
    rig.loop.step(KnobPress("hi"))
    assert result is not None and rig.controller.mode == Acknowledging(result)
    assert rig.session.steps == steps
    assert rig.controller.next_deadline() is None, "no animation frame left to draw"


def test_the_correction_menu_opens_over_a_spin_and_gives_its_result_back():
    rig = new_emulated_rig("tenfour", 3, seed=4)
    _spin_with_a_result(rig)
    result = rig.controller.alert
    assert result is not None
    rig.loop.step(KnobLongPress("hi"))  # ends the animation, opens the menu over the result
    assert isinstance(rig.controller.mode, Correcting)
    assert rig.screen.title == "CORRECTION"
    rig.loop.step(KnobLongPress("hi"))
    assert rig.controller.mode == Acknowledging(result)
    assert rig.screen.title == result.title and rig.screen.footer == "press: ok"


def test_taking_back_a_move_drops_its_result_screen():
    rig = new_emulated_rig("bumpem", 2, seed=34)
    advance_to_choice(rig, random.Random(34))
    rig.press("hi")
    assert isinstance(rig.controller.mode, Acknowledging)
    rig.hold("hi")
    items = list(rig.screen.menu)
    row = next(i for i, item in enumerate(items) if item.startswith("Take back: "))
    rig.turn("hi", row - rig.screen.cursor)
    rig.press("hi")
    assert rig.controller.mode == Playing()
    assert rig.screen.menu, "back at the move menu"


def test_a_refusal_is_drawn_on_the_menu_and_outlives_closing_it():
    rig = new_emulated_rig("tenfour", 3, seed=4)
    rig.spin("lo")  # the start spin is on HI: refused
    refusal = "! Spin the HI knob"
    assert refusal in rig.screen.plain()
    rig.hold("hi")
    assert rig.screen.title == "CORRECTION" and refusal in rig.screen.plain()
    rig.hold("hi")
    assert rig.controller.mode == Playing() and refusal in rig.screen.plain()
    rig.wait(3.0)  # not a hang deadline: the emulated rig's clock
    assert refusal not in rig.screen.plain()
