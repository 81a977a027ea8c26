"""The screen audit (RULINGS G4): whole seeded games of both games, every variant and
player count, through the real controller; EVERY screen shown is checked.

- it fits 21x8 and nothing is lost: every part's wording is on one of its pages, every
  menu item shows whole when selected;
- after every truck or car move some screen names the mover's colour, the piece (never
  a bare "car 2" nor an internal id), the distance and where it ends;
- the title's player and the big number's player agree;
- police choices follow board order; no line is repeated on a screen.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

import pytest

from engine.api import Event
from engine.bumpem.names import position_name
from engine.record import replace
from engine.tenfour import MoveSmokey, Release
from engine.tenfour.names import board_rank, destination_phrase
from rig.autopilot import gestures_for
from rig.computer import seat_for
from rig.emulated import EmulatedRig, new_emulated_rig
from rig.screen import BIG_ROWS, COLUMNS, MARKERS, MENU_WIDTH, ROWS, Screen, fit, wrap

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
