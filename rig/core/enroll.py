"""Enrol RFID tags to the deck in use: tap each physical card, save the tag -> card map.

One model (:class:`Enrolment`) walks the cards for both front ends: the rig's own
"Enrol cards" screen (:class:`EnrolScreen`, knobs and the OLED, while the service keeps
the reader) and ``cbrig cards enroll`` on a terminal (:func:`enroll`).
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from hardware.events import CardPresented, KnobPress, KnobTurn, ReaderStatus
from rig.screens import words
from rig.screens.screen import Part, Screen, page_count
from rig.screens.views import view_for
from rig.statedir import atomic_write, make_private_dir
from valueclass import Record, field

Ask = Callable[[str], str]
Say = Callable[[str], None]
Card = tuple[str, str]
"""(card id, text printed on it)."""


def deck_cards(game: Any) -> list[Card]:
    """The cards of `game`'s deck in use (the configured deck file, not always the
    shipped one), in deck order, each with its printed text where the deck has one."""

    texts = {c.id: c.text for c in getattr(getattr(game, "deck", None), "cards", ())}
    return [(card, texts.get(card, card)) for card in view_for(game).card_ids()]


class Enrolment(Record):
    """Walks `cards` in order; `tags` (tag -> card id) starts as the known map and is
    changed only by a tap, so skipping a card keeps what it had."""

    cards: Sequence[Card]
    tags: dict[str, str]
    index: int = 0
    enrolled: list[str] = field(default_factory=list)
    """Card ids given a tag in this session, in order (for redo)."""
    skipped: list[str] = field(default_factory=list)

    @property
    def done(self) -> bool:
        return self.index >= len(self.cards)

    @property
    def current(self) -> Card | None:
        return None if self.done else self.cards[self.index]

    def tag_of(self, card_id: str) -> str | None:
        return next((t for t, c in self.tags.items() if c == card_id), None)

    def tap(self, tag: str) -> str:
        """Give the current card this tag and go on; returns what to tell the table.
        A tag given to another card in this session is refused (the previous card left
        on the reader, most likely); one from an older enrolment moves to this card."""
        card = self.current
        if card is None:
            return words.ALL_CARDS_DONE
        card_id = card[0]
        owner = self.tags.get(tag)
        if owner is not None and owner != card_id and owner in self.enrolled:
            return words.tag_taken(owner, card_id)
        for old in [t for t, c in self.tags.items() if c == card_id]:
            del self.tags[old]
        self.tags[tag] = card_id
        self.enrolled.append(card_id)
        if card_id in self.skipped:
            self.skipped.remove(card_id)
        self.index += 1
        return words.tag_given(card_id, tag, owner if owner not in (None, card_id) else None)

    def skip(self) -> str:
        card = self.current
        if card is None:
            return words.ALL_CARDS_DONE
        self.skipped.append(card[0])
        self.index += 1
        kept = self.tag_of(card[0])
        return words.card_skipped(card[0], kept)

    def redo(self) -> str:
        """Back to the card before this one, to tap it again."""
        if self.index == 0:
            return words.FIRST_CARD
        self.index -= 1
        card_id = self.cards[self.index][0]
        if card_id in self.enrolled:
            self.enrolled.remove(card_id)
        if card_id in self.skipped:
            self.skipped.remove(card_id)
        return words.tap_again(card_id)

    def summary(self) -> list[str]:
        """What was done, for the last screen and the terminal."""
        deck = {card_id for card_id, _ in self.cards}
        have = sum(1 for c in set(self.tags.values()) if c in deck)
        missing = [card_id for card_id, _ in self.cards if self.tag_of(card_id) is None]
        return words.enrol_summary(len(set(self.enrolled)), have, len(self.cards),
                                   list(self.skipped), missing)


# -- on the rig: the "Enrol cards" screen of the setup menu --------------------------------

SaveTags = Callable[[dict[str, str]], None]


class EnrolScreen:
    """Knobs and OLED: the screen names the next card with its whole printed text (the
    LO knob pages it when it needs more than one page), a tap enrols it. Turn (HI) to
    choose Skip, Redo or Finish and press; at the end (or on Finish) the map is saved once
    and a summary shown; a press there returns to the setup menu (``closed``)."""

    RUNNING = (words.SKIP_CARD, words.REDO_PREVIOUS, words.FINISH)
    SUMMARY = (words.BACK_TO_MENU,)

    def __init__(self, enrolment: Enrolment, save: SaveTags) -> None:
        self.enrolment = enrolment
        self.save = save
        self.cursor = 0
        self.note = ""
        self.finished = False
        self.closed = False
        self.saved_error = ""
        self.page = 0

    def _options(self) -> tuple[str, ...]:
        return self.SUMMARY if self.finished else self.RUNNING

    def handle(self, event: object) -> None:
        if isinstance(event, KnobTurn) and event.knob == "lo":
            pages = page_count(self.screen())
            if pages > 1:
                self.page = (self.page + event.steps) % pages
                return
        self.page = 0
        if isinstance(event, CardPresented) and not self.finished:
            self.note = self.enrolment.tap(event.tag)
        elif isinstance(event, ReaderStatus):
            self.note = event.message if not event.connected else words.READER_BACK
        elif isinstance(event, KnobTurn):
            self.cursor = (self.cursor + event.steps) % len(self._options())
        elif isinstance(event, KnobPress):
            self._press(self._options()[self.cursor % len(self._options())])
        if self.enrolment.done and not self.finished:
            self._finish()

    def _press(self, option: str) -> None:
        if option == words.SKIP_CARD:
            self.note = self.enrolment.skip()
        elif option == words.REDO_PREVIOUS:
            self.note = self.enrolment.redo()
        elif option == words.FINISH:
            self._finish()
        else:
            self.closed = True

    def _finish(self) -> None:
        self.finished = True
        self.cursor = 0
        try:
            self.save(dict(self.enrolment.tags))
        except OSError as exc:
            self.saved_error = words.enrol_not_saved(exc.strerror or exc)

    def _short_summary(self) -> list[str]:
        """The summary in three short lines (the full one is on the terminal's)."""
        walk = self.enrolment
        missing = [card_id for card_id, _ in walk.cards if walk.tag_of(card_id) is None]
        have = len(walk.cards) - len(missing)
        return words.enrol_short_summary(have, len(walk.cards), len(set(walk.enrolled)),
                                         len(walk.skipped), missing)

    def screen(self) -> Screen:
        if self.finished:
            lines = [self.saved_error or words.SAVED, *self._short_summary()]
            return Screen(title=words.ENROLLED_TITLE, lines=tuple(lines), menu=self._options(),
                          cursor=self.cursor, footer=words.ENROLLED_FOOTER)
        card = self.enrolment.current
        assert card is not None
        card_id, text = card
        position = f"{self.enrolment.index + 1}/{len(self.enrolment.cards)}"
        # what the last input did, then the instruction, both on page 1; then the
        # card's text (the LO knob pages it when it is long)
        parts = [Part(self.note, "result")] if self.note else []
        parts.append(Part(words.TAP_ON_READER, "instruction"))
        parts += [Part(text, "card")] if text != card_id else []
        return Screen(title=words.enrol_title(position), big=card_id, lines=tuple(parts),
                      menu=self._options(), cursor=self.cursor,
                      footer=words.ENROL_FOOTER, page=self.page)


# -- on a terminal: `cbrig cards enroll` ---------------------------------------------------

def enroll(cards: Sequence[Card], events: queue.Queue[object], ask: Ask, say: Say,
           tags: dict[str, str], timeout: float | None = None) -> dict[str, str]:
    """Walk the deck in order, filling `tags` (tag -> card id) as it goes, so an
    interrupted session keeps what was confirmed. Enter confirms, r retaps, s skips,
    b goes back one card, q stops. Reader outages are said as they happen."""
    walk = Enrolment(cards, tags)
    while not walk.done:
        card = walk.current
        assert card is not None
        card_id, text = card
        say(words.tap_card(card_id, text))
        tag = next_tag(events, timeout, say)
        if tag is None:
            say(words.NO_CARD_SEEN)
            break
        owner = tags.get(tag)
        if owner is not None and owner != card_id:
            say(words.tag_is_now(tag, owner))
        answer = ask(words.confirm_tag(tag, card_id)).strip().lower()
        if answer == "q":
            break
        if answer == "s":
            say(f"  {walk.skip()}")
        elif answer == "b":
            say(f"  {walk.redo()}")
        elif answer != "r":
            say(f"  {walk.tap(tag)}")
    for line in walk.summary():
        say(line)
    return tags


def next_tag(events: queue.Queue[object], timeout: float | None,
             say: Say = lambda _: None) -> str | None:
    """The next tag presented; None after `timeout` seconds without one."""
    while True:
        try:
            event = events.get(timeout=timeout)
        except queue.Empty:
            return None
        if isinstance(event, CardPresented):
            return event.tag
        if isinstance(event, ReaderStatus):
            say(words.reader_said(event.message))


def card_map_text(tags: dict[str, str]) -> str:
    lines = ["# RFID tag -> card id, written by `cbrig cards enroll`.", "[tags]"]
    lines += [f'"{tag}" = "{card}"' for tag, card in sorted(tags.items(), key=lambda i: i[1])]
    return "\n".join(lines) + "\n"


def save_card_map(path: Path, tags: dict[str, str]) -> None:
    make_private_dir(path.parent)
    atomic_write(path, card_map_text(tags).encode("utf-8"))
