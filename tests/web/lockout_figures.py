"""Figures for the live board under a lock-out attempt (issue 35 item 2), on loopback.

    python -m tests.web.lockout_figures [--seconds 20]

Serves the read-only board with its default limits (RigServer: 32 places, 12 per host)
and plays two attacks from many 127.x.y.z source addresses, each for `--seconds`:

* dribble: 3 hosts each keep 13 connections open (one more than their share), sending
  one header byte every 3 s and reconnecting whenever one is closed;
* streams: 64 hosts each keep an /events stream open, reopening it whenever it ends.

Meanwhile a phone (its own address) asks for /board and then /events once a second; the
time to its 200 and to the first event is measured. Bounded: every loop ends at its
deadline. Prints one line per attack.
"""

from __future__ import annotations

import argparse
import contextlib
import selectors
import socket
import statistics
import threading
import time

from rig.web.httpserver import RigServer
from rig.web.hub import Hub
from tests.slowdown import hang

HEADER = b"GET /board HTTP/1.1\r\nHost: rig\r\nX-Slow: " + b"a" * 4000


class Attacker:
    """Holds `per_host` connections from each of `hosts`, reopening the closed ones."""

    def __init__(self, port: int, hosts: list[str], per_host: int, opening: bytes,
                 dribble_every: float | None) -> None:
        self.port, self.opening, self.dribble_every = port, opening, dribble_every
        self.selector = selectors.DefaultSelector()
        self.wanted = [(host, i) for host in hosts for i in range(per_host)]
        self.sent: dict[socket.socket, int] = {}
        self.due: dict[socket.socket, float] = {}
        self.opened = self.closed = 0

    def _open(self, host: str, slot: int) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind((host, 0))
        sock.setblocking(False)
        sock.connect_ex(("127.0.0.1", self.port))
        self.selector.register(sock, selectors.EVENT_READ, (host, slot))
        first = 1 if self.dribble_every is not None else len(self.opening)
        try:
            sock.send(self.opening[:first])
        except OSError:
            first = 0
        self.sent[sock] = first
        self.due[sock] = time.monotonic() + (self.dribble_every or 0)
        self.opened += 1

    def run(self, until: float) -> None:
        for host, slot in self.wanted:
            self._open(host, slot)
        while (now := time.monotonic()) < until:
            for key, _ in self.selector.select(timeout=min(0.5, until - now)):
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                try:
                    data = sock.recv(65536)
                except OSError:
                    data = b""
                if not data or data.startswith(b"HTTP/1.1 503"):
                    self.selector.unregister(sock)
                    sock.close()
                    self.sent.pop(sock, None)
                    self.due.pop(sock, None)
                    self.closed += 1
                    self._open(*key.data)
            if self.dribble_every is None:
                continue
            now = time.monotonic()
            for sock, due in list(self.due.items()):
                if due <= now:
                    with contextlib.suppress(OSError):
                        sock.send(self.opening[self.sent[sock]:self.sent[sock] + 1])
                        self.sent[sock] += 1
                    self.due[sock] = now + self.dribble_every
        for sock in list(self.sent):
            sock.close()
        self.selector.close()


def _dial(port: int, source: str) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=hang(),
                                    source_address=(source, 0))


def phone(port: int, source: str) -> tuple[float | None, float | None]:
    """Seconds to /board's 200 and to /events' first event (None: refused)."""
    started = time.monotonic()
    board = None
    with _dial(port, source) as sock:
        sock.sendall(b"GET /board HTTP/1.1\r\nHost: rig\r\nConnection: close\r\n\r\n")
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
        if reply.startswith(b"HTTP/1.1 200"):
            board = time.monotonic() - started
    started = time.monotonic()
    event = None
    with _dial(port, source) as sock:
        sock.sendall(b"GET /events HTTP/1.1\r\nHost: rig\r\n\r\n")
        data = b""
        while b"\n\n" not in data.partition(b"\r\n\r\n")[2] and (chunk := sock.recv(65536)):
            data += chunk
            if not data.startswith(b"HTTP/1.1 200"):
                break
        if data.startswith(b"HTTP/1.1 200"):
            event = time.monotonic() - started
    return board, event


def attack(name: str, seconds: float, hosts: list[str], per_host: int, opening: bytes,
           dribble_every: float | None) -> str:
    hub = Hub()
    hub.publish("frame", "the board as it is")
    server = RigServer(("127.0.0.1", 0), hub, post=None)
    serving = threading.Thread(target=server.serve_forever, daemon=True)
    serving.start()
    port = server.served[1]
    attacker = Attacker(port, hosts, per_host, opening, dribble_every)
    until = time.monotonic() + seconds
    held = threading.Thread(target=attacker.run, args=(until,), daemon=True)
    held.start()
    server.wait_for(lambda: server.open_connections >= server.max_connections, hang())
    boards: list[float | None] = []
    events: list[float | None] = []
    stop = threading.Event()
    tries = 0
    while time.monotonic() < until - 2:
        tries += 1
        board, event = phone(port, f"127.0.200.{tries % 250 + 1}")
        boards.append(board)
        events.append(event)
        # a phone asks once a second (pacing, not synchronisation)
        stop.wait(1.0)  # not a hang deadline: pacing
    held.join()
    server.stop()
    served = [b for b in boards if b is not None]
    streamed = [e for e in events if e is not None]
    return (f"{name}: {len(served)}/{len(boards)} phone pages served "
            f"(median {statistics.median(served) if served else float('nan'):.3f} s, "
            f"max {max(served) if served else float('nan'):.3f} s), "
            f"{len(streamed)}/{len(events)} event streams opened "
            f"(max {max(streamed) if streamed else float('nan'):.3f} s to the first event); "
            f"attacker connections opened {attacker.opened}, closed by the server "
            f"{attacker.closed}; server: {getattr(server, 'evicted', 0)} gave way, "
            f"{server.refused} answered 503")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    print(attack("dribble (3 hosts x 13, a byte every 3 s)", args.seconds,
                 [f"127.0.1.{i}" for i in (1, 2, 3)], 13, HEADER, 3.0), flush=True)
    print(attack("streams (64 hosts x 1 /events)", args.seconds,
                 [f"127.0.3.{i}" for i in range(1, 65)], 1,
                 b"GET /events HTTP/1.1\r\nHost: rig\r\n\r\n", None), flush=True)


if __name__ == "__main__":
    main()
