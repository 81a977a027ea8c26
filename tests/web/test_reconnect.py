"""Issue 44 in Chromium: a phone joins the board with the rig's code, and a page whose
stream is refused (503), dropped, or whose server restarts is never frozen: it says
"reconnecting...", tries again by itself with a growing pause, and once back shows the
current screen at once.

The server is the board's own (`RigServer`, invited-only) on a fixed loopback port, so
it can be stopped and started again on that port; what it shows is published on its hub
by the test, as the daemon's publisher would.
"""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from rig.web.httpserver import RigServer
from rig.web.hub import Hub
from rig.web.invite import Invitation
from tests.slowdown import scaled
from tests.web.test_browser import _wait

IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"
PHONE = {"width": 390, "height": 844}


class Board:
    """A board server that can be refused, dropped and restarted on one port."""

    def __init__(self, invitation: Invitation) -> None:
        self.invitation = invitation
        self.hub = Hub()
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.server: RigServer | None = None
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        self.server = RigServer(("127.0.0.1", self.port), self.hub, post=None,
                                invitation=self.invitation)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        assert self.server is not None and self.thread is not None
        self.server.stop()
        self.thread.join(scaled(10))
        self.server = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"


@pytest.fixture
def board(tmp_path: Path) -> Iterator[Board]:
    served = Board(Invitation())
    served.hub.publish("screen", "SETUP\nfirst")
    served.start()
    try:
        yield served
    finally:
        if served.server is not None:
            served.stop()


def _text(driver: object, selector: str) -> str:
    return str(driver.execute_script(  # type: ignore[attr-defined]
        f"const el = document.querySelector('{selector}');"
        "return el && !el.hidden ? el.textContent : '';"))


def _shows(driver: object, text: str) -> bool:
    return text in _text(driver, "#screen")


def _connected(driver: object) -> bool:
    return bool(driver.execute_script(  # type: ignore[attr-defined]
        "return document.body.dataset.connected") == "yes")


@pytest.mark.browser
def test_a_phone_joins_with_the_code_and_is_never_frozen(browser: object, board: Board):
    driver = browser
    driver.set_window_size(PHONE["width"], PHONE["height"])  # type: ignore[attr-defined]
    # a stranger's page: the join form, no board
    driver.get(board.url + "board")  # type: ignore[attr-defined]
    assert "Join the rig's board" in driver.page_source  # type: ignore[attr-defined]
    assert "id=\"board\"" not in driver.page_source  # type: ignore[attr-defined]
    field = driver.find_element("name", "code")  # type: ignore[attr-defined]
    field.send_keys(board.invitation.code[:3] + " " + board.invitation.code[3:])
    if os.environ.get("UPDATE_GOLDEN"):
        driver.save_screenshot(str(IMAGES / "web-join-phone.png"))  # type: ignore[attr-defined]
    field.submit()
    _wait(driver, lambda d: _shows(d, "first"), "the board after the code")
    _wait(driver, _connected, "the stream")
    if os.environ.get("UPDATE_GOLDEN"):
        driver.save_screenshot(str(IMAGES / "web-joined-phone.png"))  # type: ignore[attr-defined]
    server = board.server
    assert server is not None and server.joined == 1

    # refused: every connection 503 (as when a host's places are all held); the stream
    # is ended, the page says so and keeps trying; the screen changes meanwhile
    server.per_client = 0
    board.hub.close()
    _wait(driver, lambda d: "reconnecting..." in _text(d, "#link-state"),
          "the page to say it is reconnecting")
    if os.environ.get("UPDATE_GOLDEN"):
        driver.save_screenshot(str(IMAGES / "web-reconnecting-phone.png"))  # type: ignore[attr-defined]
    board.hub.publish("screen", "SETUP\nsecond")
    refused_before = server.refused
    _wait(driver, lambda d: server.refused >= refused_before + 2,
          "the page to try again after a 503, twice", timeout=scaled(30))
    assert not _connected(driver)
    server.per_client = 12
    _wait(driver, lambda d: _shows(d, "second") and _connected(d),
          "the current screen at once after the refusal", timeout=scaled(40))
    assert _text(driver, "#link-state") == ""

    # dropped: the stream's connection ends (the network, a proxy)
    board.hub.publish("screen", "SETUP\nthird")
    _wait(driver, lambda d: _shows(d, "third"), "the live stream")
    reconnects = driver.execute_script("return cbrig.reconnects")  # type: ignore[attr-defined]
    board.hub.close()
    _wait(driver, lambda d: d.execute_script("return cbrig.reconnects") > reconnects
          and _connected(d), "a reconnect after a drop", timeout=scaled(40))

    # restarted: nothing listens for a while, then a new server on the same port
    board.stop()
    _wait(driver, lambda d: "reconnecting..." in _text(d, "#link-state"),
          "the page to say it is reconnecting while the rig is down")
    board.hub = Hub()
    board.hub.publish("screen", "SETUP\nfourth, after a restart")
    board.start()
    _wait(driver, lambda d: _shows(d, "fourth, after a restart") and _connected(d),
          "the restarted rig's screen", timeout=scaled(40))
    assert _text(driver, "#link-state") == ""


def test_a_stranger_is_answered_at_the_gate_and_a_wrong_code_is_counted(board: Board):
    """Without the token: the join form (403), no place taken, no thread; a wrong code
    403 and counted; five wrong codes from one host and it must wait."""
    import urllib.error
    import urllib.request

    server = board.server
    assert server is not None
    for path in ("board", "events", "rig.js", "join?code=000000x"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(board.url + path, timeout=scaled(10))
        assert refused.value.code == 403
        assert b"Join the rig's board" in refused.value.read()
    assert server.accepted == 0 and server.open_connections == 0
    for _ in range(4):
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(board.url + "join?code=1", timeout=scaled(10))
    with pytest.raises(urllib.error.HTTPError) as waiting:
        urllib.request.urlopen(board.url + "join?code=" + board.invitation.code,
                               timeout=scaled(10))
    assert waiting.value.code == 429
    assert server.accepted == 0 and server.joined == 0
