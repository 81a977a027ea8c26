"""The web server's gate (`rig.web.httpserver.RigServer` asks it first).

With an invitation, a connection's first request is read here, in the accept loop,
without blocking: only one carrying the join token goes on to take a place and a
thread; anything else is answered at once (a small page with the join form) and
closed. A stranger therefore never holds a place, whatever it sends or reads.
"""

from __future__ import annotations

import contextlib
import logging
import selectors
import threading
import time
from http import HTTPStatus
from typing import Any, Protocol
from urllib.parse import parse_qs, urlsplit

from rig.web.invite import COOKIE, Invitation
from rig.web.requests import client_key, join_page

log = logging.getLogger(__name__)

GATE_MAX = 256
"""Connections waiting at the gate (their request not yet whole, no place, no thread)."""
GATE_PER_HOST = 16
"""Of those, from one host: past it the host's oldest is closed."""
GATE_BYTES = 4096
"""A request line and headers longer than this is refused at the gate (431)."""


class Waiting:
    """A connection at the gate: its request being read in the accept loop, without a
    place or a thread, until its headers say whether it is invited."""

    __slots__ = ("address", "data", "deadline", "key", "since", "sock")

    def __init__(self, sock: Any, address: Any, key: str, now: float, deadline: float) -> None:
        self.sock = sock
        self.address = address
        self.key = key
        self.since = now
        self.deadline = deadline
        self.data = b""


class Admitting(Protocol):
    """What the gate asks of its server: to give an invited connection its place, and
    to close one."""

    request_seconds: float

    def process_request(self, request: Any, client_address: Any,
                        prefix: bytes = b"") -> None: ...

    def shutdown_request(self, request: Any) -> None: ...


