"""A start the rig refuses says why on the OLED before the process exits.

An immutable journal (``chattr +i``: a healthy game the rig may not write) refused the
start with exit 73 and a chown advice that could not mend it, and the OLED kept the
picture it had. The panel must now show NO START with the cause and its fix.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PIL import ImageChops

from hardware.display.base import Display
from hardware.display.fakebus import FakeSmbus2, fake_bus
from hardware.display.oled import OledDisplay, i2c_device_factory
from rig.config import RigConfig
from rig.core.daemon import Daemon
from rig.core.startup import EXIT_UNWRITABLE, StartRefused, StateUnwritable, refused_screen
from rig.screens.render import render
from tests.daemon.helpers import Quiet
from tests.daemon.test_journal_faults import _config, _journal_in_progress
from tests.system_tools import require_command


@pytest.fixture
def immutable_journal(tmp_path: Path) -> Iterator[tuple[RigConfig, Path]]:
    config = _config(tmp_path)
    current = _journal_in_progress(config)
    chattr = require_command("chattr", "e2fsprogs")
    done = subprocess.run([chattr, "+i", str(current)], capture_output=True, text=True)
    assert done.returncode == 0, f"chattr +i needs root on ext4/xfs/btrfs: {done.stderr}"
    try:
        yield config, current
    finally:
        subprocess.run([chattr, "-i", str(current)], check=True)


def test_an_immutable_journal_is_named_with_its_fix(
        immutable_journal: tuple[RigConfig, Path]) -> None:
    config, current = immutable_journal
    daemon = Daemon(config=config, notifier=Quiet())
    with pytest.raises(StateUnwritable) as caught:
        daemon.start()
    daemon.stop(caught.value)
    assert caught.value.exit_code == EXIT_UNWRITABLE
    assert "immutable" in str(caught.value) and f"chattr -i {current}" in str(caught.value)
    assert "chown" not in str(caught.value), "a chown cannot mend an immutable file"
    assert "immutable" in caught.value.short and "chattr -i" in caught.value.short


def test_the_refused_start_replaces_the_old_picture_on_the_oled(
        immutable_journal: tuple[RigConfig, Path]) -> None:
    config, _ = immutable_journal
    bus = fake_bus("ssd1306")
    old = OledDisplay(i2c_device_factory("ssd1306", smbus=FakeSmbus2(bus)))
    from rig.core.startup import goodbye_screen

    old.close(render(goodbye_screen("tenfour")))  # what the last run left: RIG OFF
    before = bus.image().tobytes()

    class OnTheBus(Daemon):
        def _build_display(self, emit: Callable[[object], None]) -> Display:
            return OledDisplay(i2c_device_factory("ssd1306", smbus=FakeSmbus2(bus)), emit)

    daemon = OnTheBus(config=config, notifier=Quiet())
    with pytest.raises(StartRefused) as caught:
        daemon.start()
    daemon.stop(caught.value)
    shown = bus.image()
    assert shown.tobytes() != before, "the OLED kept its old picture"
    wanted = render(refused_screen(caught.value)).convert(shown.mode)
    assert ImageChops.difference(shown, wanted).getbbox() is None
    assert "immutable" in refused_screen(caught.value).plain()


@pytest.mark.parametrize("errno_name, words", [("ENOSPC", "disk is full"),
                                               ("EROFS", "read-only"),
                                               ("EACCES", "chown")])
def test_the_screen_names_the_cause_of_an_unwritable_journal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, errno_name: str, words: str) -> None:
    import errno

    from rig.core import journal as journal_module

    config = _config(tmp_path)
    _journal_in_progress(config)
    code = getattr(errno, errno_name)

    def refuse(path: Path, flags: int, mode: int = 0o600) -> int:
        raise OSError(code, "refused", str(path))

    monkeypatch.setattr(journal_module, "open_state_file", refuse)
    daemon = Daemon(config=config, notifier=Quiet())
    with pytest.raises(StateUnwritable) as caught:
        daemon.start()
    daemon.stop(caught.value)
    assert words in refused_screen(caught.value).plain().lower()


def test_every_cause_fits_one_page_of_the_refused_screen(tmp_path: Path) -> None:
    """No knob works at a refused start: a second page could never be turned to."""
    import errno

    from rig.core.startup import _cause_words
    from rig.screens.screen import page_count

    for code in (errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOSPC, errno.EDQUOT,
                 errno.EIO, errno.ENOTDIR, errno.EBUSY):
        for what in ("Journal", "State dir"):
            refused = StateUnwritable("", _cause_words(OSError(code, ""), what))
            assert page_count(refused_screen(refused)) == 1, refused.short
    from rig.core.startup import HardwareUnavailable

    for kind in (StartRefused, HardwareUnavailable, StateUnwritable):
        assert page_count(refused_screen(kind(""))) == 1, kind.short
    for flag in ("immutable", "append-only"):
        refused = StateUnwritable("", f"Journal {flag}: chattr -{flag[0]}")
        assert page_count(refused_screen(refused)) == 1, refused.short
