"""The screen audit (RULINGS G4): whole seeded games of both games, every variant and
player count, through the real controller; EVERY screen shown is checked.

- it fits 21x8 and nothing is lost: every part's wording is on one of its pages, every
  menu item shows whole when selected;
- after every truck or car move some screen names the mover's colour, the piece (never
  a bare "car 2" nor an internal id), the distance and where it ends;
- the title's player and the big number's player agree;
- police choices follow board order; no line is repeated on a screen.

And on every input path (knob press, card or ticket tap, computer seat, correction,
take-back, resume), judged by what the table saw (the current page after each whole
gesture): every move, forced move, lost ticket, bump, catch, reshuffle and win is on a
screen before the table acts again, and a menu with options off-screen marks the side
they are on (issue 27).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from engine.api import Event
from engine.bumpem.names import position_name
from engine.selfplay import sample_chance
from engine.tenfour import MoveSmokey, Release
from engine.tenfour.names import board_rank, destination_phrase
from hardware.events import (
    CardPresented,
    CardRemoved,
    KnobLongPress,
    KnobPress,
    KnobSpin,
    KnobTurn,
)
from rig.core.autopilot import gestures_for
from rig.core.computer import seat_for
from rig.core.controller import Seat
from rig.core.session import Session
from rig.desktop.emulated import EMULATED_READER, EmulatedRig, emulated_tag, new_emulated_rig
from rig.screens.screen import (
    BIG_ROWS,
    COLUMNS,
    MARKERS,
    MENU_WIDTH,
    MORE_ABOVE,
    MORE_BELOW,
    MORE_BOTH,
    ROWS,
    Screen,
    fit,
    shown_rows,
    wrap,
)
from valueclass import replace

GAMES = [("tenfour", 2, "two-player"), ("tenfour", 3, None), ("tenfour", 4, None),
         ("bumpem", 2, None), ("bumpem", 3, None), ("bumpem", 4, None)]
SEEDS = (1, 2)
MENU_ROW = ("> ", "  ", *(f">{m}" for m in MARKERS), *(f"{m} " for m in MARKERS))
"""How a menu row starts: the cursor's ">" or the indent, with any scroll marker."""
INTERNAL = re.compile(r"\bcar \d|smokey\d|\bside:|\bpit:|\bhome:|\bfinish:")


def squash(text: str) -> str:
    """Text without any whitespace: wrapping may split a line anywhere between words
    (or after a hyphen), and the words must still all be there, in order."""
    return "".join(text.split())


def check_fits(screen: Screen) -> None:
    fitted = fit(screen)
    assert len(fitted.title) <= COLUMNS, fitted.title
    shown = ""
    for number, (body, footer) in enumerate(zip(fitted.pages, fitted.footers, strict=True)):
        used = 1 + (BIG_ROWS if fitted.big else 0) + len(body) + (1 if footer else 0)
        assert used <= ROWS, f"page {number + 1} needs {used} rows:\n{screen}"
        assert all(len(row.text) <= COLUMNS for row in body), body
        assert len(footer) <= COLUMNS, footer
        shown += " ".join(row.text for row in body if not row.text.startswith(MENU_ROW))
        shown += " "
    for wording in fitted.wordings:
        assert squash(wording) in squash(shown), f"lost {wording!r}:\n{screen}"
    texts = [squash(w) for w in fitted.wordings]
    assert len(texts) == len(set(texts)), f"a repeated line:\n{screen}"
    for index, item in enumerate(screen.menu):
        chosen = replace(screen, cursor=index)
        body, _ = fit(chosen).page(chosen.page)
        selected = "".join(row.text[2:] for row in body if row.highlighted)
        assert squash(selected) == squash(item), f"menu item {item!r} not shown whole"
        assert len(wrap(item, MENU_WIDTH)) <= ROWS - 2


