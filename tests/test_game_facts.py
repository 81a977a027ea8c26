"""One record of game facts: the config check, the option flags and the benches read the
entry's facts, so a game's options and player counts are checked as it declares them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from rig import gametype, registry
from rig.cli import main
from tests.racegame.entry import RACE


@pytest.fixture
def race() -> Iterator[gametype.GameEntry]:
    with registry.registered(RACE):
        yield RACE


def test_an_option_flag_is_offered_only_for_the_game_that_has_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "--game", "tenfour", "--no-turbo", "--games", "1"])
    assert "unrecognized arguments: --no-turbo" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["simulate", "--game", "tenfour", "--help"])
    help_text = capsys.readouterr().out
    assert "--no-sidelined-immune" in help_text and "--bear-limit INT" in help_text
    assert "turbo" not in help_text


def test_a_number_option_flag_reaches_the_game(race: gametype.GameEntry,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    import json

    assert main(["simulate", "--game", "race", "--players", "2", "--games", "3", "--goal",
                 "5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["turns_mean"] < 10  # a race to 5, not 20


def test_the_config_checks_a_registry_format_game_s_options(race: gametype.GameEntry,
                                                            tmp_path: Path) -> None:
    """Race to 20's info has no VARIANTS/PLAYER_COUNTS globals: the check reads its facts
    (it used to give up silently and let any option through)."""
    from rig.config import ConfigError, load_config

    config = tmp_path / "config.toml"
    config.write_text('[game]\nname = "race"\nplayers = 2\n[game.options]\ngoals = 5\n')
    with pytest.raises(ConfigError) as error:
        load_config(config)
    assert "did you mean 'goal'" in error.value.problems[0].message


def test_a_broken_info_module_is_said_in_the_log(monkeypatch: pytest.MonkeyPatch,
                                                 tmp_path: Path,
                                                 caplog: pytest.LogCaptureFixture) -> None:
    from rig.config import load_config

    def broken(name: str) -> gametype.GameFacts:
        raise SyntaxError("info being edited")

    monkeypatch.setattr("rig.config.checks.game_facts", broken)
    config = tmp_path / "config.toml"
    config.write_text('[game]\nvariant = "anything"\n')
    assert load_config(config).game.variant == "anything"
    assert "info being edited" in caplog.text


def test_the_benches_flip_the_options_the_facts_declare() -> None:
    from bench.engine_trace import FLIPPED

    for name in registry.built_in_names():
        facts = registry.entry(name).facts
        assert FLIPPED[name] == {key: not value for key, value in facts.options.items()
                                 if isinstance(value, bool)}
        assert all(option.help for option in facts.rule_options)
