"""The rig's brain: hardware events in, engine actions and screens out.

Only the event loop calls `handle`; this object owns the session (game state and
journal) and is the one place game state changes. It never sleeps: time-based things
(spin animations, notices that fade) are deadlines the loop waits for.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Iterable
from typing import Any, assert_never

from engine.api import Action, Event, State
from engine.errors import IllegalAction, Reason
from engine.search import Thinking
from engine.selfplay import Rng, sample_chance
from hardware.events import (
    CardPresented,
    DisplayStatus,
    FrameRejected,
    KnobLongPress,
    KnobPress,
    KnobSpin,
    KnobTurn,
    ReaderStatus,
    SoundStatus,
)
from rig.core.corrections import (
    ABANDON,
    ABANDON_ROW,
    CLOSE,
    STAY,
    TAKE_BACK,
    CorrectionMenu,
    Refusal,
)
from rig.core.journalread import JournalError
from rig.core.loop import Tick
from rig.core.modes import (
    Acknowledged,
    Acknowledging,
    Animation,
    Correcting,
    CorrectionClosed,
    CorrectionOpened,
    Mode,
    Moment,
    MomentArrived,
    Playing,
    SpinEnded,
    Spinning,
    SpinStarted,
    TakenBack,
    Trigger,
    next_mode,
    pending,
)
from rig.core.replay import describe_input
from rig.core.session import Session
from rig.screens import words
from rig.screens.gamescreen import Table, game_screen, status_text
from rig.screens.screen import PRESS_OK, Part, Screen, page_count
from rig.screens.views import ALERT, DETAIL, RESULT, ChanceInput, Fix, GameView, Notice, view_for
from valueclass import Frozen, Record, field

log = logging.getLogger(__name__)

SPIN_FRAME_MS = 70
SPINNING_LINES = (words.SPINNING,)
"""A spin frame's lines, one tuple for every frame (it was the literal ``("spinning...",)``,
a constant, until the words moved to rig.screens.words; built per frame, a kept screen
held a tuple of its own: the emulated rig's `screens`, issue 46's retained bytes)."""
REFUSAL_MS = 2500
ACK_GUARD_MS = 400
"""How long a new screen takes no input after an input (or a spin's end) made it: a
result, the next step's prompt, the next player's turn. Less than a person takes to see
a new screen and press, so a press made during the spin, or on its way as the result
appeared, is never taken as "ok" for a result nobody saw, and the second press of a
double press (0.12 s apart) never takes the next turn's step (issue 43)."""
GUARDED = (KnobPress, KnobSpin, CardPresented)
"""The inputs a new prompt does not take within `ACK_GUARD_MS` (a turn only moves a
cursor: browsing is never refused)."""
SLICE_MS = 2.0
"""How long a slice of a pending search runs before the loop looks for events again (it
ends after the sample that crosses it: one sample is the least)."""
SLICE_SAMPLES = 16
"""Most samples a slice runs (a clock that does not move, as in tests, ends it here)."""


Chooser = Callable[[State, list[Action]], Action]
KNOB = (KnobPress, KnobTurn, KnobSpin)
ACKNOWLEDGE = (*KNOB, CardPresented)
"""What acknowledges a result screen: a person acting (lifting a card off the reader
is not: the tap that made the result is one gesture with it)."""


class Seat(Record):
    """A seat's controller: a person, or a computer level whose choices are announced."""

    level: str = "human"
    chooser: Chooser | None = None
    think: Callable[[State, list[Action]], Thinking] | None = None
    """Starts the choice in slices (a `hard` level): the loop advances it between events
    instead of blocking on `chooser`, which gives the same answer in one go."""


class Refused(Frozen):
    """A refusal line ("! Spin the HI knob") and when it fades."""

    text: str
    until: float


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
        self.rng = chance_rng or random.SystemRandom()  # what secrets uses, without hmac
        self.on_alert = on_alert
        self.on_game_over = on_game_over
        self._deck: frozenset[str] | None = None
        self.cursor = 0
        self.hinted = 0
        """The computer's choice (or a person's hint) at this decision."""
        self.choice_pending = False
        self._thinking: Thinking | None = None
        """The pending choice's search, while it runs in slices."""
        self._cursor_moved = False
        """A person turned the menu at this decision: a hint that arrives leaves it."""
        self.work_clock: Callable[[], float] = time.perf_counter
        """What ends a slice of thinking (`SLICE_MS`): the real time spent, whatever the
        loop's clock says (an emulated rig's stands still). Tests may freeze it."""
        self.news: list[Notice] = []
        self.mode: Mode = Playing()
        """Which part takes an input and what shows (rig/core/modes.py): `_enter` changes it (and
        a failed save puts it back with the rest of this controller)."""
        self.page = 0
        self.refusal: Refused | None = None
        self.ready_at: float | None = None
        """Until when the result on screen takes no acknowledgement (`ACK_GUARD_MS`
        after it appeared at the end of a spin); None when any input is taken."""
        self.settled_at: float | None = None
        """Until when the screen an input just made (a result, the next step's prompt,
        the next player's turn) takes no input like it (`ACK_GUARD_MS`): the second press
        of a double press is answered, never taken for the next step."""
        self.settled_by: type | None = None
        """The kind of input that made that screen (a press, a flick, a card): the same
        again within the guard is the double; another gesture is a person going on."""
        self.answer = ""
        """The words answering an input the result screen did not take (its footer)."""
        self.tapped = -1
        """The step of the last card tapped on the reader (it may be taken back)."""
        self.reader_ok = True
        self.sound_ok = True
        self.forced_spin: int | None = None
        self.defer_sync = defer_sync
        self._undo: dict[str, Any] | None = None
        """This controller as it was before the input being saved (defer_sync)."""
        self._when_saved: list[Callable[[], None]] = []
        """What the input being saved sets off once it is on disk (buzzer, game over)."""
        if session.resumed is not None:
            note, short = words.resumed(session.resumed.steps,
                                        bool(session.resumed.dropped_bytes))
            self.news = [Notice(note, short=short)]
        self._preselect()

    # ----------------------------------------------------------------- input
    def handle(self, event: object) -> None:
        """Apply one hardware or timer event. Never raises for bad table input.

        A refusal goes with the screen it answered: once an input moves the game on
        (or a result comes and goes), the old refusal is not left above the new screen.
        The correction menu opens and closes over the game, refusal and all."""
        self.await_durable()
        now = self.clock()
        if self.refusal and now >= self.refusal.until:
            self.refusal = None
        refusal, steps, mode = self.refusal, self.session.steps, self.mode
        self._handle(event, now)
        self._guard(event, now, steps, mode)
        over = isinstance(mode, Correcting) or isinstance(self.mode, Correcting)
        if refusal is not None and self.refusal is refusal and (
                self.session.steps != steps or (self.mode != mode and not over)):
            self.refusal = None

    def _handle(self, event: object, now: float) -> None:
        if isinstance(event, Tick):
            if isinstance(self.mode, Spinning) and now >= self.mode.animation.ends:
                self._end_spin(now)
            if self.ready_at is not None and now >= self.ready_at:
                self.ready_at = None
            if self.settled_at is not None and now >= self.settled_at:
                self.settled_at = None
            self._think()
            return
        if isinstance(event, ReaderStatus):
            self.reader_ok = event.connected
            return
        if isinstance(event, SoundStatus):
            self.sound_ok = event.ok  # said on the screen: "no sound"
            return
        if isinstance(event, DisplayStatus | FrameRejected):
            return  # the daemon's HardwareLog writes them down; the game goes on
        if isinstance(self.mode, Spinning):
            if not isinstance(event, (*ACKNOWLEDGE, KnobLongPress)):
                return  # a card lifted off the reader: the spin goes on
            animation = self.mode.animation
            self._end_spin(now)  # an input ends the animation...
            if not isinstance(event, KnobLongPress):
                self._too_soon(event, animation, now)  # ...answered, never taken for what
                return  # follows
        if isinstance(event, KnobLongPress):
            self._toggle_correction()
            return
        if self._early_on_prompt(event, now):
            return
        mode = self.mode
        if isinstance(mode, Acknowledging) and self._not_acknowledging(event, now):
            return
        if isinstance(event, KnobTurn) and self._turn_page(event):
            return
        if isinstance(mode, Acknowledging) and self._next_page():
            return  # a press or tap reads on: page 2 is never skipped
        self.page = 0
        if isinstance(mode, Correcting):
            self._handle_correction(mode.menu, event)
            return
        if isinstance(mode, Acknowledging):
            self._enter(Acknowledged())
            if isinstance(event, KnobPress | KnobTurn):
                return  # the press only acknowledged: it is not also a choice
        self._handle_game(event)

    def _guard(self, event: object, now: float, steps: int, mode: Mode) -> None:
        """After an input that made a new screen (a result, the next step's prompt, the
        next player's turn), the screen takes no input for `ACK_GUARD_MS` (a spin's own
        result is guarded from the spin's end instead)."""
        if not isinstance(event, (*ACKNOWLEDGE, KnobLongPress)) or self.ready_at is not None:
            return
        if not isinstance(self.mode, Playing | Acknowledging) or self.over:
            return
        made = self.session.steps != steps or (isinstance(mode, Acknowledging)
                                               and isinstance(self.mode, Playing))
        if made:
            self.settled_at, self.settled_by = now + ACK_GUARD_MS / 1000, type(event)

    def _early_on_prompt(self, event: object, now: float) -> bool:
        """Whether an input reached the prompt too soon after the screen before it went:
        answered in words, on this screen, and not taken."""
        if not isinstance(self.mode, Playing) or not self._double(event, now):
            return False
        self._refuse(words.DOUBLE_PRESS)
        return True

    def _double(self, event: object, now: float) -> bool:
        """Whether ``event`` repeats, within the guard, the input that made the screen
        (a double press, a card tapped twice)."""
        return (isinstance(event, GUARDED) and self.settled_at is not None
                and now < self.settled_at and type(event) is self.settled_by)

    def _end_spin(self, now: float) -> None:
        """The animation gives way to its result, which takes no acknowledgement for
        `ACK_GUARD_MS`: it appeared by itself, not in answer to a person's input."""
        self._enter(SpinEnded())
        if isinstance(self.mode, Acknowledging):
            self.ready_at = now + ACK_GUARD_MS / 1000

    def _too_soon(self, event: object, animation: Animation, now: float) -> None:
        """Answer an input that came while the spin animated, on the spinner's own
        screen: the result it led to, with the answer in its footer. A spin that leads
        straight to the next prompt (the start order) shows what it spun first, titled
        with the spinner, so the answer is never on the next player's screen."""
        if not isinstance(self.mode, Acknowledging):
            news = [Part(n.text, "result", n.short) for n in self.news]
            self.news = []
            parts = tuple(news) or (Part(words.spun(animation.final), "result"),)
            self._enter(MomentArrived(Moment(title=animation.title, parts=parts,
                                             big=animation.final)))
            self.ready_at = now + ACK_GUARD_MS / 1000
        self.answer = words.early_answer(event)

    def _not_acknowledging(self, event: object, now: float) -> bool:
        """Whether an input on a result screen leaves it as it is: a card lifted off
        the reader (the table has not read it yet), any input before the result can
        have been seen (answered), or a flick (it reads on to the next page, but on the
        last it is answered: a flick is not "ok")."""
        if not isinstance(event, ACKNOWLEDGE):
            return True
        if (self.ready_at is not None and now < self.ready_at) or self._double(event, now):
            self.answer = words.early_answer(event)
            return True
        if isinstance(event, KnobSpin):
            if not self._next_page():  # a flick reads on, as a press does...
                self.answer = words.NOT_A_FLICK  # ...but is no "ok" for the last page
            return True
        return False

    def _enter(self, trigger: Trigger) -> None:
        """The one way the mode changes (the table of changes is `rig.core.modes.next_mode`);
        an answer on a result screen, and its wait, go with the screen."""
        self.mode = next_mode(self.mode, trigger)
        self.ready_at, self.settled_at, self.answer = None, None, ""

    @property
    def over(self) -> bool:
        """The game takes no more input: won, or abandoned (RULINGS G7)."""
        return self.session.abandoned or self.session.state.is_terminal()

    def _handle_game(self, event: object) -> None:
        state = self.session.state
        if self.over:
            if isinstance(event, KNOB):
                self._refuse(words.GAME_OVER)
            return
        if state.is_chance_node():
            self._handle_chance(event)
        else:
            self._handle_decision(event)

    def _turn_page(self, event: KnobTurn) -> bool:
        """A turn pages a screen whose text needs more than one page: any knob on a
        screen without a menu, the LO knob beside a menu."""
        screen = self.screen()
        pages = page_count(screen)
        if pages < 2 or (screen.menu and event.knob != "lo"):
            return False
        self.page = (self.page + event.steps) % pages
        self.answer = ""  # it answered the page before
        return True

    def _next_page(self) -> bool:
        """Show the next page of the screen, if it has one after this."""
        if self.page + 1 >= page_count(self.screen()):
            return False
        self.page += 1
        self.answer = ""  # it answered the page before
        return True

    def _handle_chance(self, event: object) -> None:
        state = self.session.state
        need = self.view.chance_input(state)
        if isinstance(event, CardPresented):
            card_id = self.options.cards.get(event.tag)
            if card_id is None:
                self._refuse(words.unknown_card(event.tag))
                return
            if card_id not in self._deck_ids():
                self._refuse(words.not_in_deck(card_id))
                return
            action = self.view.action_for_card(state, card_id)
            if action is None:
                self._refuse(words.not_now(self._waiting_for()))
                return
            if self._apply(action):
                self.tapped = self.session.steps  # a tap may be taken back (G5)
        elif isinstance(event, KnobSpin | KnobPress):
            if need.kind == "spin":
                if event.knob != need.knob:
                    self._refuse(words.wrong_knob(need.knob, event.knob))
                    return
                strength = event.strength if isinstance(event, KnobSpin) else 0.5
                self._spin(strength)
            elif need.kind == "ticket" or (need.kind == "card" and self.options.virtual_deck):
                if isinstance(event, KnobSpin):
                    self._refuse(words.no_spin_now(self._how_text(need)))
                    return
                self._apply(sample_chance(state.chance_outcomes(), self.rng))
            else:
                self._refuse(words.tap_on_reader(need.noun))
        elif isinstance(event, KnobTurn):
            self._refuse(words.not_a_turn(self._how_text(need)))

    def _how_text(self, need: ChanceInput) -> str:
        """What resolves this chance node, as an order ("flick the HI knob")."""
        if need.kind == "spin":
            return words.flick(need.knob)
        if need.kind == "card" and not self.options.virtual_deck:
            return words.tap(need.noun)
        return words.press_for(need.noun)

    def _deck_ids(self) -> frozenset[str]:
        """The card ids of the deck in use (a tag map enrolled for another deck may name
        cards this one lacks)."""
        if self._deck is None:
            self._deck = frozenset(self.view.card_ids())
        return self._deck

    def _spin(self, strength: float) -> None:
        state = self.session.state
        action = None
        if self.forced_spin is not None:
            action = self.view.forced_spin(state, self.forced_spin)
            self.forced_spin = None
            if action is None:
                self._refuse(words.NOT_ON_BAND)
                return
        if action is None:
            action = sample_chance(state.chance_outcomes(), self.rng)
        values = [self.view.outcome_text(state, a) for a, _ in state.chance_outcomes()]
        final = self.view.outcome_text(state, action)
        title = self.view.title(state)
        if self._apply(action):
            start = self.clock()
            duration = (400 + 1400 * max(0.0, min(1.0, strength))) / 1000
            self._enter(SpinStarted(Animation(values=values, started=start,
                                              ends=start + duration, final=final,
                                              title=title)))

    def choices(self) -> list[Action]:
        """The legal choices in menu order (the view's board order)."""
        state = self.session.state
        return self.view.menu_order(state, list(state.legal_actions()))

    def _handle_decision(self, event: object) -> None:
        seat = self.seats[self.session.state.current_player()]
        if seat.think is None:
            self._resolve_choice(move_cursor=seat.level != "hint")
        elif self.choice_pending and seat.level != "hint" and isinstance(event, KnobPress):
            self._refuse(words.THINKING)  # the computer's move shows when its search ends
            return
        legal = self.choices()
        if isinstance(event, KnobTurn):
            self.cursor = (self.cursor + event.steps) % len(legal)
            self._cursor_moved = True
        elif isinstance(event, KnobPress):
            self._apply(legal[min(self.cursor, len(legal) - 1)])
        elif isinstance(event, CardPresented):
            self._refuse(words.not_now(self._waiting_for()))
        elif isinstance(event, KnobSpin):
            self._refuse(words.NO_SPIN_HERE)

    def _apply(self, action: Action) -> bool:
        before = self._snapshot() if self.defer_sync else None
        state = self.session.state
        actor = state.prompt().player
        try:
            events = self.session.apply(action, defer_sync=self.defer_sync)
        except IllegalAction as exc:
            self._refuse(self._refusal_text(exc))
            return False
        except (JournalError, OSError) as exc:
            log.error("input not saved, refused: %s", exc)
            self._refuse(words.not_saved(exc))
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

    def _snapshot(self) -> dict[str, Any]:
        """The controller's fields as they are (shallow: handling an input replaces
        them, it does not change the objects they hold)."""
        return {k: v for k, v in vars(self).items() if k not in ("_undo", "_when_saved")}

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
            vars(self).update(before)
            self._refuse(words.not_saved(exc))
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
        self.news = [n for n in notices if n.role not in (RESULT, DETAIL, ALERT)][-3:]
        shown = [n for n in notices if n.role in (RESULT, DETAIL, ALERT)]
        alerts = [n for n in shown if n.alert]
        if not any(n.role in (RESULT, ALERT) for n in shown):
            self.news = [*[n for n in shown], *self.news][-3:]
            return
        parts = _once_each(Part(n.text, "alert" if n.alert else "result", n.short)
                           for n in shown)
        if alerts:
            title = alerts[0].headline or words.ALERT_TITLE
            self._enter(MomentArrived(Moment(title=title, parts=parts, alert=True)))
            if self.on_alert is not None:
                on_alert, first = self.on_alert, alerts[0]
                self._once_saved(lambda: on_alert(first))
            return
        big = next((n.big for n in reversed(shown) if n.big), "")
        title = self.view.seat_title(actor) if actor >= 0 else self.view.title(
            self.session.state)
        self._enter(MomentArrived(Moment(title=title, parts=parts, big=big)))

    def _preselect(self) -> None:
        """At a decision for a computer seat (or with hints), ask for its choice soon.

        The choice is worked out on the loop's next tick, after the frame for this
        input is drawn, so thinking never delays what the table sees.
        """
        self.cursor = self.hinted = 0
        self.choice_pending = False
        self._thinking = None  # a search for the position before is dropped
        self._cursor_moved = False
        state = self.session.state
        if self.over or state.is_chance_node():
            return
        self.choice_pending = self.seats[state.current_player()].chooser is not None

    def _think(self) -> None:
        """Work on the pending choice for one slice (the loop sends a Tick only when no
        event waits): a level that thinks in slices runs up to `SLICE_SAMPLES` samples or
        `SLICE_MS`, the others choose at once."""
        if not self.choice_pending:
            return
        state = self.session.state
        seat = self.seats[state.current_player()]
        if seat.think is None:
            self._resolve_choice(move_cursor=True)
            return
        if self._thinking is None:
            self._thinking = seat.think(state, list(state.legal_actions()))
        ends = self.work_clock() + SLICE_MS / 1000
        for _ in range(SLICE_SAMPLES):
            action = self._thinking.advance(1)
            if action is not None:
                self._chosen(action, move_cursor=seat.level != "hint"
                             or not self._cursor_moved)
                return
            if self.work_clock() >= ends:
                return

    def _resolve_choice(self, move_cursor: bool) -> None:
        """Work out the pending choice at once; the cursor follows it unless a person
        moved it."""
        if not self.choice_pending:
            return
        state = self.session.state
        chooser = self.seats[state.current_player()].chooser
        assert chooser is not None
        self._chosen(chooser(state, list(state.legal_actions())), move_cursor)

    def _chosen(self, action: Action, move_cursor: bool) -> None:
        """The pending choice is made: mark it (and put the cursor on it)."""
        self.choice_pending = False
        self._thinking = None
        self.hinted = self.choices().index(action)
        if move_cursor:
            self.cursor = self.hinted

    def _refuse(self, text: str) -> None:
        self.refusal = Refused(text, self.clock() + REFUSAL_MS / 1000)

    def _waiting_for(self) -> str:
        parts = self.view.prompt_parts(self.session.state)
        return (parts[-1].short or parts[-1].text) if parts else words.ANOTHER_INPUT

    # ----------------------------------------------------------- corrections
    def _toggle_correction(self) -> None:
        state = self.session.state
        if isinstance(self.mode, Correcting):
            self._enter(CorrectionClosed())
        elif not self.over:
            menu = CorrectionMenu(self.view, state, self._correction_rows(state))
            self._enter(CorrectionOpened(menu))

    def _correction_rows(self, state: State) -> list[Fix]:
        rows = [Fix(words, piece=piece) for piece, words in self.view.correction_pieces(state)]
        rows += self.view.turn_fixes(state)
        last = self._take_back_offer()
        if last is not None:
            rows.append(Fix(words.take_back(last), take_back=True))
        rows.append(ABANDON_ROW)
        return rows

    def _handle_correction(self, menu: CorrectionMenu, event: object) -> None:
        if isinstance(event, KnobTurn):
            menu.turn(event.knob, event.steps)
            return
        if isinstance(event, KnobSpin):
            self._refuse(words.NO_SPIN_IN_CORRECTIONS)
            return
        if isinstance(event, CardPresented):
            self._refuse(words.CARD_NOT_READ)
            return
        if not isinstance(event, KnobPress):
            return
        outcome = menu.press()
        if outcome == CLOSE:
            self._enter(CorrectionClosed())
        elif outcome == TAKE_BACK:
            self._take_back()
        elif outcome == ABANDON:
            self._abandon()
        elif isinstance(outcome, Refusal):
            self._refuse(outcome.text)
        elif outcome != STAY and not isinstance(outcome, str) and self._apply(outcome):
            self._enter(CorrectionClosed())

    def _take_back_offer(self) -> str | None:
        """The last input, in words, when it may be taken back: a menu choice (a move,
        a correction) or a card tapped on the reader; never a spin or a draw from the
        virtual deck (RULINGS G5: that would let a player spin or draw again)."""
        session = self.session
        if not session.history:
            return None
        last = session.game.action_from_json(session.history[-1])
        before = session.state_before_last()
        correction = last.KIND.startswith("correct")
        if before.is_chance_node() and not correction and self.tapped != session.steps:
            return None
        return describe_input(before, last)

    def _journaled(self, write: Callable[[], None]) -> bool:
        """Write the correction menu's own journal entry (a take-back, an abandon); if it
        cannot be saved, nothing changes and the screen says why."""
        try:
            write()
        except (JournalError, OSError) as exc:
            self._refuse(words.not_saved(exc))
            return False
        return True

    def _take_back(self) -> None:
        what = self._take_back_offer()
        if not self._journaled(self.session.take_back):
            return
        self._enter(TakenBack())
        self.news = [Notice(words.taken_back(what))]
        self._preselect()

    def _abandon(self) -> None:
        """Abandon the game once confirmed (RULINGS G7): journaled first; whoever runs
        the rig (`rig.core.app.App`) then files it and goes back to the setup menu."""
        if not self._journaled(self.session.abandon):
            return
        self._enter(CorrectionClosed())
        self._enter(MomentArrived(None))
        self.news = [Notice(words.ABANDONED, short=words.ABANDONED_SHORT)]
        self._preselect()

    # ---------------------------------------------------------------- output
    def next_deadline(self) -> float | None:
        """When the screen will change by itself (animation frame, refusal fading)."""
        deadlines = []
        if self.choice_pending:
            deadlines.append(self.clock())
        if isinstance(self.mode, Spinning):
            ends = self.mode.animation.ends
            deadlines.append(min(ends, self.clock() + SPIN_FRAME_MS / 1000))
        if self.refusal is not None:
            deadlines.append(self.refusal.until)
        return min(deadlines) if deadlines else None

    def screen(self) -> Screen:
        status = status_text(self.reader_ok, self.sound_ok)
        mode = self.mode
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
                          alert=moment.alert, footer=self.answer or PRESS_OK,
                          status=status, page=self.page)
        if isinstance(mode, Playing):
            return game_screen(self._table(status))
        assert_never(mode)

    def _table(self, status: str) -> Table:
        """What the game screen shows (rig.screens.gamescreen), as a plain record."""
        session, state = self.session, self.session.state
        deciding = not (session.abandoned or state.is_terminal() or state.is_chance_node())
        seat = self.seats[state.current_player()] if deciding else Seat(level="")
        return Table(state=state, view=self.view, news=tuple(self.news),
                     refusal=self.refusal.text if self.refusal is not None else None,
                     abandoned=session.abandoned, status=status, page=self.page,
                     cursor=self.cursor, hinted=self.hinted,
                     choice_pending=self.choice_pending, level=seat.level,
                     computer=seat.chooser is not None,
                     choices=tuple(self.choices()) if deciding else (),
                     virtual_deck=self.options.virtual_deck)

    def _correction_screen(self, menu: CorrectionMenu, status: str) -> Screen:
        lines = [menu.heading()]
        if self.refusal is not None:
            lines.append(Part("! " + self.refusal.text, "refusal"))
        return Screen(title=words.CORRECTION_TITLE, lines=tuple(lines), menu=tuple(menu.items()),
                      cursor=menu.cursor, footer=menu.footer(), status=status)

    # ------------------------------------------- the mode, as tools and tests read it
    @property
    def alert(self) -> Moment | None:
        """The result or alert waiting to be acknowledged (shown now, or after the
        animation or the correction menu over it); None to dismiss it."""
        return pending(self.mode)

    @alert.setter
    def alert(self, moment: Moment | None) -> None:
        self._enter(MomentArrived(moment))

    @property
    def animation(self) -> Animation | None:
        """The spin animating now; None to end it at once (as any input would)."""
        return self.mode.animation if isinstance(self.mode, Spinning) else None

    @animation.setter
    def animation(self, value: None) -> None:
        if value is not None:
            raise ValueError("an animation starts from a spin, not by assignment")
        if isinstance(self.mode, Spinning):
            self._enter(SpinEnded())

    @property
    def correction(self) -> CorrectionMenu | None:
        """The correction menu, when it is open."""
        return self.mode.menu if isinstance(self.mode, Correcting) else None


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
