"""The [voice] section is validated like the rest of the config; the setup menu's
choice outlives a restart; a rig without a sound card is quietly silent."""

from __future__ import annotations

from pathlib import Path

import pytest

from rig.config import ConfigError, VoiceConfig, dump_config, parse_config
from rig.voice.control import VoiceControl
from rig.voice.narrator import sound_card_present


def test_defaults_and_a_round_trip() -> None:
    config = parse_config("[voice]\nvolume = 50\nevents = [\"move\", \"alert\"]\n"
                          "effect = \"plain\"\ndevice = \"plughw:1,0\"\n")
    assert config.voice == VoiceConfig(volume=50, events=("move", "alert"), effect="plain",
                                       device="plughw:1,0")
    assert parse_config(dump_config(config)) == config
    assert parse_config("").voice == VoiceConfig()


def test_every_mistake_named_with_its_line() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config("[voice]\nvolume = 500\nevents = [\"moves\"]\neffect = \"cb\"\n"
                     "device = \"a b\"\nvoice = \"\"\nrate = 20\nloud = true\n")
    said = str(caught.value)
    for line, words in [(2, "voice.volume: 500 is out of range (0 to 100 %)"),
                        (3, "voice.events: 'moves' is not one of"),
                        (3, "did you mean 'move'?"),
                        (4, "voice.effect: 'cb' is not one of 'radio', 'plain'"),
                        (5, "voice.device: 'a b' is not an ALSA device name"),
                        (6, "voice.voice: '' is not an espeak-ng voice name"),
                        (7, "voice.rate: 20 is out of range (80 to 450 words a minute)")]:
        assert any(f":{line}: " in row and words in row for row in said.splitlines()), words
    assert "voice.loud: unknown field" in said


def test_the_menus_choice_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "voice.conf"
    control = VoiceControl(True, 80, path=path)
    control.toggle()
    control.louder()
    again = VoiceControl(True, 80, path=path)
    assert (again.enabled, again.volume) == (False, 100)
    path.write_text("\xff{not = ours")
    broken = VoiceControl(True, 60, path=path)  # a damaged file: the config's values
    assert (broken.enabled, broken.volume) == (True, 60)


def test_a_sound_card_is_a_playback_device(tmp_path: Path) -> None:
    assert not sound_card_present(tmp_path / "missing")
    (tmp_path / "controlC0").touch()
    (tmp_path / "pcmC0D0c").touch()  # capture only
    assert not sound_card_present(tmp_path)
    (tmp_path / "pcmC0D0p").touch()
    assert sound_card_present(tmp_path)


def test_how_choices_are_said_is_a_setting_checked_like_the_rest() -> None:
    """Issue 43: choices are said brief by default; reading every option is a setting."""
    assert parse_config("").voice.choices == "brief"
    config = parse_config("[voice]\nchoices = \"all\"\n")
    assert config.voice.choices == "all" and parse_config(dump_config(config)) == config
    with pytest.raises(ConfigError) as caught:
        parse_config("[voice]\nvolume = 50\nchoices = \"every\"\n")
    assert ":3: voice.choices: 'every' is not one of 'brief', 'all'" in str(caught.value)
