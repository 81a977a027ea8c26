"""The rig's own words: the prompts, refusals, footers and notices the rig says about
itself, whatever the game (issue 45). A game's words are the game's (its view and its
vocabulary); these are the table's: the knobs, the reader, the computer seats, taking
back and abandoning, the setup menu, the join screen and card enrolment (on the rig and
on the terminal). They sit beside the screen code that shows them, so changing a
wording is one edit here; the controller, the app and the menus (rig.core) only choose
which.
"""

from __future__ import annotations

from hardware.events import CardPresented, KnobSpin

# -- footers of a result screen: an input it did not take ---------------------------------

EARLY_INPUT = "too soon: press again"
"""The result screen's footer once an input came too early (during the spin, or in the
instant its result appeared): the input did nothing, the next press goes on."""
EARLY_CARD = "press ok, then tap"
"""The footer once a card came too early: it was not read (press ok, then tap it
again)."""
NOT_A_FLICK = "press, not flick: ok"
"""The footer once a flick came on a result screen: a flick is not "ok"."""


def early_answer(event: object) -> str:
    """What a result screen's footer says to an input it did not take."""
    if isinstance(event, CardPresented):
        return EARLY_CARD
    return NOT_A_FLICK if isinstance(event, KnobSpin) else EARLY_INPUT


# -- refusals ------------------------------------------------------------------------------

DOUBLE_PRESS = "Pressed twice: one counted"
"""The refusal on a prompt that an input reached too soon after the screen before it
went (a double press): it did nothing. Said without a name: the prompt may be the next
player's, and the press was not theirs."""
THINKING = "Wait: the computer is thinking"
GAME_OVER = "Game over: long press for a new game"
NOT_ON_BAND = "That value is not on this band"
NO_SPIN_HERE = "No spin here: turn and press"
NO_SPIN_IN_CORRECTIONS = "No spin in corrections: turn and press"
CARD_NOT_READ = "Card not read: close this menu first"


def unknown_card(tag: str) -> str:
    return f"Unknown card {tag}: enrol it (cbrig cards enroll)"


def not_in_deck(card_id: str) -> str:
    return f"Card {card_id} is not in this deck: enrol the cards again"


def not_now(waiting_for: str) -> str:
    return f"Not now: {waiting_for}"


def wrong_knob(needed: str, used: str) -> str:
    return f"Spin the {needed.upper()} knob, not {used.upper()}"


def no_spin_now(how: str) -> str:
    return f"No spin now: {how}"


def tap_on_reader(noun: str) -> str:
    return f"Tap {a(noun)} on the reader"


def not_a_turn(how: str) -> str:
    return f"Not a turn: {how}"


def already_drawn(noun: str) -> str:
    return f"{noun[:1].upper()}{noun[1:]} already drawn since the last reshuffle"


def refused(reason: str) -> str:
    return f"Refused: {reason}"


def not_saved(problem: object) -> str:
    return f"NOT SAVED, input refused: {problem}"


# -- what resolves a draw, as an order -----------------------------------------------------

def flick(knob: str) -> str:
    return f"flick the {knob.upper()} knob"


def tap(noun: str) -> str:
    return f"tap {a(noun)}"


def press_for(noun: str) -> str:
    return f"press for {a(noun)}"


TAP_IT = "Tap it on the rig"
"""The instruction of a draw from the real deck."""


def press_for_instruction(noun: str) -> str:
    """The instruction of a draw the rig makes itself (a ticket, the virtual deck)."""
    return f"Press for {a(noun)}"


# -- notices -------------------------------------------------------------------------------

ABANDONED = "Game abandoned: filed with the finished games"
ABANDONED_SHORT = "Game abandoned, filed"
ANOTHER_INPUT = "another input"
"""What a take-back names when the last input has no words of its own."""


def resumed(steps: int, torn: bool) -> tuple[str, str]:
    """The notice of a resumed game (`torn`: its torn last input was dropped), and its
    short form."""
    note = f"Resumed game at step {steps}"
    if torn:
        note += " (torn last input dropped)"
    return note, f"Resumed at step {steps}"


def spun(value: str) -> str:
    return f"Spun {value}"


def take_back(last: str) -> str:
    """The correction menu's row that takes the last input back."""
    return f"Take back: {last}"


def taken_back(what: object) -> str:
    return f"Taken back: {what}"


# -- the computer seats --------------------------------------------------------------------

def computer_thinking(level: str) -> tuple[str, str]:
    return f"Computer ({level}) is thinking...", "CPU thinking..."


def computer_chose(level: str) -> tuple[str, str]:
    return f"Computer ({level}) chose: press to play it", "CPU chose:"


NOT_THE_COMPUTERS = ("Not the computer's choice (*): press plays this one",
                     "Not the CPU's choice (*)")
SUGGESTED = ("* marks the move the rig suggests", "* = suggested")
"""The hint seat's line under its menu, and its short form."""


# -- the screens' own lines ----------------------------------------------------------------

SPINNING = "spinning..."
ABANDONED_TITLE = "GAME ABANDONED"
NEW_GAME = "long press: new game"
"""The footer of a game that takes no more input."""
CORRECTION_TITLE = "CORRECTION"
ALERT_TITLE = "ALERT"
"""The title of an alert that names no headline."""
NO_READER = "no reader"
NO_SOUND = "no sound"


# -- small words ---------------------------------------------------------------------------

def times(n: int) -> str:
    return "twice" if n == 2 else f"{n} times"


