"""The table's input at a chance node: a card or ticket tapped on the reader, a draw
from the virtual deck, a spin of the knob the game names (and its animation)."""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.api import Action, State
from engine.selfplay import Rng, sample_chance
from hardware.events import CardPresented, KnobPress, KnobSpin, KnobTurn
from rig.core.face import Face
from rig.core.modes import Animation, SpinStarted
from rig.core.session import Session
from rig.screens import words
from rig.screens.views import ChanceInput, GameView


class Chance:
    """Takes the chance input the game asks for, or says what it wants instead."""

    def __init__(self, session: Session, view: GameView[State], face: Face,
                 apply: Callable[[Action], bool], waiting_for: Callable[[], str],
                 cards: dict[str, str], virtual_deck: bool, rng: Rng | None) -> None:
        self.session = session
        self.view = view
        self.face = face
        self.apply = apply
        self.waiting_for = waiting_for
        self.cards = cards
        """Enrolled RFID tags: tag -> card (or ticket) id."""
        self.virtual_deck = virtual_deck
        self.rng = rng or random.SystemRandom()  # what secrets uses, without hmac
        self.forced_spin: int | None = None
        self.tapped = -1
        """The step of the last card tapped on the reader (it may be taken back)."""
        self.deck: frozenset[str] | None = None

    def handle(self, event: object) -> None:
        state = self.session.state
        need = self.view.chance_input(state)
        refuse = self.face.refuse
        if isinstance(event, CardPresented):
            card_id = self.cards.get(event.tag)
            if card_id is None:
                refuse(words.unknown_card(event.tag))
                return
            if card_id not in self.deck_ids():
                refuse(words.not_in_deck(card_id))
                return
            action = self.view.action_for_card(state, card_id)
            if action is None:
                refuse(words.not_now(self.waiting_for()))
                return
            if self.apply(action):
                self.tapped = self.session.steps  # a tap may be taken back (G5)
        elif isinstance(event, KnobSpin | KnobPress):
            if need.kind == "spin":
                if event.knob != need.knob:
                    refuse(words.wrong_knob(need.knob, event.knob))
                    return
                strength = event.strength if isinstance(event, KnobSpin) else 0.5
                self.spin(strength)
            elif need.kind == "ticket" or (need.kind == "card" and self.virtual_deck):
                if isinstance(event, KnobSpin):
                    refuse(words.no_spin_now(self.how_text(need)))
                    return
                self.apply(sample_chance(state.chance_outcomes(), self.rng))
            else:
                refuse(words.tap_on_reader(need.noun))
        elif isinstance(event, KnobTurn):
            refuse(words.not_a_turn(self.how_text(need)))

    def how_text(self, need: ChanceInput) -> str:
        """What resolves this chance node, as an order ("flick the HI knob")."""
        if need.kind == "spin":
            return words.flick(need.knob)
        if need.kind == "card" and not self.virtual_deck:
            return words.tap(need.noun)
        return words.press_for(need.noun)

    def deck_ids(self) -> frozenset[str]:
        """The card ids of the deck in use (a tag map enrolled for another deck may name
        cards this one lacks)."""
        if self.deck is None:
            self.deck = frozenset(self.view.card_ids())
        return self.deck

    def spin(self, strength: float) -> None:
        state = self.session.state
        action = None
        if self.forced_spin is not None:
            action = self.view.forced_spin(state, self.forced_spin)
            self.forced_spin = None
            if action is None:
                self.face.refuse(words.NOT_ON_BAND)
                return
        if action is None:
            action = sample_chance(state.chance_outcomes(), self.rng)
        values = [self.view.outcome_text(state, a) for a, _ in state.chance_outcomes()]
        final = self.view.outcome_text(state, action)
        title = self.view.title(state)
        if self.apply(action):
            start = self.face.clock()
            duration = (400 + 1400 * max(0.0, min(1.0, strength))) / 1000
            self.face.enter(SpinStarted(Animation(values=values, started=start,
                                                  ends=start + duration, final=final,
                                                  title=title)))