@dataclass
class Audit:
    rig: EmulatedRig
    moves: list[tuple[Event, int, list[str]]] = field(default_factory=list)
    """Each move event, the index of the first screen drawn after it, and the places
    where the moved pieces ended (Bump 'Em)."""

    def record(self, events: list[Event]) -> None:
        wanted = {"truck_move", "bear_catch", "smokey_exact_move", "smokey_trap_move",
                  "park_exit", "bear_move", "move"}
        for event in events:
            if event.kind in wanted:
                self.moves.append((event, len(self.rig.screens), self.ends(event)))

    def ends(self, event: Event) -> list[str]:
        if event.kind != "move":
            return []
        action = event.data["action"]
        cars = self.rig.session.state.to_json()["cars"]
        colour = self.rig.session.game.seats[event.data["seat"]]
        return [position_name(cars[colour][action[key] - 1]) for key in ("car", "other")
                if key in action]


def play(game: str, players: int, variant: str | None, seed: int,
         computers: bool = False) -> Audit:
    seats = None
    if computers:
        seats = [seat_for(game, "human", seed=seed, hint=True),
                 *(seat_for(game, "random", seed=seed + i) for i in range(1, players))]
    rig = new_emulated_rig(game, players, variant=variant, seed=seed, seats=seats)
    audit = Audit(rig)
    announce = rig.controller._announce

    def recording(events: list[Event], actor: int) -> None:
        audit.record(events)
        announce(events, actor)

    rig.controller._announce = recording  # type: ignore[method-assign]
    rng = random.Random(seed)
    for _ in range(20_000):
        if rig.session.state.is_terminal():
            break
        for gesture in gestures_for(rig.controller, rng):
            rig.loop.step(gesture)
            rig.settle()
        check_police_order(rig)
    else:
        pytest.fail("the game did not end")
    return audit


def check_police_order(rig: EmulatedRig) -> None:
    """Park exits in the order the traps and Bear spaces come round the board; each
    Smokey's moves from the nearest ahead of it to the farthest."""
    state = rig.session.state
    if rig.session.game.name != "tenfour" or state.is_chance_node() or state.is_terminal():
        return
    board = state.g.board
    choices = rig.controller.choices()
    loop_order = {t.id: board.index[t.spaces[0]] for t in board.traps}
    loop_order.update({b.id: board.index[b.beside] for b in board.bears})
    for piece in {a.piece for a in choices if isinstance(a, Release)}:
        shown = [a.to for a in choices if isinstance(a, Release) and a.piece == piece]
        assert shown == sorted(shown, key=loop_order.__getitem__), shown
    for smokey in ("smokey1", "smokey2"):
        ends = [a for a in choices if isinstance(a, MoveSmokey) and a.smokey == smokey]
        here = board_rank(board, state.police[smokey])[0]
        ahead = [(board_rank(board, a.to)[0] - here) % (board.size + 2) for a in ends]
        assert ahead == sorted(ahead), [a.to for a in ends]


def seat_of(rig: EmulatedRig, event: Event) -> int:
    game = rig.session.game
    if game.name == "tenfour":
        if "truck" in event.data:
            return int(game.truck_owner[game.truck_index[event.data["truck"]]])
        return -1
    return int(event.data["seat"])


def check_move_named(rig: EmulatedRig, event: Event, shown: list[Screen]) -> None:
    """Some screen after the move names the mover, the piece, how far and where."""
    game = rig.session.game
    text = " ".join(screen.plain() for screen in shown)
    if game.name == "tenfour":
        board = game.board
        if event.kind == "truck_move":
            truck = f"{event.data['truck'].capitalize()} truck at {event.data['from']}"
            end = "home" if event.data["to"] == "home" else f"to {event.data['to']}"
            wanted = [truck, f": {event.data['steps']} ahead", end]
        elif event.kind == "bear_catch":
            wanted = [f"{event.data['truck'].capitalize()} truck", "caught speeding",
                      f"({event.data['steps']})", "no move"]
        elif event.kind == "bear_move":
            wanted = [f"to the {event.data['route'].capitalize()} route"]
        else:
            piece = event.data.get("smokey") or event.data.get("piece")
            name = "Bear" if piece == "bear" else f"Smokey {str(piece)[-1]}"
            where = (f"to the {board.bear(event.data['to']).route.capitalize()} route"
                     if piece == "bear" else destination_phrase(board, event.data["to"]))
            wanted = [name, where] + ([f": {event.data['steps']}"] if "steps" in
                                      event.data else [])
    else:
        action = event.data["action"]
        colour = game.seat_name(event.data["seat"])
        wanted = [f"{colour} car "]
        if "steps" in action:
            wanted.append(f": {action['steps']}")
        wanted += [t for t in ("swap with", " onto ") if t in event.text]
    for phrase in wanted:
        assert phrase in text, f"after {event.text!r} no screen said {phrase!r}:\n{text}"


