"""10-Four `hard`'s fitted leaf: the features it weighs, the weights' check, and the fit
(bench.ai_fit) that makes them."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

from bench import ai_fit
from engine.bumpem import ai as bumpem_ai
from engine.bumpem.state import BumpemState
from engine.players import chooser_for
from engine.selfplay import play
from engine.tenfour import ai
from engine.tenfour.state import TenFourState
from rig.gamebuild import build_game


def _turn_starts(players: int, seed: str) -> list[TenFourState]:
    """Positions at the start of a turn (where the search scores its leaves)."""
    game = build_game("tenfour", players=players)
    medium = chooser_for("tenfour", "medium")
    found: list[TenFourState] = []
    last = [0]

    def keep(state: object, action: object, events: object) -> None:
        assert isinstance(state, TenFourState)
        if state.turns != last[0] and not state.is_terminal():
            last[0] = state.turns
            found.append(state.clone())

    play(game, random.Random(seed), [medium] * players, keep_events=False, on_step=keep)
    return found


def test_two_players_features_are_each_others_opposites() -> None:
    """What is one seat's advantage is the other's disadvantage, part by part."""
    states = _turn_starts(2, "leaf:2")
    assert len(states) > 20
    moved = 0
    for s in states:
        mine, theirs = ai.leaf_features(s, 0), ai.leaf_features(s, 1)
        assert len(mine) == 2 * len(ai.PART_NAMES)
        assert mine == pytest.approx([-x for x in theirs])
        moved += any(mine)
    assert moved > len(states) // 2


def test_a_lead_counts_more_when_the_race_is_short() -> None:
    """The second half of the features is the first divided by the race still to run."""
    s = _turn_starts(2, "leaf:race")[-1]
    me = s.turn
    features = ai.leaf_features(s, me)
    half = len(ai.PART_NAMES)
    left = sum(max(0, s.g.board.size - s.pos[t]) for t in range(len(s.pos)))
    race = math.sqrt(left / 2 + 4)
    assert features[half:] == pytest.approx([x / race for x in features[:half]])


def test_the_leaf_is_the_fitted_logit_with_two_players_and_medium_with_more() -> None:
    s2 = _turn_starts(2, "leaf:logit")[10]
    weights = ai._fitted_weights()[2]
    x = [1.0, *ai.leaf_features(s2, s2.turn)]
    assert ai._leaf(s2, s2.turn, random.Random(0)) == pytest.approx(
        sum(w * v for w, v in zip(weights, x, strict=True)))
    s3 = _turn_starts(3, "leaf:3")[10]
    score = ai._Eval(s3, ai.DEFAULT_WEIGHTS).score(s3, s3.turn, ())
    assert ai._leaf(s3, s3.turn, random.Random(0)) == pytest.approx(score / ai.HARD_SCALE)


def test_weights_of_the_wrong_length_are_refused_naming_the_file(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.tenfour import leaf

    monkeypatch.setattr(leaf, "WEIGHTS", {2: (1.0, 2.0)})
    ai._fitted_weights.cache_clear()
    try:
        with pytest.raises(ValueError, match=r"engine/tenfour/leaf.py: WEIGHTS\[2\] needs 13"):
            ai._fitted_weights()
    finally:
        monkeypatch.undo()
        ai._fitted_weights.cache_clear()


def test_the_fit_recovers_the_weights_that_made_the_outcomes() -> None:
    rng = random.Random(5)
    truth = [0.3, 1.5, -2.0]
    rows: list[ai_fit.Row] = []
    for _ in range(4000):
        x = [1.0, rng.gauss(0, 1), rng.gauss(0, 1)]
        p = 1 / (1 + math.exp(-sum(w * v for w, v in zip(truth, x, strict=True))))
        rows.append((x, 0.0, 1.0 if rng.random() < p else 0.0))
    fitted = ai_fit.fit(rows, l2=0.0)
    assert fitted == pytest.approx(truth, abs=0.2)
    assert ai_fit.log_loss(rows, lambda r: ai_fit._sigmoid(ai_fit._dot(fitted, r[0]))) < \
        ai_fit.log_loss(rows, lambda r: 0.5)


def test_the_written_module_keeps_every_player_counts_weights(tmp_path: Path) -> None:
    text = ai_fit.module_text("tenfour", {2: [0.5, -1.25], 3: [1.0]},
                              {2: "python -m bench.ai_fit --games 3 " + "x" * 80})
    space: dict[str, object] = {}
    exec(compile(text, "leaf.py", "exec"), space)
    assert space["WEIGHTS"] == {2: (0.5, -1.25), 3: (1.0,)}
    assert space["COMMANDS"] == {2: "python -m bench.ai_fit --games 3 " + "x" * 80}
    assert max(len(line) for line in text.splitlines()) <= 100
    out = tmp_path / "leaf.py"
    ai_fit.write_module("tenfour", 4, [0.25], "the command", str(out))
    exec(compile(out.read_text(), "leaf.py", "exec"), space)
    assert space["WEIGHTS"] == {**ai._fitted_weights(), 4: (0.25,)}


def test_a_long_command_is_wrapped_between_words() -> None:
    command = "python -m bench.ai_fit --game tenfour --players 2 --games 3000 --seed 1 " \
              "--out engine/tenfour/leaf.py"
    lines = ai_fit._wrapped(command).splitlines()
    pieces = [eval(line) for line in lines]  # each line is one string literal
    assert len(pieces) > 1 and "".join(pieces) == command
    assert all(piece.endswith(" ") for piece in pieces[:-1])


@pytest.mark.parametrize(("game_name", "size"), [("tenfour", 1 + 2 * len(ai.PART_NAMES)),
                                                 ("bumpem", 3)])
def test_a_small_collection_labels_every_turn_start_with_its_winner(game_name: str,
                                                                     size: int) -> None:
    games = ai_fit.collect(game_name, 2, 2, seed=3)
    assert len(games) == 2
    for rows in games:
        assert len(rows) > 20
        assert {y for _, _, y in rows} == {0.0, 1.0}
        assert all(len(x) == size and x[0] == 1.0 for x, _, _ in rows)


def test_bumpem_leaf_features_are_the_score_and_the_score_over_the_race() -> None:
    game = build_game("bumpem", players=2)
    state = game.new_initial_state()
    assert isinstance(state, BumpemState)
    plain, over_race = bumpem_ai.leaf_features(state, 0, 50.0)
    assert plain == pytest.approx(50.0 / bumpem_ai.HARD_SCALE)
    assert 0 < over_race < plain


def test_an_unfitted_player_count_keeps_the_old_leaf(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no weights the Bump 'Em leaf is the score over HARD_SCALE, so its search is
    the one measured before."""
    from engine.bumpem import leaf

    monkeypatch.setattr(leaf, "WEIGHTS", {})
    bumpem_ai._fitted_weights.cache_clear()
    try:
        state = build_game("bumpem", players=3).new_initial_state()
        assert bumpem_ai.hard_leaf(state, 0, random.Random(4)) == pytest.approx(
            bumpem_ai.leaf_score(state, 0, random.Random(4)) / bumpem_ai.HARD_SCALE)
    finally:
        monkeypatch.undo()
        bumpem_ai._fitted_weights.cache_clear()
