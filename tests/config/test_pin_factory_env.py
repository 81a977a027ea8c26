"""GPIOZERO_PIN_FACTORY, gpiozero's own way to choose a backend, was ignored without a
word: the rig passes its factory explicitly. It is honoured now where the config does not
say ([pins] backend in the file wins), and a name the rig cannot use is a problem."""

from __future__ import annotations

import pytest

from rig.config import ConfigError, load_config, parse_config


def test_the_environment_chooses_when_the_file_does_not(monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "native")
    assert parse_config("[game]\nplayers = 2\n").pins.backend == "native"


def test_the_file_wins_over_the_environment(monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "native")
    assert parse_config('[pins]\nbackend = "mock"\n').pins.backend == "mock"
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "pigpio")
    assert parse_config('[pins]\nbackend = "mock"\n').pins.backend == "mock"


def test_without_a_config_file_the_environment_chooses(monkeypatch, tmp_path):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "MOCK")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.setattr("rig.config.paths.DEFAULT_PATH", tmp_path / "none.toml")
    assert load_config().pins.backend == "mock"


def test_a_factory_the_rig_cannot_use_is_a_problem_naming_the_variable(monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "pigpio")
    with pytest.raises(ConfigError) as caught:
        parse_config("")
    (problem,) = caught.value.problems
    assert problem.source == "$GPIOZERO_PIN_FACTORY"
    assert "'pigpio'" in problem.message and "lgpio" in problem.message


def test_unset_or_empty_is_the_default(monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "")
    assert parse_config("").pins.backend == "lgpio"
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY")
    assert parse_config("").pins.backend == "lgpio"
