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
from rig.desk import DeskRig, desk_config
from rig.voice import pcm_of_wav
from rig.web.serve import WebDesk
from tests.system_tools import require_commands


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
        found += [json.loads(data) for topic, data in items if topic == "voice"]
    return found


def test_the_page_gets_each_utterance_as_a_wav(desk: WebDesk) -> None:
    box = desk.hub.subscribe()
    rig = desk.rig
    menu = rig.app.screen().menu
    rig.loop.step(KnobTurn("hi", menu.index("START") - rig.app.screen().cursor))
    rig.loop.step(KnobPress("hi"))
    [first] = voice_events(desk, box, 1)
    assert first["text"] == "Red: take a ticket. Press for a ticket."
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
