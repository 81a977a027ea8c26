"""The games the rig plays: one entry per game, read by every part that chooses by game.

An entry says once what the rest of the rig used to spell out in nine places: the name
and title, the variants with the player counts each is for (10-Four's two players are a
variant of their own, seated red against blue), the data files, the rule options, the
view, the setup menu's colours, what ``cbrig simulate`` counts, how ``cbrig board``
loads and draws a board, and which configurations ``cbrig bench`` times. Config
checks, the setup menu, the commands and the benches all ask here (as OpenSpiel
registers a game once, with its player limits).

Importing this module, and reading an entry's names, titles, variants, player counts and
options, loads no rules and no view: the facts come from the game's small ``info``
module (stdlib only), and the rules, the view and the board tools are loaded by small
functions on first use. That keeps ``rig.config`` (and so the daemon's start) lean.

A game outside the rig registers itself with one line, ``register(ENTRY)``; naming
``module:ENTRY`` in the ``CBRIG_GAMES`` environment variable (comma separated) does the
same for a ``cbrig`` process. docs/ENGINE_CONTRACT.md, "How to add a game", walks through.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import cached_property
from itertools import combinations
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING, Protocol

from valueclass import Frozen, field

if TYPE_CHECKING:
    from engine.api import JSON, Game, State
    from engine.selfplay import Chooser
    from rig.boardart.geometry import BoardGeometry
    from rig.printout.reference import Sections
    from rig.printout.sheets import CardSheet, PieceList
    from rig.views import GameView
    from rig.web.live import Piece

DEFAULT_GAME = "tenfour"
"""The game a config without ``[game] name``, the setup menu and ``--game`` start with."""
DEFAULT_PLAYERS = 3
"""How many play when nothing says (the Pi's config and wiring/config.toml, so the setup
menu's start; ``cbrig emulate``; ``cbrig demo``). Three is the smallest table at which
both games play their standard rules: 10-Four for two is a variant of its own (two trucks
each, no Bear In The Air: RULINGS T12), which a first game should not meet first; and
three plays, and a watched demo ends, sooner than four. A test keeps every built-in
game's default variant seating this many."""
COMPUTER_LEVELS = ("easy", "medium", "hard")
"""engine.players.LEVELS, spelled here so reading an entry imports no engine (a test
keeps the two equal)."""
OLD_LEVEL_NAMES: Mapping[str, str] = MappingProxyType({"random": "easy", "strong": "medium"})
"""engine.players.ALIASES: older level names saved configs and journals still use."""

PLUGINS_VARIABLE = "CBRIG_GAMES"
"""Environment variable naming extra entries to register, ``module:NAME`` comma separated."""


class UnknownGame(ValueError):
    """A game name no entry has (the message lists the known ones)."""


class BuildFunction(Protocol):
    """A game package's ``build``: the configured game, or ValueError / DataError."""

    def __call__(self, *, players: int, variant: str, data: Mapping[str, tuple[str, str]],
                 options: Mapping[str, JSON] | None = None,
                 seats: Sequence[str] | None = None) -> Game: ...


class Variant(Frozen):
    """A variant and the player counts it is for."""

    name: str
    players: tuple[int, ...]


class BoardTools(Frozen):
    """What ``cbrig board`` needs from a game: load a board file, summarise it, draw it."""

    load: Callable[[str, str], object]
    """(text, source) -> the board, or DataError naming every mistake."""
    summary: Callable[[object], list[str]]
    geometry: Callable[[object], BoardGeometry]
    """The board's drawing (the same one ``cbrig print`` and the browser use)."""


class LiveTools(Frozen):
    """What the browser's live board needs from a built game (rig.web.live)."""

    board: Callable[[Game], object]
    """The game's loaded board (drawn by its BoardTools.geometry)."""
    pieces: Callable[[Game, State], list[Piece]]
    """Every piece and its location id, in a fixed order."""
    cards: Callable[[Game, State, list[str]], list[dict[str, JSON]]]
    """The card tray: each card (or ticket) with its texts; `can` for the valid ones,
    `out` for those out of the pile (drawn since the last reshuffle)."""


class PrintTools(Frozen):
    """What ``cbrig print`` needs from a game (rig.printout)."""

    players: int
    """How many seats the printed game is built for (the pieces sheet shows them)."""
    reference: Callable[[Game], Sections]
    """The quick reference's sections, with the options in use."""
    cards: Callable[[Game], CardSheet]
    """The card (or ticket) faces, the enrolment order, how to enrol, the title."""
    pieces: Callable[[Game], PieceList]
    """(name as the rig says it, colour, icon) for every piece in the box."""


class LatencyCase(Frozen):
    """One configuration ``cbrig bench`` plays through the emulated rig (input to frame)."""

    variant: str | None
    players: int
    quick_games: int
    full_games: int
    hints: bool = False


class BenchCases(Frozen):
    """The configurations of a game the benches time (empty: the game is not timed)."""

    engine_speed: tuple[tuple[str, int], ...] = ()
    """(variant, players) of random self-play speed."""
    latency: tuple[LatencyCase, ...] = ()
    bus_players: int | None = None
    """Players of the game the I2C bus bench draws (None: not drawn)."""
    hinted_latency: tuple[LatencyCase, ...] = ()
    """Latency cases with hints on, timed after every game's plain cases."""


class GameFacts(Frozen):
    """What a game's ``info`` module declares, checked and typed."""

    variants: tuple[Variant, ...]
    data_roles: Mapping[str, str]
    """Role -> the shipped file's name in engine/data."""
    options: Mapping[str, JSON]
    """Every rule option with its default."""
    sim_counters: Mapping[str, str]
    """Event kind -> the counter ``cbrig simulate`` reports."""

    @property
    def variant_names(self) -> tuple[str, ...]:
        return tuple(variant.name for variant in self.variants)

    @property
    def player_counts(self) -> tuple[int, ...]:
        return tuple(sorted({n for variant in self.variants for n in variant.players}))


class GameEntry(Frozen):
    """One game as the rig knows it. Only `name`, `title`, `info` and the loaders are
    required; the rest has defaults a small game can keep."""

    name: str
    """The name in configs, journals and ``--game``."""
    title: str
    """The name people read (setup menu, demo, help)."""
    info: str
    """Dotted path of the game's facts module: ``VARIANT_PLAYERS`` (variant -> player
    counts, the default variant first), ``DATA_ROLES``, ``OPTIONS`` and ``SIM_COUNTERS``.
    It must import no rules: config checks and menus read it on every start."""
    build: Callable[[], BuildFunction]
    """Loads the rules on first use and gives their ``build``."""
    view: Callable[[Game], GameView]
    """The rig view of a built game (imports the view module on first use)."""
    colours: tuple[str, ...] = ()
    """Seat colours of the shipped board in board order: the setup menu's choices."""
    seatings: Mapping[str, tuple[tuple[str, ...], ...]] = field(
        default_factory=lambda: MappingProxyType({}))
    """Variant -> the only colour sets it seats (10-Four two-player: red and blue)."""
    short_title: str = ""
    """A short title for printed sheets (empty: the title)."""
    board: Callable[[], BoardTools] | None = None
    """``cbrig board``'s tools (None: the game has no board file to check)."""
    live: Callable[[], LiveTools] | None = None
    """The browser's live board (None: the game has none)."""
    printout: Callable[[], PrintTools] | None = None
    """``cbrig print``'s sheets (None: the game cannot be printed)."""
    bench: BenchCases = field(default_factory=BenchCases)
    ai: str | None = None
    """Dotted path of the module with the game's ``strong_choice`` (medium) and
    ``hard_choice`` (hard); None: its computer seats play ``easy`` only."""

    @property
    def computer_levels(self) -> tuple[str, ...]:
        """The computer levels this game seats, weakest first (engine.players.LEVELS)."""
        return COMPUTER_LEVELS if self.ai is not None else COMPUTER_LEVELS[:1]

    def seats(self, level: str) -> bool:
        """Whether a seat of this game can be `level` (human, a level or an older name)."""
        found = OLD_LEVEL_NAMES.get(level, level)
        return found == "human" or found in self.computer_levels

    def chooser(self, level: str, budget: int | None = None) -> Chooser:
        """The computer player of `level`; ValueError when the game has no such level."""
        from engine.players import canonical_level, chooser_for

        if canonical_level(level) not in self.computer_levels:
            raise ValueError(f"{self.title} has no {level!r} computer level; choose one of "
                             f"{', '.join(self.computer_levels)}")
        return chooser_for(self.name, level, budget, ai=self.ai)

    # facts: the info module only -------------------------------------------------------
    @cached_property
    def facts(self) -> GameFacts:
        return read_facts(importlib.import_module(self.info), self.info)

    @property
    def variants(self) -> tuple[str, ...]:
        return self.facts.variant_names

    def players_problem(self, players: int, variant: str | None = None) -> str | None:
        """Why `players` cannot play this game (in `variant`, if given), in words that
        name the counts it is for; None when they can."""
        counts = self.player_counts
        whose = self.title
        if variant is not None:
            found = [v.players for v in self.facts.variants if v.name == variant]
            if not found:
                return (f"{self.title} has no variant {variant!r}; it has "
                        f"{choice_words(self.variants)}")
            counts, whose = found[0], f"{self.title}'s {variant} variant"
        if players in counts:
            return None
        return f"{whose} is for {count_words(counts)} players, not {players}"

    def level_problem(self, level: str) -> str | None:
        """Why a seat of this game cannot be `level`, naming the levels it has; or None."""
        if self.seats(level):
            return None
        return f"{level!r}; choose one of {', '.join(('human', *self.computer_levels))}"

    @property
    def player_counts(self) -> tuple[int, ...]:
        return self.facts.player_counts

    def variant_for(self, players: int) -> str | None:
        """The first variant for this many players (10-Four: 2 -> "two-player")."""
        for variant in self.facts.variants:
            if players in variant.players:
                return variant.name
        return None

    def special_variant(self, players: int) -> str | None:
        """The variant this many players need when it is not the default one, else None
        (the default is what a game built without a variant gets)."""
        variant = self.variant_for(players)
        return variant if variant is not None and variant != self.variants[0] else None

    def colour_sets(self, players: int) -> list[tuple[str, ...]]:
        """Which colours can sit down, in board order; the first is the default."""
        fixed = self.seatings.get(self.variant_for(players) or "")
        if fixed:
            return list(fixed)
        return list(combinations(self.colours, players))

    @property
    def display_title(self) -> str:
        return self.short_title or self.title


def count_words(counts: Sequence[int]) -> str:
    """Player counts as people say them: "2 to 4", "3 or 4", "2"."""
    ordered = sorted(set(counts))
    if len(ordered) > 2 and ordered == list(range(ordered[0], ordered[-1] + 1)):
        return f"{ordered[0]} to {ordered[-1]}"
    return choice_words([str(n) for n in ordered])


def choice_words(choices: Sequence[str]) -> str:
    """"a", "a or b", "a, b or c"."""
    if len(choices) < 2:
        return "".join(choices)
    return f"{', '.join(choices[:-1])} or {choices[-1]}"


def all_player_counts() -> tuple[int, ...]:
    """Every player count some registered game seats (what ``--players`` and the config's
    ``players`` may be before the game is known)."""
    return tuple(sorted({n for game in entries() for n in game.player_counts}))


def read_facts(module: ModuleType, where: str) -> GameFacts:
    """The typed facts of an info module; TypeError naming the field when one is wrong."""
    variant_players = _mapping(module, where, "VARIANT_PLAYERS")
    variants = []
    for name, counts in variant_players.items():
        if not (isinstance(counts, tuple) and counts
                and all(isinstance(n, int) and not isinstance(n, bool) for n in counts)):
            raise TypeError(f"{where}.VARIANT_PLAYERS[{name!r}]: a tuple of player counts")
        variants.append(Variant(name, tuple(int(n) for n in counts)))
    if not variants:
        raise TypeError(f"{where}.VARIANT_PLAYERS: a game has at least one variant")
    return GameFacts(
        variants=tuple(variants),
        data_roles=MappingProxyType(_strings(module, where, "DATA_ROLES")),
        options=MappingProxyType(dict(_mapping(module, where, "OPTIONS"))),
        sim_counters=MappingProxyType(_strings(module, where, "SIM_COUNTERS")),
    )


def _mapping(module: ModuleType, where: str, name: str) -> dict[str, JSON]:
    value: object = getattr(module, name, None)
    if not isinstance(value, Mapping) or not all(isinstance(key, str) for key in value):
        raise TypeError(f"{where}.{name}: a mapping with string keys")
    return {str(key): item for key, item in value.items()}


def _strings(module: ModuleType, where: str, name: str) -> dict[str, str]:
    out = {}
    for key, value in _mapping(module, where, name).items():
        if not isinstance(value, str):
            raise TypeError(f"{where}.{name}[{key!r}]: a string")
        out[key] = value
    return out


# -- the registry -------------------------------------------------------------------------

_ENTRIES: dict[str, GameEntry] = {}
_plugins_loaded = False


def register(entry: GameEntry) -> GameEntry:
    """Add a game (its name must be new); returns the entry, so a module can say
    ``ENTRY = register(GameEntry(...))``."""
    if entry.name in _ENTRIES and _ENTRIES[entry.name] is not entry:
        raise ValueError(f"a game named {entry.name!r} is already registered")
    _ENTRIES[entry.name] = entry
    return entry


def unregister(name: str) -> None:
    """Take a game out again (tests that register one of their own)."""
    _ENTRIES.pop(name, None)


@contextmanager
def registered(entry: GameEntry) -> Iterator[GameEntry]:
    """The game registered for the duration of a ``with`` block."""
    register(entry)
    try:
        yield entry
    finally:
        unregister(entry.name)


def _load_plugins() -> None:
    """Register the entries ``CBRIG_GAMES`` names, once per process."""
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    for spec in filter(None, (s.strip() for s in os.environ.get(PLUGINS_VARIABLE, "")
                              .split(","))):
        module_name, _, attribute = spec.partition(":")
        entry = getattr(importlib.import_module(module_name), attribute or "ENTRY")
        if not isinstance(entry, GameEntry):
            raise TypeError(f"{PLUGINS_VARIABLE}: {spec} is not a GameEntry")
        if entry.name not in _ENTRIES:
            register(entry)


def entries() -> tuple[GameEntry, ...]:
    """Every registered game, the built-in ones first (registration order)."""
    _load_plugins()
    return tuple(_ENTRIES.values())


def names() -> tuple[str, ...]:
    return tuple(entry.name for entry in entries())


def entry(name: str) -> GameEntry:
    """The entry of `name`; UnknownGame lists the games there are."""
    _load_plugins()
    found = _ENTRIES.get(name)
    if found is None:
        raise UnknownGame(f"unknown game {name!r}; choose one of {', '.join(_ENTRIES)}")
    return found


def data_roles() -> tuple[str, ...]:
    """Every data file role any game has, in registration order (config checks)."""
    roles: dict[str, None] = {}
    for game in entries():
        roles.update(dict.fromkeys(game.facts.data_roles))
    return tuple(roles)


def game_help(default: str = DEFAULT_GAME) -> str:
    """``--game``'s help: each name with its title, the default marked."""
    words = [f"{game.name} ({game.title}{', the default' if game.name == default else ''})"
             for game in entries()]
    return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]


