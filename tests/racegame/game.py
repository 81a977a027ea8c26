"""Race to 20's rules: a spin (chance), then ride it or go steady (one decision)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import ClassVar

from cbrig.game import (
    CHANCE,
    JSON,
    TERMINAL,
    Action,
    ActionCodec,
    Event,
    Frozen,
    IllegalAction,
    Reason,
    Record,
    check_legal,
    field,
    game_identity,
    json_int,
    json_list,
    json_object,
    uniform,
)
from tests.racegame.info import COLOURS, OPTIONS, SPIN_VALUES, STEADY, VARIANT_PLAYERS

NAME = "race"


class Spin(Action):
    KIND: ClassVar[str] = "spin"
    value: int


class Ride(Action):
    """Move as far as the spin says."""

    KIND: ClassVar[str] = "ride"


class Steady(Action):
    """Move exactly STEADY spaces, whatever the spin."""

    KIND: ClassVar[str] = "steady"


class Correct(Action):
    """Put a runner back where it really stands (RULINGS G5)."""

    KIND: ClassVar[str] = "correct"
    piece: str
    location: str


CODEC = ActionCodec([Spin, Ride, Steady, Correct])


class Prompt(Frozen):
    kind: str
    """"spin", "move" or "over"."""
    player: int
    text: str


class RaceGame:
    def __init__(self, variant: str, seats: Sequence[str], goal: int,
                 track: tuple[str, str], name: str = NAME) -> None:
        from tests.racegame.board import load_board

        self.name = name
        self.variant = variant
        self.seats = list(seats)
        self.num_players = len(seats)
        self.goal = goal
        self.track = track
        self.board = load_board(*track)

    def new_initial_state(self) -> RaceState:
        return RaceState(self, [0] * self.num_players)

    def state_from_json(self, data: JSON) -> RaceState:
        try:
            saved = json_object(data)
            positions = [json_int(p) for p in json_list(saved["positions"])]
            spin, winner = saved["spin"], saved["winner"]
            state = RaceState(self, positions, json_int(saved["turn"]),
                              None if spin is None else json_int(spin),
                              None if winner is None else json_int(winner))
        except (KeyError, TypeError, ValueError) as exc:
            raise IllegalAction(Reason.MALFORMED, f"not a race state: {exc}") from exc
        if len(positions) != self.num_players:
            raise IllegalAction(Reason.MALFORMED, "one position per runner")
        return state

    def action_from_json(self, data: JSON) -> Action:
        return CODEC.from_json(data)

    def identity(self) -> dict[str, JSON]:
        return game_identity(self.name, self.variant, self.seats, {"goal": self.goal},
                             {"board": self.track})

    def seat_name(self, seat: int) -> str:
        return self.seats[seat].capitalize()


class RaceState(Record):
    game: RaceGame = field(compare=False)
    positions: list[int]
    turn: int = 0
    spin: int | None = None
    """The spin waiting for its decision; None: the spin is to come."""
    winner: int | None = None

    def current_player(self) -> int:
        if self.winner is not None:
            return TERMINAL
        return CHANCE if self.spin is None else self.turn

    def is_terminal(self) -> bool:
        return self.winner is not None

    def is_chance_node(self) -> bool:
        return self.winner is None and self.spin is None

    def legal_actions(self) -> list[Action]:
        if self.winner is not None or self.spin is None:
            return []
        return sorted([Ride(), Steady()], key=lambda a: a.key())

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if not self.is_chance_node():
            return []
        return list(uniform([Spin(value) for value in SPIN_VALUES]))

    def apply(self, action: Action, player: int | None = None) -> list[Event]:
        if isinstance(action, Correct):
            return self._correct(action)
        check_legal(self, action, player)
        colour = self.game.seat_name(self.turn)
        if isinstance(action, Spin):
            self.spin = action.value
            return [Event("spin", f"{colour} spins {action.value}")]
        assert self.spin is not None
        steps = self.spin if isinstance(action, Ride) else STEADY
        self.positions[self.turn] = min(self.game.goal, self.positions[self.turn] + steps)
        events = [Event("move" if isinstance(action, Ride) else "steady",
                        f"{colour} moves {steps} to {self.positions[self.turn]}")]
        self.spin = None
        if self.positions[self.turn] >= self.game.goal:
            self.winner = self.turn
            events.append(Event("winner", f"{colour} wins!"))
        else:
            self.turn = (self.turn + 1) % self.game.num_players
            events.append(Event("turn", f"{self.game.seat_name(self.turn)} to spin",
                                {"seat": self.turn}))
        return events

    def _correct(self, action: Correct) -> list[Event]:
        options = self.correction_options()
        if action.location not in options.get(action.piece, []):
            raise IllegalAction(Reason.NOT_LEGAL_NOW, f"{action.key()} is not a place")
        self.positions[self.game.seats.index(action.piece)] = int(action.location)
        return [Event("correction", f"{action.piece.capitalize()} set to {action.location}")]

    def clone(self) -> RaceState:
        return RaceState(self.game, list(self.positions), self.turn, self.spin, self.winner)

    def to_json(self) -> dict[str, JSON]:
        return {"positions": list(self.positions), "turn": self.turn, "spin": self.spin,
                "winner": self.winner}

    def winners(self) -> list[int]:
        return [] if self.winner is None else [self.winner]

    # the rig's half of the contract (docs/ENGINE_CONTRACT.md)
    def prompt(self) -> Prompt:
        if self.winner is not None:
            return Prompt("over", TERMINAL, f"{self.game.seat_name(self.winner)} wins!")
        colour = self.game.seat_name(self.turn)
        if self.spin is None:
            return Prompt("spin", self.turn, f"{colour}: spin the HI knob")
        return Prompt("move", self.turn, f"{colour} spun {self.spin}: ride it or go steady")

    def describe(self, action: Action) -> str:
        if isinstance(action, Ride):
            return f"Ride the {self.spin}"
        if isinstance(action, Steady):
            return f"Go steady {STEADY}"
        if isinstance(action, Spin):
            return f"Spin {action.value}"
        if isinstance(action, Correct):
            return f"Set {action.piece} to {action.location}"
        return action.key()

    def correction_options(self) -> dict[str, list[str]]:
        return {seat: [str(n) for n in range(self.game.goal)] for seat in self.game.seats}


def builder(name: str, variant_players: Mapping[str, tuple[int, ...]],
            colours: Sequence[str]) -> Callable[..., RaceGame]:
    """The `build` of a race with these variants and colours (a sibling test game, such
    as the five-player race, shares the rules)."""

    def build(*, players: int, variant: str, data: Mapping[str, tuple[str, str]],
              options: Mapping[str, object] | None = None,
              seats: Sequence[str] | None = None) -> RaceGame:
        if variant not in variant_players:
            raise ValueError(f"unknown variant {variant!r}")
        if players not in variant_players[variant]:
            counts = variant_players[variant]
            raise ValueError(f"the race is for {min(counts)} to {max(counts)} players, "
                             f"not {players}")
        if set(data) != {"board"}:
            raise ValueError(f"the race needs its board file, got {sorted(data)}")
        merged = {**OPTIONS, **(options or {})}
        if set(merged) != set(OPTIONS):
            raise ValueError(f"unknown option; options are {', '.join(OPTIONS)}")
        goal = merged["goal"]
        if not isinstance(goal, int) or isinstance(goal, bool) or goal < 2:
            raise ValueError(f"goal must be a whole number of 2 or more, not {goal!r}")
        chosen = list(seats) if seats is not None else list(colours[:players])
        if len(chosen) != players or len(set(chosen)) != players or \
                not set(chosen) <= set(colours):
            raise ValueError(f"need {players} different colours of {', '.join(colours)}")
        return RaceGame(variant, chosen, goal, data["board"], name)

    return build


build = builder(NAME, VARIANT_PLAYERS, COLOURS)
