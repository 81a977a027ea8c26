"""A phone on the live board under issue 44's attacks, on loopback: served and connected.

    python -m bench.board_lockout [--seconds 60] [--attack 1|3|both] [--open]

Serves the read-only board (RigServer, its default limits) on 127.0.0.1 and runs, for
`--seconds` each, the probes issue 44 was filed with, from distinct loopback hosts
(127.0.0.2, 127.0.0.3, ...: each its own host to the server) that were never invited:

* attack 1, slow readers: 4 hosts x 9 connections, each pipelining ``GET /rig.js``
  requests and never reading an answer, every connection reopened every 8.5 s;
* attack 3, looping streams: 40 hosts (the issue saw it from 33) each opening an
  ``/events`` stream and reopening it whenever it ends.

Meanwhile a phone (127.0.0.200, invited: it carries the join token) keeps one
``/events`` stream open, reopening it 1 s after it ends or is refused (as rig.js does),
and asks for ``/board`` once a second. Printed per attack: the share of ``/board``
samples answered 200 ("served") and the share of time the phone's stream was open and
had its first event ("connected"), sampled every 100 ms.

``--open`` serves the board open to every host (``[web] open_to_lan = true``: the board
as it was before issue 44); against a tree without the invitation (main before it) the
script serves it open by itself. Bounded: every connection is closed and every loop ends
at its deadline; the sockets are at most 4 x 9 + 40 + 2 at once.
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import selectors
import socket
import threading
import time

from rig.web.httpserver import RigServer
from rig.web.hub import Hub

PHONE = "127.0.0.200"
PIPELINED = b"GET /rig.js HTTP/1.1\r\nHost: rig\r\n\r\n" * 600
"""Answers of ~10 MB: more than the kernel's buffers take, so the answer never ends."""


def _connect(port: int, source: str) -> socket.socket | None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    try:
        sock.bind((source, 0))
        sock.settimeout(2.0)
        sock.connect(("127.0.0.1", port))
    except OSError:
        sock.close()
        return None
    return sock


def slow_readers(port: int, until: float, stop: threading.Event) -> None:
    """Attack 1: 4 hosts x 9 connections pipelining GET /rig.js, never reading,
    each reopened every 8.5 s."""
    held: list[socket.socket] = []
    while time.monotonic() < until and not stop.is_set():
        for old in held:
            old.close()
        held = []
        for host in range(2, 6):
            for _ in range(9):
                sock = _connect(port, f"127.0.0.{host}")
                if sock is None:
                    continue
                sock.setblocking(False)
                with contextlib.suppress(OSError):
                    sock.send(PIPELINED)
                held.append(sock)
        stop.wait(min(8.5, max(0.0, until - time.monotonic())))
    for old in held:
        old.close()


def looping_streams(port: int, until: float, stop: threading.Event, hosts: int = 40) -> None:
    """Attack 3: `hosts` addresses each holding an /events stream, reopened when it ends."""
    selector = selectors.DefaultSelector()

    def open_one(host: str) -> None:
        sock = _connect(port, host)
        if sock is None:
            return
        try:
            sock.sendall(b"GET /events HTTP/1.1\r\nHost: rig\r\n\r\n")
        except OSError:
            sock.close()
            return
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ, host)

    for index in range(hosts):
        open_one(f"127.0.1.{index + 1}")
    while (now := time.monotonic()) < until and not stop.is_set():
        for key, _ in selector.select(timeout=min(0.2, until - now)):
            sock = key.fileobj
            assert isinstance(sock, socket.socket)
            try:
                data = sock.recv(65536)
            except OSError:
                data = b""
            if not data:
                selector.unregister(sock)
                sock.close()
                open_one(str(key.data))
    for key in list(selector.get_map().values()):
        assert isinstance(key.fileobj, socket.socket)
        key.fileobj.close()
    selector.close()


