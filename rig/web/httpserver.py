"""The HTTP side: the page, its assets, server-sent events, and inputs as POSTs.

A ThreadingHTTPServer from the standard library: one thread per request, so each open
page's event stream waits in its own thread on its mailbox (no polling), and an input
POST only posts hardware events to the rig's loop, as a knob's callback would. With
`post=None` (the Pi's live board) the server is read-only: there is no input route.

Inputs must come as `application/json` from the page's own origin: a page elsewhere
cannot make a browser send that without a CORS preflight, which is never granted. On the
desk (the one with inputs) every request must also name the served address as its Host:
a site whose DNS name was re-pointed at this machine (DNS rebinding) sends its own name,
so it is answered 421 and never reaches the rig.

A flood of connections must not knock the game over (the live board may listen on the
table's whole network), and a handful of hosts must not lock the phones out of it:

* connections are capped in all and per host (an IPv4 address; an IPv6 host is its
  whole /64, which it can pick source addresses from: `client_key`);
* a whole request (its line, headers and body) must arrive within `request_seconds` of
  the server starting to wait for it, however it is dribbled (`_DeadlineReader`), and
  an answer that cannot be sent in `idle_seconds` is dropped;
* when every place is taken, a newcomer is served in place of a connection that has
  sent no whole request for `stalled_seconds`, else of the oldest event stream (of the
  host holding the most places first): the page's EventSource reconnects by itself, so
  held places are recycled and a new phone is never locked out; only when neither
  exists (every place busy answering, or requests just begun) is it answered 503;
* an event stream looks at its socket every `heartbeat_seconds` and writes a comment
  when there is nothing to say: a page that closed lets go of its place within that,
  and a host that vanished within the kernel's `USER_TIMEOUT_MS` of unacknowledged data;
* while fewer than `fd_reserve` file descriptors are free the server does not accept at
  all, so the journal, the serial port and the I2C bus can always be opened.

The accept loop waits in `select` (and, when held back, on a condition): it never polls,
so a flood costs CPU only per connection made.
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import logging
import re
import selectors
import socket
import sys
import threading
import time
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from rig.web.gate import Gate, Waiting
from rig.web.hub import Hub, Mailbox
from rig.web.invite import Invitation
from rig.web.requests import (
    InputError,
    RequestError,
    _ip,
    _peer_left,
    _sse,
    body_length,
    client_key,
    events_for,
    free_descriptors,
    host_allowed,
    page,
)

log = logging.getLogger(__name__)

ASSETS = {
    "/rig.js": ("rig.js", "text/javascript; charset=utf-8"),
    "/rig.css": ("rig.css", "text/css; charset=utf-8"),
}
PAGES = ("/desk", "/board")
"""The one page, rig.html: whole on the desk, without its devices as the read-only board."""
HEARTBEAT_SECONDS = 2.0
"""An event stream with nothing to send looks at its socket this often and writes a
comment: a page that left frees its place within this, not at the next frame."""
MAX_CONNECTIONS = 32
"""Open connections in all: a table's phones hold one event stream each, plus a few
short requests; a thread each."""
PER_CLIENT = 12
"""Open connections from one host (see `client_key`): a browser opens at most 6 to a
host, so two browsers on one machine fit, and one flooding host cannot take every place."""
REQUEST_SECONDS = 10.0
"""A whole request (line, headers, body) must arrive within this long, counted from when
the server starts waiting for it (a kept-alive connection waiting for its next request
too), not per read: a header dribbled a byte every few seconds is closed here."""
IDLE_SECONDS = 20.0
"""An answer or an event that cannot be sent for this long closes the connection."""
STALLED_SECONDS = 2.0
"""A connection that has sent no whole request for this long gives way to a newcomer
when every place is taken (a phone's request takes milliseconds)."""
USER_TIMEOUT_MS = 8000
"""TCP_USER_TIMEOUT of a connection: data unacknowledged this long (the phone left the
network without closing) ends it, so a vanished host's stream frees its place."""
FD_RESERVE = 64
"""File descriptors always left free for the game: journal, directory syncs, archive,
serial port, I2C bus, GPIO chip, lazily imported modules."""
RECHECK_SECONDS = 5.0
"""Held back for want of descriptors, look again after this long even if no connection
closed (something else may have released some)."""
BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
        b"Content-Length: 24\r\nRetry-After: 5\r\nConnection: close\r\n\r\n"
        b"too many open pages here")

Post = Callable[[object], None]
Sounds = Callable[[str], bytes | None]
"""The voice's WAV by its hash (rig.web.voice), or None."""
VOICE = re.compile(r"^/voice/([0-9a-f]{32})\.wav$")


