"""The game registry: lean to read, and a game defined only in tests/ plays everywhere.

Race to 20 (tests/racegame) is registered in one line and then goes through
`cbrig simulate`, the conformance battery every game runs, the emulated rig playing a
script, and the journal replay, with no file outside its package naming it.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cbrig.conformance import SEEDS, check_game
from engine.api import Action, State
from rig import gametype, registry
from rig.cli import main
from rig.core.autopilot import play_out
from rig.desktop.emulated import new_emulated_rig
from rig.gamebuild import GameSetupError, build_game
from tests.racegame.entry import RACE

ROOT = Path(__file__).resolve().parent.parent
RULES_AND_VIEWS = ("engine.tenfour.game", "engine.tenfour.state", "engine.bumpem.game",
                   "engine.bumpem.state", "cbrig.games.tenfour.view", "cbrig.games.bumpem.view",
                   "rig.screens.views")


@pytest.fixture
def race() -> Iterator[gametype.GameEntry]:
    with registry.registered(RACE):  # the one registration line, scoped to a test
        yield RACE


def _loaded_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running `code`."""
    script = f"import sys\n{code}\nprint('\\n'.join(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True, cwd=ROOT)
    return set(done.stdout.split())


def test_reading_the_registry_and_checking_a_config_loads_no_rules(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[game]\nname = "bumpem"\nplayers = 3\n[game.options]\nturbo = false\n')
    loaded = _loaded_after(
        "from rig import registry\nfrom rig.config import load_config\n"
        f"load_config({str(config)!r})\n"
        "for game in registry.entries():\n"
        "    game.title, game.variants, game.player_counts, list(game.facts.options)\n"
        "    game.variant_for(2), game.colour_sets(3)\n")
    assert "engine.tenfour.info" in loaded and "engine.bumpem.info" in loaded
    assert not loaded & set(RULES_AND_VIEWS), sorted(loaded & set(RULES_AND_VIEWS))


def test_a_config_mistake_about_the_game_is_still_caught(tmp_path: Path) -> None:
    from rig.config import ConfigError, load_config

    config = tmp_path / "config.toml"
    config.write_text('[game]\nname = "bumpem"\nvariant = "two-player"\n'
                      '[game.options]\nturbos = false\n')
    with pytest.raises(ConfigError) as error:
        load_config(config)
    fields = {problem.field: problem.message for problem in error.value.problems}
    assert "bumpem has no variant 'two-player'" in fields["game.variant"]
    assert "did you mean 'turbo'" in fields["game.options.turbos"]


def test_the_built_in_entries_say_what_the_packages_say() -> None:
    from engine import bumpem, tenfour

    for entry, package in ((registry.entry("tenfour"), tenfour),
                           (registry.entry("bumpem"), bumpem)):
        assert entry.variants == package.VARIANTS
        assert entry.player_counts == package.PLAYER_COUNTS
        assert dict(entry.facts.data_roles) == package.DATA_ROLES
        assert dict(entry.facts.options) == package.OPTIONS
    assert registry.entry("tenfour").variant_for(2) == "two-player"
    assert registry.entry("tenfour").variant_for(3) == "standard"
    assert registry.entry("tenfour").special_variant(3) is None
    assert registry.entry("tenfour").colour_sets(2) == [("red", "blue")]
    assert registry.entry("bumpem").special_variant(2) is None


def test_every_variant_builds_for_the_counts_the_registry_gives_it() -> None:
    for entry in registry.entries():
        for variant in entry.facts.variants:
            for players in entry.player_counts:
                fits = players in variant.players
                try:
                    build_game(entry.name, players=players, variant=variant.name)
                except ValueError:
                    assert not fits, (entry.name, variant.name, players)
                else:
                    assert fits, (entry.name, variant.name, players)


def test_a_name_is_registered_once() -> None:
    clash = gametype.GameEntry(name="tenfour", title="Another", info="tests.racegame.info",
                               build=RACE.build, view=RACE.view)
    with pytest.raises(ValueError, match="already registered"):
        registry.register(clash)
    with pytest.raises(GameSetupError, match="unknown game 'race'; choose one of tenfour"):
        build_game("race", players=2)


def test_the_third_game_simulates_through_the_cli(race: gametype.GameEntry,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--game", "race", "--players", "3", "--games", "40",
                 "--seed", "5", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["game"] == "race" and report["finished"] == 40
    assert sum(report["wins_by_seat"]) == 40
    assert set(report["events"]) == {"spins", "steady_moves"}
    assert report["events"]["spins"] > 40 * 3
    assert report["turns_mean"] > 3


def _race_invariants(game: object, state: State, before: dict[str, object] | None,
                     action: Action | None) -> None:
    data = state.to_json()
    assert all(0 <= p <= 20 for p in data["positions"])
    if before is not None:
        assert sum(data["positions"]) >= sum(before["positions"]) or \
            (action is not None and action.KIND == "correct")
    assert (data["winner"] is not None) == any(p == 20 for p in data["positions"])


def test_the_third_game_passes_the_conformance_battery(race: gametype.GameEntry) -> None:
    """The battery as a game from outside runs it: one call, its own invariants."""
    report = check_game(RACE, invariants=_race_invariants)
    assert [case.players for case in report.cases] == list(RACE.player_counts)
    assert report.games == len(report.cases) * len(SEEDS)


def test_the_battery_registers_an_entry_for_its_run_only() -> None:
    assert registry.find("race") is None
    assert check_game(RACE, seeds=[1]).games == len(RACE.player_counts)
    assert registry.find("race") is None


def test_the_emulated_rig_plays_a_script_game(race: gametype.GameEntry,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    script = ROOT / "tests" / "racegame" / "opening.script"
    assert main(["emulate", "--game", "race", "--players", "2", "--seed", "1",
                 "--script", str(script)]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert "RACE  BLUE" in out and "Blue moves 3 to 3" in out


def test_a_journalled_game_replays(race: gametype.GameEntry, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "race.jsonl"
    rig = new_emulated_rig("race", 3, seed=7, journal=journal)
    play_out(rig, random.Random(7))
    assert rig.session.state.is_terminal()
    assert main(["replay", str(journal), "--json"]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert replayed["inputs"] == rig.session.steps
    assert replayed["state"] == rig.session.state.to_json()
    assert main(["replay", str(journal)]) == 0
    assert "wins!" in capsys.readouterr().out


def test_a_cbrig_process_takes_the_game_from_the_environment() -> None:
    env = {**os.environ, registry.PLUGINS_VARIABLE: "tests.racegame.entry:RACE",
           "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "rig.cli", "simulate", "--game", "race",
                           "--players", "2", "--games", "5", "--json"],
                          capture_output=True, text=True, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["finished"] == 5


def test_the_registry_spells_the_engine_levels_the_same() -> None:
    from engine import players

    assert gametype.COMPUTER_LEVELS == players.LEVELS
    assert dict(gametype.OLD_LEVEL_NAMES) == players.ALIASES


def test_the_built_in_games_seat_every_level_through_their_entry() -> None:
    from engine.bumpem import ai as bumpem_ai
    from engine.tenfour import ai as tenfour_ai

    for name, module in (("tenfour", tenfour_ai), ("bumpem", bumpem_ai)):
        entry = registry.entry(name)
        assert entry.computer_levels == ("easy", "medium", "hard")
        assert entry.chooser("strong") is module.strong_choice
        assert entry.chooser("hard") is module.hard_choice


def test_a_game_without_an_ai_module_seats_easy_computers_only(
        race: gametype.GameEntry, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from rig.config import ConfigError, load_config
    from rig.core.setup_menu import seat_levels

    assert race.computer_levels == ("easy",) and seat_levels("race") == ("human", "easy")
    with pytest.raises(ValueError, match="Race to 20 has no 'medium' computer level"):
        race.chooser("medium")
    assert main(["simulate", "--game", "race", "--players", "2", "--games", "2",
                 "--seats", "easy,hard"]) != 0
    assert "no 'hard' computer level" in capsys.readouterr().err
    config = tmp_path / "config.toml"
    config.write_text('[game]\nname = "race"\nplayers = 2\nlevels = ["easy", "strong"]\n')
    with pytest.raises(ConfigError) as error:
        load_config(config)
    assert "seat 2: Race to 20 has no 'strong' computer" in \
        error.value.problems[0].message


def test_the_setup_menu_steps_a_seat_through_the_levels_its_game_has(
        race: gametype.GameEntry) -> None:
    from hardware.events import KnobPress, KnobTurn
    from rig.core.setup_menu import SetupMenu

    menu = SetupMenu()
    assert menu.choice.game == "tenfour"
    menu.handle(KnobTurn("lo", 3))  # the first seat's row
    seen = []
    for _ in range(4):
        menu.handle(KnobPress("lo"))
        seen.append(menu.choice.levels[0])
    assert seen == ["easy", "medium", "hard", "human"]
    menu.handle(KnobPress("lo"))
    menu.handle(KnobPress("lo"))  # medium: Race to 20 has no such computer
    menu.cursor = 0
    while menu.choice.game != "race":
        menu.handle(KnobPress("lo"))
    assert menu.choice.levels[0] == "human"
    menu.cursor = 3
    menu.handle(KnobPress("lo"))
    assert menu.choice.levels[0] == "easy"
    menu.handle(KnobPress("lo"))
    assert menu.choice.levels[0] == "human"  # no medium to step to


def test_a_view_and_board_tools_refuse_another_games_state_and_board(
        race: gametype.GameEntry) -> None:
    """Where the rig hands a game's view a state, or a game's board tools a board, by
    the game's name (the type checker cannot tie them), each is checked once there: a
    wiring mistake is a TypeError naming both classes, not a wrong screen."""
    from rig.maker.boardart import board_geometry
    from rig.screens.views import view_for

    tenfour = build_game("tenfour", players=3)
    racing = build_game("race", players=2)
    with pytest.raises(TypeError, match=r"RaceState.*TenFourState"):
        view_for(racing).title(tenfour.new_initial_state())
    assert view_for(racing).title(racing.new_initial_state())
    with pytest.raises(TypeError, match=r"Track.*Board"):
        board_geometry("race", tenfour.board)
    assert board_geometry("race", racing.board).spaces


def test_print_tools_refuse_another_games_game(race: gametype.GameEntry) -> None:
    """``cbrig print`` hands a game's print tools the built game by its name: the tools
    read their own game class typed, so another game's is a TypeError naming both."""
    from rig.maker.printout.sheets import print_tools

    tenfour = build_game("tenfour", players=3)
    racing = build_game("race", players=2)
    tools = print_tools("race")
    for read in (tools.reference_of, tools.pieces_of, tools.cards_of, tools.board_of):
        with pytest.raises(TypeError, match=r"RaceGame print tools were given a TenFourGame"):
            read(tenfour)
    assert tools.reference_of(racing) and tools.pieces_of(racing)
    assert tools.cards_of(racing) is None and not tools.has_cards
    assert tools.board_of(racing) is racing.board
    assert print_tools("tenfour").has_cards


def test_a_board_file_is_read_summarised_and_drawn_through_its_games_tools() -> None:
    from rig.datafiles import read_data

    entry = registry.entry("tenfour")
    assert entry.board is not None
    text, source = read_data("default:" + entry.facts.data_roles["board"],
                             entry.facts.data_package)
    loaded = entry.board().read(text, source)
    assert loaded.summary() and loaded.geometry().game == "tenfour"
