"""The interactive desktop emulator in a terminal: the OLED drawn in text, keys for knobs.

The rig is the daemon itself (:class:`rig.desktop.desk.DeskRig`); this module is only its
devices: a display that paints frames in the terminal and a keyboard that makes the
knob and card-reader events. It waits on the keyboard with `select` until a key, a
resize or the controller's next deadline, so an idle emulator uses no CPU, like the
real rig.

Layouts, chosen by the terminal's size on every paint:

* ``full`` (130x38 or more): the OLED's pixels, two rows per character (half blocks);
* ``compact`` (80x24 or more): the screen's text rows in a box, the keys beside it;
* smaller: a line asking for a bigger window (nothing garbles).

Painting moves the cursor home and overwrites line by line (each line cleared to its
end), so there is no flicker from clearing the whole screen per frame, and an unchanged
picture is not written at all.
"""

from __future__ import annotations

import contextlib
import os
import random
import select
import shutil
import signal
import sys
import termios
import textwrap
import tty
from collections.abc import Callable
from typing import TextIO

from PIL import Image

from hardware.display.base import FrameSink
from hardware.display.desktop import render_halfblocks
from hardware.events import CardPresented, CardRemoved, KnobLongPress, KnobPress, KnobSpin, KnobTurn
from rig.core.controller import valid_cards
from rig.desktop.desk import DeskRig
from rig.desktop.emulated import emulated_tag
from rig.screens.render import boxed
from rig.screens.screen import Screen
from valueclass import Record

FULL_SIZE = (130, 38)
COMPACT_SIZE = (80, 24)

KEYS_FULL = (
    "keys: Hi knob  a/d turn  w flick-spin  s press  S long press",
    "      Lo knob  j/l turn  i flick-spin  k press  K long press",
    "      c tap a card (type its id)   n tap a card that can be drawn   q quit",
)

KEYS_COMPACT = (
    "Hi knob: a/d turn  w spin",
    "         s press   S long press",
    "Lo knob: j/l turn  i spin",
    "         k press   K long press",
    "Cards:   c type an id to tap",
    "         n tap one that can come",
    "q quits (the game is kept)",
)

KNOB_KEYS: dict[str, object] = {
    "a": KnobTurn("hi", -1), "d": KnobTurn("hi", 1), "w": KnobSpin("hi", 0.7),
    "s": KnobPress("hi"), "S": KnobLongPress("hi"),
    "j": KnobTurn("lo", -1), "l": KnobTurn("lo", 1), "i": KnobSpin("lo", 0.7),
    "k": KnobPress("lo"), "K": KnobLongPress("lo"),
}
READER = "emulated"

HOME, CLEAR_LINE, CLEAR_BELOW, CLEAR_ALL = "\x1b[H", "\x1b[K", "\x1b[J", "\x1b[H\x1b[2J"
HIDE_CURSOR, SHOW_CURSOR = "\x1b[?25l", "\x1b[?25h"


def layout_for(size: tuple[int, int]) -> str:
    """"full", "compact" or "small" for a terminal of (columns, lines)."""
    columns, lines = size
    if columns >= FULL_SIZE[0] and lines >= FULL_SIZE[1]:
        return "full"
    if columns >= COMPACT_SIZE[0] and lines >= COMPACT_SIZE[1]:
        return "compact"
    return "small"


def compose(frame: Image.Image, screen: Screen, size: tuple[int, int],
            message: str = "") -> list[str]:
    """The terminal's lines for one picture; none is longer than the width."""

    columns, lines = size
    kind = layout_for(size)
    if kind == "small":
        return [line[:columns] for line in textwrap.wrap(
            f"The terminal is {columns}x{lines}; the emulator needs at least "
            f"{COMPACT_SIZE[0]}x{COMPACT_SIZE[1]} ({FULL_SIZE[0]}x{FULL_SIZE[1]} shows the "
            "OLED's pixels). Make the window bigger; q quits.", max(10, columns))][:lines]
    if kind == "full":
        body = render_halfblocks(frame, border=True).split("\n") + list(KEYS_FULL)
    else:
        box = boxed(screen).split("\n")
        keys = ["", *KEYS_COMPACT]
        width = max(len(line) for line in box)
        body = [f"{(box[i] if i < len(box) else ''):<{width}}   "
                f"{keys[i] if i < len(keys) else ''}".rstrip()
                for i in range(max(len(box), len(keys)))]
    room = lines - len(body)
    notes = [part for text in message.split("\n") if text
             for part in textwrap.wrap(text, columns - 1)][:max(0, room)]
    return [line[:columns] for line in body + notes]


class TerminalScreen(FrameSink):
    """A Display that paints each new frame (with keys and a message) in place."""

    def __init__(self, screen_source: Callable[[], Screen], stream: TextIO | None = None,
                 size: Callable[[], tuple[int, int]] | None = None) -> None:
        super().__init__()
        self.stream = stream if stream is not None else sys.stdout
        self.screen_source = screen_source
        self.size = size or _terminal_size
        self.message = ""
        self.active = False
        self.frame: Image.Image | None = None
        self._painted: list[str] | None = None

    def _send(self, frame: Image.Image) -> None:
        self.frame = frame.copy()
        self.paint()

    def close(self, persist_message: Image.Image | None = None) -> None:
        """The terminal keeps the last game picture (the OLED would say RIG OFF)."""
        self.active = False

    def say(self, message: str) -> None:
        self.message = message
        self.paint()

    def paint(self, force: bool = False) -> None:
        """Write the picture if it changed (``force`` after a resize: clear first)."""
        if not self.active or self.frame is None:
            return
        lines = compose(self.frame, self.screen_source(), self.size(), self.message)
        if lines == self._painted and not force:
            return
        prefix = CLEAR_ALL if force or self._painted is None else HOME
        # no newline after the last line: a picture as tall as the terminal (the full
        # layout's 38 rows) would scroll its first row, the OLED's top border, away
        self.stream.write(prefix + "\n".join(line + CLEAR_LINE for line in lines)
                          + CLEAR_BELOW)
        self.stream.flush()
        self._painted = lines


