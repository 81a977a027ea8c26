"""The browser the page tests drive: Debian's Chromium, headless, through chromedriver."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from rig.config import RigConfig
from rig.core.loop import Stop
from rig.desktop.browserdesk import WebDesk
from rig.desktop.desk import DeskRig
from tests.slowdown import hang
from tests.system_tools import require_commands, scratch_home

CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run", "--window-size=1500,1100")


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[object]:
    tools = require_commands({"chromium": "chromium", "chromedriver": "chromium-driver"})
    os.environ.setdefault("SE_AVOID_STATS", "true")  # the driver is given: no downloads
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = tools["chromium"]
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path / 'chromium-profile'}")
    driver = webdriver.Chrome(service=Service(tools["chromedriver"], env=scratch_home(
        tmp_path / "home")), options=options)
    try:
        yield driver
    finally:
        driver.quit()


@contextmanager
def serving(config: RigConfig, seed: int, first: Iterable[object] = ()) -> Iterator[WebDesk]:
    """The desk rig served on a free port, its loop in a thread; `first` are hardware
    events handled before the loop starts (a game begun from the setup menu)."""
    rig = DeskRig(config=config, seed=seed, signals=False)
    web = WebDesk(rig, "127.0.0.1", 0)
    web.start()
    assert rig.loop is not None
    for event in first:
        rig.loop.step(event)
    loop = threading.Thread(target=rig.serve, name="rig-loop")
    loop.start()
    try:
        yield web
    finally:
        rig.loop.post(Stop())
        loop.join(timeout=hang())
        web.stop()
