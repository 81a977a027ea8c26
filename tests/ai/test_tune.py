"""bench.ai_tune: paired seeded games against `medium`, and a tune that finds a planted
better weight; `hard` plays with its per-player-count weights."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import pytest

import valueclass
from bench import ai_tune
from bench.ai_tune import Param
from engine.bumpem import ai as bumpem_ai
from engine.players import chooser_for
from engine.selfplay import play, sample_chance
from engine.tenfour import ai as tenfour_ai
from rig.gamebuild import build_game


def test_paired_games_are_seeded_and_seat_the_candidate_in_turn() -> None:
    """medium's own weights (resolved or not) give exactly the games of medium
    self-play on the documented seeds, the candidate's seat being g mod players."""
    game = build_game("tenfour", players=2)
    evaluate = ai_tune.paired_games("tenfour", game, seed=5)
    games = list(range(6))
    got = evaluate(tenfour_ai.DEFAULT_WEIGHTS, games)
    assert got == evaluate(ai_tune.start_weights("tenfour", game), games)
    medium = chooser_for("tenfour", "medium")
    expected = []
    for g in games:
        result = play(game, ai_tune.game_rng(5, g), [medium, medium], keep_events=False)
        expected.append(1.0 if g % 2 in result.state.winners() else 0.0)
    assert got == expected
    assert 0 < sum(got) < len(games)  # both seats win some: the seat does rotate


def test_a_different_candidate_plays_the_same_games() -> None:
    """Another candidate on the same game numbers: the same games replay exactly."""
    game = build_game("bumpem", players=3)
    evaluate = ai_tune.paired_games("bumpem", game, seed=2)
    other = valueclass.replace(bumpem_ai.DEFAULT_WEIGHTS, pit_penalty=30.0)
    first = evaluate(other, [0, 1, 2, 3])
    assert evaluate(other, [0, 1, 2, 3]) == first
    assert evaluate(other, [2, 3]) == first[2:]


def test_steps_scale_clip_shares_and_count_whole_numbers() -> None:
    w = tenfour_ai.Weights(alpha=0.8, horizon=1)
    alpha = [s.alpha for s in ai_tune.steps(w, Param("alpha", "share"), 1.5)]
    assert alpha == [1.0, pytest.approx(0.533333)]
    assert [s.horizon for s in ai_tune.steps(w, Param("horizon", "count"), 1.5)] == [2]
    assert [s.landing for s in ai_tune.steps(w, Param("landing"), 2.0)] == [2.0, 0.5]
    at_one = tenfour_ai.Weights(alpha=1.0)
    assert [s.alpha for s in ai_tune.steps(at_one, Param("alpha", "share"), 2.0)] == [0.5]


class Toy(valueclass.Frozen):
    good: float = 1.0
    idle: float = 1.0


PLANTED = 2.25


def _toy_games(weights: Toy, games: Sequence[int]) -> list[float]:
    """A game won with a chance that peaks where `good` is PLANTED; `idle` does nothing.
    Game g draws from its own seed (common random numbers, as real games)."""
    chance = 0.5 - 0.15 * abs(math.log(weights.good / PLANTED))
    return [1.0 if random.Random(g).random() < chance else 0.0 for g in games]


def test_tune_finds_a_planted_better_weight_and_leaves_an_idle_one() -> None:
    log: list[dict[str, object]] = []
    tuned = ai_tune.tune(_toy_games, Toy(), (Param("good"), Param("idle")), factor=1.5,
                         screen=1500, confirm=1500, rounds=4, z=1.0, log=log.append)
    assert tuned.good == pytest.approx(PLANTED)
    assert tuned.idle == 1.0
    accepted = [r for r in log if r.get("accepted")]
    assert [r["param"] for r in accepted] == ["good", "good"]
    assert all("confirm" in r for r in accepted)  # judged on a fresh block too


def test_holdout_compares_with_the_control_on_unseen_games() -> None:
    report = ai_tune.holdout(_toy_games, Toy(good=PLANTED), Toy(), 2000, players=2)
    assert report["holdout_games"] == 2000
    assert report["paired_gain"][0] > 0.05
    assert report["wilson95"][0] < report["rate"] < report["wilson95"][1]


@pytest.mark.parametrize("module, game_name", [(tenfour_ai, "tenfour"),
                                               (bumpem_ai, "bumpem")])
def test_hard_plays_with_its_weights_for_the_player_count(module: object,
                                                          game_name: str) -> None:
    """hard's policy is medium's choice with HARD_WEIGHTS for the seat count, and
    medium's own where none is tuned."""
    for players in (2, 3, 4):
        weights = module.hard_weights(players)  # type: ignore[attr-defined]
        tuned = module.HARD_WEIGHTS  # type: ignore[attr-defined]
        assert weights == tuned.get(players, module.DEFAULT_WEIGHTS)  # type: ignore[attr-defined]
        game = build_game(game_name, players=players)
        medium = chooser_for(game_name, "medium")
        rng = random.Random(players)
        state = game.new_initial_state()
        checked = 0
        while not state.is_terminal() and checked < 30:  # a few dozen decisions
            if state.is_chance_node():
                state.apply(sample_chance(state.chance_outcomes(), rng))
                continue
            legal = state.legal_actions()
            action = module.hard_policy(state, legal, random.Random(0))  # type: ignore[attr-defined]
            assert action == module.choose(state, legal, random.Random(0),  # type: ignore[attr-defined]
                                           weights)
            checked += 1
            state.apply(medium(state, legal, rng))
        assert checked >= 5
    assert module.HARD_HOOKS.policy is module.hard_policy  # type: ignore[attr-defined]


def test_the_command_holds_out_weights_against_other_weights(capsys: pytest.CaptureFixture[str]
                                                             ) -> None:
    """`--check` and `--against`: the report is that of `holdout` for those weights."""
    import json

    ai_tune.main(["--game", "tenfour", "--players", "2", "--seed", "3", "--holdout", "6",
                  "--check", '{"turn_value": 10.5}', "--against", '{"turn_value": 7.0}'])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0]["command"].startswith("python -m bench.ai_tune --game tenfour")
    assert lines[1]["tuned"]["turn_value"] == 10.5
    game = build_game("tenfour", players=2)
    start = ai_tune.start_weights("tenfour", game)
    expected = ai_tune.holdout(ai_tune.paired_games("tenfour", game, 3),
                               valueclass.replace(start, turn_value=10.5),
                               valueclass.replace(start, turn_value=7.0), 6, 2)
    assert lines[2] == expected