def check_audit(audit: Audit) -> None:
    rig = audit.rig
    screens = rig.screens
    for screen in screens:
        check_fits(screen)
        if screen.menu:
            check_menu_marked(screen)
        assert not INTERNAL.search(screen.text()), f"an internal name:\n{screen.text()}"
    for number, (event, first, ends) in enumerate(audit.moves):
        following = audit.moves[number + 1][1] if number + 1 < len(audit.moves) else None
        shown = screens[first:following if following and following > first else None]
        shown = [s for s in shown if s.lines != ("spinning...",)][:6] or screens[-1:]
        check_move_named(rig, event, shown)
        text = " ".join(s.plain() for s in shown)
        for end in ends:
            assert end in text, f"after {event.text!r} no screen said it ends at {end}"
        seat = seat_of(rig, event)
        for screen in shown:
            if screen.big and screen.big.startswith("MOVE") and seat >= 0:
                assert screen.title == rig.controller.view.seat_title(seat), (
                    f"{screen.title!r} above {screen.big!r} of {event.text!r}")


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("game", "players", "variant"), GAMES)
def test_every_screen_of_a_whole_game_says_who_what_how_far_and_where(game, players,
                                                                         variant, seed):
    audit = play(game, players, variant, seed)
    assert audit.moves, "no move was made"
    check_audit(audit)


@pytest.mark.parametrize("game", ["tenfour", "bumpem"])
def test_hint_and_computer_screens_pass_the_audit_too(game):
    audit = play(game, 3, None, 5, computers=True)
    check_audit(audit)
    assert any("* marks the move the rig suggests" in s.plain() or "* = suggested" in
               s.plain() for s in audit.rig.screens)


# -- every event the engine reports is on a screen the table saw, on every input path ----

SHOWN_EVENTS = {
    "tenfour": frozenset({"truck_move", "bear_catch", "smokey_catch", "trap_catch",
                          "smokey_exact_move", "smokey_trap_move", "park_exit", "bear_move",
                          "smokey_placed", "reshuffle", "winner"}),
    "bumpem": frozenset({"move", "forced_move", "lost_ticket", "bump", "oil_slide",
                         "turbo_zoom", "winner"}),
}
"""What the table must be told (issue 27): moves, forced moves, lost tickets, bumps,
catches, reshuffles, the winner (slides and zooms are bumps' kin)."""


def check_menu_marked(screen: Screen) -> None:
    """Options off-screen above (below) the menu window: its top (bottom) row is marked,
    and no other row is."""
    body, _ = fit(screen).page(screen.page)
    texts = {w for part in screen.parts() for w in (part.text, part.short) if w}
    text_rows = {row for w in texts for row in wrap(w)}
    rows = [row.text for row in body if row.text not in text_rows]
    shown = [row[2:] for row in rows]
    menu, cursor = screen.menu, min(screen.cursor, len(screen.menu) - 1)
    windows = [(first, last) for first in range(cursor + 1) for last in range(cursor, len(menu))
               if [r for item in menu[first:last + 1] for r in wrap(item, MENU_WIDTH)] == shown]
    assert windows, f"the menu window is not whole options around the cursor:\n{rows}"
    top, bottom = rows[0][:2], rows[-1][:2]
    marks = sum(row[:2].count(m) for row in rows for m in MARKERS)
    for first, last in windows:
        above, below = first > 0, last < len(menu) - 1
        if ((MORE_ABOVE in top or MORE_BOTH in top) == above
                and (MORE_BELOW in bottom or MORE_BOTH in bottom) == below
                and marks == above + below - (MORE_BOTH in top)):
            return
    raise AssertionError(f"options off-screen without a marker (or a stray one):\n{rows}")


