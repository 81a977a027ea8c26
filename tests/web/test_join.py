"""Issue 44: the invited-only board as the table meets it. The setup menu's "Phones:
join" shows the address and the code on the OLED; a page that gives the code gets the
token and the board; a new game renews the code (who joined stays in); the owner's "New
code" renews everything (every page joins again); `open_to_lan` is the old open board;
a stranger never takes a place, even while invited pages are served."""

from __future__ import annotations

import os
import socket
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from hardware.events import KnobPress, KnobTurn
from rig.config import WebConfig, load_config
from rig.core.app import JOIN
from rig.core.daemon import Daemon
from rig.core.join import JoinScreen, spaced
from rig.core.service import QuietNotifier
from rig.screens.render import render
from rig.web.httpserver import RigServer
from rig.web.hub import Hub
from rig.web.invite import Invitation
from tests.daemon.helpers import write_config
from tests.slowdown import hang
from valueclass import replace

IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"
WAIT = hang()


@pytest.fixture
def board_daemon(tmp_path: Path) -> Iterator[Daemon]:
    config = load_config(write_config(tmp_path, game="bumpem", players=2))
    config = replace(config, web=WebConfig(enabled=True, address="127.0.0.1", port=0))
    daemon = Daemon(config=config, notifier=QuietNotifier())
    daemon.start()
    yield daemon
    daemon.stop()


def _open_join(daemon: Daemon) -> None:
    assert daemon.loop is not None and daemon.app is not None
    menu = daemon.app.menu
    assert menu is not None
    items = menu.items()
    daemon.loop.step(KnobTurn("hi", items.index(JOIN) - menu.cursor))
    daemon.loop.step(KnobPress("hi"))


def _get(url: str, cookie: str = "") -> tuple[int, bytes, dict[str, str]]:
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: object, **kwargs: object) -> None:
            return None

    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(request, timeout=WAIT) as answer:
            return answer.status, answer.read(), dict(answer.headers)
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read(), dict(refused.headers)


def test_the_join_screen_shows_address_and_code_and_the_code_admits(board_daemon: Daemon):
    daemon = board_daemon
    assert daemon.web is not None and daemon.invitation is not None and daemon.app
    _open_join(daemon)
    screen = daemon.app.screen()
    port = daemon.web.server.served[1]
    code = daemon.invitation.code
    assert screen.big == spaced(code)
    assert f"127.0.0.1:{port}" in screen.text()
    if os.environ.get("UPDATE_GOLDEN"):  # as on the Pi: listening on 0.0.0.0:8411
        image = render(JoinScreen(daemon.invitation, lambda: [
            "cbrig.local:8411", "192.168.1.23:8411"]).screen())
        image.convert("L").resize(
            (image.width * 4, image.height * 4)).save(IMAGES / "oled-join.png")
    url = daemon.web.server.url
    status, body, _ = _get(url + "board")
    assert status == 403 and b"Join the rig's board" in body
    status, _, headers = _get(url + "join?code=" + spaced(code).replace(" ", "+"))
    assert status == 303 and headers["Location"] == "/board"
    cookie = headers["Set-Cookie"].split(";")[0]
    assert cookie == f"cbrig_join={daemon.invitation.token}"
    status, body, _ = _get(url + "board", cookie)
    assert status == 200 and b'id="board"' in body

    # the owner's "New code": a new code and token, the old cookie no longer admits
    daemon.loop.step(KnobTurn("hi", 1))  # Back -> New code
    daemon.loop.step(KnobPress("hi"))
    assert daemon.app.screen().big == spaced(daemon.invitation.code)
    assert cookie != f"cbrig_join={daemon.invitation.token}"
    assert _get(url + "board", cookie)[0] == 403
    new_cookie = f"cbrig_join={daemon.invitation.token}"
    assert _get(url + "board", new_cookie)[0] == 200

    # back to the menu; START: a new game renews the code, the joined page stays in
    daemon.loop.step(KnobTurn("hi", -1))
    daemon.loop.step(KnobPress("hi"))
    assert daemon.app.menu is not None
    before = (daemon.invitation.code, daemon.invitation.changes)
    daemon.loop.step(KnobTurn("hi", -1 - daemon.app.menu.cursor))  # START, the last row
    daemon.loop.step(KnobPress("hi"))
    assert daemon.app.controller is not None
    assert daemon.invitation.changes == before[1] + 1
    assert _get(url + "board", new_cookie)[0] == 200
    # the code and token outlive a restart (<state>/join.conf, read bounded)
    again = Invitation(daemon.invitation.path,
                       reader=lambda p: p.read_text(encoding="utf-8"))
    assert (again.code, again.token) == (daemon.invitation.code, daemon.invitation.token)


