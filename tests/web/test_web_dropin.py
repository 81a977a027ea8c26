"""The network drop-in of the live board: the one shipped is the one documented, and it
lets in the phones the docs say it does (IPv6 ones included)."""

from __future__ import annotations

import ipaddress
import re
import socket
import threading
import urllib.request
from pathlib import Path

import pytest

from rig.web.httpserver import RigServer
from rig.web.hub import Hub
from tests.slowdown import hang

REPO = Path(__file__).resolve().parents[2]
KEYWORDS = {  # systemd.resource-control(5): IPAddressAllow= symbolic names
    "localhost": ("127.0.0.0/8", "::1/128"),
    "link-local": ("169.254.0.0/16", "fe80::/64"),
    "multicast": ("224.0.0.0/4", "ff00::/8"),
    "any": ("0.0.0.0/0", "::/0"),
}


def directives(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines()
            if line.strip() and not line.lstrip().startswith(("#", ";"))]


def shipped() -> list[str]:
    return directives((REPO / "systemd/web.conf").read_text(encoding="utf-8"))


def documented() -> list[str]:
    """The ini block docs/WEB.md shows as the drop-in install.sh writes."""
    text = (REPO / "docs/WEB.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```ini\n(.*?)```", text, re.S)
    assert len(blocks) == 1, "docs/WEB.md shows one drop-in"
    return directives(blocks[0])


def allowed_networks() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    nets = []
    for line in shipped():
        key, _, value = line.partition("=")
        if key == "IPAddressAllow":
            for word in value.split():
                nets += [ipaddress.ip_network(n) for n in KEYWORDS.get(word, (word,))]
    return nets


def test_the_documented_drop_in_is_the_shipped_one():
    assert documented() == shipped()


@pytest.mark.parametrize(("address", "admitted"), [
    ("127.0.0.1", True), ("::1", True),
    ("192.168.1.23", True), ("10.4.0.9", True), ("172.20.3.4", True),
    ("fe80::1c2:3ff:fe44:5566", True),      # link-local
    ("fd12:3456:789a::23", True),           # a unique local (ULA) address
    ("2a02:8108:1a40:7f00:9d3e:1b2c:44a5:e01f", True),  # a phone's global address at home
    ("2001:db8::23", True),
    ("8.8.8.8", False), ("100.64.1.1", False),  # public and carrier-grade NAT IPv4
])
def test_phones_at_the_table_are_let_in(address, admitted):
    ip = ipaddress.ip_address(address)
    assert any(ip in net for net in allowed_networks()) is admitted


def test_the_board_listens_on_ipv6_and_ipv4_with_address_colons():
    """address = "::" (docs/WEB.md): one socket for phones on IPv6 and on IPv4."""
    server = RigServer(("::", 0), Hub(), post=None)
    thread = threading.Thread(target=server.serve_forever)
    thread.start()
    try:
        port = server.served[1]
        assert server.url == f"http://[::]:{port}/"
        for host in ("[::1]", "127.0.0.1"):
            with urllib.request.urlopen(f"http://{host}:{port}/board", timeout=hang()) as page:
                assert page.status == 200
        probe = socket.create_connection(("::1", port), timeout=hang())
        probe.close()
    finally:
        server.stop()
        thread.join()