@dataclass
class Told:
    """An event the table must see, the wordings that count, and where the screens
    seen since it happened start."""

    event: Event
    wordings: tuple[str, ...]
    since: int


@dataclass
class Table:
    """A table playing a whole game through every input path, and what it saw: the
    current page of the screen after each whole gesture (a frame replaced within one
    gesture, as a card put down and lifted, was never seen)."""

    rig: EmulatedRig
    rng: random.Random
    journal: Path
    seats: list[Seat] | None
    virtual_deck: bool
    seen: list[str] = field(default_factory=list)
    owed: list[Told] = field(default_factory=list)
    new: list[Told] = field(default_factory=list)
    paths: set[str] = field(default_factory=set)
    resumed: bool = False

    def hook(self) -> None:
        controller = self.rig.controller
        announce = controller._announce

        def recording(events: list[Event], actor: int) -> None:
            self.record(events)
            announce(events, actor)

        controller._announce = recording  # type: ignore[method-assign]

    def record(self, events: list[Event]) -> None:
        name = self.rig.session.game.name
        view = self.rig.controller.view
        notices = view.notices(self.rig.session.state, events)
        forced = {"forced_move", "lost_ticket"} & {e.kind for e in events}
        for event in events:
            wanted = event.kind in SHOWN_EVENTS[name] or (forced and event.kind == "ticket")
            if not wanted or (forced and event.kind == "move"):
                continue
            words = (event.text, *(n.short for n in notices if n.text == event.text and n.short))
            self.new.append(Told(event, words, len(self.seen)))

    def gesture(self, event: object, path: str) -> None:
        steps = self.rig.session.steps
        self.rig.loop.step(event)
        self.rig.settle()
        self.paths.add(path)
        if path == "take back":
            self.owed = []  # the input that made them no longer stands
        if self.rig.session.steps != steps:
            self.check_owed()
        self.owed += self.new
        self.new = []
        self.look()

    def look(self) -> None:
        screen = self.rig.screen
        check_fits(screen)
        if screen.menu:
            check_menu_marked(screen)
        self.seen.append(" ".join(shown_rows(screen)))

    def check_owed(self) -> None:
        """Every event owed was on a screen seen before this input went in."""
        for told in self.owed:
            text = squash(" ".join(self.seen[told.since:]))
            assert any(squash(w) in text for w in told.wordings), (
                f"never shown before the next input: {told.event.kind} {told.event.text!r}"
                f"\nscreens seen since:\n" + "\n".join(self.seen[told.since:]))
        self.owed = []

    # -- the input paths --------------------------------------------------------------
    def turn(self) -> None:
        """What the table does next, choosing among the ways it can do it."""
        controller = self.rig.controller
        state = self.rig.session.state
        if controller.alert is not None:
            if state.is_chance_node() and self.rng.random() < 0.3 and self.tap():
                return  # the next player taps at once: the tap acknowledges
            self.gesture(KnobPress("hi"), "acknowledge")
            return
        if not self.resumed and self.rig.session.steps > 20:
            self.resume()
            return
        if self.rng.random() < 0.03:
            self.correct()
            return
        if state.is_chance_node():
            need = controller.view.chance_input(state)
            if ((not self.virtual_deck and need.kind == "card")
                    or self.rng.random() < 0.5) and self.tap():
                return
            self.gesture(KnobSpin(need.knob, 0.6) if need.kind == "spin"
                         else KnobPress("hi"), "knob")
            return
        seat = controller.seats[state.current_player()]
        path = "computer" if seat.chooser is not None and seat.level != "hint" else "choice"
        for gesture in gestures_for(controller, self.rng):
            self.gesture(gesture, path)
        if controller.corrections.take_back_offer() and self.rng.random() < 0.1:
            self.take_back()

    def tap(self) -> bool:
        """Tap the card or ticket drawn (put down and lifted: one gesture), if a card
        draws now."""
        controller = self.rig.controller
        state = self.rig.session.state
        if controller.view.chance_input(state).kind == "spin":
            return False
        action = sample_chance(state.chance_outcomes(), self.rng)
        tag = emulated_tag(controller.view.card_for_action(action))
        self.rig.loop.step(CardPresented(tag, EMULATED_READER))
        self.gesture(CardRemoved(tag, EMULATED_READER), "tap")
        return True

    def open_corrections(self) -> list[str]:
        self.gesture(KnobLongPress("hi"), "correction")
        return list(self.rig.screen.menu)

    def to_row(self, words: str) -> None:
        screen = self.rig.screen
        row = next(i for i, item in enumerate(screen.menu) if item.startswith(words))
        for _ in range((row - screen.cursor) % len(screen.menu)):
            self.gesture(KnobTurn("hi", 1), "correction")  # every row seen on the way

    def correct(self) -> None:
        """Open the menu, look at every row, set the first piece one place on."""
        rows = self.open_corrections()
        self.to_row(rows[-1])
        self.to_row(rows[0])
        self.gesture(KnobPress("hi"), "correction")
        self.gesture(KnobTurn("hi", 1), "correction")
        self.gesture(KnobPress("hi"), "correction")
        if self.rig.controller.correction is not None:  # it was there already: leave
            self.gesture(KnobLongPress("hi"), "correction")

    def take_back(self) -> None:
        self.open_corrections()
        self.to_row("Take back")
        self.gesture(KnobPress("hi"), "take back")

    def resume(self) -> None:
        """The power goes: the game comes back from its journal on the same prompt."""
        before = self.rig.screen
        self.rig.session.close()
        session = Session.resume(self.journal)
        self.rig = EmulatedRig(session=session, seats=self.seats, seed=self.rng.randrange(99),
                               virtual_deck=self.virtual_deck)
        self.hook()
        after = self.rig.screen
        assert after.title == before.title and after.menu == before.menu
        assert "Resumed game at step" in after.plain()
        self.resumed = True
        self.paths.add("resume")
        self.look()