# -- the built-in games ---------------------------------------------------------------------

def _tenfour_build() -> BuildFunction:
    from engine.tenfour import build

    return build


def _tenfour_view(game: Game) -> GameView:
    from rig.view_tenfour import TenFourView

    return TenFourView(game)


def _tenfour_board() -> BoardTools:
    from engine.tenfour import load_board
    from rig.boardart.tenfour import tenfour_geometry
    from rig.commands.board import tenfour_summary

    return BoardTools(load_board, tenfour_summary, tenfour_geometry)


def _tenfour_live() -> LiveTools:
    from rig.web.live import tenfour_live

    return tenfour_live()


def _tenfour_print() -> PrintTools:
    from rig.printout.reference import tenfour_reference
    from rig.printout.sheets import mike_cards, tenfour_pieces

    return PrintTools(4, tenfour_reference, mike_cards, tenfour_pieces)


def _bumpem_build() -> BuildFunction:
    from engine.bumpem import build

    return build


def _bumpem_view(game: Game) -> GameView:
    from rig.view_bumpem import BumpEmView

    return BumpEmView(game)


def _bumpem_board() -> BoardTools:
    from engine.bumpem import load_board
    from rig.boardart.bumpem import bumpem_geometry
    from rig.commands.board import generic_summary

    return BoardTools(load_board, generic_summary, bumpem_geometry)


