"""The first screen comes before the game modules: `cbrig run` sends READY=1 from the
setup menu, with the pins, knobs and reader claimed, without having imported the
controller, the session or the game's rules, and imports them right after (so the press
that starts a game does not wait for them).

SIGTERM right after READY=1 is handled by the loop, which serves events only once
start-up is complete, so when the daemon has exited everything start-up imports after
READY is in the log."""

from __future__ import annotations

import os

from bench.daemon import Workdir, start_daemon
from tests.slowdown import scaled

READY_DEADLINE = 300.0
"""Seconds before a start is called a hang: ~0.2 s on a quiet machine, a deprioritised
start at load 20 missed an earlier 30 s (issue 46); this is room for ten times worse."""
STOP_DEADLINE = 120.0
"""SIGTERM to exit: the daemon first finishes importing the game's modules (under a
second quietly)."""

GAME_MODULES = ("rig.core.controller", "rig.core.session", "rig.core.replay", "rig.core.journal",
                "engine.api",
                "engine.tenfour.state", "PIL.ImageDraw", "hardware.display.oled")
COSTLY_STDLIB = ("dataclasses", "inspect", "ast", "shutil", "socket", "selectors", "json")
"""Nor these: the values the first screen needs are valueclass classes (dataclasses
compile their methods at import and pull in inspect and ast), sd_notify sends through
_socket, command help gets the terminal width without shutil, the state directory is
made by rig.statedir (not the journal) and the config quotes with json only when it
writes."""


def imported(text: str) -> set[str]:
    return {line.split("|", 2)[2].strip() for line in text.splitlines()
            if line.startswith("import time:") and "self [us]" not in line}


def brought_by_the_pin_library() -> set[str]:
    """The costly modules the pins and knobs bring (gpiozero, mock backend): they are
    claimed before READY=1 (READY means the rig can read its knobs), so what gpiozero
    imports is paid for then whatever the rig's own modules do."""
    import subprocess
    import sys

    code = ("import sys, gpiozero.pins.mock, hardware.devices; "
            "print(' '.join(sorted(set(sys.modules) & set(sys.argv[1:]))))")
    result = subprocess.run([sys.executable, "-c", code, *COSTLY_STDLIB], check=True,
                            capture_output=True, text=True, timeout=scaled(300))
    return set(result.stdout.split())


def test_ready_comes_before_the_game_modules_and_they_follow() -> None:
    work = Workdir()
    try:
        work.reset_state()
        log = work.root / "importtime.txt"
        with open(log, "wb") as err:
            daemon = start_daemon(work, {"PYTHONPROFILEIMPORTTIME": "1"}, stderr=err,
                                  ready_timeout=scaled(READY_DEADLINE))
            at_ready = os.path.getsize(log)
            assert daemon.stop(scaled(STOP_DEADLINE)) == 0
        after = imported(log.read_text(errors="replace"))
        before = imported(log.read_bytes()[:at_ready].decode(errors="replace"))
        assert "rig.screens.render" in before and "rig.core.setup_menu" in before
        assert not before & set(GAME_MODULES), before & set(GAME_MODULES)
        costly = before & set(COSTLY_STDLIB)
        assert costly <= brought_by_the_pin_library(), costly
        assert {"rig.core.controller", "rig.core.session", "engine.tenfour.state"} <= after
    finally:
        work.cleanup()


OLED_FIRST_FRAME = """
import sys
from hardware.display.build import build_display
from rig.screens.render import render
from rig.screens.screen import Screen
display = build_display("ssd1306", lambda event: None, i2c_port=1, address=0x3C, rotate=0,
                        contrast=None)
frame = render(Screen("SETUP"))
display.prepare(frame)
display.show(frame)
print(type(display).__name__, sorted(set(sys.modules) & set(sys.argv[1:])))
"""


OURS_TO_KEEP_OUT = tuple(name for name in COSTLY_STDLIB if name not in ("socket", "selectors"))
"""On the OLED path: luma's ``luma.core.interface.serial`` imports ``multiprocessing``
(and so ``socket`` and ``selectors``) when it loads, which is not ours to change."""


def test_a_rig_s_oled_path_to_the_first_frame_makes_no_dataclass() -> None:
    """On a rig the OLED driver and its bus plan come before READY (the first frame goes
    to the panel; here there is no bus, so the send fails and is retried later): they
    must not bring the costly modules back."""
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-c", OLED_FIRST_FRAME, *OURS_TO_KEEP_OUT],
                            capture_output=True, text=True, check=True,
                            timeout=scaled(300))
    assert result.stdout.split() == ["OledDisplay", "[]"], result.stdout + result.stderr
