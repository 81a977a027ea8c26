"""Fixtures shared by the rig tests."""

from __future__ import annotations

import os
import tty
from collections.abc import Iterator

import pytest

from hardware.rfid.rdm6300 import encode_frame


class Pty:
    """A pseudo-terminal pair: the command reads the slave, the test writes frames."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)

    def tap(self, number: int) -> None:
        os.write(self.master, encode_frame(number))

    def close(self) -> None:
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def pty() -> Iterator[Pty]:
    port = Pty()
    yield port
    port.close()