def _bumpem_live() -> LiveTools:
    from rig.web.live import bumpem_live

    return bumpem_live()


def _bumpem_print() -> PrintTools:
    from rig.printout.reference import bumpem_reference
    from rig.printout.sheets import bumpem_pieces, ticket_cards

    return PrintTools(2, bumpem_reference, ticket_cards, bumpem_pieces)


TENFOUR = register(GameEntry(
    name="tenfour", title="10-Four, Good Buddy", short_title="10-Four",
    info="engine.tenfour.info", build=_tenfour_build, view=_tenfour_view,
    ai="engine.tenfour.ai",
    colours=("red", "green", "blue", "yellow"),
    seatings=MappingProxyType({"two-player": (("red", "blue"),)}),
    board=_tenfour_board, live=_tenfour_live, printout=_tenfour_print,
    bench=BenchCases(
        engine_speed=(("standard", 3), ("standard", 4), ("two-player", 2)),
        latency=(LatencyCase("standard", 4, 1, 6), LatencyCase("two-player", 2, 1, 4)),
        # The shipped config (wiring/config.toml) has hints = true: every human seat gets
        # the strong level's suggestion, computed at each decision node inside the step.
        hinted_latency=(LatencyCase("standard", 4, 1, 4, hints=True),),
        bus_players=4,
    ),
))
BUMPEM = register(GameEntry(
    name="bumpem", title="Bump 'Em", info="engine.bumpem.info", build=_bumpem_build,
    ai="engine.bumpem.ai",
    view=_bumpem_view, colours=("red", "blue", "yellow", "green"), board=_bumpem_board,
    live=_bumpem_live, printout=_bumpem_print,
    bench=BenchCases(
        engine_speed=(("standard", 2), ("standard", 3), ("standard", 4)),
        latency=(LatencyCase(None, 4, 1, 3),),
        hinted_latency=(LatencyCase(None, 4, 1, 2, hints=True),),
        bus_players=3,
    ),
))
