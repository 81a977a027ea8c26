"""Where the config and the state go when the config does not say: systemd's
$CONFIGURATION_DIRECTORY / $STATE_DIRECTORY under the unit, XDG directories on a desktop."""

from __future__ import annotations

from pathlib import Path

import pytest

from rig.config import default_config, default_config_path, default_state_dir, load_config


@pytest.fixture
def desktop(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A user's desktop: not root, no /etc/cbrig, no /var/lib/cbrig, XDG under tmp."""
    for name in ("STATE_DIRECTORY", "CONFIGURATION_DIRECTORY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("os.geteuid", lambda: 1000)
    monkeypatch.setattr("rig.config.paths.DEFAULT_STATE_DIR", tmp_path / "var/lib/cbrig")
    monkeypatch.setattr("rig.config.paths.DEFAULT_PATH", tmp_path / "etc/cbrig/config.toml")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path


def test_a_desktop_keeps_its_games_in_the_xdg_state_directory(desktop: Path) -> None:
    assert default_state_dir() == desktop / "state/cbrig"
    config = default_config()
    assert config.state.directory == desktop / "state/cbrig"
    assert config.reader.cards == desktop / "state/cbrig/cards.toml"
    assert default_config_path() is None
    assert load_config() == config


def test_the_users_own_config_comes_before_the_systems(desktop: Path) -> None:
    system = desktop / "etc/cbrig/config.toml"
    system.parent.mkdir(parents=True)
    system.write_text("[game]\nplayers = 3\n")
    assert default_config_path() == system
    user = desktop / "config/cbrig/config.toml"
    user.parent.mkdir(parents=True)
    user.write_text("[game]\nplayers = 4\n")
    assert default_config_path() == user
    assert load_config().game.players == 4
    assert load_config().state.directory == desktop / "state/cbrig"


def test_under_systemd_the_units_directories_are_used(desktop: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    etc = desktop / "unit-etc"
    etc.mkdir()
    (etc / "config.toml").write_text("[game]\nname = \"bumpem\"\n")
    monkeypatch.setenv("CONFIGURATION_DIRECTORY", str(etc))
    monkeypatch.setenv("STATE_DIRECTORY", f"{desktop / 'unit-state'}:{desktop / 'other'}")
    config = load_config()
    assert config.source == str(etc / "config.toml")
    assert config.game.name == "bumpem"
    assert config.state.directory == desktop / "unit-state"
    assert config.reader.cards == desktop / "unit-state/cards.toml"
    explicit = desktop / "explicit.toml"
    explicit.write_text(f'[state]\ndirectory = "{desktop / "mine"}"\n')
    assert load_config(explicit).state.directory == desktop / "mine"  # the file wins


def test_root_and_a_rig_use_var_lib(monkeypatch: pytest.MonkeyPatch, desktop: Path) -> None:
    monkeypatch.setattr("os.geteuid", lambda: 0)
    assert default_state_dir() == desktop / "var/lib/cbrig"
