"""Illegal input, JSON round trips, corrections, prompts and descriptions."""

from __future__ import annotations

import json
import random

import pytest

from engine.api import Action
from engine.bumpem import (
    SIM_COUNTERS,
    BumpemState,
    Correct,
    DrawTicket,
    Forward,
    Split,
    Swap,
)
from engine.errors import IllegalAction, Reason
from tests.bumpem.helpers import cars, draw, kinds, make_game, position

MENU_ITEM_LIMIT = 95
"""The longest choice the rig shows whole when selected: five rows of 19 (the menu wraps it)."""


def frozen(state: BumpemState) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def refused(state: BumpemState, action: Action, reason: Reason,
            player: int | None = None) -> None:
    before = frozen(state)
    with pytest.raises(IllegalAction) as caught:
        state.apply(action, player)
    assert caught.value.reason is reason
    assert frozen(state) == before, "a refused input changes nothing"


# ----- illegal input -----------------------------------------------------------------


def test_not_your_turn() -> None:
    state = position(make_game(3), {"red": ["T6", "T30"]})
    refused(state, DrawTicket("5"), Reason.NOT_YOUR_TURN, player=0)
    draw(state, "5")
    refused(state, Forward(1, 5), Reason.NOT_YOUR_TURN, player=2)
    state.apply(Forward(1, 5), player=0)
    assert cars(state, "red")[0] == "T11"


def test_not_legal_now() -> None:
    state = position(make_game(2), {"red": ["T6", "T30"]})
    refused(state, Forward(1, 5), Reason.IMPOSSIBLE_OUTCOME)  # a move at a chance node
    draw(state, "5")
    refused(state, Forward(1, 4), Reason.NOT_LEGAL_NOW)
    refused(state, Forward(3, 5), Reason.NOT_LEGAL_NOW)  # car 3 is in the pit
    refused(state, Swap(1, "blue:1"), Reason.NOT_LEGAL_NOW)
    refused(state, DrawTicket("5"), Reason.NOT_LEGAL_NOW)  # a draw at a decision node
    refused(state, Correct("red:1", "T30"), Reason.NOT_LEGAL_NOW)  # occupied by red:2
    refused(state, Correct("red:9", "T1"), Reason.NOT_LEGAL_NOW)
    refused(state, Correct("red:1", "home:blue:1"), Reason.NOT_LEGAL_NOW)


def test_impossible_outcome() -> None:
    state = make_game(2).new_initial_state()
    refused(state, DrawTicket("13"), Reason.IMPOSSIBLE_OUTCOME)
    refused(state, DrawTicket("Bump"), Reason.IMPOSSIBLE_OUTCOME)


def test_game_over() -> None:
    state = position(make_game(2), {"red": ["finish:red"] * 3 + ["home:red:5"]})
    draw(state, "1")
    assert state.is_terminal()
    refused(state, DrawTicket("5"), Reason.GAME_OVER)
    refused(state, Correct("red:1", "T1"), Reason.GAME_OVER)


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "forward", "car": 1},
        {"kind": "forward", "car": 1, "steps": 5, "to": "T9"},
        {"kind": "forward", "car": "1", "steps": 5},
        {"kind": "forward", "car": True, "steps": 5},
        {"kind": "draw_ticket", "ticket": 5},
        {"kind": "correct", "piece": "red:1"},
        {"kind": "teleport"},
        ["forward", 1, 5],
    ],
)
def test_malformed(data: object) -> None:
    game = make_game(2)
    with pytest.raises(IllegalAction) as caught:
        game.action_from_json(data)
    assert caught.value.reason is Reason.MALFORMED


def test_action_json_holds_inputs_only() -> None:
    state = position(make_game(2), {"red": ["T9"], "blue": ["T13"]}, phase="move", ticket="4")
    (move,) = state.legal_actions()
    assert move.zooms == ("blue:1",) and move.to == "T13"
    assert move.to_json() == {"kind": "forward", "car": 1, "steps": 4}
    again = state.game.action_from_json(move.to_json())
    assert again == move and again.zooms == ()


def _canonical(action: Action) -> str:
    return json.dumps(action.to_json(), sort_keys=True, separators=(",", ":"))


def test_keys_are_the_canonical_json_of_the_input() -> None:
    game = make_game(4)
    rng = random.Random(3)
    state = game.new_initial_state()
    seen: set[str] = set()
    for _ in range(3000):
        if state.is_terminal():
            break
        options = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                   else list(state.legal_actions()))
        for action in options:
            assert action.key() == _canonical(action)
            seen.add(action.KIND)
        state.apply(options[rng.randrange(len(options))])
    assert {"draw_ticket", "forward", "enter"} <= seen
    for odd in (Correct('red:"1', "T\\1"), Swap(1, "é"), Split(1, 2, 3, 6)):
        assert odd.key() == _canonical(odd)
        assert odd.key() == _canonical(odd), "memoised the same"


# ----- JSON ----------------------------------------------------------------------------


def test_json_round_trip_through_a_game() -> None:
    game = make_game(4)
    rng = random.Random(11)
    state = game.new_initial_state()
    while not state.is_terminal():
        text = json.dumps(state.to_json())
        again = game.state_from_json(json.loads(text))
        assert again == state and again.legal_actions() == state.legal_actions()
        options = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                   else list(state.legal_actions()))
        state.apply(options[rng.randrange(len(options))])
    assert game.state_from_json(state.to_json()) == state


