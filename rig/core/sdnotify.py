"""A minimal sd_notify client: tell systemd we are ready, alive, busy or stopping.

No dependency: one AF_UNIX datagram per message to ``$NOTIFY_SOCKET`` (a path, or an
abstract socket written ``@name``). Without the variable (not started by systemd, or
``Type=`` is not ``notify``) every call is a cheap no-op, so the daemon calls these
unconditionally.

It uses the C module ``_socket`` that ``socket`` wraps: ``socket`` builds enums of every
address family and socket type and imports ``selectors`` when it loads (~4 ms here,
before READY), and one datagram socket needs none of that.

Sends never block: the socket is non-blocking, so a service manager that stopped
reading (its queue holds about ten datagrams) costs a dropped message, never a stuck
game loop or an unanswered SIGTERM. ``WATCHDOG=1`` is sent only when systemd asked this
process for pings (``WATCHDOG_USEC``, and ``WATCHDOG_PID`` if set, naming us).
"""

from __future__ import annotations

import os
from _socket import AF_UNIX, SOCK_CLOEXEC, SOCK_DGRAM, SOCK_NONBLOCK, socket
from collections.abc import Mapping

START_CPU_FIELD = "X_CBRIG_START_CPU"
"""The READY message's field with the CPU seconds the start used (`Notifier.ready`)."""


class Notifier:
    """Sends notifications to the socket named by ``NOTIFY_SOCKET`` (read at creation)."""

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        raw = env.get("NOTIFY_SOCKET", "")
        self.address: str | bytes | None
        if not raw:
            self.address = None
        elif raw.startswith("@"):
            self.address = b"\0" + raw[1:].encode()  # Linux abstract namespace
        else:
            self.address = raw
        self._watchdog_usec = env.get("WATCHDOG_USEC", "")
        self._watchdog_pid = env.get("WATCHDOG_PID", "")
        self._sock: socket | None = None

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def notify(self, *fields: str) -> bool:
        """Send ``fields`` (e.g. "READY=1") as one message. True if it was sent.

        Errors (systemd gone, socket removed) are swallowed: a missed notification must
        never stop the game. The watchdog then restarts us if we really are stuck. A full
        queue (nobody reading) drops this message and keeps the socket for the next one.
        """
        if self.address is None or not fields:
            return False
        message = "\n".join(fields).encode("utf-8")
        try:
            if self._sock is None:
                self._sock = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK)
            self._sock.sendto(message, self.address)
        except BlockingIOError:
            return False
        except OSError:
            self.close()
            return False
        return True

    def ready(self, status: str | None = None, start_cpu: float | None = None) -> bool:
        """The hardware is up and the first screen is shown. `start_cpu`, the CPU seconds
        this process used to get here, goes out in the same message as
        ``X_CBRIG_START_CPU`` (sd_notify(3) leaves ``X_`` variables to applications;
        systemd ignores them): a reader then has the figure at READY exactly, instead of
        reading /proc a moment later while the daemon loads the game after READY."""
        fields = ["READY=1"]
        if status:
            fields.append(f"STATUS={_one_line(status)}")
        if start_cpu is not None:
            fields.append(f"{START_CPU_FIELD}={start_cpu:.6f}")
        return self.notify(*fields)

    def watchdog(self) -> bool:
        """Still healthy: call from the main loop at least every ``watchdog_interval()``.

        Sent only when systemd asked this process for pings: an unasked ``WATCHDOG=1``
        is at best noise and, with ``WatchdogSec=`` set later, a lie about who pings."""
        if self.watchdog_interval() is None:
            return False
        return self.notify("WATCHDOG=1")

    def status(self, text: str) -> bool:
        """Free text shown by ``systemctl status``."""
        return self.notify(f"STATUS={_one_line(text)}")

    def stopping(self) -> bool:
        return self.notify("STOPPING=1")

    def watchdog_interval(self) -> float | None:
        """Seconds between watchdog pings (half of ``WATCHDOG_USEC``), or None when
        systemd did not ask for pings (or asked another process, per ``WATCHDOG_PID``)."""
        return watchdog_interval({"WATCHDOG_USEC": self._watchdog_usec,
                                  "WATCHDOG_PID": self._watchdog_pid})

    def close(self) -> None:
        if self._sock is not None:
            sock, self._sock = self._sock, None
            sock.close()

    def __enter__(self) -> Notifier:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _one_line(text: str) -> str:
    return " ".join(text.split())


def watchdog_interval(environ: Mapping[str, str] | None = None) -> float | None:
    """Half of ``$WATCHDOG_USEC`` in seconds, or None if unset, invalid or meant for
    another process (``$WATCHDOG_PID`` names a different pid)."""
    env = os.environ if environ is None else environ
    raw = env.get("WATCHDOG_USEC", "")
    pid = env.get("WATCHDOG_PID", "")
    if pid and pid != str(os.getpid()):
        return None
    try:
        usec = int(raw)
    except ValueError:
        return None
    if usec <= 0:
        return None
    return usec / 2 / 1_000_000


_default: Notifier | None = None


def _notifier() -> Notifier:
    global _default
    if _default is None:
        _default = Notifier()
    return _default


def notify(*fields: str) -> bool:
    """Send raw fields with the process-wide notifier."""
    return _notifier().notify(*fields)


def ready(status: str | None = None, start_cpu: float | None = None) -> bool:
    return _notifier().ready(status, start_cpu)


def watchdog() -> bool:
    return _notifier().watchdog()


def status(text: str) -> bool:
    return _notifier().status(text)


def stopping() -> bool:
    return _notifier().stopping()


__all__ = ["Notifier", "notify", "ready", "status", "stopping", "watchdog",
           "watchdog_interval"]
