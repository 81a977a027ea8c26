"""The web server under a flood, and requests no page of the rig would send.

Everything here runs on loopback (127.0.0.x) with a bounded number of sockets. No sleeps:
a test waits on what the server does (a reply, the connection closed, its own counters).
"""

from __future__ import annotations

import json
import logging
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from hardware.events import KnobPress
from rig.web.httpserver import RigServer, host_allowed
from rig.web.hub import Hub
from tests.daemon.helpers import write_config
from tests.slowdown import hang

WAIT = hang()
"""A socket's safety timeout: a test that waits this long has failed."""


@pytest.fixture
def small_server() -> Iterator[tuple[RigServer, list[object]]]:
    yield from _serving(max_connections=4, per_client=2)


@pytest.fixture
def roomy_server() -> Iterator[tuple[RigServer, list[object]]]:
    """For tests of what a request may do, not of how many: one client's quick requests
    one after another never wait on the place its last closed connection still holds."""
    yield from _serving(max_connections=32, per_client=16)


def _serving(max_connections: int, per_client: int
             ) -> Iterator[tuple[RigServer, list[object]]]:
    posted: list[object] = []
    server = RigServer(("127.0.0.1", 0), Hub(), posted.append,
                       max_connections=max_connections, per_client=per_client,
                       idle_seconds=2.0, request_seconds=2.0)
    thread = threading.Thread(target=server.serve_forever)
    thread.start()
    yield server, posted
    server.stop()
    thread.join()


