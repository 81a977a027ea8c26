"""The HTTP side: the page, its assets, server-sent events, and inputs as POSTs.

A ThreadingHTTPServer from the standard library: one thread per request, so each open
page's event stream waits in its own thread on its mailbox (no polling), and an input
POST only posts hardware events to the rig's loop, as a knob's callback would. With
`post=None` (the Pi's live board) the server is read-only: there is no input route.

Inputs must come as `application/json` from the page's own origin: a page elsewhere
cannot make a browser send that without a CORS preflight, which is never granted.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from hardware.events import CardPresented, CardRemoved, KnobLongPress, KnobPress, KnobSpin, KnobTurn
from rig.web.hub import Hub

log = logging.getLogger(__name__)

ASSETS = {
    "/rig.js": ("rig.js", "text/javascript; charset=utf-8"),
    "/rig.css": ("rig.css", "text/css; charset=utf-8"),
}
PAGES = ("/desk", "/board")
"""The one page, rig.html: whole on the desk, without its devices as the read-only board."""
DESK = re.compile(r"\s*<!-- desk -->.*?<!-- /desk -->", re.S)
KNOBS = ("hi", "lo")
MAX_BODY = 512
KEEPALIVE_SECONDS = 15.0
READER = "emulated"

Post = Callable[[object], None]
Sounds = Callable[[str], bytes | None]
"""The voice's WAV by its hash (rig.web.voice), or None."""
VOICE = re.compile(r"^/voice/([0-9a-f]{32})\.wav$")


class InputError(ValueError):
    """A POSTed input that is not one the rig's hardware could make."""


def events_for(body: Any) -> list[object]:
    """The hardware events one input of the page stands for."""
    from rig.emulated import emulated_tag

    if not isinstance(body, dict):
        raise InputError("an input is a JSON object")
    kind = body.get("type")
    if kind == "tap":
        card = body.get("card")
        if not isinstance(card, str) or not 0 < len(card) <= 40:
            raise InputError("a tap names a card id")
        tag = emulated_tag(card)
        return [CardPresented(tag, READER), CardRemoved(tag, READER)]
    knob = body.get("knob")
    if knob not in KNOBS:
        raise InputError("knob is 'hi' or 'lo'")
    if kind == "turn":
        steps = body.get("steps")
        if not isinstance(steps, int) or isinstance(steps, bool) or not 0 < abs(steps) <= 24:
            raise InputError("a turn has steps, a whole number from -24 to 24, not 0")
        return [KnobTurn(knob, steps)]
    if kind == "spin":
        strength = body.get("strength", 0.6)
        if not isinstance(strength, int | float) or not 0 <= strength <= 1:
            raise InputError("a spin's strength is from 0 to 1")
        return [KnobSpin(knob, float(strength))]
    if kind == "press":
        return [KnobPress(knob)]
    if kind == "hold":
        return [KnobLongPress(knob)]
    raise InputError("type is one of turn, spin, press, hold, tap")


class RigServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], hub: Hub, post: Post | None,
                 sounds: Sounds | None = None) -> None:
        super().__init__(address, Handler)
        self.hub = hub
        self.post = post
        self.sounds = sounds
        self.stopping = False

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        name = host.decode() if isinstance(host, bytes) else str(host)
        return f"http://{name}:{port}/"

    def stop(self) -> None:
        self.stopping = True
        self.hub.close()
        self.shutdown()
        self.server_close()


class Handler(BaseHTTPRequestHandler):
    server: RigServer
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        path = urlsplit(self.path).path
        if path == "/events":
            self._events()
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
        length = int(self.headers.get("Content-Length") or 0)
        if not 0 < length <= MAX_BODY:
            self._fail(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "an input is a small JSON object")
            return
        try:
            events = events_for(json.loads(self.rfile.read(length)))
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
        try:
            while not box.closed and not self.server.stopping:
                items = box.take(KEEPALIVE_SECONDS)
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
        self.end_headers()
        if data:
            self.wfile.write(data)

    def _fail(self, status: HTTPStatus, why: str) -> None:
        self._send(status, why.encode(), "text/plain; charset=utf-8")

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s " + format, self.address_string(), *args)


def page(read_only: bool) -> bytes:
    """The rig's page; the read-only board keeps only the live board section."""
    text = resources.files("rig.web").joinpath("rig.html").read_text(encoding="utf-8")
    if read_only:
        text = DESK.sub("", text).replace('<body class="desk">', '<body class="readonly">')
    return text.encode()


def _sse(topic: str, data: str) -> str:
    lines = "".join(f"data: {line}\n" for line in data.split("\n"))
    return f"event: {topic}\n{lines}\n"
