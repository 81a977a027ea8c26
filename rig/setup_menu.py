"""The setup screen: which game, how many players, and who (or what) sits in each seat."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from hardware.events import KnobPress, KnobTurn
from rig.games import GAME_TITLES
from rig.screen import Screen

LEVELS = ("human", "random", "strong")
PLAYER_RANGE = {"tenfour": (2, 3, 4), "bumpem": (2, 3, 4)}


@dataclass(frozen=True)
class SetupChoice:
    game: str = "tenfour"
    players: int = 4
    levels: tuple[str, ...] = field(default_factory=lambda: ("human",) * 4)
    hints: bool = False

    @property
    def variant(self) -> str | None:
        return "two-player" if self.game == "tenfour" and self.players == 2 else None


class SetupMenu:
    """Turn to move between items, press to change the item (or start)."""

    def __init__(self, choice: SetupChoice | None = None) -> None:
        self.choice = choice or SetupChoice()
        self.cursor = 0
        self.started: SetupChoice | None = None

    def items(self) -> list[str]:
        c = self.choice
        rows = [f"Game: {GAME_TITLES[c.game]}", f"Players: {c.players}"]
        rows += [f"Seat {i + 1}: {c.levels[i]}" for i in range(c.players)]
        rows += [f"Hints: {'on' if c.hints else 'off'}", "START"]
        return rows

    def handle(self, event: object) -> None:
        items = self.items()
        if isinstance(event, KnobTurn):
            self.cursor = (self.cursor + event.steps) % len(items)
        elif isinstance(event, KnobPress):
            self._press(self.cursor, len(items))

    def _press(self, index: int, count: int) -> None:
        c = self.choice
        if index == count - 1:
            self.started = c
        elif index == 0:
            games = list(GAME_TITLES)
            self.choice = replace(c, game=games[(games.index(c.game) + 1) % len(games)])
        elif index == 1:
            counts = PLAYER_RANGE[c.game]
            players = counts[(counts.index(c.players) + 1) % len(counts)] \
                if c.players in counts else counts[0]
            levels = (c.levels + ("human",) * 4)[:players]
            self.choice = replace(c, players=players, levels=levels)
        elif index == count - 2:
            self.choice = replace(c, hints=not c.hints)
        else:
            seat = index - 2
            seat_levels = list(c.levels)
            seat_levels[seat] = LEVELS[(LEVELS.index(seat_levels[seat]) + 1) % len(LEVELS)]
            self.choice = replace(c, levels=tuple(seat_levels))

    def screen(self) -> Screen:
        return Screen(title="NEW GAME", menu=tuple(self.items()), cursor=self.cursor,
                      footer="turn:move press:set")
