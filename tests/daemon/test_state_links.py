"""Links in the state directory are never followed (the rig may run as root there:
`sudo cbrig run`, `sudo cbrig cards enroll`). A `current.jsonl` linking elsewhere had its
target chmodded to 0600 and its inputs appended to the target; a planted
`.cards.toml.tmp-PID` link had its target overwritten."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rig.config import load_config
from rig.core.daemon import Daemon
from rig.core.enroll import save_card_map
from rig.core.journal import Journal
from rig.core.journalread import JournalError
from rig.core.service import load_card_map
from rig.core.setup_menu import SetupChoice
from rig.statedir import atomic_write
from tests.daemon.helpers import Quiet, write_config
from tests.daemon.test_journal_faults import _journal_in_progress


def _config(tmp_path: Path):  # type: ignore[no-untyped-def]
    return load_config(write_config(tmp_path, game="tenfour", players=3))


def test_a_linked_journal_is_refused_and_its_target_left_alone(tmp_path):
    config = _config(tmp_path)
    current = _journal_in_progress(config)
    elsewhere = tmp_path / "elsewhere.jsonl"
    current.rename(elsewhere)
    elsewhere.chmod(0o644)
    before = elsewhere.read_bytes()
    current.symlink_to(elsewhere)
    daemon = Daemon(config=config, notifier=Quiet())
    try:
        daemon.start()
        assert daemon.app is not None and daemon.app.controller is None, "not resumed"
        assert "link" in daemon.app.screen().plain()
        controller = daemon._start_game(SetupChoice(
            game="tenfour", players=3, levels=("human",) * 3))
        daemon.app.play(controller)
        controller.session.close()
    finally:
        daemon.stop()
    assert elsewhere.stat().st_mode & 0o777 == 0o644, "not chmodded"
    assert elsewhere.read_bytes() == before, "nothing appended through the link"
    assert not current.is_symlink(), "a new game has a file of its own"
    aside = list(config.state.games.glob("*damaged-*"))
    assert len(aside) == 1 and aside[0].is_symlink(), "the link itself was set aside"


def test_journal_open_refuses_a_link_with_a_message(tmp_path):
    target = tmp_path / "target.jsonl"
    Journal.create(target, {"game": {"game": "x"}, "created": "x"}).close()
    link = tmp_path / "current.jsonl"
    link.symlink_to(target)
    with pytest.raises(JournalError, match="symbolic link"):
        Journal.open(link)


def test_a_dangling_link_as_journal_does_not_stop_a_new_game(tmp_path):
    config = _config(tmp_path)
    config.state.directory.mkdir(parents=True)
    config.state.current.symlink_to(tmp_path / "nowhere.jsonl")
    daemon = Daemon(config=config, notifier=Quiet())
    try:
        daemon.start()
        assert daemon.app is not None and daemon.app.controller is None
        controller = daemon._start_game(SetupChoice(
            game="tenfour", players=3, levels=("human",) * 3))
        daemon.app.play(controller)
        controller.session.close()
    finally:
        daemon.stop()
    assert not (tmp_path / "nowhere.jsonl").exists()


def test_a_planted_temp_link_does_not_overwrite_its_target(tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("precious\n")
    cards = tmp_path / "state" / "cards.toml"
    cards.parent.mkdir()
    planted = cards.with_name(f".cards.toml.tmp-{os.getpid()}")
    planted.symlink_to(victim)
    save_card_map(cards, {"0003887558": "M01"})
    assert victim.read_text() == "precious\n"
    assert load_card_map(cards) == {"0003887558": "M01"}
    assert not cards.is_symlink()


def test_atomic_write_replaces_a_link_instead_of_writing_through_it(tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("precious\n")
    path = tmp_path / "cards.toml"
    path.symlink_to(victim)
    atomic_write(path, b"[tags]\n")
    assert victim.read_text() == "precious\n"
    assert not path.is_symlink() and path.read_bytes() == b"[tags]\n"


def test_a_linked_card_map_is_not_read(tmp_path, caplog):
    secret = tmp_path / "secret.toml"
    secret.write_text('[tags]\n"0003887558" = "M01"\n')
    cards = tmp_path / "cards.toml"
    cards.symlink_to(secret)
    assert load_card_map(cards) == {}
    assert "symbolic link" in caplog.text


def test_games_a_link_is_not_filed_into(tmp_path):
    from rig.core.filing import archive

    config = _config(tmp_path)
    current = _journal_in_progress(config)
    outside = tmp_path / "outside"
    outside.mkdir()
    config.state.games.symlink_to(outside)
    with pytest.raises(OSError, match="symbolic link"):
        archive(current, config.state.games, name="x.jsonl")
    assert list(outside.iterdir()) == [] and current.exists()


def test_the_voice_settings_follow_no_link(tmp_path):
    """voice.conf (the setup menu's voice choice) lives in the state directory too: its
    temporary file was written through a planted link, and a linked file was read."""
    from rig.voice.control import VoiceControl

    victim = tmp_path / "victim"
    victim.write_text("precious\n")
    conf = tmp_path / "voice.conf"
    for name in (".voice.conf.tmp", f".voice.conf.tmp-{os.getpid()}"):
        (tmp_path / name).symlink_to(victim)
    control = VoiceControl(True, 80, path=conf)
    control.toggle()
    assert victim.read_text() == "precious\n"
    assert not conf.is_symlink() and "enabled = false" in conf.read_text()

    secret = tmp_path / "secret"
    secret.write_text("enabled = false\nvolume = 20\n")
    conf.unlink()
    conf.symlink_to(secret)
    assert VoiceControl(True, 80, path=conf).volume == 80, "a linked file is not read"


def test_the_voice_cache_follows_no_link(tmp_path):
    """The voice's phrase cache is under the state directory: a planted temporary name
    or a cached clip that links elsewhere is neither written through nor read."""
    import threading

    from rig.voice.narrator import Clip, Synthesizer, VoiceSettings, cache_key, pcm_of_wav

    victim = tmp_path / "victim"
    victim.write_text("precious\n")
    cache = tmp_path / "voice"
    cache.mkdir()
    speech = Synthesizer(VoiceSettings(), cache)  # only its cache is used here
    key = cache_key("Ten-four.", "en", "none")
    (cache / f".{key}.{os.getpid()}.{threading.get_ident()}.tmp").symlink_to(victim)
    clip = Clip(8000, b"\0\1" * 400)
    speech._write(key, clip)
    assert victim.read_text() == "precious\n"
    assert pcm_of_wav((cache / f"{key}.wav").read_bytes()) == clip
    other = cache_key("Breaker one-nine.", "en", "none")
    (cache / f"{other}.wav").symlink_to(cache / f"{key}.wav")
    assert speech._read(other) is None, "a linked clip is not read"
