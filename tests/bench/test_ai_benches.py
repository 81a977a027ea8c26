"""The AI benches: the paired judgement of hard's departures (bench/ai_deviations.py) and
the decision profile of bench/ai_match.py."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bench import ai_match
from bench.ai_deviations import main, medium_rollout, paired_gain
from engine.api import State
from engine.players import chooser_for
from engine.selfplay import Rng, play
from rig.gamebuild import build_game


def _late_decision() -> State:
    """A 10-Four decision near the end of a seeded medium game, with two different
    positions to choose between (so playouts from it are short)."""
    game = build_game("tenfour", players=2)
    medium = chooser_for("tenfour", "medium")
    found: list[State] = []

    def keep(state: State, action: object, events: object) -> None:
        if not state.is_terminal() and not state.is_chance_node() and len(
                state.legal_actions()) > 1:
            found.append(state.clone())

    play(game, random.Random(5), [medium, medium], keep_events=False, on_step=keep)
    return found[-1]


def test_the_same_position_is_not_a_departure() -> None:
    state = _late_decision()
    first = state.legal_actions()[0]
    assert paired_gain(state, first, first, chooser_for("tenfour", "medium"), 3) is None


def test_a_rollout_is_a_seeded_win_or_loss() -> None:
    state = _late_decision()
    medium = chooser_for("tenfour", "medium")
    me = state.current_player()
    results = [medium_rollout(state, me, medium, random.Random(k)) for k in range(6)]
    assert set(results) <= {0.0, 1.0}
    assert results == [medium_rollout(state, me, medium, random.Random(k)) for k in range(6)]


def test_two_choices_get_a_paired_gain_between_minus_one_and_one() -> None:
    state = _late_decision()
    medium = chooser_for("tenfour", "medium")
    legal = state.legal_actions()
    gains = [paired_gain(state, legal[0], other, medium, 4) for other in legal[1:]]
    judged = [g for g in gains if g is not None]
    assert judged and all(-1.0 <= g <= 1.0 for g in judged)
    assert gains == [paired_gain(state, legal[0], other, medium, 4) for other in legal[1:]]


def test_a_run_reports_its_departures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--game", "bumpem", "--games", "1", "--rollouts", "1", "--budget", "24"]) == 0
    out = capsys.readouterr().out
    assert '"departures"' in out and '"gain_per_game"' in out


def test_the_match_bench_profiles_a_levels_decisions(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert ai_match.main(["--game", "tenfour", "--seats", "medium", "--profile", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("medium: 2 decisions, ") and "tottime" in out


def test_the_match_bench_plays_hard_with_a_longer_horizon_and_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.bumpem import ai

    horizons: set[int] = set()
    shipped_leaf = ai.hard_leaf

    def leaf(state: State, me: int, rng: Rng, rounds: int = 1) -> float:
        horizons.add(rounds)
        return shipped_leaf(state, me, rng, rounds)

    monkeypatch.setattr(ai, "hard_leaf", leaf)
    out = tmp_path / "two-rounds.jsonl"
    assert ai_match.main(["--game", "bumpem", "--players", "3", "--seats",
                          "hard,medium,medium", "--games", "1", "--budget", "8",
                          "--rounds", "2", "--out", str(out)]) == 0
    [line] = (json.loads(text) for text in out.read_text().splitlines())
    assert line["rounds"] == 2 and line["finished"]
    assert horizons == {2}


def test_a_summary_counts_the_subjects_wins_and_can_stop_at_a_planned_count(
        tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    assert ai_match.main(["--game", "tenfour", "--seats", "medium,easy", "--games", "6",
                          "--seed", "3", "--out", str(out)]) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["g"] for r in records] == list(range(6))
    whole = ai_match.summarise([str(out)])
    assert whole["games"] == 6
    assert whole["wins"] == sum("medium" in r["winners"] for r in records)
    first = ai_match.summarise([str(out)], below=4)
    assert first["games"] == 4
    assert first["wins"] == sum("medium" in r["winners"] for r in records[:4])
    assert first["wilson95"] == [round(x, 3) for x in ai_match.wilson(first["wins"], 4)]
    with pytest.raises(SystemExit, match="numbered below 0"):
        ai_match.summarise([str(out)], below=0)


def test_a_split_run_that_would_play_nothing_is_refused_with_the_reason(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as refused:
        ai_match.main(["--start", "700", "--games", "300"])
    assert refused.value.code == 2
    assert "--games 300 is the game number to stop before" in capsys.readouterr().err


def test_a_paired_summary_subtracts_two_subjects_game_by_game(tmp_path: Path) -> None:
    mine, theirs = tmp_path / "mine.jsonl", tmp_path / "theirs.jsonl"
    assert ai_match.main(["--game", "tenfour", "--seats", "medium,easy", "--games", "6",
                          "--seed", "3", "--out", str(mine)]) == 0
    assert ai_match.main(["--game", "tenfour", "--seats", "easy,medium", "--games", "4",
                          "--seed", "3", "--out", str(theirs)]) == 0
    a = {r["g"]: float("medium" in r["winners"])
         for r in map(json.loads, mine.read_text().splitlines())}
    b = {r["g"]: float("easy" in r["winners"])
         for r in map(json.loads, theirs.read_text().splitlines())}
    result = ai_match.paired(str(mine), str(theirs))
    assert (result["subject"], result["against"], result["games"]) == ("medium", "easy", 4)
    assert result["gain"] == round(sum(a[g] - b[g] for g in range(4)) / 4, 4)
    assert result["differ"] == sum(a[g] != b[g] for g in range(4))
    with pytest.raises(SystemExit, match="share 1 game numbers"):
        ai_match.paired(str(mine), str(theirs), below=1)
