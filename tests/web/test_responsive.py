"""The browser pages fit a phone and a laptop: no sideways scrolling, nothing cut.

Headless Chromium is given the viewport of a phone (390x844, mobile) and of a laptop
(1280x800). On both, the page is no wider than the window and every part a player needs
(the OLED, both knobs, the tray and each card, the screen's text, the board and the piece
list) lies inside the window's width. On the phone the desk is one column: the OLED, then
the knobs, then the tray. Scrolling a card into view never hides the OLED. The
read-only board (/board, the Pi's page for phones at the table) fits the same way.
Screenshots of every case are written to the test's tmp_path, and to
docs/images/web-rig-<size>.png when UPDATE_GOLDEN=1.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from hardware.events import KnobPress, KnobTurn
from rig.config import GameConfig
from rig.desktop.browserdesk import WebDesk
from rig.desktop.desk import desk_config
from tests.web.conftest import serving
from tests.web.test_browser import _wait

SIZES = {"phone": (390, 844, True), "laptop": (1280, 800, False)}
IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"
DESK_PARTS = ("#bezel", "#oled", "#knob-hi", "#knob-lo", "#tray", ".card", "#tray-hint",
              "#screen", "#board", "#where li", ".rig h1", ".mute")
BOARD_PARTS = ("#screen", "#board", "#where li")
"""On a phone the board scrolls inside its box (#board), its labels readable."""
LABEL_PX = 11.5
"""The smallest height of the board's space labels ("R13") on a phone (issue 44: 2.9
px on 10-Four's board and 3.7 px on Bump 'Em's at 390 px wide, before)."""

BOXES = """
const out = {};
for (const selector of arguments[0]) {
  out[selector] = Array.from(document.querySelectorAll(selector)).map(el => {
    const r = el.getBoundingClientRect();
    return [r.left, r.right, r.top, r.bottom];
  });
}
return out;
"""


LABEL_SIZES = """
const svg = document.querySelector('#board svg');
return Array.from(svg.querySelectorAll('text'))
  .filter(t => !t.closest('#pieces') && /^[A-Z]{1,2}[0-9]{1,2}$/.test(t.textContent.trim()))
  .map(t => t.getBoundingClientRect().height > 0 ? parseFloat(getComputedStyle(t).fontSize)
       * t.getScreenCTM().a : 0);
"""
"""The rendered font size, px, of each space label of the board."""


@pytest.fixture(params=["tenfour", "bumpem"])
def started(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[WebDesk]:
    """The desk rig of `game` for four (every side of the board in use), a game begun."""
    config = desk_config(GameConfig(name=request.param, players=4, levels=("human",) * 4),
                         tmp_path / "state")
    with serving(config, seed=7, first=(KnobTurn("hi", -1), KnobPress("hi"))) as web:
        assert web.rig.controller is not None  # the setup menu, round to START, pressed
        yield web


def _viewport(driver: object, size: str) -> None:
    width, height, mobile = SIZES[size]
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",  # type: ignore[attr-defined]
                           {"width": width, "height": height, "deviceScaleFactor": 1,
                            "mobile": mobile})


def _open(driver: object, url: str, desk: bool) -> None:
    driver.get(url)  # type: ignore[attr-defined]
    ready = ("return cbrig.frames > 0 && cbrig.cards.length > 0 && "
             "document.querySelectorAll('#pieces .piece').length > 0" if desk else
             "return document.querySelectorAll('#pieces .piece').length > 0 && "
             "document.querySelector('#screen').textContent.length > 0")
    _wait(driver, lambda d: d.execute_script(ready), "the page to show the game")


def _boxes(driver: object, parts: tuple[str, ...]) -> dict[str, list[list[float]]]:
    return driver.execute_script(BOXES, list(parts))  # type: ignore[attr-defined, no-any-return]


def _check_fits(driver: object, size: str, parts: tuple[str, ...],
                what: str) -> dict[str, list[list[float]]]:
    """No sideways scroll and every part inside the window's width. The width is the
    device's: a mobile browser zooms out to show a page wider than the phone, and then
    reports that wider page as innerWidth."""
    width = SIZES[size][0]
    inner, scroll = driver.execute_script(  # type: ignore[attr-defined]
        "return [window.innerWidth, document.scrollingElement.scrollWidth]")
    assert inner == width, f"{what}: the page is shown {inner} px wide on a {width} px screen"
    assert scroll <= width, f"{what}: the page is {scroll} px wide in a {width} px window"
    boxes = _boxes(driver, parts)
    for selector, found in boxes.items():
        assert found, f"{what}: no {selector} on the page"
        for left, right, _, _ in found:
            assert left >= -0.5 and right <= width + 0.5, \
                f"{what}: {selector} spans {left:.0f}..{right:.0f} of {width} px"
    return boxes


def _overlap(a: list[float], b: list[float]) -> bool:
    """Two [left, right, top, bottom] boxes share some area."""
    return a[0] < b[1] and b[0] < a[1] and a[2] < b[3] and b[2] < a[3]


def _check_screen_stays(driver: object, what: str) -> None:
    """Scroll each card into view, then the page to its end: the OLED stays whole in
    the window, and the card scrolled to is visible and not under the OLED."""
    height = driver.execute_script("return window.innerHeight")  # type: ignore[attr-defined]
    count = driver.execute_script("return document.querySelectorAll('.card').length")  # type: ignore[attr-defined]
    for index in sorted({0, count // 2, count - 1}):
        for block in ("nearest", "end", "start"):
            driver.execute_script(  # type: ignore[attr-defined]
                f"document.querySelectorAll('.card')[{index}]"
                f".scrollIntoView({{block: '{block}'}});")
            boxes = _boxes(driver, ("#oled", ".card"))
            _, _, top, bottom = boxes["#oled"][0]
            assert top >= -0.5 and bottom <= height + 0.5, \
                f"{what}: card {index} ({block}) put the OLED at {top:.0f}..{bottom:.0f}"
            _, _, card_top, card_bottom = boxes[".card"][index]
            assert card_top >= bottom - 0.5 and card_bottom <= height + 0.5, \
                f"{what}: card {index} ({block}) at {card_top:.0f}..{card_bottom:.0f}, " \
                f"the OLED ends at {bottom:.0f}"


def _shot(driver: object, tmp_path: Path, name: str) -> Path:
    driver.execute_script("window.scrollTo(0, 0);")  # type: ignore[attr-defined]
    shot = tmp_path / f"{name}.png"
    driver.save_screenshot(str(shot))  # type: ignore[attr-defined]
    if os.environ.get("UPDATE_GOLDEN"):
        IMAGES.mkdir(parents=True, exist_ok=True)
        (IMAGES / f"{name}.png").write_bytes(shot.read_bytes())
    return shot


@pytest.mark.browser
@pytest.mark.parametrize("page", ["desk", "board"])
@pytest.mark.parametrize("size", list(SIZES))
def test_the_page_fits(browser: object, started: WebDesk, page: str, size: str,
                       tmp_path: Path) -> None:
    driver = browser
    desk = page == "desk"
    _viewport(driver, size)
    _open(driver, started.url + ("" if desk else "board"), desk=desk)
    what = f"{page} {size}"
    boxes = _check_fits(driver, size, DESK_PARTS if desk else BOARD_PARTS, what)
    if desk and size == "phone":  # one column: the OLED, the knobs, then the tray
        oled, hi, lo, tray = (boxes[s][0] for s in ("#oled", "#knob-hi", "#knob-lo", "#tray"))
        assert oled[3] <= min(hi[2], lo[2]), f"{what}: the knobs are not below the OLED"
        assert max(hi[3], lo[3]) <= tray[2], f"{what}: the tray is not below the knobs"
    if desk:  # the voice's mute switch beside the title, on neither it nor the OLED
        title, mute, bezel = (boxes[s][0] for s in (".rig h1", ".mute", "#bezel"))
        assert not _overlap(title, mute), f"{what}: the mute switch covers the title"
        assert mute[3] <= bezel[2], f"{what}: the mute switch covers the OLED"
        _check_screen_stays(driver, what)
    _shot(driver, tmp_path, f"web-{'rig' if desk else 'board'}-{size}")
    if size == "phone":  # readable without pinching: the labels' own size, in pixels
        labels = driver.execute_script(LABEL_SIZES)  # type: ignore[attr-defined]
        assert labels and min(labels) >= LABEL_PX, f"{what}: space labels {labels[:3]} px"
        if not desk:
            driver.execute_script("document.querySelector('#board').scrollIntoView();")  # type: ignore[attr-defined]
            board_shot = tmp_path / "labels.png"
            driver.save_screenshot(str(board_shot))  # type: ignore[attr-defined]
            if os.environ.get("UPDATE_GOLDEN"):
                game = started.rig.config.game.name
                (IMAGES / f"web-board-phone-labels-{game}.png").write_bytes(
                    board_shot.read_bytes())
        # the button shows the whole board at a glance (labels small again), and back
        driver.execute_script("document.querySelector('#board-zoom').click();")  # type: ignore[attr-defined]
        whole = driver.execute_script(LABEL_SIZES)  # type: ignore[attr-defined]
        assert max(whole) < LABEL_PX
        _check_fits(driver, size, ("#board svg",), what + " whole board")


@pytest.mark.browser
def test_the_tray_dims_only_cards_out_of_the_pile(browser: object, started: WebDesk) -> None:
    """Before the first draw no card is out of the pile, so none is dimmed and the hint
    speaks of no dimmed card; it says whether a card is asked (10-Four begins with the
    start spins, Bump 'Em with a ticket)."""
    from rig.core.controller import valid_cards

    driver = browser
    _open(driver, started.url, desk=True)
    controller = started.rig.controller
    assert controller is not None
    asked = bool(valid_cards(controller))
    assert asked == (controller.session.game.name == "bumpem")
    spent = driver.execute_script("return document.querySelectorAll('.card.spent').length")  # type: ignore[attr-defined]
    hint = driver.execute_script("return document.querySelector('#tray-hint').textContent")  # type: ignore[attr-defined]
    assert spent == 0
    assert "dimmed" not in hint.lower()
    assert ("Tap a card" in hint) == asked and ("No card is asked" in hint) == (not asked)
