"""Hypothesis drives each game through its legal actions; invariants hold at every step.

Failures shrink to a minimal script of choices, which is the bug report.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from engine.errors import IllegalAction, Reason
from tests.gamecases import buildable, case_id, make


def machine_for(case):
    game = make(case)

    class GameMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.state = game.new_initial_state()

        @precondition(lambda self: not self.state.is_terminal())
        @rule(data=st.data())
        def step(self, data) -> None:
            if self.state.is_chance_node():
                options = [a for a, _ in self.state.chance_outcomes()]
            else:
                options = list(self.state.legal_actions())
            action = data.draw(st.sampled_from(options))
            self.state.apply(action)

        @precondition(lambda self: not self.state.is_terminal())
        @rule()
        def illegal_wrong_seat(self) -> None:
            if self.state.is_chance_node() or game.num_players < 2:
                return
            before = json.dumps(self.state.to_json(), sort_keys=True)
            other = (self.state.current_player() + 1) % game.num_players
            try:
                self.state.apply(self.state.legal_actions()[0], player=other)
            except IllegalAction:
                pass
            else:
                raise AssertionError("a move by the wrong seat was accepted")
            assert json.dumps(self.state.to_json(), sort_keys=True) == before

        @precondition(lambda self: self.state.is_terminal())
        @rule()
        def finished_refuses_input(self) -> None:
            """Always a rule to run: a game that ends in a few steps (a short game from
            outside) still gives hypothesis something to do, and a finished game must
            refuse any input and stay as it was."""
            before = json.dumps(self.state.to_json(), sort_keys=True)
            first = game.new_initial_state()
            outcomes = first.chance_outcomes()
            probe = outcomes[0][0] if outcomes else first.legal_actions()[0]
            try:
                self.state.apply(probe)
            except IllegalAction as refused:
                assert refused.reason is Reason.GAME_OVER
            else:
                raise AssertionError("a finished game accepted an input")
            assert json.dumps(self.state.to_json(), sort_keys=True) == before

        @invariant()
        def round_trips(self) -> None:
            again = game.state_from_json(json.loads(json.dumps(self.state.to_json())))
            assert again == self.state

        @invariant()
        def always_something_to_do(self) -> None:
            if self.state.is_terminal():
                return
            if self.state.is_chance_node():
                assert self.state.chance_outcomes()
            else:
                assert self.state.legal_actions()

    GameMachine.TestCase.settings = settings(
        max_examples=25, stateful_step_count=60, deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    return GameMachine


@pytest.mark.parametrize("case", buildable(), ids=case_id)
def test_stateful(case) -> None:
    machine_for(case).TestCase().runTest()
