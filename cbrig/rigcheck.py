"""The rig's half of the battery: a game driven through the rig itself (issue 45).

``check_game`` checks the rules; this plays a few seeded games of a registered game on
the emulated rig, as ``cbrig demo`` does, and checks every part of the game the rig
uses on the way, so a game that passes the battery plays in ``demo``, ``emulate``,
``print`` and the browser's live board:

- **view**: the game's view loads and answers for every state the rig meets;
- **screens**: every screen shown fits 21x8 with no wording lost, and every prompt (a
  screen that waits for the table, no result or alert on it) carries an instruction;
- **speech**: every screen has a spoken form (the game's vocabulary, or the base one);
- **board drawing**: the board tools draw the built game's board (SVG);
- **live board**: its drawing, and its pieces as the JSON the browser gets;
- **card tray**: the cards a person can tap, as the JSON the browser gets;
- **print sheets**: the quick reference, the pieces and the cards, as records, and as
  PDFs when the print extra (reportlab) is installed.

A failure raises :class:`RigPartError` (a ConformanceError) naming the game's case, the
part and the seed: ``race-standard-3p, seed 1, live board: KeyError: 'x'``.
"""

from __future__ import annotations

import importlib.util
import json
import random
import tempfile
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import TypeVar

from engine.api import Game, State
from rig.core.autopilot import gestures_for
from rig.desktop.emulated import EmulatedRig, new_emulated_rig
from rig.gamebuild import build_game
from rig.gametype import GameEntry
from rig.maker.boardart.svg import board_svg
from rig.maker.printout.sheets import SHEETS
from rig.screens.screen import BIG_ROWS, COLUMNS, ROWS, Screen, fit
from rig.voice.speech import Vocabulary, utterance, vocabulary_for
from rig.web.live import LiveBoard, card_tray

RIG_SEEDS = (1, 2)
"""The seeded games each case plays on the rig when the caller names none."""
MAX_GESTURES = 20_000
"""The gestures a rig game may take before the battery says it does not end."""
PARTS = ("view", "screens", "speech", "board drawing", "live board", "card tray",
         "print sheets")
"""The rig parts the battery drives, in the order it reaches them."""

T = TypeVar("T")


class RigPartError(AssertionError):
    """A rig part of a game failed: the message names the case, the part and the seed."""

    def __init__(self, message: str, part: str) -> None:
        super().__init__(message)
        self.part = part


class _Failed(Exception):
    def __init__(self, part: str, message: str) -> None:
        super().__init__(message)
        self.part = part


def _part(part: str, call: Callable[[], T]) -> T:
    """`call`, with any failure said as the part's."""
    try:
        return call()
    except _Failed:
        raise
    except Exception as exc:
        raise _Failed(part, f"{type(exc).__name__}: {exc}") from exc


def _require(part: str, condition: bool, message: str) -> None:
    if not condition:
        raise _Failed(part, message)


def check_screen(screen: Screen) -> None:
    """The screen fits 21 characters by 8 lines on every page, with every wording on
    one of its pages (RULINGS G4)."""
    fitted = fit(screen)
    _require("screens", len(fitted.title) <= COLUMNS, f"title {fitted.title!r} is wider "
             f"than {COLUMNS}")
    shown = ""
    for number, (body, footer) in enumerate(zip(fitted.pages, fitted.footers, strict=True)):
        used = 1 + (BIG_ROWS if fitted.big else 0) + len(body) + (1 if footer else 0)
        _require("screens", used <= ROWS,
                 f"page {number + 1} of {screen.title!r} needs {used} rows of {ROWS}")
        wide = [row.text for row in body if len(row.text) > COLUMNS]
        _require("screens", not wide, f"rows wider than {COLUMNS}: {wide}")
        shown += " ".join(row.text for row in body) + " "
    squashed = "".join(shown.split())
    for wording in fitted.wordings:
        _require("screens", "".join(wording.split()) in squashed,
                 f"{wording!r} is lost from {screen.title!r}")


def check_prompt(screen: Screen) -> None:
    """A screen that waits for the table says what to do: an instruction or a menu."""
    roles = {part.role for part in screen.parts()}
    _require("screens", "instruction" in roles or bool(screen.menu),
             f"the prompt {screen.title!r} carries no instruction (a Part with role "
             f"\"instruction\"): {screen.plain()!r}")


def check_speech(screen: Screen, vocabulary: Vocabulary) -> None:
    said = utterance(screen, vocabulary)
    if said is not None:
        _require("speech", isinstance(said.text, str), f"{screen.title!r} is said as "
                 f"{said.text!r}")


