"""A fake I2C bus with an OLED on it: what the display driver sends, byte by byte.

:class:`FakeSmbus2` stands in for the ``smbus2`` module that luma's
``luma.core.interface.serial.i2c`` imports (``SMBus(port)``, ``i2c_msg.write``), so the
real luma interface and the real SSD1306 / SH1106 drivers run on top of it exactly as on
a Pi. Every write transfer is recorded (:class:`Transfer`: address, control byte and
payload; bus bits counted as on the wire) and fed to a model of the controller's memory
(:class:`Ssd1306Panel`, :class:`Sh1106Panel`) that decodes commands (addressing modes,
column and page ranges, the SH1106 page and nibble commands and its 2-column offset) and
data bytes, so a test can compare what the panel would show with the frame that was
rendered. Faults: ``fail_after`` makes a transfer stop part-way (the bytes before the
failure reach the panel, as on a real bus when the panel stops acknowledging) and raise
``OSError(EREMOTEIO)``; ``unplugged`` makes every transfer fail at the address byte.

Each ``SMBus`` opened holds a real file descriptor (``/dev/null``), released by
``close``, as ``/dev/i2c-N`` is: leaks show up in ``/proc/self/fd``.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterable, Sequence
from typing import ClassVar

from PIL import Image

from hardware.display.base import WIDTH
from hardware.display.pages import PAGES, pages_image, transfer_bits
from valueclass import Frozen, Record, field

CONTROL_COMMANDS = 0x00
CONTROL_DATA = 0x40


class Transfer(Frozen):
    """One I2C write: ``address`` then ``payload`` (control byte first)."""

    address: int
    payload: bytes

    @property
    def bits(self) -> int:
        return transfer_bits(len(self.payload))

    @property
    def is_data(self) -> bool:
        return bool(self.payload) and self.payload[0] == CONTROL_DATA


class Panel:
    """A controller's display memory and the command decoder that moves its pointer."""

    ram_columns = WIDTH
    visible_offset = 0
    ARGUMENTS: ClassVar[dict[int, int]] = {}
    """Commands followed by that many argument bytes."""

    def __init__(self, nibbles_edit_pointer: bool = False) -> None:
        """``nibbles_edit_pointer``: a column nibble command changes that nibble of the
        moving write pointer; by default (the datasheets' reading) it changes the column
        register, which the pointer is then set to. The planner must be right under both."""
        self.ram = [bytearray(self.ram_columns) for _ in range(PAGES)]
        self.display_on = False
        self.commands: list[tuple[int, ...]] = []
        self._pending: list[int] = []
        self.page = 0
        self.column = 0
        self.column_register = 0
        self.nibbles_edit_pointer = nibbles_edit_pointer

    # decoding -----------------------------------------------------------------------
    def receive(self, payload: bytes) -> None:
        """A transfer's bytes after the address, following the control bytes: Co = 0
        means everything after is of one kind (D/C bit: data or commands), Co = 1 means
        one byte, then another control byte."""
        i = 0
        while i < len(payload):
            control = payload[i]
            i += 1
            is_data = bool(control & 0x40)
            chunk = payload[i:] if not control & 0x80 else payload[i:i + 1]
            i += len(chunk)
            for byte in chunk:
                if is_data:
                    self.write(byte)
                else:
                    self.command_byte(byte)

    def command_byte(self, byte: int) -> None:
        self._pending.append(byte)
        if len(self._pending) > self.ARGUMENTS.get(self._pending[0], 0):
            command = tuple(self._pending)
            self._pending = []
            self.commands.append(command)
            self.execute(command)

    def execute(self, command: tuple[int, ...]) -> None:
        """The commands both controllers share: page (0xB0-0xB7) and column nibbles
        (0x00-0x0F low, 0x10-0x1F high) for page addressing, display on and off."""
        op = command[0]
        if 0xB0 <= op <= 0xB7:
            self.page = op & 0x07
        elif op <= 0x1F:
            base = self.column if self.nibbles_edit_pointer else self.column_register
            if op <= 0x0F:
                self.column_register = (base & 0xF0) | op
            else:
                self.column_register = (base & 0x0F) | ((op & 0x0F) << 4)
            self.column = self.column_register
        elif op == 0xAE:
            self.display_on = False
        elif op == 0xAF:
            self.display_on = True

    def write(self, byte: int) -> None:
        raise NotImplementedError

    # what is shown --------------------------------------------------------------------
    def pages(self) -> tuple[bytes, ...]:
        start = self.visible_offset
        return tuple(bytes(row[start:start + WIDTH]) for row in self.ram)

    def image(self) -> Image.Image:
        """The 128x64 picture in the visible columns (what a lit panel shows)."""
        return pages_image(self.pages())


