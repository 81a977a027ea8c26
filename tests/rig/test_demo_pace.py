"""`cbrig demo` goes at a person's pace by default, timed by the loop's deadlines."""

from __future__ import annotations

import argparse

import pytest

from rig.commands import demo


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    demo.add_arguments(parser)
    return parser.parse_args(list(argv))


def test_a_watched_demo_is_paced_and_fast_is_not():
    assert demo.pace_for(_args(), watched=True) == demo.PACE
    assert demo.pace_for(_args("--fast"), watched=True) == 0.0
    assert demo.pace_for(_args(), watched=False) == 0.0
    assert demo.pace_for(_args("--delay", "0.4"), watched=False) == 0.4


def test_paced_demo_waits_between_gestures_and_plays_spins_in_time(capsys):
    pauses: list[float] = []
    args = _args("--game", "bumpem", "--players", "2", "--seed", "3", "--delay", "1.5")
    assert demo.run(args, pause=pauses.append) == 0
    out = capsys.readouterr().out
    gestures = int(out.split("Game over after ")[1].split()[0])
    assert sum(pauses) >= 1.5 * gestures  # every gesture is followed by the pace
    assert all(p > 0 for p in pauses)


def test_paced_tenfour_spins_take_their_animation_time(capsys):
    pauses: list[float] = []
    args = _args("--players", "2", "--seed", "2", "--delay", "1")
    assert demo.run(args, pause=pauses.append) == 0
    # animation frames (70 ms) are waited out one deadline at a time, not skipped
    assert any(abs(p - 0.07) < 1e-6 for p in pauses)


def test_fast_demo_never_pauses(capsys):
    pauses: list[float] = []
    assert demo.run(_args("--game", "bumpem", "--players", "2", "--seed", "3", "--fast"),
                    pause=pauses.append) == 0
    assert pauses == []


def test_a_watched_demo_ends_in_a_few_minutes(capsys):
    """A Bump 'Em game is some 770 gestures: at 1.5 s each the demo took 19 minutes
    (bench.demo_length). The default pace fits the seeded game in DEMO_SECONDS, never
    slower than PACE; only a game too long for MIN_PACE runs over, by what MIN_PACE
    costs. Durations are the sums of the recorded pauses: nothing is waited for."""
    from bench.demo_length import demo_minutes

    for game, seed in (("bumpem", 1), ("bumpem", 4), ("tenfour", 2)):
        minutes, gestures = demo_minutes(["--game", game, "--seed", str(seed)])
        allowed = max(demo.DEMO_SECONDS, demo.MIN_PACE * gestures) / 60
        assert 1.0 <= minutes <= allowed + 0.01, (game, seed, minutes, gestures)
        assert minutes < 6, (game, seed, minutes)
        old, _ = demo_minutes(["--game", game, "--seed", str(seed), "--delay",
                               str(demo.PACE)])
        assert old > minutes  # the fixed pace of before took longer
    capsys.readouterr()


def test_an_explicit_delay_is_kept(capsys):
    pauses: list[float] = []
    args = _args("--game", "bumpem", "--seed", "1", "--delay", "1.5")
    assert demo.run(args, pause=pauses.append, watched=True) == 0
    out = capsys.readouterr().out
    gestures = int(out.split("Game over after ")[1].split()[0])
    minutes = round(1.5 * gestures / 60)  # the banner says how long, and how to stop it
    assert out.startswith(f"Bump 'Em: 3 players, seed 1, 1.5 s a gesture: about {minutes} "
                          "minutes; Ctrl-C stops it\n+---")  # banner first
    assert sum(pauses) == pytest.approx(1.5 * gestures)  # Bump 'Em has no spins
