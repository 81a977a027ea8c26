"""Run a command on a pseudo-terminal and read its screen, without sleeping.

`wait_for` reads the child's output until the last painted picture (everything after
the last cursor-home) contains the text, with a bounded deadline: a test waits exactly as
long as the program takes, and fails with the screen it saw when the text never comes.
"""

from __future__ import annotations

import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import termios
import time
from collections.abc import Sequence

from tests.slowdown import hang

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
HOME = "\x1b[H"


class PtyProgram:
    def __init__(self, argv: Sequence[str], env: dict[str, str], size: tuple[int, int]):
        self.master, slave = os.openpty()
        columns, lines = size
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
        self.process = subprocess.Popen(list(argv), stdin=slave, stdout=slave, stderr=slave,
                                        env=env, start_new_session=True, close_fds=True)
        os.close(slave)
        self.output = ""

    def send(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def screen(self) -> str:
        """The last picture painted, as plain text."""
        last = self.output.rsplit(HOME, 1)[-1]
        return ANSI.sub("", last).replace("\r", "")

    def wait_for(self, text: str, timeout: float = hang()) -> str:
        deadline = time.monotonic() + timeout
        while text not in self.screen():
            left = deadline - time.monotonic()
            if left <= 0 or not self._read(left):
                raise AssertionError(f"never saw {text!r}; the screen was:\n{self.screen()}")
        return self.screen()

    def wait_exit(self, timeout: float = hang()) -> int:
        deadline = time.monotonic() + timeout
        while self.process.poll() is None and time.monotonic() < deadline:
            self._read(max(0.0, deadline - time.monotonic()))
        return self.process.wait(timeout=max(0.0, deadline - time.monotonic()) + 1)

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.master, 65536)
        except OSError:  # the child has gone and closed its side
            return False
        self.output += data.decode(errors="replace")
        return bool(data)

    def kill(self) -> None:
        """kill -9: no chance to save or tidy anything."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def close(self) -> None:
        self.kill()
        os.close(self.master)
