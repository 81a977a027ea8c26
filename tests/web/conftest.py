"""The browser the page tests drive: Debian's Chromium, headless, through chromedriver."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.system_tools import require_commands

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
    driver = webdriver.Chrome(service=Service(tools["chromedriver"]), options=options)
    try:
        yield driver
    finally:
        driver.quit()
