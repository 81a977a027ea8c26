"""What a request to the rig's web server may be, and the pages it answers with: the hosts
allowed, a body's length, the inputs a POST names, the key a client is counted by, the
descriptors left, a peer that left; the join page and the pages' HTML
(rig.web.httpserver serves them)."""

from __future__ import annotations

import ipaddress
import os
import re
import resource
import select
import socket
from http import HTTPStatus
from importlib import resources
from typing import Any
from urllib.parse import urlsplit
from xml.sax.saxutils import escape

from hardware.events import CardPresented, CardRemoved, KnobLongPress, KnobPress, KnobSpin, KnobTurn
from hardware.rfid.mock import emulated_tag

JOIN_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>Join the board</title>
<style>body{font:18px system-ui,sans-serif;margin:2em auto;max-width:22em;padding:0 1em;
background:#15171a;color:#eee}input,button{font:inherit;font-size:28px;padding:.3em;
width:100%;box-sizing:border-box;margin:.3em 0}input{letter-spacing:.2em;text-align:center}
.why{color:#ffb454}</style></head><body><h1>Join the rig's board</h1>
<p class="why">{why}</p>
<p>Type the code the rig shows (setup menu: <b>Phones: join</b>).</p>
<form action="/join" method="get"><input name="code" inputmode="numeric"
autocomplete="off" placeholder="000 000" autofocus><button>Join</button></form>
</body></html>"""

DESK = re.compile(r"\s*<!-- desk -->.*?<!-- /desk -->", re.S)


KNOBS = ("hi", "lo")


MAX_BODY = 512


READER = "emulated"


CONTENT_LENGTH = re.compile(r"[0-9]+")



class InputError(ValueError):
    """A POSTed input that is not one the rig's hardware could make."""


class RequestError(ValueError):
    """A request no page of the rig sends: the status to answer and why."""

    def __init__(self, status: HTTPStatus, why: str) -> None:
        super().__init__(why)
        self.status = status


def free_descriptors() -> int | None:
    """File descriptors this process may still open (None: no limit, or no /proc)."""

    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft == resource.RLIM_INFINITY:
        return None
    try:
        used = len(os.listdir("/proc/self/fd")) - 1  # less the listing's own
    except OSError:
        return None
    return int(soft) - used


def _ip(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(name)
    except ValueError:
        return None


def host_allowed(host: str | None, served: tuple[str, int]) -> bool:
    """Whether a request's Host names the address this server listens on: its own IP
    (any IP of the machine when it listens on all), "localhost" for a loopback or
    wildcard listener, and the machine's own names for a wildcard one; with the port.
    A rebound DNS name (evil.example pointed at us) is none of these."""
    if not host:
        return False
    try:
        parts = urlsplit("//" + host)
        name, port = parts.hostname, parts.port
    except ValueError:
        return False
    if not name or parts.username is not None or parts.path or (port or 80) != served[1]:
        return False
    listen = _ip(served[0])
    wildcard = listen is not None and listen.is_unspecified
    asked = _ip(name)
    if asked is not None:
        return wildcard or asked == listen
    name = name.rstrip(".").lower()
    if name == "localhost":
        return wildcard or (listen is not None and listen.is_loopback)
    if not wildcard:
        return False
    machine = socket.gethostname().lower()
    return name in {machine, f"{machine}.local", socket.getfqdn().lower()}


def body_length(headers: Any) -> int:
    """The declared length of a POST's body: one plain decimal Content-Length (RFC 9110
    8.6), at most MAX_BODY; no chunked bodies."""
    if headers.get("Transfer-Encoding") is not None:
        raise RequestError(HTTPStatus.BAD_REQUEST, "an input is sent with a Content-Length")
    values = headers.get_all("Content-Length") or []
    if not values:
        raise RequestError(HTTPStatus.LENGTH_REQUIRED, "an input needs a Content-Length")
    text = values[0].strip()
    if len(set(values)) != 1 or not CONTENT_LENGTH.fullmatch(text):
        raise RequestError(HTTPStatus.BAD_REQUEST, "Content-Length is one whole number")
    if len(text) > 9 or not 0 < int(text) <= MAX_BODY:
        raise RequestError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                           "an input is a small JSON object")
    return int(text)


def events_for(body: Any) -> list[object]:
    """The hardware events one input of the page stands for."""

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


def client_key(address: str) -> str:
    """The host a client address counts as, for the per-host cap: an IPv4 address as
    it is (also when a dual-stack listener reports it as ``::ffff:a.b.c.d``); an IPv6
    address as its /64, since a host on an IPv6 network may take any source address of
    its prefix (privacy addresses, or one per connection if it likes)."""
    ip = _ip(address)
    if ip is None:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        if ip.is_loopback:
            return str(ip)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


def _peer_left(sock: Any) -> bool:
    """Whether the other end of `sock` has closed it or it has failed (no waiting): an
    event stream never reads, so its socket is readable only when the page went."""
    try:
        poller = select.poll()
        poller.register(sock, select.POLLIN | getattr(select, "POLLRDHUP", 0))
        events = poller.poll(0)
    except (OSError, ValueError):
        return True  # closed already
    if not events:
        return False
    flags = events[0][1]
    if flags & (select.POLLHUP | select.POLLERR | select.POLLNVAL
                | getattr(select, "POLLRDHUP", 0)):
        return True
    try:  # readable: the end of the stream, or bytes a page should not send
        return bool(sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b"")
    except BlockingIOError:
        return False
    except OSError:
        return True


def join_page(why: str) -> bytes:
    """The page a stranger gets: why not, and the form to give the rig's code."""
    return JOIN_PAGE.replace("{why}", escape(why)).encode()


def page(read_only: bool) -> bytes:
    """The rig's page; the read-only board keeps only the live board section."""
    text = resources.files("rig.web").joinpath("rig.html").read_text(encoding="utf-8")
    if read_only:
        text = DESK.sub("", text).replace('<body class="desk">', '<body class="readonly">')
    return text.encode()


def _sse(topic: str, data: str) -> str:
    lines = "".join(f"data: {line}\n" for line in data.split("\n"))
    return f"event: {topic}\n{lines}\n"
