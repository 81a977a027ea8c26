"""The daemon's one logging set-up: plain lines on a terminal, priorities for journald.

Every module logs through ``logging.getLogger(__name__)`` and never configures logging;
``cbrig run`` calls :func:`setup_logging` once. Under systemd, stderr is a stream to the
journal and ``$JOURNAL_STREAM`` names it (``device:inode``): each line then starts with
an sd-daemon priority prefix (``<3>`` for an error, ``<4>`` a warning, ``<6>`` info,
``<7>`` debug), so ``journalctl -p warning -u cbrig`` shows what went wrong. Anywhere
else (a terminal, a file, a pipe) lines are plain ``LEVEL message``.

Messages often quote data (file names, card tags, journal fields): they are made safe
for a terminal here (:mod:`rig.safetext`), so a crafted name cannot move the cursor or
forge a line of its own.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping
from typing import TextIO

from rig.safetext import safe_text

PRIORITIES = {
    logging.CRITICAL: 2,
    logging.ERROR: 3,
    logging.WARNING: 4,
    logging.INFO: 6,
    logging.DEBUG: 7,
}
"""Python levels -> syslog priorities (sd-daemon(3))."""


def priority(levelno: int) -> int:
    """The syslog priority of a Python level (levels between the named ones round up)."""
    for level in sorted(PRIORITIES, reverse=True):
        if levelno >= level:
            return PRIORITIES[level]
    return PRIORITIES[logging.DEBUG]


class PlainFormatter(logging.Formatter):
    """``LEVEL message``, every line of the message made safe for a terminal."""

    def __init__(self) -> None:
        super().__init__("%(levelname)s %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        return safe_text(super().format(record), keep_newlines=True)


class JournaldFormatter(logging.Formatter):
    """``<N>message`` on every line, so a message of several lines keeps its priority
    (journald reads the prefix of each line it receives)."""

    def __init__(self) -> None:
        super().__init__("%(message)s")

    def format(self, record: logging.LogRecord) -> str:
        text = safe_text(super().format(record), keep_newlines=True)
        prefix = f"<{priority(record.levelno)}>"
        return "\n".join(prefix + line for line in text.split("\n"))


def stream_is_journal(stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """True when `stream` is the journal stream systemd gave us (``$JOURNAL_STREAM`` is
    its ``device:inode``; a redirected stderr does not match and stays plain)."""
    env = os.environ if environ is None else environ
    named = env.get("JOURNAL_STREAM", "")
    if not named:
        return False
    try:
        info = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return False
    return named == f"{info.st_dev}:{info.st_ino}"


def setup_logging(level: str = "info", stream: TextIO | None = None,
                  environ: Mapping[str, str] | None = None) -> logging.Handler:
    """Send the rig's log to `stream` (stderr) at `level`; call once, from the daemon."""
    out = sys.stderr if stream is None else stream
    handler = logging.StreamHandler(out)
    handler.setFormatter(JournaldFormatter() if stream_is_journal(out, environ)
                         else PlainFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    return handler


__all__ = ["JournaldFormatter", "PlainFormatter", "priority", "setup_logging",
           "stream_is_journal"]
