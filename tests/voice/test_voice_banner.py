"""Where the voice cannot play, the rig says so (issue 35 item 4): the desk's greeting and
the browser rig's page, instead of claiming that it plays. The synthesizer is made
missing by a PATH without it."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from hardware.speaker import MockBackend
from rig.config import GameConfig
from rig.desktop.browserdesk import WebDesk
from rig.desktop.desk import DeskRig, desk_config, start_desk
from tests.slowdown import hang
from tests.system_tools import require_commands, scratch_home

MISSING = "espeak-ng is not installed (apt-get install espeak-ng)"


@pytest.fixture
def no_synthesizer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))


@pytest.fixture
def desk(tmp_path: Path, no_synthesizer: None) -> Iterator[tuple[WebDesk, str]]:
    config = desk_config(GameConfig(name="bumpem", players=2), tmp_path / "state")
    rig = DeskRig(config=config, seed=3, signals=False)
    web = WebDesk(rig, "127.0.0.1", 0)
    greeting = web.start()
    try:
        yield web, greeting
    finally:
        web.stop()


def test_the_browser_rig_says_the_voice_cannot_play(desk: tuple[WebDesk, str]) -> None:
    web, greeting = desk
    assert "plays in the page" not in greeting
    assert greeting.endswith(f"Voice: cannot play: {MISSING}.")
    state = web.hub.latest("voicestate")
    assert state is not None and json.loads(state) == {"ok": False, "why": MISSING}


def test_the_desk_says_the_voice_cannot_play(tmp_path: Path, no_synthesizer: None) -> None:
    """The terminal emulator with a sound output but no synthesizer."""
    config = desk_config(GameConfig(players=2), tmp_path)
    rig = DeskRig(config=config, signals=False)
    rig.daemon.sound_backend = MockBackend()
    greeting = start_desk(rig, new=False)
    try:
        assert greeting.endswith(f"Voice: cannot play: {MISSING}."), greeting
    finally:
        rig.stop()


def test_the_page_banner_follows_the_voice(tmp_path: Path) -> None:
    """A voice that comes back (a clip played to its end) clears the banner."""
    from rig.web.hub import Hub
    from rig.web.voice import WebSound

    sound = WebSound(Hub())
    sound.sound_status(False, "sox failed: no band")
    assert sound.note == "Voice: cannot play: sox failed: no band."
    assert json.loads(sound.hub.latest("voicestate") or "") == {"ok": False,
                                                                "why": "sox failed: no band"}
    sound.sound_status(True, "")
    assert sound.note.startswith("Voice: plays in the page")
    assert json.loads(sound.hub.latest("voicestate") or "") == {"ok": True, "why": ""}


@pytest.fixture
def chromium() -> dict[str, str]:
    """Found (or installed) before the PATH loses everything."""
    return require_commands({"chromium": "chromium", "chromedriver": "chromium-driver"})


@pytest.mark.browser
def test_the_page_shows_that_the_voice_cannot_play(chromium: dict[str, str],
                                                   desk: tuple[WebDesk, str],
                                                   tmp_path: Path) -> None:
    """In Chromium: the banner beside the mute switch says why there is no voice."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.support.ui import WebDriverWait

    from rig.core.loop import Stop
    from tests.web.conftest import CHROMIUM_FLAGS

    tools = chromium
    web, _greeting = desk
    rig = web.rig
    assert rig.loop is not None
    loop = threading.Thread(target=rig.serve, name="rig-loop")
    loop.start()
    options = webdriver.ChromeOptions()
    options.binary_location = tools["chromium"]
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path / 'profile'}")
    driver = webdriver.Chrome(service=Service(tools["chromedriver"], env=scratch_home(
        tmp_path / "home")), options=options)
    try:
        driver.get(web.url)
        WebDriverWait(driver, hang()).until(
            lambda d: d.execute_script("return document.body.dataset.connected") == "yes")
        banner = driver.find_element("id", "voice-state")
        WebDriverWait(driver, hang()).until(lambda d: banner.is_displayed())
        assert banner.text == f"The voice cannot play: {MISSING}."
        driver.save_screenshot(str(tmp_path / "banner.png"))
    finally:
        driver.quit()
        rig.loop.post(Stop())
        loop.join(hang())


def test_the_oled_says_no_sound_from_the_first_screen_of_a_game(
        tmp_path: Path, no_synthesizer: None, caplog: pytest.LogCaptureFixture) -> None:
    """The synthesizer's absence is told at start, at the setup menu: the game started
    later still shows "no sound" (the speaker does not say it again), and the log has
    the one line."""
    import logging

    from hardware.events import KnobPress, KnobTurn
    from rig.config import load_config
    from rig.core.daemon import Daemon
    from rig.core.service import QuietNotifier
    from tests.daemon.helpers import write_config

    config = load_config(write_config(tmp_path, game="bumpem", players=2))
    daemon = Daemon(config=config, notifier=QuietNotifier(), sound_backend=MockBackend())
    with caplog.at_level(logging.INFO):
        daemon.start()
    try:
        assert daemon.app is not None and daemon.loop is not None
        while not daemon.loop.events.empty():  # the fault, told at the menu
            daemon.loop.step(daemon.loop.events.get_nowait())
        items = daemon.app.screen().menu
        row = next(i for i, item in enumerate(items) if item.startswith("START"))
        daemon.loop.step(KnobTurn("hi", row - daemon.app.screen().cursor))
        daemon.loop.step(KnobPress("hi"))
        assert daemon.app.controller is not None
        assert "no sound" in daemon.app.screen().plain()
    finally:
        daemon.stop()
    assert [r.getMessage() for r in caplog.records if "no sound" in r.getMessage()] == [
        f"voice: no sound ({MISSING}); the game goes on silently"]
