"""The `strong` Bump 'Em level: legal, deterministic, follows the rulebook's tips, wins.

Positions use the default board (see helpers.py): red starts on T5 with its home
entrance on T3, blue starts on T20 with its entrance on T18; home stretch 5.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.api import Action, State
from engine.bumpem import Backward, BumpemState, BumpTicket, Forward
from engine.bumpem.ai import evaluate, hard_choice, strong_choice
from engine.players import chooser_for
from engine.selfplay import Rng, play, random_choice
from tests.bumpem.helpers import make_game, position


def choose(state: BumpemState, seed: int = 0) -> Action:
    legal = state.legal_actions()
    assert len(legal) > 1, "the scenario must offer a real choice"
    return strong_choice(state, legal, random.Random(seed))


def test_the_strong_level_is_found_by_name() -> None:
    assert chooser_for("bumpem", "strong") is strong_choice


def test_always_returns_a_legal_action() -> None:
    for players in (2, 3, 4):
        game = make_game(players)
        checked = 0

        def checking(state: State, legal: Sequence[Action], rng: Rng) -> Action:
            nonlocal checked
            action = strong_choice(state, legal, rng)
            assert action in legal
            checked += 1
            return action

        result = play(game, random.Random(players), [checking] * players, keep_events=False)
        assert result.finished
        assert checked > 50


def test_deterministic_for_the_same_rng_seed() -> None:
    game = make_game(3)

    def final(seed: int) -> dict[str, object]:
        result = play(game, random.Random(seed), [strong_choice] * 3, keep_events=False)
        return dict(result.state.to_json(), steps=result.steps)

    assert final(11) == final(11)
    state = position(make_game(2), {"red": ["T30", "T40"], "blue": ["T33", "T45"]},
                     phase="move", ticket="8")
    picks = {choose(state, seed=5).key() for _ in range(5)}
    assert len(picks) == 1


def test_takes_a_finishing_move_when_one_exists() -> None:
    # Red car 1 on T1 is 2 spaces before its entrance T3: 8 = 2 + 5 home steps + finish.
    game = make_game(2)
    state = position(game, {"red": ["T1", "T30", "T40"], "blue": ["T50"]},
                     phase="move", ticket="8")
    action = choose(state)
    assert isinstance(action, Forward) and action.car == 1
    assert action.to == "finish:red"
    # From the home stretch too: step 1 needs exactly 5.
    state = position(game, {"red": ["home:red:1", "T30", "T40"], "blue": ["T50"]},
                     phase="move", ticket="5")
    action = choose(state)
    assert isinstance(action, Forward) and action.to == "finish:red"


def test_bump_ticket_hits_the_car_nearest_its_finish() -> None:
    # Blue's entrance is T18: a blue car on T16 is 2 + 6 from its finish; one on T22
    # has almost the whole lap to go.
    game = make_game(2)
    state = position(game, {"red": ["T40"], "blue": ["T22", "T16"]},
                     phase="move", ticket="bump")
    action = choose(state)
    assert isinstance(action, BumpTicket)
    assert action.bumps == (action.target,)
    assert state.to_json()["cars"]["blue"][int(action.target.split(":")[1]) - 1] == "T16"


def test_forward_move_bumps_the_car_nearest_its_finish() -> None:
    # Red on T30 and T50; a 4 hits blue on T34 or blue on T54. Blue runs T20 -> T18,
    # so the car on T54 is twenty spaces nearer its finish.
    game = make_game(2)
    state = position(game, {"red": ["T30", "T50"], "blue": ["T34", "T54"]},
                     phase="move", ticket="4")
    action = choose(state)
    assert isinstance(action, Forward) and action.bumps == ("blue:2",)


def test_bumps_the_leading_players_car_in_a_three_player_game() -> None:
    # Blue and yellow cars equally far from their finishes; yellow has three cars home.
    game = make_game(3)
    state = position(game, {"red": ["T22", "T37"],
                            "blue": ["T26"],
                            "yellow": ["T41", "finish:yellow", "finish:yellow",
                                       "finish:yellow"]},
                     phase="move", ticket="4")
    action = choose(state)
    assert isinstance(action, Forward) and action.bumps == ("yellow:1",)


def test_backs_out_past_its_home_stretch() -> None:
    # Red car on its start T5: 9 back puts it 4 spaces before its entrance T3.
    game = make_game(2)
    state = position(game, {"red": ["T5", "T30"], "blue": ["T45"]},
                     phase="move", ticket="6")
    action = choose(state)
    assert isinstance(action, Backward) and action.car == 1


def test_evaluation_prefers_the_home_stretch_and_dislikes_danger() -> None:
    game = make_game(2)
    rules = game.rules
    near = position(game, {"red": ["T1"], "blue": ["T50"]}).pos
    home = position(game, {"red": ["home:red:1"], "blue": ["T50"]}).pos
    assert evaluate(rules, home, 0) > evaluate(rules, near, 0)
    # Blue on T40 hits T34 with 6 back (a 9 ticket) but cannot reach T33: red is better
    # off on T33 although T34 is a space further on.
    exposed = position(game, {"red": ["T34"], "blue": ["T40"]}).pos
    clear = position(game, {"red": ["T33"], "blue": ["T40"]}).pos
    assert evaluate(rules, exposed, 0) < evaluate(rules, clear, 0)


def test_strong_beats_random_in_two_player_games() -> None:
    game = make_game(2)
    games = 200
    wins = 0
    for g in range(games):
        seat = g % 2
        choosers = [random_choice, random_choice]
        choosers[seat] = strong_choice
        result = play(game, random.Random(f"ai-test:{g}"), choosers, keep_events=False)
        assert result.finished
        wins += result.state.winners() == [seat]
    assert wins / games > 0.58


def test_hard_takes_the_winning_move() -> None:
    # Red's last car on T2: a 7 takes it 1 to its entrance T3, 5 up the home stretch and
    # into its finish (the game won); the swaps with blue's cars only look tempting.
    game = make_game(2)
    state = position(game, {"red": ["finish:red"] * 3 + ["T2"], "blue": ["T30", "T45"]},
                     phase="move", ticket="7")
    legal = state.legal_actions()
    assert len(legal) == 3
    for seed in range(3):
        action = hard_choice(state, legal, random.Random(seed), budget=30)
        assert isinstance(action, Forward) and action.to == "finish:red"


def test_hard_bumps_the_car_nearest_its_finish() -> None:
    game = make_game(2)
    state = position(game, {"red": ["T30", "T50"], "blue": ["T34", "T54"]},
                     phase="move", ticket="4")
    legal = state.legal_actions()
    for seed in range(3):
        action = hard_choice(state, legal, random.Random(seed), budget=60)
        assert isinstance(action, Forward) and action.bumps == ("blue:2",)


def test_hard_is_registered() -> None:
    assert chooser_for("bumpem", "hard") is hard_choice
