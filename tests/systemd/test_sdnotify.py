"""rig.core.sdnotify against a datagram socket standing in for systemd's NOTIFY_SOCKET."""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from rig.core import sdnotify
from rig.core.sdnotify import Notifier, watchdog_interval

OTHER_PID = str(os.getpid() + 1)
"""A process that is not this one (PID 1 would be this one when the suite runs as a
container's first process, e.g. `systemd-nspawn --pipe` without --as-pid2)."""


@pytest.fixture
def listener(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    short = None
    path = tmp_path / "notify"
    if len(str(path)) > 100:  # AF_UNIX paths are limited to ~108 bytes: bind nearer /
        short = Path(tempfile.mkdtemp(prefix="cbrig-"))
        path = short / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.setblocking(False)  # datagrams are queued by sendto itself: no waiting needed
    try:
        yield sock, str(path)
    finally:
        sock.close()
        if short is not None:
            shutil.rmtree(short)


def received(sock: socket.socket) -> list[str]:
    out: list[str] = []
    while True:
        try:
            out.append(sock.recv(4096).decode())
        except BlockingIOError:
            return out


def test_messages_reach_a_path_socket(listener: tuple[socket.socket, str]) -> None:
    sock, path = listener
    with Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "1000000"}) as notifier:
        assert notifier.enabled
        assert notifier.ready()
        assert notifier.status("Waiting for\nRed to draw")
        assert notifier.watchdog()
        assert notifier.stopping()
        assert notifier.ready("Game on")
    assert received(sock) == ["READY=1", "STATUS=Waiting for Red to draw", "WATCHDOG=1",
                              "STOPPING=1", "READY=1\nSTATUS=Game on"]


def test_messages_reach_an_abstract_socket() -> None:
    name = f"cbrig-test-{os.getpid()}-{id(object())}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(b"\0" + name.encode())
    sock.setblocking(False)
    try:
        notifier = Notifier({"NOTIFY_SOCKET": "@" + name})
        assert notifier.notify("READY=1", "STATUS=up")
        notifier.close()
        assert received(sock) == ["READY=1\nSTATUS=up"]
    finally:
        sock.close()


def test_without_notify_socket_everything_is_a_no_op() -> None:
    notifier = Notifier({})
    assert not notifier.enabled
    assert notifier.ready() is False
    assert notifier.watchdog() is False
    assert notifier.watchdog_interval() is None


def test_a_vanished_socket_is_not_an_error(tmp_path: Path,
                                           listener: tuple[socket.socket, str]) -> None:
    sock, path = listener
    notifier = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "1000000"})
    assert notifier.watchdog()
    sock.close()
    os.unlink(path)
    assert notifier.watchdog() is False  # no exception: the game goes on
    assert notifier.watchdog() is False


def test_module_functions_use_the_environment(monkeypatch: pytest.MonkeyPatch,
                                              listener: tuple[socket.socket, str]) -> None:
    sock, path = listener
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.setenv("WATCHDOG_USEC", "1000000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    monkeypatch.setattr(sdnotify, "_default", None)
    assert sdnotify.ready("hardware up")
    assert sdnotify.watchdog()
    assert sdnotify.stopping()
    assert received(sock) == ["READY=1\nSTATUS=hardware up", "WATCHDOG=1", "STOPPING=1"]
    monkeypatch.setattr(sdnotify, "_default", None)


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"WATCHDOG_USEC": "30000000"}, 15.0),
        ({"WATCHDOG_USEC": "1000000"}, 0.5),
        ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}, 15.0),
        ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": OTHER_PID}, None),
        ({"WATCHDOG_USEC": "0"}, None),
        ({"WATCHDOG_USEC": "soon"}, None),
        ({}, None),
    ],
)
def test_watchdog_interval(env: dict[str, str], expected: float | None) -> None:
    assert watchdog_interval(env) == expected
    assert Notifier(env).watchdog_interval() == expected


def test_watchdog_interval_reads_os_environ(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "20000000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    assert watchdog_interval() == 10.0


@pytest.mark.parametrize("env", [{}, {"WATCHDOG_USEC": "0"}, {"WATCHDOG_USEC": "30000000",
                                                              "WATCHDOG_PID": OTHER_PID}])
def test_no_watchdog_ping_unless_systemd_asked_this_process(
        env: dict[str, str], listener: tuple[socket.socket, str]) -> None:
    sock, path = listener
    with Notifier({"NOTIFY_SOCKET": path, **env}) as notifier:
        assert notifier.watchdog() is False
        assert notifier.status("still here")
    assert received(sock) == ["STATUS=still here"]


class _Hung(Exception):
    pass


def test_a_notify_socket_nobody_reads_never_blocks_the_sender(
        listener: tuple[socket.socket, str]) -> None:
    """A stuck service manager fills the socket's queue (about 10 datagrams on Linux):
    later messages are dropped, never waited for. The alarm turns a hang into a failure."""
    import signal

    _, path = listener

    def hung(signum: int, frame: object) -> None:
        raise _Hung

    previous = signal.signal(signal.SIGALRM, hung)
    signal.setitimer(signal.ITIMER_REAL, 10.0)
    try:
        with Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "1000000"}) as notifier:
            sent = [notifier.watchdog() for _ in range(200)]
            assert notifier.stopping() is False, "the queue is full: dropped, not waited for"
    except _Hung:
        raise AssertionError("sending to a full notify socket blocked") from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert any(sent) and not all(sent)
