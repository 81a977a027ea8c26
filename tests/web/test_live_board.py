"""The Pi's live board: off by default with no listener and no import; on, read-only."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from rig.config import ConfigError, WebConfig, load_config, parse_config
from tests.daemon.helpers import write_config
from tests.slowdown import hang
from valueclass import replace

DAEMON_WITHOUT_WEB = """
import socket, sys
from rig.config import load_config
from rig.core.daemon import Daemon
from rig.core.service import QuietNotifier
daemon = Daemon(config=load_config(sys.argv[1]), notifier=QuietNotifier())
daemon.start()
import os
mine = {os.readlink(f"/proc/self/fd/{fd}") for fd in os.listdir("/proc/self/fd")
        if os.path.exists(f"/proc/self/fd/{fd}")}
listening = 0
for table in ("/proc/net/tcp", "/proc/net/tcp6"):
    for row in open(table).read().splitlines()[1:]:
        cells = row.split()
        listening += cells[3] == "0A" and f"socket:[{cells[9]}]" in mine
print("rig.web" in sys.modules, "http.server" in sys.modules, daemon.web, listening)
daemon.stop()
"""


def test_web_is_off_by_default_and_validated():
    assert parse_config("").web == WebConfig(enabled=False, address="127.0.0.1", port=8411)
    on = parse_config('[web]\nenabled = true\naddress = "0.0.0.0"\nport = 8080\n').web
    assert on == WebConfig(enabled=True, address="0.0.0.0", port=8080)
    with pytest.raises(ConfigError) as mistakes:
        parse_config('[web]\naddress = "the kitchen"\nport = 70000\n', "rig.toml")
    text = str(mistakes.value)
    assert "rig.toml" in text and "address" in text and "port" in text


def test_with_web_off_the_daemon_imports_no_web_and_listens_nowhere(tmp_path):
    config = write_config(tmp_path, game="tenfour", players=2)
    result = subprocess.run([sys.executable, "-c", DAEMON_WITHOUT_WEB, str(config)],
                            capture_output=True, text=True, timeout=hang(), check=True)
    assert result.stdout.split() == ["False", "False", "None", "0"]


@pytest.fixture
def board_daemon(tmp_path):
    from rig.core.daemon import Daemon
    from rig.core.service import QuietNotifier

    config = load_config(write_config(tmp_path, game="bumpem", players=2))
    config = replace(config, web=WebConfig(enabled=True, address="127.0.0.1", port=0))
    daemon = Daemon(config=config, notifier=QuietNotifier())
    daemon.start()
    yield daemon
    daemon.stop()


def invited(daemon) -> dict[str, str]:
    """The Cookie header of a page that joined the daemon's board."""
    return {"Cookie": f"cbrig_join={daemon.invitation.token}"}


def _events_until(url: str, topic: str, headers: dict[str, str]) -> dict[str, str]:
    """Read the stream until `topic` has come; the stream sends the current state first."""
    stream = urllib.request.urlopen(urllib.request.Request(url + "events", headers=headers),
                                    timeout=hang())
    seen: dict[str, str] = {}
    buffer = ""
    while topic not in seen:
        buffer += stream.read1(65536).decode()
        while "\n\n" in buffer:
            block, buffer = buffer.split("\n\n", 1)
            lines = block.split("\n")
            if lines[0].startswith("event: "):
                seen[lines[0][7:]] = "\n".join(line[6:] for line in lines[1:])
    stream.close()
    return seen


def test_the_live_board_shows_the_daemons_game_and_takes_no_input(board_daemon):
    from hardware.events import KnobPress, KnobTurn

    service = board_daemon.web
    assert service is not None
    url = service.server.url
    cookie = invited(board_daemon)
    page = urllib.request.urlopen(urllib.request.Request(url, headers=cookie)).read().decode()
    assert 'id="board"' in page and "knob-hi" not in page
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(urllib.request.Request(url + "desk", headers=cookie))
    assert refused.value.code == 404
    loop = board_daemon.loop
    loop.step(KnobTurn("hi", -1))  # the table starts a game with the real knobs
    loop.step(KnobPress("hi"))
    seen = _events_until(url, "pieces", cookie)
    pieces = json.loads(seen["pieces"])
    game = board_daemon.app.controller.session.game
    assert len(pieces) == game.num_players * game.rules.cars
    assert all(p["location"].startswith("pit:") for p in pieces)
    assert seen["boardsvg"].startswith("<svg")
    press = urllib.request.Request(url + "input", method="POST",
                                   data=b'{"type": "press", "knob": "hi"}',
                                   headers={"Content-Type": "application/json", **cookie})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(press)
    assert refused.value.code == 404


def test_install_writes_the_network_drop_in_only_while_web_is_on(tmp_path):
    from tests.systemd.test_install_scripts import INSTALL, REPO, UNINSTALL, sh

    root = tmp_path / "root"
    config = root / "etc/cbrig/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[web]\nenabled = true\naddress = "0.0.0.0"\n')
    dropin = root / "etc/systemd/system/cbrig.service.d/web.conf"
    on = sh(INSTALL, "--destdir", str(root), "--no-venv")
    assert on.returncode == 0, on.stderr
    assert dropin.read_text() == (REPO / "systemd/web.conf").read_text()
    assert "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6" in dropin.read_text()

    config.write_text("[web]\nenabled = false\n")
    off = sh(INSTALL, "--destdir", str(root), "--no-venv")
    assert off.returncode == 0, off.stderr
    assert "live board off" in off.stdout and not dropin.exists()

    config.write_text("[web]\nenabled = true\n")
    assert sh(INSTALL, "--destdir", str(root), "--no-venv").returncode == 0
    assert sh(UNINSTALL, "--destdir", str(root)).returncode == 0
    assert not dropin.parent.exists()


def test_the_shipped_unit_has_no_network_without_the_drop_in():
    from tests.systemd.test_install_scripts import REPO

    unit = (REPO / "systemd/cbrig.service").read_text()
    assert "PrivateNetwork=yes" in unit and "IPAddressDeny=any" in unit
    assert "RestrictAddressFamilies=AF_UNIX\n" in unit


def test_the_unit_with_the_drop_in_verifies_and_stays_hardened(tmp_path):
    """The drop-in merged into the unit (what systemd does with it) passes
    `systemd-analyze verify`, and the exposure score rises only by the network."""
    from tests.systemd.test_install_scripts import REPO
    from tests.systemd.test_unit_file import UNIT, analyze, exposure, unit_copy, unit_messages

    merged = UNIT.read_text() + "\n" + (REPO / "systemd/web.conf").read_text()
    result = analyze("verify", str(unit_copy(tmp_path, merged)), cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert unit_messages(result) == []
    closed, opened = exposure(tmp_path), exposure(tmp_path, merged)
    print(f"systemd-analyze security exposure: {closed} without, {opened} with [web]")
    assert closed < opened <= closed + 1.0
