"""The command line a newcomer uses: simulate, replay and demo."""

from __future__ import annotations

import json
import random

import pytest

from rig.cli import main
from rig.core.autopilot import play_out
from rig.desktop.emulated import new_emulated_rig

TENFOUR_COUNTERS = {"smokey_catches", "trap_catches", "bear_catches", "lost_turns",
                    "hammer_up_turns", "break_one_nine", "park_exits", "smokey_exact_moves",
                    "smokey_trap_moves", "shortcut_moves", "bear_moves", "reshuffles",
                    "card_draws", "spins"}
BUMPEM_COUNTERS = {"tickets", "entries", "bumps", "bump_tickets", "swaps", "splits",
                   "backward_moves", "oil_slides", "turbo_zooms", "extra_tickets",
                   "lost_tickets", "home_stretch_entries", "finishes"}


def _simulate(capsys, *args: str) -> dict:
    assert main(["simulate", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(("args", "counters"), [
    (["--game", "tenfour", "--players", "4"], TENFOUR_COUNTERS),
    (["--game", "tenfour", "--players", "2", "--variant", "two-player"], TENFOUR_COUNTERS),
    (["--game", "bumpem", "--players", "3"], BUMPEM_COUNTERS),
    (["--game", "bumpem", "--players", "2", "--no-turbo"], BUMPEM_COUNTERS),
])
def test_simulate_reports_every_field_and_repeats_for_a_seed(capsys, args, counters):
    first = _simulate(capsys, *args, "--games", "12", "--seed", "4")
    again = _simulate(capsys, *args, "--games", "12", "--seed", "4")
    for report in (first, again):
        report.pop("seconds")
        report.pop("games_per_second")
    assert first == again
    assert first["games"] == 12 and first["finished"] == 12
    assert set(first["events"]) == counters
    assert sum(first["wins_by_seat"]) >= 12
    assert 0 < first["turns_mean"] <= first["turns_max"]
    other = _simulate(capsys, *args, "--games", "12", "--seed", "5")
    assert other["events"] != first["events"], "a different seed plays different games"


def test_no_turbo_means_no_zooms(capsys):
    report = _simulate(capsys, "--game", "bumpem", "--players", "4", "--games", "10",
                       "--no-turbo")
    assert report["events"]["turbo_zooms"] == 0
    with_turbo = _simulate(capsys, "--game", "bumpem", "--players", "4", "--games", "10")
    assert with_turbo["events"]["turbo_zooms"] > 0


def test_simulate_refuses_a_bad_player_count(capsys):
    assert main(["simulate", "--game", "bumpem", "--players", "7"]) == 2
    assert "cbrig simulate:" in capsys.readouterr().err


def test_replay_prints_the_state_a_journal_leads_to(tmp_path, capsys):
    journal = tmp_path / "game.jsonl"
    rig = new_emulated_rig("tenfour", 3, seed=31, journal=journal)
    play_out(rig, random.Random(31))
    assert main(["replay", str(journal), "--json"]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert replayed["inputs"] == rig.session.steps
    assert replayed["state"] == json.loads(json.dumps(rig.session.state.to_json()))
    assert main(["replay", str(journal)]) == 0
    assert "wins" in capsys.readouterr().out


def test_replay_names_the_damaged_line(tmp_path, capsys):
    journal = tmp_path / "game.jsonl"
    rig = new_emulated_rig("bumpem", 2, seed=32, journal=journal)
    for _ in range(5):
        rig.press("hi")
    lines = journal.read_text().splitlines(keepends=True)
    lines[2] = '{"seq": 2, "action": {"kind": "draw_ticket", "ticket": "13"}}\n'
    journal.write_text("".join(lines))
    assert main(["replay", str(journal)]) == 1
    assert "line 3" in capsys.readouterr().err


def test_demo_plays_a_whole_game_to_the_winner(capsys):
    assert main(["demo", "--players", "3", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "$ spin hi" in out and "$ tag EMU-" in out
    assert "WINNER" in out
    assert "won." in out


def test_an_unwatched_demo_says_it_is_not_paced(capsys):
    """Piped, the demo plays without pauses: its first line says so, and how to pace it."""
    assert main(["demo", "--game", "bumpem", "--players", "2", "--seed", "3"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.endswith("no pauses (not a terminal: --delay S paces it)")


def test_simulate_plays_three_by_default_as_the_readme_says(capsys):
    assert main(["simulate", "--game", "bumpem", "--games", "1", "--seed", "1",
                 "--json"]) == 0
    assert '"players": 3' in capsys.readouterr().out


def test_spins_do_not_depend_on_the_gesture():
    """The outcome comes from the chance source alone: same source, any flick strength,
    the same values; and over many spins every segment turns up about equally."""
    from hardware.events import KnobSpin

    def spins(strengths: list[float]) -> list[int]:
        rig = new_emulated_rig("tenfour", 3, seed=77)
        start = rig.session.state.clone()
        values = []
        for strength in strengths:
            rig.session.state = start.clone()
            rig.loop.step(KnobSpin("hi", strength))
            rig.controller.animation = None  # over: the next flick is not too soon
            values.append(rig.session.last_action.value)
        return values

    n = 1100
    gentle = spins([0.0] * n)
    wild = spins([random.Random(i).random() for i in range(n)])
    assert gentle == wild
    counts = [gentle.count(v) for v in range(2, 13)]
    expected = n / 11
    chi_square = sum((c - expected) ** 2 / expected for c in counts)
    assert chi_square < 29.59, counts  # p = 0.001 with 10 degrees of freedom


def test_simulate_budget_sets_what_a_hard_seat_thinks(capsys, monkeypatch):
    """`--budget MS` is turned into samples as the rig does (the probe is stood in for
    here: it times the machine) and the hard seats play with exactly that many."""
    from rig import registry
    from rig.commands.simulate import simulate
    from rig.gamebuild import build_game

    asked = []

    def calibrated(game, think_ms):
        asked.append((game.num_players, think_ms))
        return 8

    import rig.commands.simulate

    # simulate binds the name at its top: the stand-in goes where it is used
    monkeypatch.setattr(rig.commands.simulate, "calibrated_budget", calibrated)
    report = _simulate(capsys, "--game", "tenfour", "--players", "2", "--games", "2",
                       "--seats", "hard,medium", "--budget", "30")
    assert asked == [(2, 30)]
    assert (report["hard_budget_ms"], report["hard_samples"]) == (30, 8)
    entry = registry.entry("tenfour")
    direct = simulate(build_game("tenfour", players=2), "tenfour", 2, 1,
                      [entry.chooser("hard", 8), entry.chooser("medium")])
    assert (report["wins_by_seat"], report["steps"]) == (direct["wins_by_seat"],
                                                          direct["steps"])


@pytest.mark.parametrize(("extra", "says"), [
    (["--seats", "medium,easy"], "name one in --seats"),
    ([], "name one in --seats"),
    (["--seats", "hard,easy", "--budget", "0"], "1 or more"),
])
def test_simulate_budget_refuses_what_it_cannot_mean(capsys, extra, says):
    args = ["simulate", "--game", "tenfour", "--players", "2", "--budget", "50", *extra]
    assert main(args) == 2
    assert says in capsys.readouterr().err


@pytest.mark.parametrize("columns", [None, "0", "57", "200", "wide"])
def test_help_is_as_wide_as_shutil_would_make_it(monkeypatch, columns) -> None:
    """The commands' help formatter finds the width without importing shutil (start-up):
    it must be the width shutil reports, whatever $COLUMNS says."""
    import shutil

    from rig.cli import terminal_columns

    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    monkeypatch.delenv("LINES", raising=False)
    assert terminal_columns() == shutil.get_terminal_size().columns


def test_a_command_help_wraps_at_the_terminal_width(monkeypatch, capsys) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    lines = capsys.readouterr().out.splitlines()
    assert 45 < max(map(len, lines)) <= 58  # argparse wraps at $COLUMNS - 2