class Ssd1306Panel(Panel):
    """SSD1306: 128x8 pages; horizontal, vertical or page addressing (0x20 mode)."""

    ARGUMENTS: ClassVar[dict[int, int]] = {
        0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA3: 2, 0xA8: 1, 0xD3: 1,
        0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5}

    def __init__(self, nibbles_edit_pointer: bool = False) -> None:
        super().__init__(nibbles_edit_pointer)
        self.mode = 2  # page addressing after reset
        self.columns = (0, WIDTH - 1)
        self.page_range = (0, PAGES - 1)

    def execute(self, command: tuple[int, ...]) -> None:
        op = command[0]
        if op == 0x20:
            self.mode = command[1] & 0x03
        elif op == 0x21:
            self.columns = (command[1] & 0x7F, command[2] & 0x7F)
            self.column = self.columns[0]
        elif op == 0x22:
            self.page_range = (command[1] & 0x07, command[2] & 0x07)
            self.page = self.page_range[0]
        else:
            super().execute(command)

    def write(self, byte: int) -> None:
        self.ram[self.page][self.column] = byte
        first_col, last_col = self.columns
        first_page, last_page = self.page_range
        if self.mode == 0:  # horizontal: along the row, then the next page
            if self.column >= last_col:
                self.column = first_col
                self.page = first_page if self.page >= last_page else self.page + 1
            else:
                self.column += 1
        elif self.mode == 1:  # vertical: down the pages, then the next column
            if self.page >= last_page:
                self.page = first_page
                self.column = first_col if self.column >= last_col else self.column + 1
            else:
                self.page += 1
        else:  # page addressing: along the page, back to the commanded column at its end
            self.column = self.column_register if self.column >= WIDTH - 1 \
                else self.column + 1


class Sh1106Panel(Panel):
    """SH1106: 132x8 pages, page addressing only; the panel shows RAM columns 2-129."""

    ram_columns = 132
    visible_offset = 2
    ARGUMENTS: ClassVar[dict[int, int]] = {0x81: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1,
                                           0xD9: 1, 0xDA: 1, 0xDB: 1}

    def write(self, byte: int) -> None:
        if self.column < self.ram_columns:  # the pointer stops at the last column
            self.ram[self.page][self.column] = byte
            self.column += 1


PANELS: dict[str, type[Panel]] = {"ssd1306": Ssd1306Panel, "sh1106": Sh1106Panel}


class FakeBus(Record):
    """The wire: every transfer, the panel on it, and the faults to inject."""

    panel: Panel | None
    """None: record the transfers without decoding them (the bench's timing runs)."""
    address: int = 0x3C
    transfers: list[Transfer] = field(default_factory=list)
    fail_after: int | None = None
    """Fail the transfer in which this many more payload bytes have gone through."""
    unplugged: bool = False
    opened: int = 0
    closed: int = 0

    def transfer(self, address: int, payload: Sequence[int]) -> None:
        data = bytes(payload)
        if self.unplugged or address != self.address:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        if self.fail_after is not None and self.fail_after < len(data):
            done, self.fail_after = data[:self.fail_after], None
            self.transfers.append(Transfer(address, done))
            if self.panel is not None:
                self.panel.receive(done)
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        if self.fail_after is not None:
            self.fail_after -= len(data)
        self.transfers.append(Transfer(address, data))
        if self.panel is not None:
            self.panel.receive(data)

    def image(self) -> Image.Image:
        """What the panel shows now."""
        if self.panel is None:
            raise RuntimeError("this bus keeps no panel (decode=False)")
        return self.panel.image()

    def take(self) -> list[Transfer]:
        """The transfers since the last call."""
        out, self.transfers = self.transfers, []
        return out


def bits_of(transfers: Iterable[Transfer]) -> int:
    return sum(t.bits for t in transfers)


class _Message(Frozen):
    addr: int
    buf: bytes


class _Messages:
    """``smbus2.i2c_msg``: only ``write`` is used by luma."""

    @staticmethod
    def write(address: int, buf: Sequence[int]) -> _Message:
        return _Message(address, bytes(buf))


class FakeSMBus:
    """``smbus2.SMBus`` on a :class:`FakeBus`: the two writes luma uses, and close."""

    def __init__(self, bus: FakeBus, port: int) -> None:
        self.bus = bus
        self.port = port
        self.fd: int | None = os.open(os.devnull, os.O_RDWR | os.O_CLOEXEC)
        bus.opened += 1

    def write_i2c_block_data(self, address: int, register: int, data: Sequence[int]) -> None:
        if len(data) > 32:
            raise ValueError("Data length cannot exceed 32 bytes")
        self._check_open()
        self.bus.transfer(address, [register, *data])

    def i2c_rdwr(self, *messages: _Message) -> None:
        self._check_open()
        for message in messages:
            self.bus.transfer(message.addr, message.buf)

    def _check_open(self) -> None:
        if self.fd is None:
            raise OSError(errno.EBADF, "Bad file descriptor")

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
            self.bus.closed += 1


class FakeSmbus2:
    """Stands in for the ``smbus2`` module (see :func:`hardware.display.oled.
    i2c_device_factory`'s ``smbus`` argument): ``SMBus(port)`` opens the fake bus."""

    i2c_msg = _Messages

    def __init__(self, bus: FakeBus, missing_ports: Iterable[int] = ()) -> None:
        self.bus = bus
        self.missing_ports = set(missing_ports)
        self.handles: list[FakeSMBus] = []

    def SMBus(self, port: int) -> FakeSMBus:
        if port in self.missing_ports:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory",
                                    f"/dev/i2c-{port}")
        handle = FakeSMBus(self.bus, port)
        self.handles.append(handle)
        return handle


def fake_bus(driver: str, address: int = 0x3C, decode: bool = True,
             nibbles_edit_pointer: bool = False) -> FakeBus:
    """An empty bus with a freshly powered ``driver`` panel on it (``decode=False``: no
    panel model, only the transfers are kept; ``nibbles_edit_pointer``: see
    :class:`Panel`)."""
    return FakeBus(PANELS[driver](nibbles_edit_pointer) if decode else None, address)


__all__ = [
    "PANELS",
    "FakeBus",
    "FakeSMBus",
    "FakeSmbus2",
    "Panel",
    "Sh1106Panel",
    "Ssd1306Panel",
    "Transfer",
    "bits_of",
    "fake_bus",
]

