"""`cbrig emulate` and `cbrig demo` check --players, --variant and --seats before anything
starts, with the ranges and levels the game registry gives; and every part of the rig
starts a game for the same number of players when nothing says how many."""

from __future__ import annotations

from pathlib import Path

import pytest

from rig import gametype, registry
from rig.cli import main


@pytest.mark.parametrize("command", ["emulate", "demo"])
@pytest.mark.parametrize("players", ["7", "1", "0", "-2"])
def test_a_player_count_no_game_seats_is_refused_first(command: str, players: str,
                                                       capsys: pytest.CaptureFixture[str],
                                                       tmp_path: Path) -> None:
    args = [command, "--players", players]
    if command == "emulate":
        args += ["--state", str(tmp_path / "state")]
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert out == ""  # no banner, no setup menu
    assert f"cbrig {command}: 10-Four, Good Buddy is for 2 to 4 players, not {players}" in err
    assert "Traceback" not in err and "index" not in err
    assert not (tmp_path / "state").exists()


def test_the_range_comes_from_the_registry(capsys: pytest.CaptureFixture[str]) -> None:
    """A variant narrows the range to its own player counts."""
    assert main(["demo", "--variant", "standard", "--players", "2"]) == 2
    assert "10-Four, Good Buddy's standard variant is for 3 or 4 players, not 2" in \
        capsys.readouterr().err
    assert main(["demo", "--variant", "grand", "--players", "3"]) == 2
    assert "10-Four, Good Buddy has no variant 'grand'; it has standard or two-player" in \
        capsys.readouterr().err
    plugin = gametype.GameEntry(name="trio", title="Trio", info="engine.bumpem.info",
                                build=registry.entry("bumpem").build,
                                view=registry.entry("bumpem").view)
    with registry.registered(plugin):
        from engine.bumpem import info

        counts = info.VARIANT_PLAYERS["standard"]
        assert gametype.count_words(counts) == "2 to 4"
        assert main(["demo", "--game", "trio", "--players", "5"]) == 2
        assert "Trio is for 2 to 4 players, not 5" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["emulate", "demo"])
def test_an_unknown_seat_level_is_refused_first(command: str,
                                                capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    args = [command, "--players", "3", "--seats", "human,easy,wizard"]
    if command == "emulate":
        args += ["--state", str(tmp_path / "state")]
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "--seats: seat 3 is 'wizard'; choose one of human, easy, medium, hard" in err
    assert main([command, "--players", "3", "--seats", "human,easy"]) == 2
    assert "--seats names 2 seats for 3 players" in capsys.readouterr().err


def test_a_game_with_fewer_computer_levels_names_its_own(
        capsys: pytest.CaptureFixture[str]) -> None:
    plugin = gametype.GameEntry(name="simple", title="Simple", info="engine.bumpem.info",
                                build=registry.entry("bumpem").build,
                                view=registry.entry("bumpem").view)
    with registry.registered(plugin):
        assert main(["demo", "--game", "simple", "--players", "2", "--seats", "easy,hard"]) == 2
        assert "seat 2 is 'hard'; choose one of human, easy" in capsys.readouterr().err


def test_one_default_player_count_everywhere() -> None:
    """The Pi's config, its shipped config file, emulate and demo start with the same
    number of players, one that every built-in game's standard variant seats."""
    import argparse
    import tomllib

    from rig.commands import demo, emulate
    from rig.config import GameConfig, parse_config

    wanted = registry.DEFAULT_PLAYERS
    for game in (registry.entry("tenfour"), registry.entry("bumpem")):
        assert game.variant_for(wanted) == game.variants[0]
    from rig.core.setup_menu import SetupChoice

    assert GameConfig().players == wanted and len(GameConfig().levels) == wanted
    assert SetupChoice().players == wanted and len(SetupChoice().levels) == wanted
    assert parse_config("").game.players == wanted
    shipped = Path(__file__).resolve().parents[2] / "wiring" / "config.toml"
    game_table = tomllib.loads(shipped.read_text())["game"]
    assert game_table["players"] == wanted and len(game_table["levels"]) == wanted
    for command in (emulate, demo):
        parser = argparse.ArgumentParser()
        command.add_arguments(parser)
        assert parser.parse_args([]).players == wanted
        assert f"default {wanted}" in parser.format_help()
