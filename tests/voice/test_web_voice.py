"""The browser rig plays the voice: each transmission is one WAV served by its hash and
announced to the page, which has a mute switch."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from hardware.events import KnobPress, KnobTurn
from rig.config import GameConfig
from rig.desktop.browserdesk import WebDesk
from rig.desktop.desk import DeskRig, desk_config
from rig.voice.narrator import pcm_of_wav
from tests.slowdown import HANG, hang, scaled
from tests.system_tools import require_commands, scratch_home


@pytest.fixture
def desk(tmp_path: Path) -> Iterator[WebDesk]:
    require_commands({"espeak-ng": "espeak-ng", "sox": "sox"})
    config = desk_config(GameConfig(name="bumpem", players=2), tmp_path / "state")
    rig = DeskRig(config=config, seed=3, signals=False)
    web = WebDesk(rig, "127.0.0.1", 0)
    web.start()
    try:
        yield web
    finally:
        web.stop()


def voice_events(web: WebDesk, box: object, count: int) -> list[dict[str, object]]:
    found: list[dict[str, object]] = []
    while len(found) < count:
        items = box.take(20)  # type: ignore[attr-defined]
        assert items, "no voice event"
        for topic, data in items:
            if topic == "voice":
                seen = {int(str(e["seq"])) for e in found}
                found += [e for e in json.loads(data)["events"] if e["seq"] not in seen]
    return found


def test_the_page_gets_each_utterance_as_a_wav(desk: WebDesk) -> None:
    box = desk.hub.subscribe()
    rig = desk.rig
    menu = rig.app.screen().menu
    rig.loop.step(KnobTurn("hi", menu.index("START") - rig.app.screen().cursor))
    rig.loop.step(KnobPress("hi"))
    [first] = voice_events(desk, box, 1)
    assert first["text"] == "Red: take a ticket."
    url = str(first["url"])
    assert url.startswith("/voice/") and url.endswith(".wav")
    with urllib.request.urlopen(desk.url.rstrip("/") + url) as reply:
        assert reply.headers["Content-Type"] == "audio/wav"
        clip = pcm_of_wav(reply.read())
    assert clip.rate == 16000 and 1.0 < clip.seconds < 8.0
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(desk.url + "voice/" + "0" * 32 + ".wav")
    assert missing.value.code == 404


def test_the_page_has_a_mute_switch(desk: WebDesk) -> None:
    with urllib.request.urlopen(desk.url) as reply:
        page = reply.read().decode()
    assert 'id="mute"' in page
    with urllib.request.urlopen(desk.url + "rig.js") as reply:
        script = reply.read().decode()
    assert 'addEventListener("voice"' in script and "muted()" in script


@pytest.mark.browser
def test_the_page_plays_the_voice_and_the_mute_switch_silences_it(tmp_path: Path) -> None:
    """In Chromium: the utterance's WAV plays in the page; muted, the next is not."""
    import threading

    from selenium.webdriver.support.ui import WebDriverWait

    from rig.core.loop import Stop
    from tests.web.conftest import CHROMIUM_FLAGS

    tools = require_commands({"chromium": "chromium", "chromedriver": "chromium-driver",
                              "espeak-ng": "espeak-ng", "sox": "sox"})
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    config = desk_config(GameConfig(name="bumpem", players=2), tmp_path / "state")
    rig = DeskRig(config=config, seed=3, signals=False)
    web = WebDesk(rig, "127.0.0.1", 0)
    web.start()
    assert rig.loop is not None
    loop = threading.Thread(target=rig.serve, name="rig-loop")
    loop.start()
    options = webdriver.ChromeOptions()
    options.binary_location = tools["chromium"]
    for flag in (*CHROMIUM_FLAGS, "--autoplay-policy=no-user-gesture-required"):
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path / 'profile'}")
    driver = webdriver.Chrome(service=Service(tools["chromedriver"], env=scratch_home(
        tmp_path / "home")), options=options)
    try:
        driver.get(web.url)
        WebDriverWait(driver, hang()).until(
            lambda d: d.execute_script("return document.body.dataset.connected") == "yes")
        assert rig.app is not None and rig.loop is not None
        menu = rig.app.screen().menu
        rig.loop.post(KnobTurn("hi", menu.index("START") - rig.app.screen().cursor))
        rig.loop.post(KnobPress("hi"))
        said = "Red: take a ticket."
        WebDriverWait(driver, hang()).until(
            lambda d: d.execute_script("return cbrig.heard") == said)
        driver.find_element("id", "mute").click()
        rig.loop.post(KnobPress("hi"))  # a ticket: something new is said...
        WebDriverWait(driver, hang()).until(
            lambda d: d.execute_script("return cbrig.voices.length") >= 2)
        assert driver.execute_script("return cbrig.heard") == said  # ...and not played
        assert driver.execute_script("return localStorage.getItem('cbrig-mute')") == "yes"
    finally:
        driver.quit()
        assert rig.loop is not None
        rig.loop.post(Stop())
        loop.join(timeout=scaled(HANG))
        web.stop()


@pytest.mark.browser
def test_the_page_plays_must_hear_clips_whole_and_drops_stale_prompts(tmp_path: Path) -> None:
    """In Chromium: a move result is not cut by the prompt and the card that follow it
    at once; the prompt, stale before its turn came, is never played."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.support.ui import WebDriverWait

    from hardware.speaker import Clip, Speaker, Transmission
    from tests.web.conftest import CHROMIUM_FLAGS

    tools = require_commands({"chromium": "chromium", "chromedriver": "chromium-driver",
                              "espeak-ng": "espeak-ng", "sox": "sox"})
    config = desk_config(GameConfig(name="bumpem", players=2), tmp_path / "state")
    web = WebDesk(DeskRig(config=config, seed=3, signals=False), "127.0.0.1", 0)
    web.start()
    options = webdriver.ChromeOptions()
    options.binary_location = tools["chromium"]
    for flag in (*CHROMIUM_FLAGS, "--autoplay-policy=no-user-gesture-required"):
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path / 'profile'}")
    driver = webdriver.Chrome(service=Service(tools["chromedriver"], env=scratch_home(
        tmp_path / "home")), options=options)
    speaker = Speaker(web.sound)

    def clip(seconds: float, level: int) -> Clip:
        return Clip(16000, level.to_bytes(2, "little", signed=True) * int(16000 * seconds))

    def say(text: str, seconds: float, level: int, must_hear: bool) -> None:
        speaker.say(Transmission(text, [lambda: clip(seconds, level)], must_hear=must_hear))
        assert speaker.idle.wait(hang())

    try:
        driver.get(web.url)
        WebDriverWait(driver, hang()).until(
            lambda d: d.execute_script("return document.body.dataset.connected") == "yes")
        say("move result", 1.5, 3000, True)
        WebDriverWait(driver, hang()).until(
            lambda d: d.execute_script("return cbrig.heard") == "move result")
        say("next prompt", 1.0, 2000, False)  # shown, then acted on at once:
        say("card read aloud", 1.0, 1000, True)
        WebDriverWait(driver, hang()).until(
            lambda d: len(d.execute_script("return cbrig.wholes || []")) >= 2)
        assert driver.execute_script("return cbrig.wholes") == ["move result",
                                                                 "card read aloud"]
        assert driver.execute_script("return cbrig.voices") == [
            "move result", "next prompt", "card read aloud"]
    finally:
        speaker.close()
        driver.quit()
        web.stop()