def test_open_to_lan_is_the_open_board(tmp_path: Path):
    config = load_config(write_config(tmp_path, game="bumpem", players=2))
    config = replace(config, web=WebConfig(enabled=True, address="127.0.0.1", port=0,
                                           open_to_lan=True))
    daemon = Daemon(config=config, notifier=QuietNotifier())
    daemon.start()
    try:
        assert daemon.invitation is None and daemon.web is not None
        assert JOIN not in daemon.app.menu.items()  # type: ignore[union-attr]
        assert _get(daemon.web.server.url + "board")[0] == 200
    finally:
        daemon.stop()


def _slow_reader(port: int, source: str, token: str = "") -> socket.socket:
    """A connection pipelining requests for rig.js and never reading an answer."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    cookie = f"Cookie: cbrig_join={token}\r\n" if token else ""
    sock.sendall(f"GET /rig.js HTTP/1.1\r\nHost: x\r\n{cookie}\r\n".encode() * 40)
    return sock


def test_uninvited_slow_readers_take_no_place_and_an_invited_page_is_served():
    """Attack 1 of issue 44, by strangers: 4 hosts x 9 connections pipelining requests
    and never reading. They are answered at the gate and closed: no place is ever
    taken, and the invited page is served. An invited slow reader holds at most its own
    host's places (PER_CLIENT), never the others'."""
    invitation = Invitation()
    server = RigServer(("127.0.0.1", 0), Hub(), post=None, invitation=invitation)
    import threading

    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    port = server.served[1]
    held: list[socket.socket] = []
    try:
        for host in range(2, 6):
            held += [_slow_reader(port, f"127.0.0.{host}") for _ in range(9)]
        assert server.wait_for(lambda: server.turned_away >= 36, WAIT)
        assert server.accepted == 0 and server.open_connections == 0
        cookie = f"cbrig_join={invitation.token}"
        status, body, _ = _get(f"http://127.0.0.1:{port}/board", cookie)
        assert status == 200 and b'id="board"' in body
        # an invited slow reader: its own host's places, no more
        held += [_slow_reader(port, "127.0.0.9", invitation.token) for _ in range(20)]
        assert server.wait_for(lambda: server.refused >= 20 - server.per_client, WAIT)
        assert server.open_connections == server.per_client
        status, _, _ = _get(f"http://127.0.0.1:{port}/board", cookie)
        assert status == 200
    finally:
        for sock in held:
            sock.close()
        server.stop()
        thread.join(WAIT)


def test_the_voice_says_the_code_digit_by_digit():
    from rig.core.join import TITLE
    from rig.voice.speech import JOIN_TITLE, utterance, vocabulary_for

    class Code:
        code = "482913"

        def renew_all(self) -> None: ...

    assert TITLE == JOIN_TITLE
    screen = JoinScreen(Code(), lambda: ["cbrig.local:8411"]).screen()
    said = utterance(screen, vocabulary_for("bumpem"))
    assert said is not None
    assert said.text == "The board's join code: four eight two, nine one three."


def test_strangers_holding_connections_at_the_gate_hold_no_place():
    """10 uninvited hosts x 16 connections that send half a request line and wait: they
    sit at the gate (no place, no thread), and an invited page is served meanwhile;
    past the gate's share a host's oldest is closed, never another host's."""
    import threading

    from rig.web.gate import GATE_PER_HOST

    invitation = Invitation()
    server = RigServer(("127.0.0.1", 0), Hub(), post=None, invitation=invitation)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    port = server.served[1]
    held: list[socket.socket] = []
    try:
        for host in range(2, 12):
            for _ in range(GATE_PER_HOST):
                sock = socket.socket()
                sock.bind((f"127.0.0.{host}", 0))
                sock.connect(("127.0.0.1", port))
                sock.sendall(b"GET /eve")
                held.append(sock)
        assert server.wait_for(lambda: server.gated >= 10 * GATE_PER_HOST, WAIT)
        threads_before = threading.active_count()
        status, body, _ = _get(f"http://127.0.0.1:{port}/board",
                               f"cbrig_join={invitation.token}")
        assert status == 200 and b'id="board"' in body
        assert server.accepted == 1 and server.open_connections <= 1
        assert threading.active_count() <= threads_before + 1
        # one host more than its share: its own oldest goes, the others stay
        extra = socket.socket()
        extra.bind(("127.0.0.2", 0))
        extra.connect(("127.0.0.1", port))
        held.append(extra)
        held[0].settimeout(WAIT)
        assert held[0].recv(100) == b""  # the oldest of 127.0.0.2, closed
        held[GATE_PER_HOST].setblocking(False)  # 127.0.0.3's first: still waiting
        with pytest.raises(BlockingIOError):
            held[GATE_PER_HOST].recv(100)
    finally:
        for sock in held:
            sock.close()
        server.stop()
        thread.join(WAIT)