class Phone:
    """An invited phone: one stream kept open (reopened 1 s after it ends), /board once
    a second; the samples of both."""

    def __init__(self, port: int, cookie: str) -> None:
        self.port = port
        self.cookie = f"Cookie: {cookie}\r\n" if cookie else ""
        self.connected = False
        self.pages = self.served = 0
        self.samples = self.on = 0

    def _request(self, path: str) -> socket.socket | None:
        sock = _connect(self.port, PHONE)
        if sock is None:
            return None
        try:
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: rig\r\n{self.cookie}"
                         "Connection: close\r\n\r\n".encode())
        except OSError:
            sock.close()
            return None
        return sock

    def stream(self, until: float, stop: threading.Event) -> None:
        while time.monotonic() < until and not stop.is_set():
            sock = self._request("/events")
            if sock is not None:
                sock.settimeout(5.0)
                data = b""
                try:
                    while time.monotonic() < until and not stop.is_set():
                        chunk = sock.recv(65536)
                        if not chunk:
                            break
                        if not self.connected:
                            data += chunk  # connected: a 200 and its first event
                            self.connected = data.startswith(b"HTTP/1.1 200") \
                                and b"\nevent: " in data
                except OSError:
                    pass
                self.connected = False
                sock.close()
            stop.wait(1.0)

    def pages_once_a_second(self, until: float, stop: threading.Event) -> None:
        while time.monotonic() < until and not stop.is_set():
            self.pages += 1
            sock = self._request("/board")
            if sock is not None:
                with contextlib.suppress(OSError):
                    self.served += sock.recv(16).startswith(b"HTTP/1.1 200")
                sock.close()
            stop.wait(1.0)

    def sample(self, until: float, stop: threading.Event) -> None:
        while time.monotonic() < until and not stop.is_set():
            self.samples += 1
            self.on += self.connected
            stop.wait(0.1)


def run(attack: str, seconds: float, open_board: bool) -> dict[str, float]:
    hub = Hub()
    hub.publish("screen", "SETUP")
    invited = "invitation" in inspect.signature(RigServer.__init__).parameters
    cookie = ""
    if invited and not open_board:
        from rig.web.invite import Invitation

        invitation = Invitation()
        server = RigServer(("127.0.0.1", 0), hub, post=None, invitation=invitation)
        cookie = f"cbrig_join={invitation.token}"
    else:
        server = RigServer(("127.0.0.1", 0), hub, post=None)
    serving = threading.Thread(target=server.serve_forever, daemon=True)
    serving.start()
    port = server.server_address[1]
    stop = threading.Event()
    until = time.monotonic() + seconds
    phone = Phone(port, cookie)
    attacker = slow_readers if attack == "1" else looping_streams
    threads = [threading.Thread(target=attacker, args=(port, until, stop), daemon=True)]
    threads[0].start()
    time.sleep(1.0)  # the attack in place before the phone comes
    threads += [threading.Thread(target=target, args=(until, stop), daemon=True)
                for target in (phone.stream, phone.pages_once_a_second, phone.sample)]
    for thread in threads[1:]:
        thread.start()
    for thread in threads:
        thread.join(seconds + 15)
    stop.set()
    server.stop()
    serving.join(10)
    return {"pages": phone.pages, "served": phone.served / max(1, phone.pages),
            "connected": phone.on / max(1, phone.samples),
            "turned_away": float(getattr(server, "turned_away", 0)),
            "invited": float(bool(cookie)),
            "refused": float(server.refused)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--attack", choices=("1", "3", "both"), default="both")
    parser.add_argument("--open", action="store_true",
                        help="the board open to every host (open_to_lan, or before issue 44)")
    args = parser.parse_args()
    for attack in ("1", "3") if args.attack == "both" else (args.attack,):
        figures = run(attack, args.seconds, args.open)
        kind = "invited only" if figures["invited"] else "open board"
        print(f"attack {attack} ({kind}, "
              f"{args.seconds:g} s): /board served {figures['served']:.1%} of "
              f"{figures['pages']:.0f}, stream connected {figures['connected']:.1%} of the "
              f"time; strangers turned away at the gate {figures['turned_away']:.0f}, "
              f"503 {figures['refused']:.0f}", flush=True)


if __name__ == "__main__":
    main()
