"""The web parts without a browser: inputs checked, pushes coalesced, origins kept."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request

import pytest

from hardware.events import CardPresented, CardRemoved, KnobLongPress, KnobPress, KnobSpin, KnobTurn
from rig.web.httpserver import InputError, RigServer, events_for
from rig.web.hub import Hub


def test_inputs_are_the_hardware_events_a_rig_makes():
    assert events_for({"type": "turn", "knob": "lo", "steps": -2}) == [KnobTurn("lo", -2)]
    assert events_for({"type": "spin", "knob": "hi", "strength": 0.9}) == [KnobSpin("hi", 0.9)]
    assert events_for({"type": "press", "knob": "hi"}) == [KnobPress("hi")]
    assert events_for({"type": "hold", "knob": "lo"}) == [KnobLongPress("lo")]
    tap = events_for({"type": "tap", "card": "M07"})
    assert [type(e) for e in tap] == [CardPresented, CardRemoved]
    assert tap[0].tag == "EMU-M07"


@pytest.mark.parametrize("body", [
    [], {"type": "turn", "knob": "mid", "steps": 1}, {"type": "turn", "knob": "hi", "steps": 0},
    {"type": "turn", "knob": "hi", "steps": True}, {"type": "turn", "knob": "hi", "steps": 99},
    {"type": "spin", "knob": "hi", "strength": 3}, {"type": "tap", "card": ""},
    {"type": "tap", "card": "x" * 41}, {"type": "dance", "knob": "hi"},
])
def test_inputs_no_rig_could_make_are_refused(body):
    with pytest.raises(InputError):
        events_for(body)


def test_an_alert_reaches_the_page_as_the_buzzers_pattern():
    from rig.desktop.browserdesk import WebAlerts

    hub = Hub()
    box = hub.subscribe()
    WebAlerts(hub).play("catch")
    [(topic, text)] = box.take(0)
    assert topic == "buzz"
    assert json.loads(text) == {"name": "catch", "n": 1, "on_time": 0.08, "off_time": 0.08,
                                "count": 3, "led": True, "buzzer": True}
    hub.close()


def test_a_page_gets_the_newest_of_each_topic_and_no_backlog():
    hub = Hub()
    hub.publish("frame", "old")
    box = hub.subscribe()
    for n in range(100):
        hub.publish("frame", f"f{n}")
    hub.publish("pieces", "p")
    hub.publish("buzz", "beep", keep=False)
    assert box.take(0) == [("frame", "f99"), ("pieces", "p"), ("buzz", "beep")]
    late = hub.subscribe()
    assert dict(late.take(0)) == {"frame": "f99", "pieces": "p"}  # no stale buzz
    hub.close()
    assert box.take(5) == [] and box.closed


@pytest.fixture
def server():
    posted: list[object] = []
    rig_server = RigServer(("127.0.0.1", 0), Hub(), posted.append)
    thread = threading.Thread(target=rig_server.serve_forever)
    thread.start()
    yield rig_server, posted
    rig_server.stop()
    thread.join()


def _post(url: str, body: bytes, **headers: str) -> int:
    request = urllib.request.Request(url + "input", data=body, method="POST", headers=headers)
    try:
        return urllib.request.urlopen(request).status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_inputs_come_as_json_from_the_rigs_own_page(server):
    rig_server, posted = server
    press = json.dumps({"type": "press", "knob": "hi"}).encode()
    assert _post(rig_server.url, press, **{"Content-Type": "text/plain"}) == 415
    assert _post(rig_server.url, press, **{"Content-Type": "application/json",
                                            "Origin": "http://evil.example"}) == 403
    assert _post(rig_server.url, b"{", **{"Content-Type": "application/json"}) == 400
    assert posted == []
    assert _post(rig_server.url, press, **{"Content-Type": "application/json"}) == 204
    assert posted == [KnobPress("hi")]


def test_the_stream_pushes_what_the_rig_publishes(server):
    rig_server, _ = server
    rig_server.hub.publish("screen", "NEW GAME\n> START")
    stream = urllib.request.urlopen(rig_server.url + "events")
    assert stream.headers["Content-Type"] == "text/event-stream"
    text = b""
    while b"\n\n" not in text:
        text += stream.read1(4096)
    assert text.decode() == "event: screen\ndata: NEW GAME\ndata: > START\n\n"
    stream.close()
