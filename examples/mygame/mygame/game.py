"""Ladders' rules: a spin (chance), then ride it or step (one decision); a ladder's foot
takes a runner up, a chute's top down; the first to the last square wins."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
from mygame.board import Board, load_board
from mygame.info import COLOURS, OPTIONS, SPINS, VARIANT_PLAYERS

NAME = "mygame"


class Spin(Action):
    KIND: ClassVar[str] = "spin"
    value: int


class Ride(Action):
    """Move as far as the spin says."""

    KIND: ClassVar[str] = "ride"


class Step(Action):
    """Move the game's `step` squares, whatever the spin."""

    KIND: ClassVar[str] = "step"


class Correct(Action):
    """Put a runner back where it really stands (a correction from the rig's menu)."""

    KIND: ClassVar[str] = "correct"
    piece: str
    location: str


CODEC = ActionCodec([Spin, Ride, Step, Correct])


class Prompt(Frozen):
    kind: str
    """"spin", "move" or "over"."""
    player: int
    text: str


class LaddersGame:
    """The configured game: seats, the step option and the board (its ``.board``, which
    the rig's drawing and printed sheets read)."""

    def __init__(self, variant: str, seats: Sequence[str], step: int,
                 board_file: tuple[str, str]) -> None:
        self.name = NAME
        self.variant = variant
        self.seats = list(seats)
        self.num_players = len(seats)
        self.step = step
        self.board_file = board_file
        self.board: Board = load_board(*board_file)

    @property
    def goal(self) -> int:
        return self.board.squares

    def new_initial_state(self) -> LaddersState:
        return LaddersState(self, [0] * self.num_players)

    def state_from_json(self, data: JSON) -> LaddersState:
        try:
            saved = json_object(data)
            positions = [json_int(p) for p in json_list(saved["positions"])]
            spin, winner = saved["spin"], saved["winner"]
            state = LaddersState(self, positions, json_int(saved["turn"]),
                                 None if spin is None else json_int(spin),
                                 None if winner is None else json_int(winner))
        except (KeyError, TypeError, ValueError) as exc:
            raise IllegalAction(Reason.MALFORMED, f"not a Ladders state: {exc}") from exc
        if len(positions) != self.num_players or not 0 <= state.turn < self.num_players:
            raise IllegalAction(Reason.MALFORMED, "one position per runner")
        return state

    def action_from_json(self, data: JSON) -> Action:
        return CODEC.from_json(data)

    def identity(self) -> dict[str, JSON]:
        return game_identity(self.name, self.variant, self.seats, {"step": self.step},
                             {"board": self.board_file})

    def seat_name(self, seat: int) -> str:
        return self.seats[seat].capitalize()


class LaddersState(Record):
    game: LaddersGame = field(compare=False)
    positions: list[int]
    turn: int = 0
    spin: int | None = None
    """The spin waiting for its decision; None: the spin is to come."""
    winner: int | None = None

    # -- the engine's state API (docs/ENGINE_CONTRACT.md) ----------------------------
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
        return sorted([Ride(), Step()], key=lambda a: a.key())

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if not self.is_chance_node():
            return []
        return list(uniform([Spin(value) for value in SPINS]))

    def apply(self, action: Action, player: int | None = None) -> list[Event]:
        if isinstance(action, Correct):
            return self._correct(action)
        check_legal(self, action, player)
        colour = self.game.seat_name(self.turn)
        if isinstance(action, Spin):
            self.spin = action.value
            return [Event("spin", f"{colour} spins {action.value}")]
        assert self.spin is not None
        steps = self.spin if isinstance(action, Ride) else self.game.step
        start = self.positions[self.turn]
        square = min(self.game.goal, start + steps)
        events = [Event("move", f"{colour} runner at {start}: {steps} to {square}",
                        {"seat": self.turn, "from": start, "to": square})]
        jump = self.game.board.jump(square)
        if jump is not None:
            kind, square = jump
            up = "up the ladder" if kind == "ladder" else "down the chute"
            events.append(Event(kind, f"{colour} goes {up} to {square}",
                                {"seat": self.turn, "to": square}))
        self.positions[self.turn] = square
        self.spin = None
        if square >= self.game.goal:
            self.winner = self.turn
            events.append(Event("winner", f"{colour} wins!", {"seat": self.turn}))
        else:
            self.turn = (self.turn + 1) % self.game.num_players
            events.append(Event("turn", f"{self.game.seat_name(self.turn)} to spin",
                                {"seat": self.turn}))
        return events

    def _correct(self, action: Correct) -> list[Event]:
        options = self.correction_options()
        if action.location not in options.get(action.piece, []):
            raise IllegalAction(Reason.NOT_LEGAL_NOW, f"{action.key()} is not a square")
        self.positions[self.game.seats.index(action.piece)] = int(action.location)
        return [Event("correction", f"{action.piece.capitalize()} set to {action.location}")]

    def clone(self) -> LaddersState:
        return LaddersState(self.game, list(self.positions), self.turn, self.spin,
                            self.winner)

    def to_json(self) -> dict[str, JSON]:
        return {"positions": list(self.positions), "turn": self.turn, "spin": self.spin,
                "winner": self.winner}

    def winners(self) -> list[int]:
        return [] if self.winner is None else [self.winner]

    # -- the rig's half of the contract (the view reads these) -------------------------
    def prompt(self) -> Prompt:
        if self.winner is not None:
            return Prompt("over", TERMINAL, f"{self.game.seat_name(self.winner)} wins!")
        colour = self.game.seat_name(self.turn)
        if self.spin is None:
            return Prompt("spin", self.turn, f"{colour}: spin the HI knob")
        return Prompt("move", self.turn, f"{colour} spun {self.spin}: ride it or step "
                                         f"{self.game.step}")

    def describe(self, action: Action) -> str:
        if isinstance(action, Ride):
            return f"Ride the {self.spin}"
        if isinstance(action, Step):
            return f"Step {self.game.step}"
        if isinstance(action, Spin):
            return f"Spin {action.value}"
        if isinstance(action, Correct):
            return f"Set {action.piece} to {action.location}"
        return action.key()

    def correction_options(self) -> dict[str, list[str]]:
        return {seat: [str(n) for n in range(self.game.goal)] for seat in self.game.seats}


def build(*, players: int, variant: str, data: Mapping[str, tuple[str, str]],
          options: Mapping[str, object] | None = None,
          seats: Sequence[str] | None = None) -> LaddersGame:
    """The configured game (the entry's ``build``): ValueError for a wrong count, option
    or seat; DataError for a wrong board file."""
    if variant not in VARIANT_PLAYERS:
        raise ValueError(f"unknown variant {variant!r}")
    counts = VARIANT_PLAYERS[variant]
    if players not in counts:
        raise ValueError(f"Ladders is for {min(counts)} to {max(counts)} players, "
                         f"not {players}")
    if set(data) != {"board"}:
        raise ValueError(f"Ladders needs its board file, got {sorted(data)}")
    merged = {**OPTIONS, **(options or {})}
    if set(merged) != set(OPTIONS):
        raise ValueError(f"unknown option; options are {', '.join(OPTIONS)}")
    step = merged["step"]
    if not isinstance(step, int) or isinstance(step, bool) or not 1 <= step <= 6:
        raise ValueError(f"step must be a whole number from 1 to 6, not {step!r}")
    chosen = list(seats) if seats is not None else list(COLOURS[:players])
    if len(chosen) != players or len(set(chosen)) != players or not set(chosen) <= set(COLOURS):
        raise ValueError(f"need {players} different colours of {', '.join(COLOURS)}")
    return LaddersGame(variant, chosen, step, data["board"])