def a(noun: str) -> str:
    """The noun with its article, as a person says it ("a ticket", "an ace")."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


# -- the correction menu (rig.core.corrections) --------------------------------------------

ABANDON_ROW = "Abandon this game"
ABANDON_YES = "Yes: abandon it (it is filed)"
ABANDON_QUESTION = "Abandon this game? It is filed with the finished games"
DONE = "Done"
BACK = "Back"
NOW = " (now)"
"""After the place a piece stands on now, in the list of places to move it to."""
FIX_WHAT = ("FIX: which piece or turn?", "FIX: what is wrong?")
FIX_CHOOSE = "FIX: choose"
FIX_SET_TO = "FIX: set it to"
FIX_PLACES_FOOTER = "HI:space LO:section"
FIX_FOOTER = "turn:pick press:ok"
ALREADY_THERE = "It is there already"


def fix_to(words: str) -> str:
    return f"FIX: {words} to"


def fix(words: str) -> str:
    return f"FIX: {words}"


# -- enrolling the cards (rig.core.enroll) -------------------------------------------------

ALL_CARDS_DONE = "All cards done"
FIRST_CARD = "This is the first card"
READER_BACK = "Reader back"
SKIP_CARD = "Skip this card"
REDO_PREVIOUS = "Redo previous"
FINISH = "Finish"
BACK_TO_MENU = "Back to the menu"
SAVED = "Saved."
ENROLLED_TITLE = "CARDS ENROLLED"
ENROLLED_FOOTER = "press: back"
TAP_ON_READER = "Tap it on the reader"
ENROL_FOOTER = "turn:skip redo finish"


def tag_taken(owner: str, card_id: str) -> str:
    return f"That tag is {owner}: tap {card_id}"


def tag_given(card_id: str, tag: str, was: str | None) -> str:
    return f"{card_id} = tag {tag}" + (f" (was {was})" if was is not None else "")


def card_skipped(card_id: str, kept: str | None) -> str:
    return f"{card_id} skipped" + (f" (keeps tag {kept})" if kept else "")


def tap_again(card_id: str) -> str:
    return f"Tap {card_id} again"


def enrol_not_saved(problem: object) -> str:
    return f"NOT SAVED: {problem}"


def enrol_title(position: str) -> str:
    return f"ENROL CARDS {position}"


# -- the setup menu (rig.core.setup_menu, rig.core.app) -----------------------------------

NEW_GAME_TITLE = "NEW GAME"
START = "START"
"""The setup menu's last row: it starts the game."""
ENROL = "Enrol cards"
"""The setup menu's row that opens the card enrolment walk."""
JOIN = "Phones: join"
"""The setup menu's row that opens the join screen."""
MENU_FOOTER = "turn:move press:set"


def on_off(on: bool) -> str:
    return "on" if on else "off"


def voice_rows(enabled: bool, volume: int) -> list[str]:
    """The setup menu's voice rows (where the rig has a voice)."""
    return [f"Voice: {on_off(enabled)}", f"Volume: {volume}%"]


def game_row(title: str) -> str:
    return f"Game: {title}"


def players_row(players: int) -> str:
    return f"Players: {players}"


def colours_row(colours: tuple[str, ...] | list[str]) -> str:
    return "Colours: " + " ".join(colours)  # whole words: a menu item wraps


def seat_row(colour: str, level: str) -> str:
    return f"{colour.capitalize()}: {level}"


def hints_row(hints: bool) -> str:
    return f"Hints: {on_off(hints)}"


def cannot_enrol(problem: object) -> str:
    return f"Cannot enrol: {problem}"


def cannot_start(problem: object) -> str:
    return f"Cannot start: {problem}"


# -- the join screen (rig.core.join) -------------------------------------------------------

JOIN_TITLE = "JOIN THE BOARD: CODE"
"""rig.voice.speech says this screen's code (JOIN_TITLE there)."""
JOIN_OPTIONS = ("Back", "New code")
NOT_SERVING = "The board is not serving."


# -- enrolling on a terminal (`cbrig cards enroll`, rig.core.enroll.enroll) ----------------

def tap_card(card_id: str, text: str) -> str:
    return f"Tap card {card_id}: {text}" if text != card_id else f"Tap card {card_id}"


NO_CARD_SEEN = "no card seen; stopping"


def tag_is_now(tag: str, owner: str) -> str:
    return f"  tag {tag} is card {owner} now"


def confirm_tag(tag: str, card_id: str) -> str:
    return f"  tag {tag} is {card_id}? [Enter=yes, r=retap, s=skip, b=back, q=quit] "


def reader_said(message: str) -> str:
    return f"  reader: {message}"


def enrol_summary(tapped: int, have: int, cards: int, skipped: list[str],
                  missing: list[str]) -> list[str]:
    """What an enrolment did, in full (the terminal's, and the rig's last screen's)."""
    lines = [f"{tapped} tapped now, {have} of {cards} known"]
    if skipped:
        lines.append("skipped: " + " ".join(skipped))
    if missing:
        lines.append("no tag yet: " + " ".join(missing))
    return lines


def enrol_short_summary(have: int, cards: int, tapped: int, skipped: int,
                        missing: list[str]) -> list[str]:
    """The summary in three short lines, for the OLED."""
    lines = [f"{have} of {cards} have a tag", f"{tapped} tapped, {skipped} skipped"]
    if missing:
        shown = " ".join(missing[:2]) + (f" +{len(missing) - 2}" if len(missing) > 2 else "")
        lines.append(f"no tag: {shown}")
    return lines