def check_live(game: Game, state: State, board: LiveBoard | None) -> None:
    """The live board's pieces and the card tray, as the browser gets them (JSON)."""
    if board is not None:
        json.dumps(_part("live board", lambda: board.pieces(state)))
    json.dumps(_part("card tray", lambda: card_tray(game, state, [])))


def play_on_rig(entry: GameEntry, variant: str, players: int, seed: int,
                gestures: int = MAX_GESTURES) -> EmulatedRig:
    """One seeded game of `entry` on the emulated rig, every part checked on the way."""
    rig = _part("view", lambda: new_emulated_rig(entry.name, players, variant=variant,
                                                 seed=seed))
    game = rig.session.game
    vocabulary = _part("speech", lambda: vocabulary_for(entry.name))
    board = _part("live board", lambda: LiveBoard(game)) if entry.live else None
    if board is not None:
        _require("live board", "<svg" in board.svg, "the live board's drawing is no SVG")
    rng = random.Random(seed)
    taken = seen = 0
    while not rig.controller.over:
        controller = rig.controller
        if controller.alert is None and not rig.session.state.is_terminal():
            check_prompt(controller.screen())
        moves = _part("view", partial(gestures_for, controller, rng))
        if not moves:
            _part("view", rig.settle)
        for gesture in moves:
            _part("view", partial(rig.loop.step, gesture))
            _part("view", rig.settle)
            taken += 1
            _require("view", taken < gestures, f"the game has not ended after {gestures} "
                     "gestures on the rig")
        for screen in rig.screens[seen:]:
            check_screen(screen)
            _part("speech", partial(check_speech, screen, vocabulary))
        seen = len(rig.screens)
        if taken % 5 == 0:
            check_live(game, rig.session.state, board)
    check_live(game, rig.session.state, board)
    return rig


def check_drawings(entry: GameEntry, game: Game) -> None:
    """The board tools draw the built game's board."""
    if entry.board is None:
        return
    tools = _part("board drawing", entry.board)
    board: object = getattr(game, "board", None)
    _require("board drawing", board is not None, f"the built game ({type(game).__name__}) "
             "has no .board for its board tools to draw")
    geometry = _part("board drawing", partial(tools.geometry_of, board))
    _require("board drawing", "<svg" in _part("board drawing", lambda: board_svg(geometry)),
             "the board's drawing is no SVG")


def check_sheets(entry: GameEntry) -> None:
    """The printed sheets as records, and as PDFs when reportlab is installed."""
    if entry.printout is None:
        return
    tools = _part("print sheets", entry.printout)
    game = _part("print sheets", lambda: build_game(entry.name, players=tools.players))
    _part("print sheets", lambda: tools.reference_of(game))
    _part("print sheets", lambda: tools.pieces_of(game))
    _part("print sheets", lambda: tools.cards_of(game))
    if importlib.util.find_spec("reportlab") is None:
        return
    kinds = [kind for kind in SHEETS if kind != "cards" or tools.has_cards]
    with tempfile.TemporaryDirectory(prefix="cbrig-check-") as folder:
        for kind in kinds:
            path = Path(folder) / f"{kind}.pdf"
            _part("print sheets", partial(SHEETS[kind], entry.name, game, str(path), "a4",
                                          True))
            _require("print sheets", path.stat().st_size > 0, f"{kind}.pdf is empty")


def rig_cases(entry: GameEntry) -> tuple[tuple[str, int], ...]:
    """(variant, players) the rig plays: each variant at its fewest players."""
    return tuple((variant.name, min(variant.players)) for variant in entry.facts.variants)


def check_rig(entry: GameEntry, *, seeds: Iterable[int] = RIG_SEEDS,
              cases: Sequence[tuple[str, int]] | None = None) -> int:
    """Every rig part of a registered game, over seeded games of each case; the games
    played. RigPartError names the first part that failed."""
    played = 0
    seeds = tuple(seeds)
    for variant, players in cases if cases is not None else rig_cases(entry):
        name = f"{entry.name}-{variant}-{players}p"
        for seed in seeds:
            try:
                rig = play_on_rig(entry, variant, players, seed)
                if seed == seeds[0]:
                    check_drawings(entry, rig.session.game)
            except _Failed as exc:
                raise RigPartError(f"{name}, seed {seed}, {exc.part}: {exc}", exc.part) \
                    from exc
            played += 1
    try:
        check_sheets(entry)
    except _Failed as exc:
        raise RigPartError(f"{entry.name}, {exc.part}: {exc}", exc.part) from exc
    return played
