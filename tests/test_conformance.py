"""The generic battery every game must pass (after OpenSpiel's random simulation test)."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from engine.api import CHANCE, TERMINAL, Action, State
from engine.errors import IllegalAction, Reason
from engine.selfplay import play, sample_chance
from rig import registry
from rig.gamebuild import GAME_MODULES
from tests.gamecases import buildable, case_id, make

CASES = buildable()
SEEDS = range(6)


def test_every_game_and_variant_is_covered() -> None:
    for name in GAME_MODULES:
        for variant in registry.entry(name).variants:
            assert any(c[0] == name and c[1] == variant for c in CASES), (name, variant)


def _check_node(game, state: State) -> None:
    player = state.current_player()
    if state.is_terminal():
        assert player == TERMINAL
        assert list(state.legal_actions()) == []
        assert state.winners(), "a finished game names its winners"
        return
    assert not state.winners()
    if state.is_chance_node():
        assert player == CHANCE
        outcomes = list(state.chance_outcomes())
        assert outcomes, "a chance node has outcomes"
        keys = [a.key() for a, _ in outcomes]
        assert keys == sorted(keys) and len(set(keys)) == len(keys)
        assert all(isinstance(p, Fraction) and p > 0 for _, p in outcomes)
        assert sum(p for _, p in outcomes) == 1
        assert list(state.legal_actions()) == []
    else:
        assert 0 <= player < game.num_players
        legal = list(state.legal_actions())
        assert legal, "a decision node has a legal action"
        keys = [a.key() for a in legal]
        assert keys == sorted(keys), "legal actions in key order"
        assert len(set(keys)) == len(keys), "legal actions unique"
        for action in legal:
            assert game.action_from_json(json.loads(json.dumps(action.to_json()))) == action


def _check_round_trip(game, state: State) -> None:
    text = json.dumps(state.to_json(), sort_keys=True)
    again = game.state_from_json(json.loads(text))
    assert again == state
    assert json.dumps(again.to_json(), sort_keys=True) == text


def _tenfour_invariants(game, state: State, before: dict | None, action: Action | None) -> None:
    data = state.to_json()
    assert set(data["trucks"]) == set(game.trucks), "every truck is still in the game"
    assert all(t["driven"] >= 0 for t in data["trucks"].values())
    assert len(data["lose_next_turn"]) == game.num_players
    assert all(isinstance(flag, bool) for flag in data["lose_next_turn"])
    options = state.correction_options()
    placing = game.variant == "two-player" and data["phase"] in {"start_spin", "place_smokey"}
    for piece, where in data["police"].items():
        if placing and where == "park":
            continue  # two players: not yet put into its Bear Trap
        assert where in options[piece], f"{piece} is somewhere real: {where}"
    copies = {card.id: card.copies for card in game.deck.cards}
    assert set(data["pile"]) == set(copies)
    assert all(0 <= data["pile"][c] <= copies[c] for c in copies), "pile + discards = deck"
    if before is not None and action is not None and action.KIND == "draw":
        assert sum(data["pile"].values()) == sum(before["pile"].values()) - 1


def _bumpem_invariants(game, state: State, before: dict | None, action: Action | None) -> None:
    data = state.to_json()
    cars = game.rules.cars
    taken: dict[str, str] = {}
    for colour, places in data["cars"].items():
        assert len(places) == cars, f"{colour} still has all {cars} cars"
        for place in places:
            kind, _, rest = place.partition(":")
            if kind in {"pit", "finish"}:
                assert rest == colour, place
                continue
            if kind == "home":
                assert rest.split(":")[0] == colour, place
            else:
                assert place.startswith("T"), place
            assert place not in taken, f"{place} holds {taken.get(place)} and {colour}"
            taken[place] = colour


INVARIANTS = {"tenfour": _tenfour_invariants, "bumpem": _bumpem_invariants}


def test_every_game_has_invariants() -> None:
    assert set(INVARIANTS) == set(GAME_MODULES)


@pytest.mark.parametrize("case", CASES, ids=case_id)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_playthrough_conforms(case, seed) -> None:
    game = make(case)
    invariants = INVARIANTS[case[0]]
    rng = random.Random(seed)
    state = game.new_initial_state()
    invariants(game, state, None, None)
    steps = 0
    while not state.is_terminal():
        _check_node(game, state)
        if steps % 7 == 0:
            _check_round_trip(game, state)
        if state.is_chance_node():
            action = sample_chance(state.chance_outcomes(), rng)
        else:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
        if steps % 11 == 0:
            before = json.dumps(state.to_json(), sort_keys=True)
            clone = state.clone()
            clone.apply(action)
            assert json.dumps(state.to_json(), sort_keys=True) == before, "clone is independent"
        previous = state.to_json()
        state.apply(action)
        invariants(game, state, previous, action)
        steps += 1
        assert steps < 50_000, "the game ends"
    _check_node(game, state)
    _check_round_trip(game, state)


def _foreign_action(game, seed: int) -> tuple[State, Action]:
    """A state at a decision node, and an input that belongs to a chance node instead."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    chance_action = None
    for _ in range(10_000):
        if state.is_terminal():
            break
        if state.is_chance_node():
            chance_action = sample_chance(state.chance_outcomes(), rng)
            state.apply(chance_action)
        else:
            if chance_action is not None:
                return state, chance_action
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    pytest.fail("no decision node after a chance node")


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_illegal_input_is_refused_and_changes_nothing(case) -> None:
    game = make(case)
    state, foreign = _foreign_action(game, seed=3)
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction) as refused:
        state.apply(foreign)
    assert refused.value.reason is Reason.NOT_LEGAL_NOW
    wrong_seat = (state.current_player() + 1) % game.num_players
    with pytest.raises(IllegalAction) as refused:
        state.apply(state.legal_actions()[0], player=wrong_seat)
    assert refused.value.reason is Reason.NOT_YOUR_TURN
    with pytest.raises(IllegalAction) as refused:
        game.action_from_json({"kind": "no-such-kind"})
    assert refused.value.reason is Reason.MALFORMED
    assert json.dumps(state.to_json(), sort_keys=True) == before


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_finished_game_refuses_input(case) -> None:
    game = make(case)
    result = play(game, random.Random(5))
    assert result.finished
    before = json.dumps(result.state.to_json(), sort_keys=True)
    some_action = game.new_initial_state().chance_outcomes()
    probe = some_action[0][0] if some_action else game.new_initial_state().legal_actions()[0]
    with pytest.raises(IllegalAction) as refused:
        result.state.apply(probe)
    assert refused.value.reason is Reason.GAME_OVER
    assert json.dumps(result.state.to_json(), sort_keys=True) == before


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_same_seed_same_game_whatever_the_global_random(case) -> None:
    """Disturb the global random module between steps: the game must not notice."""
    game = make(case)

    def transcript(disturb: bool) -> list[str]:
        keys: list[str] = []

        def on_step(state, action, events) -> None:
            keys.append(action.key())
            if disturb:
                random.seed(len(keys))
                random.random()

        play(game, random.Random(42), on_step=on_step)
        return keys

    quiet = transcript(False)
    assert quiet == transcript(True)
    assert len(quiet) > 10


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_replaying_the_inputs_gives_the_same_state(case) -> None:
    game = make(case)
    actions: list[dict] = []
    result = play(game, random.Random(9),
                  on_step=lambda s, a, e: actions.append(json.loads(json.dumps(a.to_json()))))
    replayed = game.new_initial_state()
    for data in actions:
        replayed.apply(game.action_from_json(data))
    assert replayed == result.state
