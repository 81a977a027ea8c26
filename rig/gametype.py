"""What the rig knows of one game, as typed records: its facts (`GameFacts`: variants and
player counts, data roles, rule options with their help) and its entry (`GameEntry`: the
name and title, the loaders of its rules and view, and the optional parts: board tools,
live board, printed sheets, voice). Like OpenSpiel's GameType, one record read by every
part that chooses by game; :mod:`rig.registry` is the index that finds and keeps them.

Reading an entry's facts loads no rules and no view: they come from the game's small
``info`` module (stdlib only), and the rules, the view and the tools are loaded by small
functions on first use. That keeps ``rig.config`` (and so the daemon's start) lean.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from functools import cached_property, partial
from itertools import combinations
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING, Generic, Protocol, TypedDict, TypeGuard, TypeVar

from valueclass import Frozen, field

if TYPE_CHECKING:
    from engine.api import JSON, Game, State
    from engine.selfplay import Chooser
    from rig.maker.boardart.geometry import BoardGeometry
    from rig.maker.printout.parts import CardSheet, PieceList
    from rig.maker.printout.reference import Sections
    from rig.screens.gameview import GameView
    from rig.voice.vocabulary import Vocabulary

    class GameWithBoard(Game, Protocol):
        """A game with a loaded board (what its drawing is made from)."""

        @property
        def board(self) -> object: ...


API_VERSION = (1, 1)
"""(major, minor) of the game API (``cbrig.game``): the first number changes when a name
is taken away or changes meaning, the second when one is added. 1.1 added
``GameEntry.requires_api``, ``cbrig.rigcheck`` (the battery's rig half) and the board's
``over`` layer."""

COMPUTER_LEVELS = ("easy", "medium", "hard")
"""engine.players.LEVELS, spelled here so reading an entry imports no engine (a test
keeps the two equal)."""
OLD_LEVEL_NAMES: Mapping[str, str] = MappingProxyType({"random": "easy", "strong": "medium"})
"""engine.players.ALIASES: older level names saved configs and journals still use."""

DATA_FOLDER = "data"
"""Where a game's shipped data files are when its facts name no package of their own:
the ``data`` package beside its ``info`` module (``engine.tenfour.data``), so each
game's files live in its own folder."""


class BuildFunction(Protocol):
    """A game package's ``build``: the configured game, or ValueError / DataError. The
    options are unchecked (a TOML config's values, the command line's, a journal
    header's): the game checks each against its default, so they are typed `object`."""

    def __call__(self, *, players: int, variant: str, data: Mapping[str, tuple[str, str]],
                 options: Mapping[str, object] | None = None,
                 seats: Sequence[str] | None = None) -> Game: ...


class Variant(Frozen):
    """A variant and the player counts it is for."""

    name: str
    players: tuple[int, ...]


B = TypeVar("B")
"""A game's own board class (10-Four's ``Board``, Bump 'Em's ``BumpemBoard``)."""


class LoadedBoard(Protocol):
    """A board file read by its game's tools, ready to be summarised or drawn."""

    def summary(self) -> list[str]: ...

    def geometry(self) -> BoardGeometry: ...


class GameBoards(Protocol):
    """What the rig asks of a game's board tools, whatever its board class: the
    registry holds every game's, so it sees them through this (a :class:`BoardTools`
    of the game's own board is one)."""

    def read(self, text: str, source: str) -> LoadedBoard: ...

    def geometry_of(self, board: object) -> BoardGeometry: ...


class BoardTools(Frozen, Generic[B]):
    """What ``cbrig board``, ``cbrig print`` and the live board need from a game: load a
    board file, summarise it, draw it; typed over the game's own board class, so its
    folder's functions take their board as it is."""

    kind: type[B]
    """The board class (the check where a board arrives by the game's name)."""
    load: Callable[[str, str], B]
    """(text, source) -> the board, or DataError naming every mistake."""
    summary: Callable[[B], list[str]]
    geometry: Callable[[B], BoardGeometry]
    """The board's drawing (the same one ``cbrig print`` and the browser use)."""

    def read(self, text: str, source: str) -> LoadedBoard:
        """The board file, loaded (DataError naming every mistake)."""
        return _Loaded(self, self.load(text, source))

    def geometry_of(self, board: object) -> BoardGeometry:
        """The drawing of a built game's board, found by the game's name (a printed
        sheet, the live board): the one place such a board is checked to be this
        game's; another's is a wiring error."""
        if not isinstance(board, self.kind):
            raise TypeError(f"{self.kind.__name__} tools were given a {type(board).__name__}")
        return self.geometry(board)


class _Loaded(Generic[B]):
    """A board with the tools that read it (a :class:`LoadedBoard`)."""

    def __init__(self, tools: BoardTools[B], board: B) -> None:
        self.tools = tools
        self.board = board

    def summary(self) -> list[str]:
        return self.tools.summary(self.board)

    def geometry(self) -> BoardGeometry:
        return self.tools.geometry(self.board)


class Piece(Frozen):
    id: str
    kind: str
    """The game's own word for the piece (a CSS class of its marker)."""
    colour: str
    location: str
    mark: str
    """The short text on the marker ("1", "S2", "B")."""
    says: str
    """The piece and its place in words, as the rig's screens name them."""
    shape: str = "disc"
    """How the browser draws the marker: "disc" or "square"."""


class LiveTools(Frozen):
    """What the browser's live board needs from a built game (rig.web.live)."""

    geometry: Callable[[Game], BoardGeometry]
    """The drawing of the game's loaded board (its BoardTools' geometry)."""
    pieces: Callable[[Game, State], list[Piece]]
    """Every piece and its location id, in a fixed order."""
    cards: Callable[[Game, State, list[str]], list[dict[str, JSON]]]
    """The card tray: each card (or ticket) with its texts; `can` for the valid ones,
    `out` for those out of the pile (drawn since the last reshuffle)."""


G = TypeVar("G", bound="GameWithBoard")
"""A game's own class (10-Four's ``TenFourGame``), whose board, deck and options its
printed sheets read."""


class PrintTools(Frozen, Generic[G]):
    """What ``cbrig print`` needs from a game (rig.maker.printout), typed over the game's own
    class, so its folder's functions read their game as it is."""

    kind: type[G]
    """The game class (the check where a built game arrives by the game's name)."""
    players: int
    """How many seats the printed game is built for (the pieces sheet shows them)."""
    reference: Callable[[G], Sections]
    """The quick reference's sections, with the options in use."""
    pieces: Callable[[G], PieceList]
    """Every piece in the box, as its token and standee show it."""
    cards: Callable[[G], CardSheet] | None = None
    """The card (or ticket) faces, the enrolment order, how to enrol, the title (None:
    the game has no cards to print)."""

    def own(self, game: Game) -> G:
        """The built game as its own class: the one place a game handed over by its name
        is checked to be this one's; another's is a wiring error."""
        if not isinstance(game, self.kind):
            raise TypeError(f"{self.kind.__name__} print tools were given a "
                            f"{type(game).__name__}")
        return game

    @property
    def has_cards(self) -> bool:
        return self.cards is not None

    def reference_of(self, game: Game) -> Sections:
        return self.reference(self.own(game))

    def pieces_of(self, game: Game) -> PieceList:
        return self.pieces(self.own(game))

    def cards_of(self, game: Game) -> CardSheet | None:
        """The game's cards (None: it has none to print)."""
        own = self.own(game)
        return self.cards(own) if self.cards is not None else None

    def board_of(self, game: Game) -> object:
        """The game's loaded board (drawn by ``rig.maker.boardart.board_geometry``)."""
        return self.own(game).board


class GamePrints(Protocol):
    """What the rig asks of a game's print tools, whatever its game class (a
    :class:`PrintTools` of the game's own class is one)."""

    @property
    def players(self) -> int: ...

    @property
    def has_cards(self) -> bool: ...

    def reference_of(self, game: Game) -> Sections: ...

    def pieces_of(self, game: Game) -> PieceList: ...

    def cards_of(self, game: Game) -> CardSheet | None: ...

    def board_of(self, game: Game) -> object: ...


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


class RuleOption(Frozen):
    """One rule option: its default (which gives its kind) and what it does."""

    name: str
    default: JSON
    help: str = ""


class GameFacts(Frozen):
    """What a game's ``info`` module declares, checked and typed (like OpenSpiel's
    GameType): every part of the rig that asks about a game reads this one record."""

    variants: tuple[Variant, ...]
    data_roles: Mapping[str, str]
    """Role -> the shipped file's name in `data_package`."""
    options: Mapping[str, JSON]
    """Every rule option with its default."""
    sim_counters: Mapping[str, str]
    """Event kind -> the counter ``cbrig simulate`` reports."""
    option_help: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """Option -> what it does, in a line (``--help`` and the docs)."""
    data_package: str = DATA_FOLDER
    """The package whose folder holds the game's shipped data files (``DATA_PACKAGE``;
    default: the ``data`` package beside the info module)."""

    @property
    def rule_options(self) -> tuple[RuleOption, ...]:
        return tuple(RuleOption(name, default, self.option_help.get(name, ""))
                     for name, default in self.options.items())

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
    info: ModuleType | str
    """The game's facts module (``from mygame import info``), or its dotted path:
    ``VARIANT_PLAYERS`` (variant -> player counts, the default variant first),
    ``DATA_ROLES``, ``OPTIONS`` and ``SIM_COUNTERS``. It must import no rules: config
    checks and menus read it on every start, so a reference costs nothing more."""
    build: Callable[[], BuildFunction]
    """Loads the rules on first use and gives their ``build``."""
    view: Callable[[Game], GameView[State]]
    """The rig view of a built game (imports the view module on first use)."""
    colours: tuple[str, ...] = ()
    """Seat colours of the shipped board in board order: the setup menu's choices."""
    seatings: Mapping[str, tuple[tuple[str, ...], ...]] = field(
        default_factory=lambda: MappingProxyType({}))
    """Variant -> the only colour sets it seats (10-Four two-player: red and blue)."""
    short_title: str = ""
    """A short title for printed sheets (empty: the title)."""
    board: Callable[[], GameBoards] | None = None
    """``cbrig board``'s tools (None: the game has no board file to check)."""
    live: Callable[[], LiveTools] | None = None
    """The browser's live board (None: the game has none)."""
    printout: Callable[[], GamePrints] | None = None
    """``cbrig print``'s sheets (None: the game cannot be printed)."""
    bench: BenchCases = field(default_factory=BenchCases)
    ai: str | None = None
    """Dotted path of the module with the game's ``strong_choice`` (medium) and
    ``hard_choice`` (hard); None: its computer seats play ``easy`` only."""
    speech: Callable[[], Vocabulary] | None = None
    """How the game is said aloud (rig.voice.speech); None: numbers and capitals only."""
    sign_off: str = "Thanks for playing."
    """The line the rig leaves on the screen when it stops."""
    order: int = 100
    """Where the game stands in lists (setup menu, ``--game``, help), lowest first; the
    built-in game first by it is the default game (rig.registry.default_game)."""
    requires_api: str = ""
    """The game API the game needs, "MAJOR" or "MAJOR.MINOR" ("1", "1.1"; empty: any
    1.x): a rig whose ``API_VERSION`` cannot give it refuses the game at start with one
    line (:func:`api_problem`)."""

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
    @property
    def info_name(self) -> str:
        """The dotted name of the facts module."""
        return self.info if isinstance(self.info, str) else self.info.__name__

    @cached_property
    def facts(self) -> GameFacts:
        module = importlib.import_module(self.info) if isinstance(self.info, str) else self.info
        return read_facts(module, self.info_name)

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


def api_problem(entry: GameEntry, given: tuple[int, int] = API_VERSION) -> str | None:
    """Why this rig cannot give the game the API it asks for (``requires_api``), in
    words naming both versions; None when it can (same major, at least the minor)."""
    wanted = entry.requires_api.strip() or "1"
    try:
        numbers = tuple(int(part) for part in wanted.split("."))
    except ValueError:
        numbers = ()
    if not 1 <= len(numbers) <= 2:
        return f"requires_api = {wanted!r} is no version (write \"1\" or \"1.1\")"
    major, minor = numbers[0], (numbers[1] if len(numbers) == 2 else 0)
    if major == given[0] and minor <= given[1]:
        return None
    return (f"it needs the game API {wanted}, this cbrig gives {given[0]}.{given[1]}")


class FolderParts(TypedDict, total=False):
    """A game folder's optional parts, as ``GameEntry`` takes them (``**folder_parts(...)``)."""

    board: Callable[[], GameBoards]
    live: Callable[[], LiveTools]
    printout: Callable[[], GamePrints]
    speech: Callable[[], Vocabulary]


PART_NAMES: Mapping[str, str] = MappingProxyType({
    "board": "TOOLS", "live": "TOOLS", "printout": "TOOLS", "speech": "VOCABULARY"})
"""Module of a game folder -> the name it defines: ``board.py``'s ``TOOLS`` (a
BoardTools), ``live.py``'s ``TOOLS`` (LiveTools), ``printout.py``'s ``TOOLS``
(PrintTools), ``speech.py``'s ``VOCABULARY`` (a rig.voice.speech.Vocabulary)."""

P = TypeVar("P")


def folder_parts(package: str) -> FolderParts:
    """The optional parts the game folder `package` has (``__name__`` in its
    ``__init__``), found by its modules' names (:data:`PART_NAMES`), each imported on
    first use: one registration line instead of a loader function per part,
    ``GameEntry(..., **folder_parts(__name__))``. Which modules exist is asked of the
    import system (no module is loaded)."""
    from importlib.util import find_spec

    def has(module: str) -> bool:
        return find_spec(f"{package}.{module}") is not None

    parts: FolderParts = {}
    if has("board"):
        parts["board"] = partial(_part, package, "board", BoardTools)
    if has("live"):
        parts["live"] = partial(_part, package, "live", LiveTools)
    if has("printout"):
        parts["printout"] = partial(_part, package, "printout", PrintTools)
    if has("speech"):
        parts["speech"] = partial(_vocabulary, package)
    return parts


def _part(package: str, module: str, kind: type[P]) -> P:
    """The part `module` of the folder defines, checked to be a `kind`: a wrong one is
    a TypeError naming the module, the name and what it should be."""
    name = PART_NAMES[module]
    found: object = getattr(importlib.import_module(f"{package}.{module}"), name, None)
    if not isinstance(found, kind):
        raise TypeError(f"{package}.{module}.{name} is {type(found).__name__}, not a "
                        f"{kind.__name__}")
    return found


def _vocabulary(package: str) -> Vocabulary:
    """speech.py's VOCABULARY, checked by what the voice calls on it (rig.voice.speech reads
    the registry, so the registry's records know its class for the type checker only)."""
    found: object = getattr(importlib.import_module(f"{package}.speech"), "VOCABULARY", None)
    if not _is_vocabulary(found):
        raise TypeError(f"{package}.speech.VOCABULARY is {type(found).__name__}, not a "
                        "Vocabulary")
    return found


def _is_vocabulary(found: object) -> TypeGuard[Vocabulary]:
    return callable(getattr(found, "words", None))


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


def read_facts(module: object, where: str) -> GameFacts:
    """The typed facts of an info module; TypeError naming the field when one is wrong."""
    variant_players = _mapping(module, where, "VARIANT_PLAYERS")
    variants: list[Variant] = []
    for name, counts in variant_players.items():
        if not (isinstance(counts, tuple) and counts
                and all(isinstance(n, int) and not isinstance(n, bool) for n in counts)):
            raise TypeError(f"{where}.VARIANT_PLAYERS[{name!r}]: a tuple of player counts")
        variants.append(Variant(name, tuple(int(n) for n in counts)))
    if not variants:
        raise TypeError(f"{where}.VARIANT_PLAYERS: a game has at least one variant")
    options = _mapping(module, where, "OPTIONS")
    helps = _strings(module, where, "OPTION_HELP") if hasattr(module, "OPTION_HELP") else {}
    unknown = set(helps) - set(options)
    if unknown:
        raise TypeError(f"{where}.OPTION_HELP: no such option {sorted(unknown)}")
    beside = where.rpartition(".")[0]
    package = getattr(module, "DATA_PACKAGE",
                      f"{beside}.{DATA_FOLDER}" if beside else DATA_FOLDER)
    if not isinstance(package, str):
        raise TypeError(f"{where}.DATA_PACKAGE: a dotted package name")
    return GameFacts(
        variants=tuple(variants),
        data_roles=MappingProxyType(_strings(module, where, "DATA_ROLES")),
        options=MappingProxyType(dict(options)),
        sim_counters=MappingProxyType(_strings(module, where, "SIM_COUNTERS")),
        option_help=MappingProxyType(helps),
        data_package=package,
    )


def _mapping(module: object, where: str, name: str) -> dict[str, JSON]:
    value: object = getattr(module, name, None)
    if not isinstance(value, Mapping) or not all(isinstance(key, str) for key in value):
        raise TypeError(f"{where}.{name}: a mapping with string keys")
    return {str(key): item for key, item in value.items()}


def _strings(module: object, where: str, name: str) -> dict[str, str]:
    out = {}
    for key, value in _mapping(module, where, name).items():
        if not isinstance(value, str):
            raise TypeError(f"{where}.{name}[{key!r}]: a string")
        out[key] = value
    return out