def _terminal_size() -> tuple[int, int]:
    size = shutil.get_terminal_size((80, 24))
    return size.columns, size.lines


class CardEntry(Record):
    """The card id being typed after `c`."""

    text: str = ""


class Keyboard:
    """Keys to the hardware events the real knobs and reader produce."""

    def __init__(self, rig: object, term: TerminalScreen) -> None:
        assert isinstance(rig, DeskRig)
        self.rig = rig
        self.term = term
        self.entry: CardEntry | None = None
        self.rng = random.SystemRandom()

    def post(self, event: object) -> None:
        assert self.rig.loop is not None
        self.rig.loop.step(event)

    def key(self, key: str) -> bool:
        """Handle one key; False when the emulator should stop."""
        if self.entry is not None:
            self._typing(key)
            return True
        if key == "q":
            return False
        if key in KNOB_KEYS:
            self.term.message = ""
            self.post(KNOB_KEYS[key])
        elif key == "c":
            self.entry = CardEntry()
            self._show_entry()
        elif key == "n":
            self._tap_possible()
        return True

    def _typing(self, key: str) -> None:
        assert self.entry is not None
        if key in ("\r", "\n"):
            card, self.entry = self.entry.text.strip(), None
            self._tap(card)
        elif key == "\x1b":
            self.entry = None
            self.term.say("")
        elif key in ("\x7f", "\b"):
            self.entry.text = self.entry.text[:-1]
            self._show_entry()
        elif key.isprintable():
            self.entry.text += key
            self._show_entry()

    def _cards(self) -> tuple[list[str], list[str]]:
        """(every card id of the deck, the ids that can be drawn now)."""

        controller = self.rig.controller
        if controller is None:
            return [], []
        return controller.view.card_ids(), valid_cards(controller)

    def _show_entry(self) -> None:
        assert self.entry is not None
        _, now = self._cards()
        listed = ", ".join(now) if now else "none: the rig is not waiting for a card"
        self.term.say(f"Card to tap (Enter taps, Esc cancels): {self.entry.text}_\n"
                      f"Cards that can be drawn now: {listed}")

    def _tap(self, card: str) -> None:
        every, now = self._cards()
        if not card:
            self.term.say("")
            return
        if card not in every:
            listed = ", ".join(now) if now else "none right now"
            self.term.say(f"No card {card!r} in this deck. Cards that can be drawn: {listed}")
            return
        self.term.message = f"tapped {card}"
        self.post_tap(card)

    def post_tap(self, card: str) -> None:
        tag = emulated_tag(card)
        self.post(CardPresented(tag, READER))
        self.post(CardRemoved(tag, READER))

    def _tap_possible(self) -> None:
        _, now = self._cards()
        if not now:
            self.term.say("The rig is not waiting for a card.")
            return
        card = self.rng.choice(now)
        self.term.message = f"tapped {card}"
        self.post_tap(card)


def keys_of(data: bytes) -> list[str]:
    """Keys from one read; an escape sequence (arrow keys...) counts as one Esc."""
    text = data.decode(errors="ignore")
    if text.startswith("\x1b"):
        return ["\x1b"]
    return list(text)


def interactive(rig: object, term: TerminalScreen, greeting: str = "") -> int:
    """Serve the keyboard until `q` (or Ctrl-C); the game stays saved for next time."""

    assert isinstance(rig, DeskRig) and rig.loop is not None and rig.app is not None
    if not sys.stdin.isatty():
        print("cbrig emulate: needs a terminal (or use --script FILE, or --web)",
              file=sys.stderr)
        return 2
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    previous = signal.signal(signal.SIGWINCH, lambda *_: None)
    old_wakeup = signal.set_wakeup_fd(wake_w)
    keyboard = Keyboard(rig, term)
    try:
        tty.setcbreak(fd)
        term.stream.write(HIDE_CURSOR)
        term.active = True
        term.message = greeting
        term.paint(force=True)
        while True:
            due = rig.app.next_deadline()
            timeout = None if due is None else max(0.0, due - rig.loop.clock())
            ready, _, _ = select.select([fd, wake_r], [], [], timeout)
            if wake_r in ready:
                os.read(wake_r, 512)
                term.paint(force=True)
            if fd not in ready:
                rig.loop.run_due()
                continue
            for key in keys_of(os.read(fd, 64)):
                if not keyboard.key(key):
                    return 0
    finally:
        signal.set_wakeup_fd(old_wakeup)
        signal.signal(signal.SIGWINCH, previous)
        for end in (wake_r, wake_w):
            with contextlib.suppress(OSError):
                os.close(end)
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        term.stream.write("\n" + SHOW_CURSOR)  # what is printed next starts a line
        term.stream.flush()