def _connect(server: RigServer, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(WAIT)
    sock.bind((source, 0))
    sock.connect(server.server_address[:2])
    return sock


def _until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends before it closes the connection."""
    data = b""
    while chunk := sock.recv(4096):
        data += chunk
    sock.close()
    return data


def _get(server: RigServer, path: str, source: str = "127.0.0.1",
         host: str | None = None) -> bytes:
    sock = _connect(server, source)
    host = host or "{}:{}".format(*server.server_address[:2])
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
    return _until_closed(sock)


def test_idle_connections_past_the_caps_are_refused_and_the_rest_time_out(small_server):
    server, _ = small_server
    flood = [_connect(server) for _ in range(6)]  # one client, 3 x its share
    replies = [_until_closed(sock) for sock in flood]
    busy = [r for r in replies if r.startswith(b"HTTP/1.1 503")]
    assert len(busy) == 4 and all(b"Retry-After" in r for r in busy)
    assert replies.count(b"") == 2  # the two it took sent nothing and were timed out
    assert server.wait_for(lambda: server.open_connections == 0, WAIT)
    # other clients (phones) still get the board while one client holds its share
    held = [_connect(server, "127.0.0.1") for _ in range(2)]
    assert _get(server, "/board", "127.0.0.2").startswith(b"HTTP/1.1 200")
    for sock in held[1:]:
        sock.close()
    assert server.wait_for(lambda: server.open_connections == 1, WAIT)
    # the whole cap held, one place a host: none has more than its share to give way
    held += [_connect(server, f"127.0.0.{i}") for i in (3, 5, 6)]
    assert server.wait_for(lambda: server.open_connections == 4, WAIT)
    assert _get(server, "/board", "127.0.0.4").startswith(b"HTTP/1.1 503")
    for sock in held:
        sock.close()
    assert server.wait_for(lambda: server.open_connections == 0, WAIT)
    assert _get(server, "/board", "127.0.0.4").startswith(b"HTTP/1.1 200")


FLOOD_CHILD = r"""
import json, os, resource, sys
from valueclass import replace
from hardware.events import KnobPress, KnobTurn
from rig.config import WebConfig, load_config
from rig.core.daemon import Daemon
from rig.core.service import QuietNotifier

config = load_config(sys.argv[1])
config = replace(config, web=WebConfig(enabled=True, address="127.0.0.1", port=0))
daemon = Daemon(config=config, notifier=QuietNotifier())
daemon.start()
server = daemon.web.server
server.recheck_seconds = 3600.0  # only a closed connection lets it accept again
used = len(os.listdir("/proc/self/fd"))
hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
resource.setrlimit(resource.RLIMIT_NOFILE, (used + server.fd_reserve + 8, hard))
print(server.server_address[1], flush=True)
sys.stdin.readline()  # the flood is on
assert server.wait_for(lambda: server.paused > 0, 60), "the server never held back"
daemon.loop.step(KnobTurn("hi", -1))
daemon.loop.step(KnobPress("hi"))  # START, with the flood still holding its sockets
controller = daemon.app.controller
journal = config.state.directory / "current.jsonl"
print(json.dumps({"started": controller is not None and journal.exists(),
                  "loops": server.loops, "accepted": server.accepted + server.gated,
                  "refused": server.refused, "paused": server.paused}), flush=True)
sys.stdin.readline()
daemon.stop()
"""


def test_a_flood_leaves_the_game_its_descriptors_and_the_cpu_idle(tmp_path: Path):
    """Descriptors short (the soft limit just above the server's reserve): the server
    stops accepting, without spinning, and START still opens its journal. (The board
    is invited-only: the flood's connections wait at its gate, each counted accepted.)"""
    config = write_config(tmp_path, game="bumpem", players=2)
    child = subprocess.Popen([sys.executable, "-c", FLOOD_CHILD, str(config)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    flood: list[socket.socket] = []
    try:
        assert child.stdout is not None and child.stdin is not None
        port = int(child.stdout.readline())
        for _ in range(40):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setblocking(False)
            sock.connect_ex(("127.0.0.1", port))  # no waiting on a full backlog
            flood.append(sock)
        child.stdin.write("flooded\n")
        child.stdin.flush()
        line = child.stdout.readline()
        assert line, "the daemon died under the flood"
        seen = json.loads(line)
        child.stdin.write("done\n")
        child.stdin.flush()
        assert child.wait(WAIT) == 0
    finally:
        for sock in flood:
            sock.close()
        if child.poll() is None:
            child.kill()
            child.wait()
    assert seen["started"], seen
    assert 0 < seen["accepted"] < 40 and seen["paused"] == 1
    # every turn of the accept loop took a connection or held back once: no spinning
    assert seen["loops"] <= seen["accepted"] + seen["refused"] + seen["paused"] + 1, seen


PRESS = json.dumps({"type": "press", "knob": "hi"}).encode()


def _post(server: RigServer, headers: dict[str, str], body: bytes = PRESS) -> bytes:
    sock = _connect(server)
    lines = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
    sock.sendall(f"POST /input HTTP/1.1\r\n{lines}\r\n".encode() + body)
    return _until_closed(sock)


def _own(server: RigServer, **extra: str) -> dict[str, str]:
    host = "{}:{}".format(*server.server_address[:2])
    return {"Host": host, "Origin": f"http://{host}", "Content-Type": "application/json",
            "Content-Length": str(len(PRESS)), "Connection": "close", **extra}


def test_a_rebound_name_gets_nothing(roomy_server):
    """DNS rebinding: a page of evil.example whose name now points at 127.0.0.1 sends
    the rig's own port with its own name as Host and Origin."""
    server, posted = roomy_server
    port = server.server_address[1]
    evil = f"evil.example:{port}"
    assert _post(server, _own(server, Host=evil, Origin=f"http://{evil}")).startswith(
        b"HTTP/1.1 421")
    assert _get(server, "/desk", host=evil).startswith(b"HTTP/1.1 421")
    assert _get(server, "/events", host=evil).startswith(b"HTTP/1.1 421")
    assert _post(server, _own(server, Origin=f"http://{evil}")).startswith(b"HTTP/1.1 403")
    assert _post(server, _own(server, Host=f"127.0.0.1:{port + 1}")).startswith(
        b"HTTP/1.1 421")
    assert posted == []
    assert _post(server, _own(server, Host=f"localhost:{port}",
                              Origin=f"http://localhost:{port}")).startswith(b"HTTP/1.1 204")
    assert _post(server, _own(server)).startswith(b"HTTP/1.1 204")
    assert posted == [KnobPress("hi"), KnobPress("hi")]


@pytest.mark.parametrize(("length", "status"), [
    ("abc", 400), ("1e3", 400), ("-5", 400), (" 12x", 400), ("²", 400),
    ("9" * 40, 413), ("100000", 413),
])
def test_a_bad_content_length_is_a_bad_request_not_a_traceback(small_server, capfd, length,
                                                                 status):
    server, posted = small_server
    reply = _post(server, _own(server, **{"Content-Length": length}))
    assert reply.startswith(f"HTTP/1.1 {status}".encode()), reply
    assert posted == []
    assert "Traceback" not in capfd.readouterr().err


def test_two_lengths_or_a_chunked_body_are_refused(small_server):
    server, posted = small_server
    headers = "".join(f"{k}: {v}\r\n" for k, v in _own(server).items())
    sock = _connect(server)
    sock.sendall(f"POST /input HTTP/1.1\r\n{headers}Content-Length: 3\r\n\r\n".encode() + PRESS)
    assert _until_closed(sock).startswith(b"HTTP/1.1 400")
    chunked = {k: v for k, v in _own(server).items() if k != "Content-Length"}
    reply = _post(server, {**chunked, "Transfer-Encoding": "chunked"},
                  f"{len(PRESS):x}\r\n".encode() + PRESS + b"\r\n0\r\n\r\n")
    assert reply.startswith(b"HTTP/1.1 400") or reply.startswith(b"HTTP/1.1 411")
    assert posted == []


@pytest.mark.parametrize(("host", "served", "allowed"), [
    ("127.0.0.1:8411", ("127.0.0.1", 8411), True),
    ("localhost:8411", ("127.0.0.1", 8411), True),
    ("LOCALHOST.:8411", ("127.0.0.1", 8411), True),
    ("127.0.0.1:8412", ("127.0.0.1", 8411), False),
    ("127.0.0.1", ("127.0.0.1", 8411), False),
    ("evil.example:8411", ("127.0.0.1", 8411), False),
    ("evil.example:8411", ("0.0.0.0", 8411), False),
    ("192.168.1.20:8411", ("0.0.0.0", 8411), True),
    ("[fe80::1]:8411", ("0.0.0.0", 8411), True),
    ("192.168.1.20:8411", ("192.168.1.21", 8411), False),
    ("localhost:8411", ("192.168.1.21", 8411), False),
    ("user@127.0.0.1:8411", ("127.0.0.1", 8411), False),
    ("127.0.0.1:84x1", ("127.0.0.1", 8411), False),
    ("", ("127.0.0.1", 8411), False),
    (None, ("127.0.0.1", 8411), False),
    ("127.0.0.1", ("127.0.0.1", 80), True),
])
def test_the_host_must_name_the_served_address(host, served, allowed):
    assert host_allowed(host, served) is allowed


def test_a_wildcard_desk_answers_to_the_machines_own_name():
    name = socket.gethostname()
    assert host_allowed(f"{name}.local:8411", ("0.0.0.0", 8411))
    assert not host_allowed(f"{name}.local:8411", ("127.0.0.1", 8411))


def test_holding_back_is_logged_once_a_spell(caplog):
    """A flood that lasts re-checks every few seconds: the log (on an SD card) gets one
    line when the server holds back and one when it accepts again, not one a check."""
    server = RigServer(("127.0.0.1", 0), Hub(), post=None)
    server.recheck_seconds = 0.0
    try:
        with caplog.at_level(logging.INFO, logger="rig.web.httpserver"):
            server.fd_reserve = 1 << 30  # every descriptor counts as short
            assert not server._room_for_one() and not server._room_for_one()
            server.fd_reserve = -1
            assert server._room_for_one() and server._room_for_one()
    finally:
        server.server_close()
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 2 and "not accepting" in said[0] and "again" in said[1]
    assert server.paused == 2


def test_a_page_that_went_away_is_a_debug_line_not_a_traceback(caplog):
    server = RigServer(("127.0.0.1", 0), Hub(), post=None)
    try:
        with caplog.at_level(logging.DEBUG, logger="rig.web.httpserver"):
            try:
                raise ConnectionResetError(104, "Connection reset by peer")
            except ConnectionResetError:
                server.handle_error(None, ("127.0.0.1", 4711))
            try:
                raise KeyError("a bug")
            except KeyError:
                server.handle_error(None, ("127.0.0.1", 4712))
    finally:
        server.server_close()
    gone, bug = caplog.records
    assert gone.levelno == logging.DEBUG and gone.exc_info is None
    assert bug.levelno == logging.WARNING and bug.exc_info is not None


def test_a_port_in_use_is_an_oserror_and_emulate_says_so(capsys):
    from rig.desktop.browserdesk import serve_desk

    taken = RigServer(("127.0.0.1", 0), Hub(), post=None)
    try:
        port = taken.served[1]
        with pytest.raises(OSError):
            RigServer(("127.0.0.1", port), Hub(), post=None)
        assert serve_desk(SimpleNamespace(), "127.0.0.1", port) == 2
    finally:
        taken.server_close()
    assert f"cannot serve on 127.0.0.1:{port}" in capsys.readouterr().err


def test_no_thread_for_a_connection_frees_its_place(small_server, monkeypatch):
    server, _ = small_server

    def no_thread(self: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    with monkeypatch.context() as patch:
        patch.setattr(threading.Thread, "start", no_thread)
        left, right = socket.socketpair()
        with pytest.raises(RuntimeError):
            server.process_request(left, ("127.0.0.9", 1))
        left.close()
        right.close()
    assert server.open_connections == 0


def test_a_request_that_misses_its_deadline_gets_a_408(roomy_server):
    """Issue 44: the desk's request deadline closed a slow POST with no answer, and the
    input was lost without a word. Now a request begun and not whole in time gets 408
    (nothing was taken: the page sends it again); a kept-alive connection that only sat
    idle is closed without one."""
    server, posted = roomy_server
    sock = _connect(server)
    headers = "".join(f"{k}: {v}\r\n" for k, v in _own(server).items())
    sock.sendall(f"POST /input HTTP/1.1\r\n{headers}\r\n".encode() + PRESS[:5])  # then stalls
    answer = _until_closed(sock)
    assert answer.startswith(b"HTTP/1.1 408"), answer
    assert b"send it again" in answer and posted == []
    sock = _connect(server)
    sock.sendall(b"GET /desk HTT")  # a request line dribbled, never ended
    assert _until_closed(sock).startswith(b"HTTP/1.1 408")
    idle = _connect(server)
    assert _until_closed(idle) == b""  # nothing begun: closed without a word
