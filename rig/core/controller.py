"""The rig's brain: hardware events in, engine actions and screens out.

Only the event loop calls `handle`; this object owns the session (game state and
journal) and is the one place game state changes. It never sleeps: time-based things
(spin animations, notices that fade) are deadlines the loop waits for.

Its parts each own their state: the `Face` (rig/core/face.py: the mode, refusal, news
and the guards of a new screen), the chance input (`Chance`, rig/core/chance.py), the
decision's menu and the computer seats' thinking (`Decisions`, rig/core/decisions.py) and
the correction menu at work (`Corrections`, rig/core/correcting.py). They change what
shows only through the face, and the game only through `_apply`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any, assert_never

from engine.api import Action, Event, State
from engine.errors import IllegalAction, Reason
from engine.selfplay import Rng
from hardware.events import (
    DisplayStatus,
    FrameRejected,
    KnobLongPress,
    KnobPress,
    KnobTurn,
    ReaderStatus,
    SoundStatus,
)
from rig.core.chance import Chance
from rig.core.correcting import Corrections
from rig.core.corrections import CorrectionMenu
from rig.core.decisions import Decisions, Seat
from rig.core.face import ACKNOWLEDGE, KNOB, Face
from rig.core.journalread import JournalError
from rig.core.loop import Tick
from rig.core.modes import (
    Acknowledged,
    Acknowledging,
    Animation,
    Correcting,
    Mode,
    Moment,
    MomentArrived,
    Playing,
    SpinEnded,
    Spinning,
    pending,
)
from rig.core.session import Session
from rig.screens import words
from rig.screens.gamescreen import Table, game_screen, status_text
from rig.screens.screen import PRESS_OK, Part, Screen, page_count
from rig.screens.views import ALERT, DETAIL, RESULT, GameView, Notice, view_for
from valueclass import Record, field

__all__ = ["Controller", "ControllerOptions", "Seat", "valid_cards"]

log = logging.getLogger(__name__)

SPIN_FRAME_MS = 70
SPINNING_LINES = (words.SPINNING,)
"""A spin frame's lines, one tuple for every frame (it was the literal ``("spinning...",)``,
a constant, until the words moved to rig.screens.words; built per frame, a kept screen
held a tuple of its own: the emulated rig's `screens`, issue 46's retained bytes)."""


class ControllerOptions(Record):
    virtual_deck: bool = True
    hints: bool = False
    cards: dict[str, str] = field(default_factory=dict)
    """Enrolled RFID tags: tag -> card (or ticket) id."""


class Controller:
    def __init__(
        self,
        session: Session,
        clock: Callable[[], float],
        options: ControllerOptions | None = None,
        seats: list[Seat] | None = None,
        chance_rng: Rng | None = None,
        on_alert: Callable[[Notice], None] | None = None,
        on_game_over: Callable[[Session], None] | None = None,
        defer_sync: bool = False,
    ) -> None:
        """``defer_sync``: an accepted input's fsync runs on a helper thread while the
        loop renders the next frame; the loop must call :meth:`await_durable` before it
        shows that frame (:class:`rig.core.loop.RigLoop` does)."""
        self.session = session
        self.clock = clock
        self.options = options or ControllerOptions()
        self.view: GameView[State] = view_for(session.game)
        self.seats = seats or [Seat() for _ in range(session.game.num_players)]
        self.on_alert = on_alert
        self.on_game_over = on_game_over
        self.face = Face(lambda: self.clock())
        self.decisions = Decisions(session, self.view, self.seats, self.face, self._apply,
                                   self._waiting_for)
        self.chance = Chance(session, self.view, self.face, self._apply, self._waiting_for,
                             self.options.cards, self.options.virtual_deck, chance_rng)
        self.corrections = Corrections(session, self.view, self.face, self._apply,
                                       self._preselect, lambda: self.chance.tapped)
        self.reader_ok = True
        self.sound_ok = True
        self.defer_sync = defer_sync
        self._undo: list[tuple[object, dict[str, Any]]] | None = None
        """This controller and its parts as they were before the input being saved."""
        self._when_saved: list[Callable[[], None]] = []
        """What the input being saved sets off once it is on disk (buzzer, game over)."""
        if session.resumed is not None:
            note, short = words.resumed(session.resumed.steps,
                                        bool(session.resumed.dropped_bytes))
            self.face.news = [Notice(note, short=short)]
        self._preselect()

    # ----------------------------------------------------------------- input
    def handle(self, event: object) -> None:
        """Apply one hardware or timer event. Never raises for bad table input.

        A refusal goes with the screen it answered: once an input moves the game on
        (or a result comes and goes), the old refusal is not left above the new screen.
        The correction menu opens and closes over the game, refusal and all."""
        self.await_durable()
        face = self.face
        now = self.clock()
        if face.refusal and now >= face.refusal.until:
            face.refusal = None
        refusal, steps, mode = face.refusal, self.session.steps, face.mode
        self._handle(event, now)
        if (isinstance(event, (*ACKNOWLEDGE, KnobLongPress)) and face.ready_at is None
                and isinstance(face.mode, Playing | Acknowledging) and not self.over
                and (self.session.steps != steps or (isinstance(mode, Acknowledging)
                                                     and isinstance(face.mode, Playing)))):
            face.settle(event, now)  # the input made a new screen: it is guarded
        over = isinstance(mode, Correcting) or isinstance(face.mode, Correcting)
        if refusal is not None and face.refusal is refusal and (
                self.session.steps != steps or (face.mode != mode and not over)):
            face.refusal = None

    def _handle(self, event: object, now: float) -> None:
        face = self.face
        if isinstance(event, Tick):
            if isinstance(face.mode, Spinning) and now >= face.mode.animation.ends:
                face.end_spin(now)
            face.tick(now)
            self.decisions.think()
            return
        if isinstance(event, ReaderStatus):
            self.reader_ok = event.connected
            return
        if isinstance(event, SoundStatus):
            self.sound_ok = event.ok  # said on the screen: "no sound"
            return
        if isinstance(event, DisplayStatus | FrameRejected):
            return  # the daemon's HardwareLog writes them down; the game goes on
        if isinstance(face.mode, Spinning):
            if not isinstance(event, (*ACKNOWLEDGE, KnobLongPress)):
                return  # a card lifted off the reader: the spin goes on
            animation = face.mode.animation
            face.end_spin(now)  # an input ends the animation...
            if not isinstance(event, KnobLongPress):
                face.too_soon(event, animation, now)  # ...answered, never taken for what
                return  # follows
        if isinstance(event, KnobLongPress):
            self.corrections.toggle(self.over)
            return
        if face.early_on_prompt(event, now):
            return
        mode = face.mode
        if isinstance(mode, Acknowledging) and face.not_acknowledging(event, now,
                                                                      self._next_page):
            return
        if isinstance(event, KnobTurn) and self._turn_page(event):
            return
        if isinstance(mode, Acknowledging) and self._next_page():
            return  # a press or tap reads on: page 2 is never skipped
        face.page = 0
        if isinstance(mode, Correcting):
            self.corrections.handle(mode.menu, event)
            return
        if isinstance(mode, Acknowledging):
            face.enter(Acknowledged())
            if isinstance(event, KnobPress | KnobTurn):
                return  # the press only acknowledged: it is not also a choice
        self._handle_game(event)

    @property
    def over(self) -> bool:
        """The game takes no more input: won, or abandoned (RULINGS G7)."""
        return self.session.abandoned or self.session.state.is_terminal()

    def _handle_game(self, event: object) -> None:
        state = self.session.state
        if self.over:
            if isinstance(event, KNOB):
                self.face.refuse(words.GAME_OVER)
            return
        if state.is_chance_node():
            self.chance.handle(event)
        else:
            self.decisions.handle(event)

    def _turn_page(self, event: KnobTurn) -> bool:
        """A turn pages a screen whose text needs more than one page: any knob on a
        screen without a menu, the LO knob beside a menu."""
        screen = self.screen()
        pages = page_count(screen)
        if pages < 2 or (screen.menu and event.knob != "lo"):
            return False
        self.face.page = (self.face.page + event.steps) % pages
        self.face.answer = ""  # it answered the page before
        return True

    def _next_page(self) -> bool:
        """Show the next page of the screen, if it has one after this."""
        if self.face.page + 1 >= page_count(self.screen()):
            return False
        self.face.page += 1
        self.face.answer = ""  # it answered the page before
        return True

    def choices(self) -> list[Action]:
        """The legal choices in menu order (the view's board order)."""
        return self.decisions.choices()

    def _apply(self, action: Action) -> bool:
        before = self._snapshot() if self.defer_sync else None
        state = self.session.state
        actor = state.prompt().player
        try:
            events = self.session.apply(action, defer_sync=self.defer_sync)
        except IllegalAction as exc:
            self.face.refuse(self._refusal_text(exc))
            return False
        except (JournalError, OSError) as exc:
            log.error("input not saved, refused: %s", exc)
            self.face.refuse(words.not_saved(exc))
            return False
        if self.session.saving:
            self._undo = before
        steps = self.session.steps
        # said once the input is on disk (the log is how a test outside the Pi sees it)
        self._once_saved(lambda: log.info("input %d saved: %s", steps, action))
        self._announce(events, actor)
        self._preselect()
        if self.session.state.is_terminal() and self.on_game_over is not None:
            on_game_over = self.on_game_over
            self._once_saved(lambda: on_game_over(self.session))
        return True

    def _snapshot(self) -> list[tuple[object, dict[str, Any]]]:
        """The fields of this controller and its parts as they are (shallow: handling an
        input replaces them, it does not change the objects they hold)."""
        return [(part, {k: v for k, v in vars(part).items() if k not in ("_undo", "_when_saved")})
                for part in (self, self.face, self.decisions, self.chance)]

    def _once_saved(self, effect: Callable[[], None]) -> None:
        """Run ``effect`` now, or once the input being saved is on disk."""
        if self._undo is None:
            effect()
        else:
            self._when_saved.append(effect)

    def await_durable(self) -> bool:
        """Block until the input being saved (defer_sync) is on disk, then let what it
        sets off happen. True if the screen may show it; False if saving failed: the
        game and this controller are put back as they were before that input, and it is
        refused on screen, exactly as when an append fails at once."""
        if self._undo is None:
            return True
        before, self._undo = self._undo, None
        effects, self._when_saved = self._when_saved, []
        try:
            self.session.wait_durable()
        except (JournalError, OSError) as exc:
            for part, fields in before:
                vars(part).update(fields)
            self.face.refuse(words.not_saved(exc))
            return False
        for effect in effects:
            effect()
        return True

    def _refusal_text(self, exc: IllegalAction) -> str:
        """Card and ticket taps are the only chance inputs a person can make wrongly
        (spins and virtual draws come from the rig itself)."""
        if exc.reason is Reason.IMPOSSIBLE_OUTCOME:
            noun = self.view.chance_input(self.session.state).noun
            return words.already_drawn(noun)
        return words.refused(exc.reason.value)

    def _announce(self, events: list[Event], actor: int) -> None:
        """Results and alerts make the screen the table acknowledges, titled with the
        mover (or the alert's headline); news waits on the next prompt."""
        notices = self.view.notices(self.session.state, events)
        self.face.news = [n for n in notices if n.role not in (RESULT, DETAIL, ALERT)][-3:]
        shown = [n for n in notices if n.role in (RESULT, DETAIL, ALERT)]
        alerts = [n for n in shown if n.alert]
        if not any(n.role in (RESULT, ALERT) for n in shown):
            self.face.news = [*[n for n in shown], *self.face.news][-3:]
            return
        parts = _once_each(Part(n.text, "alert" if n.alert else "result", n.short)
                           for n in shown)
        if alerts:
            title = alerts[0].headline or words.ALERT_TITLE
            self.face.enter(MomentArrived(Moment(title=title, parts=parts, alert=True)))
            if self.on_alert is not None:
                on_alert, first = self.on_alert, alerts[0]
                self._once_saved(lambda: on_alert(first))
            return
        big = next((n.big for n in reversed(shown) if n.big), "")
        title = self.view.seat_title(actor) if actor >= 0 else self.view.title(
            self.session.state)
        self.face.enter(MomentArrived(Moment(title=title, parts=parts, big=big)))

    def _preselect(self) -> None:
        """The game is at a new position: its decision's menu starts over."""
        self.decisions.preselect(self.over)

    def _waiting_for(self) -> str:
        parts = self.view.prompt_parts(self.session.state)
        return (parts[-1].short or parts[-1].text) if parts else words.ANOTHER_INPUT

    # ---------------------------------------------------------------- output
    def next_deadline(self) -> float | None:
        """When the screen will change by itself (animation frame, refusal fading)."""
        deadlines = []
        if self.decisions.choice_pending:
            deadlines.append(self.clock())
        if isinstance(self.face.mode, Spinning):
            ends = self.face.mode.animation.ends
            deadlines.append(min(ends, self.clock() + SPIN_FRAME_MS / 1000))
        if self.face.refusal is not None:
            deadlines.append(self.face.refusal.until)
        return min(deadlines) if deadlines else None

    def screen(self) -> Screen:
        status = status_text(self.reader_ok, self.sound_ok)
        mode = self.face.mode
        if isinstance(mode, Correcting):
            return self._correction_screen(mode.menu, status)
        if isinstance(mode, Spinning):
            animation = mode.animation
            frame = int((self.clock() - animation.started) * 1000 // SPIN_FRAME_MS)
            value = animation.values[frame % len(animation.values)]
            return Screen(title=animation.title, big=value, lines=SPINNING_LINES,
                          status=status)
        if isinstance(mode, Acknowledging):
            moment = mode.moment
            return Screen(title=moment.title, big=moment.big or None, lines=moment.parts,
                          alert=moment.alert, footer=self.face.answer or PRESS_OK,
                          status=status, page=self.face.page)
        if isinstance(mode, Playing):
            return game_screen(self._table(status))
        assert_never(mode)

    def _table(self, status: str) -> Table:
        """What the game screen shows (rig.screens.gamescreen), as a plain record."""
        session, state = self.session, self.session.state
        deciding = not (session.abandoned or state.is_terminal() or state.is_chance_node())
        seat = self.seats[state.current_player()] if deciding else Seat(level="")
        return Table(state=state, view=self.view, news=tuple(self.face.news),
                     refusal=self.face.refusal.text if self.face.refusal is not None else None,
                     abandoned=session.abandoned, status=status, page=self.face.page,
                     cursor=self.decisions.cursor, hinted=self.decisions.hinted,
                     choice_pending=self.decisions.choice_pending, level=seat.level,
                     computer=seat.chooser is not None,
                     choices=tuple(self.decisions.choices()) if deciding else (),
                     virtual_deck=self.options.virtual_deck)

    def _correction_screen(self, menu: CorrectionMenu, status: str) -> Screen:
        lines = [menu.heading()]
        if self.face.refusal is not None:
            lines.append(Part("! " + self.face.refusal.text, "refusal"))
        return Screen(title=words.CORRECTION_TITLE, lines=tuple(lines), menu=tuple(menu.items()),
                      cursor=menu.cursor, footer=menu.footer(), status=status)

    # ------------------------------------------- the mode, as tools and tests read it
    @property
    def alert(self) -> Moment | None:
        """The result or alert waiting to be acknowledged (shown now, or after the
        animation or the correction menu over it); None to dismiss it."""
        return pending(self.face.mode)

    @alert.setter
    def alert(self, moment: Moment | None) -> None:
        self.face.enter(MomentArrived(moment))

    @property
    def animation(self) -> Animation | None:
        """The spin animating now; None to end it at once (as any input would)."""
        return self.face.mode.animation if isinstance(self.face.mode, Spinning) else None

    @animation.setter
    def animation(self, value: None) -> None:
        if value is not None:
            raise ValueError("an animation starts from a spin, not by assignment")
        if isinstance(self.face.mode, Spinning):
            self.face.enter(SpinEnded())

    @property
    def correction(self) -> CorrectionMenu | None:
        """The correction menu, when it is open."""
        return self.face.mode.menu if isinstance(self.face.mode, Correcting) else None

    @property
    def mode(self) -> Mode:
        """Which part takes an input and what shows (the face's, rig/core/modes.py)."""
        return self.face.mode


def _once_each(parts: Iterable[Part]) -> tuple[Part, ...]:
    """Identical lines once, counted ("(twice)"): a screen never repeats a line."""
    counted: dict[Part, int] = {}
    for part in parts:
        counted[part] = counted.get(part, 0) + 1
    return tuple(part if n == 1 else Part(f"{part.text} ({words.times(n)})", part.role,
                                          part.short and f"{part.short} ({words.times(n)})")
                 for part, n in counted.items())


def valid_cards(controller: Controller) -> list[str]:
    """The card (or ticket) ids the reader would accept right now, in deck order."""
    state = controller.session.state
    if state.is_terminal() or not state.is_chance_node():
        return []
    possible = [action for action, _ in state.chance_outcomes()]
    view = controller.view
    return [card for card in view.card_ids()
            if view.action_for_card(state, card) in possible]