def play_every_path(game: str, players: int, variant: str | None, seed: int,
                    journal: Path) -> Table:
    from rig.gamebuild import build_game

    rng = random.Random(seed)
    seats = [Seat(), *(seat_for(game, "random", seed=seed + n) if n % 2 else Seat()
                       for n in range(1, players))]
    built = build_game(game, players=players, variant=variant)
    session = Session.start(built, journal, {"created": "audit"})
    virtual = bool(seed % 2)
    table = Table(EmulatedRig(session=session, seats=seats, seed=seed, virtual_deck=virtual),
                  rng, journal, seats, virtual)
    table.hook()
    table.look()
    for _ in range(20_000):
        if table.rig.session.state.is_terminal() and table.rig.controller.alert is None:
            break
        table.turn()
    else:
        pytest.fail("the game did not end")
    table.check_owed()
    return table


@pytest.mark.parametrize("seed", (1, 2))
@pytest.mark.parametrize(("game", "players", "variant"), GAMES)
def test_every_event_is_on_a_screen_the_table_saw_before_it_acted_again(
        tmp_path, game, players, variant, seed):
    table = play_every_path(game, players, variant, seed, tmp_path / "game.jsonl")
    tapped = {"tap"} if game == "bumpem" or not seed % 2 else set()
    assert {"knob", "choice", "acknowledge", "correction", "resume"} | tapped <= table.paths
    if players > 2:
        assert "computer" in table.paths
