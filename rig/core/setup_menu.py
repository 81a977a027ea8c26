"""The setup screen: which game, how many players, and who (or what) sits in each seat."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hardware.events import KnobPress, KnobTurn
from rig import gametype, registry
from rig.screens import words
from rig.screens.screen import Screen
from valueclass import Frozen, replace

if TYPE_CHECKING:
    from rig.voice.control import VoiceControl

ALIASES = gametype.OLD_LEVEL_NAMES
"""Older level names a config may still give: shown and stepped on as their level."""


def colour_sets(game: str, players: int) -> list[tuple[str, ...]]:
    """Which colours can sit down, in board order; the first is the default (the
    registry's seating colours; the two-player 10-Four game always seats red and blue,
    pairing red+green against blue+yellow)."""
    return registry.entry(game).colour_sets(players)


def seat_levels(game: str) -> tuple[str, ...]:
    """What a seat can be in `game`, in the order a press steps through them."""
    return ("human", *registry.entry(game).computer_levels)


def _seatable(game: str, levels: tuple[str, ...]) -> tuple[str, ...]:
    """`levels` with every level `game` has no computer for turned back to human."""
    entry = registry.entry(game)
    return tuple(level if entry.seats(level) else "human" for level in levels)


class SetupChoice(Frozen):
    game: str = registry.DEFAULT_GAME
    players: int = registry.DEFAULT_PLAYERS
    levels: tuple[str, ...] = ("human",) * registry.DEFAULT_PLAYERS
    hints: bool = False
    seats: tuple[str, ...] = ()
    """Colours in seating order; empty means the board's first colours."""

    @property
    def variant(self) -> str | None:
        return registry.entry(self.game).special_variant(self.players)


class SetupMenu:
    """Turn to move between items, press to change the item (or start).

    ``actions`` are extra rows just before START (e.g. "Enrol cards"), so START stays
    the last row, one turn back from the top; pressing an action sets
    ``requested`` to its label for the app to act on."""

    def __init__(self, choice: SetupChoice | None = None, actions: tuple[str, ...] = (),
                 voice: VoiceControl | None = None) -> None:
        self.choice = choice or SetupChoice()
        self.cursor = 0
        self.started: SetupChoice | None = None
        self.actions = actions
        self.requested: str | None = None
        self.voice = voice
        """Voice on/off and volume rows (RULINGS G6), where the rig has a voice."""

    def voice_rows(self) -> list[str]:
        if self.voice is None:
            return []
        return words.voice_rows(self.voice.enabled, self.voice.volume)

    def items(self) -> list[str]:
        c = self.choice
        colours = c.seats or colour_sets(c.game, c.players)[0]
        rows = [words.game_row(registry.entry(c.game).title), words.players_row(c.players),
                words.colours_row(colours)]
        rows += [words.seat_row(colours[i], ALIASES.get(c.levels[i], c.levels[i]))
                 for i in range(c.players)]
        rows += [words.hints_row(c.hints), *self.voice_rows(), *self.actions, words.START]
        return rows

    def handle(self, event: object) -> None:
        items = self.items()
        if isinstance(event, KnobTurn):
            self.cursor = (self.cursor + event.steps) % len(items)
        elif isinstance(event, KnobPress):
            self._press(self.cursor, len(items))

    def _press(self, index: int, count: int) -> None:
        if index == count - 1:
            self.started = self.choice
            return
        first_action = count - 1 - len(self.actions)
        if index >= first_action:
            self.requested = self.actions[index - first_action]
            return
        voice_first = first_action - len(self.voice_rows())
        if index >= voice_first and self.voice is not None:
            (self.voice.toggle if index == voice_first else self.voice.louder)()
            return
        count -= len(self.actions) + len(self.voice_rows())  # the rows below as if there
        # were no actions and no voice rows
        c = self.choice
        if index == 0:
            games = list(registry.names())
            game = games[(games.index(c.game) + 1) % len(games)]
            self.choice = replace(c, game=game, seats=(), levels=_seatable(game, c.levels))
        elif index == 1:
            counts = registry.entry(c.game).player_counts
            players = counts[(counts.index(c.players) + 1) % len(counts)] \
                if c.players in counts else counts[0]
            levels = (c.levels + ("human",) * 4)[:players]
            self.choice = replace(c, players=players, levels=levels, seats=())
        elif index == 2:
            options = colour_sets(c.game, c.players)
            shown = options.index(c.seats) if c.seats in options else 0
            self.choice = replace(c, seats=options[(shown + 1) % len(options)])
        elif index == count - 2:
            self.choice = replace(c, hints=not c.hints)
        else:
            seat = index - 3
            chosen = list(c.levels)
            current = ALIASES.get(chosen[seat], chosen[seat])
            offered = seat_levels(c.game)
            following = offered.index(current) + 1 if current in offered else 0
            chosen[seat] = offered[following % len(offered)]
            self.choice = replace(c, levels=tuple(chosen))

    def screen(self) -> Screen:
        return Screen(title=words.NEW_GAME_TITLE, menu=tuple(self.items()), cursor=self.cursor,
                      footer=words.MENU_FOOTER)