def test_json_shape_is_readable() -> None:
    state = position(make_game(2), {"red": ["T6", "home:red:2", "finish:red"]})
    data = state.to_json()
    assert data["cars"]["red"] == ["T6", "home:red:2", "finish:red", "pit:red"]
    assert data["phase"] == "ticket" and data["deck"] is None and data["winner"] is None


@pytest.mark.parametrize(
    "change",
    [
        {"turn": 5},
        {"phase": "spin"},
        {"phase": "move"},
        {"ticket": "5"},
        {"cars": {"red": ["T6", "T6", "pit:red", "pit:red"],
                  "blue": ["pit:blue"] * 4}},
        {"cars": {"red": ["home:blue:1", "pit:red", "pit:red", "pit:red"],
                  "blue": ["pit:blue"] * 4}},
        {"cars": {"red": ["T61", "pit:red", "pit:red", "pit:red"], "blue": ["pit:blue"] * 4}},
        {"cars": {"red": ["pit:red"] * 3, "blue": ["pit:blue"] * 4}},
        {"deck": {"1": 1}},
        {"extra": "no"},
    ],
)
def test_bad_state_json_is_refused(change: dict[str, object]) -> None:
    game = make_game(2)
    data = game.new_initial_state().to_json()
    data.update(change)
    with pytest.raises(ValueError):
        game.state_from_json(data)


def test_states_differ_when_anything_differs() -> None:
    game = make_game(2)
    a = position(game, {"red": ["T6"]})
    b = position(game, {"red": ["T7"]})
    assert a != b
    assert a == a.clone()
    other = make_game(2, options={"turbo": False})
    assert position(other, {"red": ["T6"]}) != a


# ----- corrections (G1) ----------------------------------------------------------------


def test_correction_options_list_free_places() -> None:
    state = position(make_game(2), {"red": ["T6", "home:red:2"], "blue": ["T30"]})
    options = state.correction_options()
    assert set(options) == {f"{c}:{n}" for c in ("red", "blue") for n in range(1, 5)}
    red1 = options["red:1"]
    assert "T6" in red1 and "T30" not in red1 and "pit:red" in red1 and "finish:red" in red1
    assert "home:red:2" not in red1 and "home:red:1" in red1 and "home:blue:1" not in red1
    assert len(red1) == 1 + 59 + 4 + 1


def test_correction_at_a_chance_node_any_seat() -> None:
    state = position(make_game(2), {"red": ["T6"], "blue": ["T30"]})
    events = state.apply(Correct("blue:1", "T31"), player=0)
    assert kinds(events) == ["correction"]
    assert events[0].data["from"] == "T30" and events[0].data["to"] == "T31"
    assert cars(state, "blue")[0] == "T31" and state.is_chance_node() and state.turn == 0


def test_correction_at_a_move_node_reconsiders_the_moves() -> None:
    state = position(make_game(2), {"red": ["T6", "T30"]})
    draw(state, "5")
    assert len(state.legal_actions()) == 2
    events = state.apply(Correct("red:2", "pit:red"))
    assert kinds(events) == ["correction", "forced_move", "move"]
    assert cars(state, "red")[0] == "T11" and state.turn == 1


def test_correction_can_end_the_game() -> None:
    state = position(make_game(2), {"blue": ["finish:blue"] * 3 + ["T30"]})
    events = state.apply(Correct("blue:4", "finish:blue"))
    assert kinds(events) == ["correction", "winner"] and state.winners() == [1]


def test_correction_round_trips_through_json() -> None:
    game = make_game(2)
    action = Correct("red:1", "T12")
    assert game.action_from_json(json.loads(json.dumps(action.to_json()))) == action
    assert action not in position(game, {"red": ["T6"]}, phase="move",
                                  ticket="5").legal_actions()


# ----- prompts, descriptions, events -------------------------------------------------


def test_prompt_kinds() -> None:
    state = position(make_game(2), {"red": ["T6", "T30"]})
    prompt = state.prompt()
    assert (prompt.kind, prompt.player, prompt.seat) == ("ticket", 0, "red")
    assert prompt.text == "Red: take a ticket"
    draw(state, "2")
    prompt = state.prompt()
    assert (prompt.kind, prompt.ticket, prompt.choices) == ("move", "2", 2)


def test_descriptions_are_short_and_plain() -> None:
    state = position(make_game(4), {"red": ["T6"], "blue": ["T13"], "yellow": ["home:yellow:1"]},
                     phase="move", ticket="7")
    texts = {state.describe(a) for a in state.legal_actions()}
    assert texts == {"Red car at T6: 7 to T13, zooms Blue car at T13",
                     "Red car at T6: swap with Blue car at T13"}
    game = make_game(4)
    rng = random.Random(5)
    for seed in range(5):
        rng.seed(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                options = [a for a, _ in state.chance_outcomes()]
            else:
                options = list(state.legal_actions())
                for action in options:
                    assert len(state.describe(action)) <= MENU_ITEM_LIMIT, state.describe(action)
            state.apply(options[rng.randrange(len(options))])


def test_every_counted_event_kind_happens() -> None:
    from engine.selfplay import play

    game = make_game(4)
    seen: set[str] = set()
    for seed in range(20):
        seen |= {e.kind for e in play(game, random.Random(seed)).events}
    assert set(SIM_COUNTERS) <= seen
    assert {"turn", "move", "forced_move", "winner"} <= seen