class Gate:
    """The connections waiting at the gate, read in the accept loop (`RigServer`)."""

    def __init__(self, server: Admitting, invitation: Invitation | None,
                 changed: threading.Condition) -> None:
        self.server = server
        self.invitation = invitation
        """None: every host may take a place (the desk; `[web] open_to_lan`). Else only
        requests carrying the join token get one; the rest are answered at the gate."""
        self.changed = changed
        """The server's condition, told when a connection comes or goes (`wait_for`)."""
        self.waiting: dict[Any, Waiting] = {}
        """Connections whose request is being read in the accept loop (invitation on)."""
        self.selector: selectors.BaseSelector | None = None
        self.gated = self.turned_away = self.joined = 0
        """Connections read at the gate, refused there, and given the token."""

    def drop_all(self) -> None:
        """Close every connection still waiting (the accept loop ends)."""
        for waiting in list(self.waiting.values()):
            self.drop(waiting)

    def timeout(self) -> float | None:
        if not self.waiting:
            return None
        return max(0.0, min(w.deadline for w in self.waiting.values()) - time.monotonic())

    def _victim(self) -> Waiting:
        """The oldest waiting connection of the host with the most waiting."""
        counts: dict[str, int] = {}
        for waiting in self.waiting.values():
            counts[waiting.key] = counts.get(waiting.key, 0) + 1
        return min(self.waiting.values(), key=lambda w: (-counts[w.key], w.since))

    def add(self, request: Any, client_address: Any) -> None:
        key = client_key(str(client_address[0]))
        mine = [w for w in self.waiting.values() if w.key == key]
        if len(mine) >= GATE_PER_HOST:
            self.drop(min(mine, key=lambda w: w.since))
        elif len(self.waiting) >= GATE_MAX:
            self.drop(self._victim())
        now = time.monotonic()
        request.setblocking(False)
        waiting = Waiting(request, client_address, key, now, now + self.server.request_seconds)
        self.waiting[request] = waiting
        assert self.selector is not None
        self.selector.register(request, selectors.EVENT_READ, waiting)
        with self.changed:
            self.gated += 1
            self.changed.notify_all()  # for wait_for (tests, the bench)

    def _unregister(self, waiting: Waiting) -> None:
        self.waiting.pop(waiting.sock, None)
        if self.selector is not None:
            with contextlib.suppress(KeyError, ValueError, OSError):
                self.selector.unregister(waiting.sock)

    def drop(self, waiting: Waiting) -> None:
        self._unregister(waiting)
        self.server.shutdown_request(waiting.sock)

    def expire(self) -> None:
        now = time.monotonic()
        for waiting in [w for w in self.waiting.values() if w.deadline <= now]:
            self._answer(waiting, HTTPStatus.REQUEST_TIMEOUT,
                              f"no whole request in {self.server.request_seconds:g} s".encode(),
                              "text/plain; charset=utf-8")

    def read(self, waiting: Waiting) -> None:
        try:
            chunk = waiting.sock.recv(GATE_BYTES - len(waiting.data))
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            chunk = b""
        if not chunk:
            self.drop(waiting)
            return
        waiting.data += chunk
        data = waiting.data
        end = data.find(b"\r\n\r\n")
        if end < 0:
            end = data.find(b"\n\n")
        if end < 0:
            if len(data) >= GATE_BYTES:
                self._answer(waiting, HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
                                  b"a request's line and headers are short",
                                  "text/plain; charset=utf-8")
            return
        self._decide(waiting, data[:end].decode("latin-1"))

    def _decide(self, waiting: Waiting, head: str) -> None:
        invitation = self.invitation
        assert invitation is not None
        lines = head.split("\n")
        parts = lines[0].split()
        target = parts[1] if len(parts) >= 2 else ""
        cookies = "; ".join(value.strip() for name, _, value in
                            (line.partition(":") for line in lines[1:])
                            if name.strip().lower() == "cookie")
        try:
            split = urlsplit(target)
        except ValueError:
            split = urlsplit("/")
        if split.path == "/join":
            self._join(waiting, split.query)
            return
        if not invitation.admits(cookies):
            self._answer(waiting, HTTPStatus.FORBIDDEN, join_page(
                "This rig's board is for the phones at its table."),
                "text/html; charset=utf-8")
            return
        self._unregister(waiting)
        self.server.process_request(waiting.sock, waiting.address, prefix=waiting.data)

    def _join(self, waiting: Waiting, query: str) -> None:
        invitation = self.invitation
        assert invitation is not None
        code = (parse_qs(query[:200]).get("code") or [""])[0]
        html = "text/html; charset=utf-8"
        if not code.strip():
            self._answer(waiting, HTTPStatus.OK, join_page(""), html)
        elif not invitation.may_try(waiting.key):
            self._answer(waiting, HTTPStatus.TOO_MANY_REQUESTS,
                              join_page("Too many wrong codes: wait a minute."), html)
        elif invitation.check_code(waiting.key, code):
            self.joined += 1
            cookie = (f"{COOKIE}={invitation.token}; Path=/; Max-Age=31536000; "
                      "SameSite=Strict; HttpOnly")
            self._answer(waiting, HTTPStatus.SEE_OTHER, b"joined",
                              "text/plain; charset=utf-8",
                              (("Location", "/board"), ("Set-Cookie", cookie)))
            log.info("web: %s joined the board", waiting.key)
        else:
            self._answer(waiting, HTTPStatus.FORBIDDEN, join_page(
                "That is not the code the rig shows now."), html)

    def _answer(self, waiting: Waiting, status: HTTPStatus, body: bytes,
                     content_type: str, headers: tuple[tuple[str, str], ...] = ()) -> None:
        """Answer in one non-blocking send (an empty send buffer takes it) and close."""
        self._unregister(waiting)
        if status != HTTPStatus.SEE_OTHER:
            self.turned_away += 1
        extra = "".join(f"{name}: {value}\r\n" for name, value in headers)
        head = (f"HTTP/1.1 {status.value} {status.phrase}\r\nContent-Type: {content_type}\r\n"
                f"Content-Length: {len(body)}\r\nCache-Control: no-store\r\n{extra}"
                "Connection: close\r\n\r\n").encode()
        with contextlib.suppress(OSError):
            waiting.sock.send(head + body)
        self.server.shutdown_request(waiting.sock)
        with self.changed:
            self.changed.notify_all()  # for wait_for (tests, the bench)