class Place:
    """One accepted connection's place: whose it is, since when it waits for what."""

    __slots__ = ("box", "evicted", "key", "prefix", "since", "sock", "state")

    def __init__(self, sock: Any, key: str, since: float, prefix: bytes = b"") -> None:
        self.sock = sock
        self.prefix = prefix
        """What the gate read of the first request already (its line and headers)."""
        self.key = key
        self.since = since
        self.state = "request"
        """"request": waiting for a whole request; "answer": answering one; "stream":
        an open /events stream."""
        self.box: Mailbox | None = None
        self.evicted = False



class RigServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 64

    def __init__(self, address: tuple[str, int], hub: Hub, post: Post | None,
                 sounds: Sounds | None = None, *, max_connections: int = MAX_CONNECTIONS,
                 per_client: int = PER_CLIENT, idle_seconds: float = IDLE_SECONDS,
                 fd_reserve: int = FD_RESERVE, request_seconds: float = REQUEST_SECONDS,
                 stalled_seconds: float = STALLED_SECONDS,
                 heartbeat_seconds: float = HEARTBEAT_SECONDS,
                 invitation: Invitation | None = None) -> None:
        if _ip(address[0]) is not None and ":" in address[0]:
            self.address_family = socket.AF_INET6
        self._wake_r, self._wake_w = socket.socketpair()  # before: a failed bind closes
        super().__init__(address, Handler)
        self.hub = hub
        self.post = post
        self.sounds = sounds
        self.check_host = post is not None
        """Only the desk takes inputs; the read-only board answers to any name a
        phone was given for the Pi (a router's DNS name, say)."""
        self.max_connections = max_connections
        self.per_client = per_client
        self.idle_seconds = idle_seconds
        self.request_seconds = request_seconds
        self.stalled_seconds = stalled_seconds
        self.heartbeat_seconds = heartbeat_seconds
        self.clock: Callable[[], float] = time.monotonic
        """How long a connection has waited, to choose the one that gives way."""
        self.fd_reserve = fd_reserve
        self.recheck_seconds = RECHECK_SECONDS
        self.stopping = False
        self.loops = self.accepted = self.refused = self.paused = self.evicted = 0
        """Turns of the accept loop and what each did (tests count them: no spinning)."""
        self._changed = threading.Condition()
        self._clients: dict[str, int] = {}
        """Places held per host (`client_key`)."""
        self._places: dict[Any, Place] = {}
        """Each open connection's place, by its socket."""
        self._serving = False
        self._holding = False
        self._done = threading.Event()
        self.gate = Gate(self, invitation, self._changed)
        """With an invitation, where a connection's first request is read (rig.web.gate)."""

    def server_bind(self) -> None:
        """An IPv6 listener on "::" takes IPv4 phones too (one dual-stack socket)."""
        if self.address_family == socket.AF_INET6:
            with contextlib.suppress(OSError):
                self.socket.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        super().server_bind()

    @property
    def url(self) -> str:
        name, port = self.served
        return f"http://[{name}]:{port}/" if ":" in name else f"http://{name}:{port}/"

    @property
    def served(self) -> tuple[str, int]:
        """The address and port listened on."""
        host, port = self.server_address[:2]
        return (host.decode() if isinstance(host, bytes | bytearray) else str(host)), int(port)

    @property
    def open_connections(self) -> int:
        with self._changed:
            return sum(self._clients.values())

    def wait_for(self, predicate: Callable[[], bool], timeout: float) -> bool:
        """Wait until `predicate` holds (checked whenever a connection comes or goes)."""
        with self._changed:
            return self._changed.wait_for(predicate, timeout)

    @property
    def gated(self) -> int:
        """Connections read at the gate."""
        return self.gate.gated

    @property
    def turned_away(self) -> int:
        """Connections refused at the gate."""
        return self.gate.turned_away

    @property
    def joined(self) -> int:
        """Connections given the token at the gate."""
        return self.gate.joined

    def serve_forever(self, poll_interval: float = 0.5) -> None:
        """Accept until `stop`: wait in select on the listening socket and a wake-up
        socket (no poll interval), and while descriptors are short wait for a connection
        to close instead of accepting."""
        with self._changed:
            if self.stopping:
                self._done.set()
                return
            self._serving = True
        try:
            with selectors.DefaultSelector() as selector:
                self.gate.selector = selector
                selector.register(self.socket, selectors.EVENT_READ)
                selector.register(self._wake_r, selectors.EVENT_READ)
                while not self.stopping:
                    self.loops += 1
                    if not self._room_for_one():
                        continue
                    for key, _ in selector.select(self.gate.timeout()):
                        if self.stopping:
                            break
                        if key.fileobj is self.socket:
                            self._accept_one()
                        elif isinstance(key.data, Waiting):
                            self.gate.read(key.data)
                    self.gate.expire()
        finally:
            self.gate.drop_all()
            self.gate.selector = None
            self._done.set()

    def _room_for_one(self) -> bool:
        """Whether a descriptor can be spent on accepting; if not, hold back."""
        free = free_descriptors()
        if free is None or free > self.fd_reserve:
            if self._holding:
                self._holding = False
                log.info("web: accepting connections again")
            return True
        self._hold_back(f"{free} file descriptors left ({self.fd_reserve} kept for the game)")
        return False

    def _hold_back(self, why: str) -> None:
        """Wait (not spin) until a connection closes, `stop`, or `recheck_seconds`; said
        once per spell in the log (an SD card should not take a line every recheck)."""
        self.paused += 1
        if not self._holding:
            self._holding = True
            log.warning("web: %s: not accepting until a page closes", why)
        with self._changed:
            self._changed.notify_all()
            if not self.stopping:
                self._changed.wait(self.recheck_seconds)

    def _accept_one(self) -> None:
        try:
            request, client_address = self.get_request()
        except OSError as exc:
            if exc.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                self._hold_back(f"cannot accept: {exc.strerror}")
            return  # otherwise the client gave up first (ECONNABORTED): nothing to do
        try:
            if self.gate.invitation is not None:
                self.gate.add(request, client_address)
            else:
                self.process_request(request, client_address)
        except Exception:
            self.handle_error(request, client_address)
            self.shutdown_request(request)

    def process_request(self, request: Any, client_address: Any, prefix: bytes = b"") -> None:
        """A thread for the connection, or 503 and close when its host has its share
        or every place is taken and none can give way (see `_giving_way`). `prefix` is
        what the gate read of its first request."""
        client = client_key(str(client_address[0]))
        victim = None
        with self._changed:
            room = self._clients.get(client, 0) < self.per_client
            if room and sum(self._clients.values()) >= self.max_connections:
                victim = self._giving_way(client)
                room = victim is not None
                if victim is not None:
                    self._vacate(victim)
                    self.evicted += 1
            if room:
                self._clients[client] = self._clients.get(client, 0) + 1
                self._places[request] = Place(request, client, self.clock(), prefix)
                self.accepted += 1
            else:
                self.refused += 1
            self._changed.notify_all()
        if victim is not None:
            log.debug("web: %s gives its place (%s) to a newcomer", victim.key, victim.state)
            _end(victim)
        if room:
            with contextlib.suppress(OSError):  # a TCP socket (not a test's socket pair)
                request.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT,
                                   USER_TIMEOUT_MS)
        if not room:
            request.setblocking(False)  # an empty send buffer takes it; never wait here
            with contextlib.suppress(OSError):
                request.send(BUSY)
            self.shutdown_request(request)
            return
        thread = threading.Thread(target=self._connection, args=(request, client_address),
                                  name="web-page", daemon=True)
        try:
            thread.start()
        except BaseException:  # no thread to be had: the place is free again
            self._release(request)
            raise

    def _giving_way(self, client: str) -> Place | None:
        """The place a newcomer from host `client` takes when all are held (the lock
        held), first found of:

        1. a stream whose page has gone;
        2. a connection that has sent no whole request for `stalled_seconds`, of a host
           holding at least two more places than the newcomer's (so hosts that stall
           cannot take each other's places in turn: a host only gives way to one that
           stays below it, and a phone, holding none, always finds one);
        3. an event stream of another host holding as many places as the newcomer's or
           more (its page reconnects by itself; a phone whose page is still open may
           open its stream);
        4. a request still coming, as in 2 but not yet stalled (every place was just
           reopened: a phone must not wait for them to age).

        Of those, the one of the host holding the most places, its oldest. None when
        every place is answering a request, is the newcomer's host's own stream, or is
        a request of a host not holding two places more (the newcomer has its share)."""
        now = self.clock()
        places = [p for p in self._places.values() if not p.evicted]
        held = self._clients
        mine = held.get(client, 0)
        gone = [p for p in places if p.state == "stream" and _peer_left(p.sock)]
        coming = [p for p in places if p.state == "request" and held.get(p.key, 0) >= mine + 2]
        stalled = [p for p in coming if now - p.since >= self.stalled_seconds]
        streams = [p for p in places if p.state == "stream" and p.key != client
                   and held.get(p.key, 0) >= mine]
        for candidates in (gone, stalled, streams, coming):
            if candidates:
                return min(candidates, key=lambda p: (-self._clients.get(p.key, 0), p.since))
        return None

    def _vacate(self, place: Place) -> None:
        """Count `place` as free now (the lock held); its thread ends on its own."""
        place.evicted = True
        self._forget(place.key)

    def _forget(self, client: str) -> None:
        self._clients[client] -= 1
        if not self._clients[client]:
            del self._clients[client]

    def place_of(self, request: Any) -> Place | None:
        with self._changed:
            return self._places.get(request)

    def mark(self, place: Place | None, state: str, box: Mailbox | None = None) -> None:
        """`place` now waits for a request, answers one, or streams events."""
        if place is None:
            return
        with self._changed:
            place.state, place.since, place.box = state, self.clock(), box
        if place.evicted and box is not None:
            box.close()  # it gave way meanwhile: the stream must not start

    def _connection(self, request: Any, client_address: Any) -> None:
        try:
            self.process_request_thread(request, client_address)
        finally:
            self._release(request)

    def _release(self, request: Any) -> None:
        """A connection is over: its place is free (and the loop is told); one that gave
        way was counted free when it did."""
        with self._changed:
            place = self._places.pop(request, None)
            if place is not None and not place.evicted:
                self._forget(place.key)
            self._changed.notify_all()

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Into the rig's log, not socketserver's traceback on stderr. A page that went
        away mid-answer (reset, broken pipe, timed out) is normal: one debug line."""
        error = sys.exc_info()[1]
        if isinstance(error, ConnectionError | TimeoutError):
            log.debug("web: %s went away: %s", client_address, error)
            return
        log.warning("web: request from %s failed", client_address, exc_info=True)

    def shutdown(self) -> None:
        """Stop the accept loop and wait for it (without its poll interval)."""
        with self._changed:
            self.stopping = True
            serving = self._serving
            self._changed.notify_all()
        with contextlib.suppress(OSError):
            self._wake_w.send(b"x")
        if serving:
            self._done.wait()

    def server_close(self) -> None:
        super().server_close()
        self._wake_r.close()
        self._wake_w.close()

    def stop(self) -> None:
        self.stopping = True
        self.hub.close()
        self.shutdown()
        self.server_close()


def _end(place: Place) -> None:
    """End a connection that gave way: its stream's mailbox closed, its socket shut, so
    whatever its thread waits on returns now (the thread then closes the socket)."""
    if place.box is not None:
        place.box.close()
    with contextlib.suppress(OSError):
        place.sock.shutdown(socket.SHUT_RDWR)


class _DeadlineReader(io.RawIOBase):
    """The request side of a connection, under one deadline for the whole request: each
    read may wait only for what is left of it (a per-read timeout let a header dribbled
    a byte every few seconds hold its place for ever)."""

    def __init__(self, handler: Handler) -> None:
        super().__init__()
        self.handler = handler

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        handler = self.handler
        place = handler.place
        if place is not None and place.prefix:  # what the gate read already
            taken = place.prefix[:len(buffer)]
            buffer[:len(taken)] = taken
            place.prefix = place.prefix[len(taken):]
            return len(taken)
        left = handler.deadline - time.monotonic()
        if left <= 0:
            handler.timed_out = True
            raise TimeoutError(f"no whole request in {handler.server.request_seconds:g} s")
        sock = handler.connection
        sock.settimeout(left)
        try:
            got = int(sock.recv_into(buffer))
            handler.begun = handler.begun or got > 0
            return got
        except TimeoutError:
            handler.timed_out = True
            raise
        finally:
            with contextlib.suppress(OSError):
                sock.settimeout(handler.server.idle_seconds)  # for the answer's writes


class Handler(BaseHTTPRequestHandler):
    server: RigServer
    protocol_version = "HTTP/1.1"
    deadline = 0.0
    """When the request being read must be whole (time.monotonic)."""
    place: Place | None = None
    begun = False
    """Some of the request being read has arrived."""
    timed_out = False
    """The request being read missed its deadline."""

    def setup(self) -> None:
        super().setup()
        self.connection.settimeout(self.server.idle_seconds)  # each write
        self.rfile.close()  # the plain reader: reads go through the deadline instead
        self.rfile = io.BufferedReader(_DeadlineReader(self))
        self.place = self.server.place_of(self.connection)

    def handle_one_request(self) -> None:
        """One request, which must arrive whole within `request_seconds` from now."""
        self.deadline = time.monotonic() + self.server.request_seconds
        self.begun = self.timed_out = False
        self.server.mark(self.place, "request")
        try:
            super().handle_one_request()
        except TimeoutError:  # the body of a POST (the standard library catches the rest)
            self.timed_out = True
        if self.timed_out:
            self.close_connection = True
            if self.begun:  # not a kept-alive connection that only sat idle
                self._late()

    def _late(self) -> None:
        """408 to a request that missed its deadline: the page knows its input was not
        taken (and sends it again), instead of a connection closed without a word."""
        log.debug("web: %s: a request missed its deadline: 408", self.client_address)
        body = (f"408: no whole request in {self.server.request_seconds:g} s; "
                "nothing was taken, send it again").encode()
        with contextlib.suppress(OSError):
            self.connection.settimeout(min(1.0, self.server.idle_seconds))
            self.connection.sendall(
                b"HTTP/1.1 408 Request Timeout\r\nContent-Type: text/plain; charset=utf-8\r\n"
                b"Content-Length: " + str(len(body)).encode() +
                b"\r\nConnection: close\r\n\r\n" + body)

    def _misdirected(self) -> bool:
        """Answer 421 to a Host that is not the served address (see host_allowed)."""
        if not self.server.check_host or host_allowed(self.headers.get("Host"),
                                                      self.server.served):
            return False
        self._fail(HTTPStatus.MISDIRECTED_REQUEST, "this rig answers to its own address only")
        return True

    def do_GET(self) -> None:
        self.server.mark(self.place, "answer")
        if self._misdirected():
            return
        path = urlsplit(self.path).path
        if path == "/events":
            self._events()
            return
        if path == "/hello":  # a page asking whether it may reconnect (rig.js)
            self._send(HTTPStatus.NO_CONTENT, b"", "text/plain")
            return
        if path == "/":
            path = "/desk" if self.server.post is not None else "/board"
        if path == "/desk" and self.server.post is None:
            self._fail(HTTPStatus.NOT_FOUND, "this rig serves the read-only board only")
            return
        voice = VOICE.match(path)
        if voice is not None:
            data = self.server.sounds(voice.group(1)) if self.server.sounds else None
            if data is None:
                self._fail(HTTPStatus.NOT_FOUND, "no such sound (only the latest are kept)")
            else:
                self._send(HTTPStatus.OK, data, "audio/wav")
            return
        if path in PAGES:
            self._send(HTTPStatus.OK, page(read_only=path == "/board"),
                       "text/html; charset=utf-8")
            return
        asset = ASSETS.get(path)
        if asset is None:
            self._fail(HTTPStatus.NOT_FOUND, "no such page")
            return
        name, content_type = asset
        data = resources.files("rig.web").joinpath(name).read_bytes()
        self._send(HTTPStatus.OK, data, content_type)

    def do_POST(self) -> None:
        if self._misdirected():
            return
        if urlsplit(self.path).path != "/input" or self.server.post is None:
            self._fail(HTTPStatus.NOT_FOUND, "no input here: the board is read-only")
            return
        if self.headers.get_content_type() != "application/json":
            self._fail(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "inputs are application/json")
            return
        origin = self.headers.get("Origin")
        if origin is not None and urlsplit(origin).netloc != self.headers.get("Host"):
            self._fail(HTTPStatus.FORBIDDEN, "inputs come from the rig's own page")
            return
        try:
            length = body_length(self.headers)
        except RequestError as exc:
            self._fail(exc.status, str(exc))
            return
        try:
            body = self.rfile.read(length)
            self.server.mark(self.place, "answer")
            events = events_for(json.loads(body))
        except (InputError, ValueError) as exc:
            self._fail(HTTPStatus.BAD_REQUEST, str(exc))
            return
        for event in events:
            self.server.post(event)
        self._send(HTTPStatus.NO_CONTENT, b"", "text/plain")

    def _events(self) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        box = self.server.hub.subscribe()
        self.server.mark(self.place, "stream", box)
        try:
            while not box.closed and not self.server.stopping:
                items = box.take(self.server.heartbeat_seconds)
                if _peer_left(self.connection):
                    break  # the page went: its place is free now, not at the next write
                chunk = "".join(_sse(topic, data) for topic, data in items) or ": idle\n\n"
                self.wfile.write(chunk.encode())
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            pass  # the page was closed
        finally:
            self.server.hub.unsubscribe(box)

    def _send(self, status: HTTPStatus, data: bytes, content_type: str) -> None:
        self.send_response(status)
        if status != HTTPStatus.NO_CONTENT:
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if data:
            self.wfile.write(data)

    def _fail(self, status: HTTPStatus, why: str) -> None:
        """Answer and close: a refused request's body, unread, must not be taken for
        the next request on the connection."""
        self.close_connection = True
        self._send(status, why.encode(), "text/plain; charset=utf-8")

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s " + format, self.address_string(), *args)


