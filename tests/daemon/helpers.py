"""Run the real daemon as a subprocess on mock hardware and listen to it like systemd."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

MOCK_CONFIG = """
[game]
name = "{game}"
players = {players}
hints = false

[pins]
backend = "mock"

[reader]
type = "none"
cards = "{state}/cards.toml"

[display]
driver = "{display}"

[state]
directory = "{state}"
"""


def write_config(directory: Path, game: str = "bumpem", players: int = 2,
                 display: str = "none") -> Path:
    state = directory / "state"
    path = directory / "config.toml"
    path.write_text(MOCK_CONFIG.format(game=game, players=players, state=state,
                                       display=display))
    return path


class Quiet:
    """A notifier that says nothing (no systemd here), for a Daemon built in-process."""

    def ready(self, status: str | None = None, start_cpu: float | None = None) -> None: ...
    def status(self, text: str) -> None: ...
    def watchdog(self) -> None: ...
    def watchdog_interval(self) -> None: return None
    def stopping(self) -> None: ...


class NotifySocket:
    """The datagram socket systemd would give the service as NOTIFY_SOCKET."""

    def __init__(self, path: Path, timeout: float = 20.0) -> None:
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.sock.settimeout(timeout)
        self.seen: list[str] = []

    def next(self) -> list[str]:
        data = self.sock.recv(4096).decode()
        fields = data.split("\n")
        self.seen.extend(fields)
        return fields

    def wait_for(self, wanted: str) -> list[str]:
        """Messages until one has a field starting with `wanted` (socket timeout guards)."""
        while True:
            fields = self.next()
            if any(f.startswith(wanted) for f in fields):
                return fields

    def close(self) -> None:
        self.sock.close()


def start_daemon(config: Path, notify: NotifySocket | None, *extra: str,
                 watchdog_usec: int | None = None) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k not in {"NOTIFY_SOCKET", "WATCHDOG_USEC"}}
    if notify is not None:
        env["NOTIFY_SOCKET"] = str(notify.path)
    if watchdog_usec is not None:
        env["WATCHDOG_USEC"] = str(watchdog_usec)
    return subprocess.Popen(
        [sys.executable, "-m", "rig.cli", "run", "--config", str(config), *extra],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


def kill(process: subprocess.Popen[str], sig: int = signal.SIGKILL) -> None:
    process.send_signal(sig)
    process.communicate(timeout=20)


def up_then_stop(process: subprocess.Popen[str]) -> str:
    """Read the daemon's log until "rig up", then SIGTERM it; the whole log."""
    assert process.stderr is not None
    err = ""
    for line in process.stderr:
        err += line
        if "rig up" in line:
            break
    process.terminate()
    return err + process.communicate(timeout=30)[1]


def assert_set_aside(daemon: Any, config: Any, current: Path, before: bytes) -> None:
    """The daemon started at the setup menu with the game it could not restore filed,
    whole and unchanged, among the damaged ones, and said so on the screen."""
    assert daemon.app is not None and daemon.app.controller is None, "setup menu"
    assert not current.exists()
    aside = list(config.state.games.glob("*damaged-*.jsonl"))
    assert len(aside) == 1 and aside[0].read_bytes() == before, "kept, unchanged"
    assert "Old game set aside" in daemon.app.screen().plain()
