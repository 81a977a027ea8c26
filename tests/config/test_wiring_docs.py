"""wiring/: the config, the pin table, the diagram and the install guide agree."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from rig.config import PIN_NAMES, load_config

REPO = Path(__file__).resolve().parents[2]
WIRING = REPO / "wiring"

# BCM GPIO -> physical header pin on every 40-pin Raspberry Pi.
BCM_TO_HEADER = {
    2: 3, 3: 5, 4: 7, 14: 8, 15: 10, 17: 11, 18: 12, 27: 13, 22: 15, 23: 16, 24: 18, 10: 19,
    9: 21, 25: 22, 11: 23, 8: 24, 7: 26, 0: 27, 1: 28, 5: 29, 6: 31, 12: 32, 13: 33, 19: 35,
    16: 36, 26: 37, 20: 38, 21: 40,
}
POWER = {"3V3": {1, 17}, "5V": {2, 4}, "GND": {6, 9, 14, 20, 25, 30, 34, 39}}


def pin_table() -> list[dict[str, str]]:
    """Rows of the "Default pin map" table in wiring/README.md."""
    text = (WIRING / "README.md").read_text(encoding="utf-8")
    section = text.split("## Default pin map", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in rows[0].strip("|").split("|")]
    return [dict(zip(header, (c.strip() for c in row.strip("|").split("|")), strict=True))
            for row in rows[2:]]


def test_wiring_config_loads_cleanly() -> None:
    config = load_config(WIRING / "config.toml")
    assert config.reader.type == "rdm6300"
    assert config.reader.port == "/dev/serial0"
    assert config.display.address == 0x3C


def test_wiring_config_pins_match_the_readme_table() -> None:
    config = load_config(WIRING / "config.toml")
    table = {row["Config field"]: row for row in pin_table() if row["Config field"] != "-"}
    fitted = {f"pins.{name}": bcm for name, bcm in config.pins.used().items()}
    assert set(table) == set(fitted)
    for field, bcm in fitted.items():
        row = table[field]
        assert row["BCM GPIO"] == f"GPIO{bcm}", field
        assert int(row["Header pin"]) == BCM_TO_HEADER[bcm], field


def test_every_table_row_is_a_real_header_pin() -> None:
    for row in pin_table():
        where = row["Header pin"]
        if where == "-":
            continue
        pin = int(where.split()[0])
        gpio = row["BCM GPIO"]
        if gpio in POWER:
            assert pin in POWER[gpio], row
        else:
            match = re.match(r"GPIO(\d+)", gpio)
            assert match, row
            assert BCM_TO_HEADER[int(match.group(1))] == pin, row


def test_default_config_pins_are_the_wiring_pins() -> None:
    """The built-in defaults follow the same plan (the LED is optional and off)."""
    from rig.config import default_config

    wiring = load_config(WIRING / "config.toml").pins
    defaults = default_config().pins
    for name in PIN_NAMES:
        if name != "led":
            assert getattr(defaults, name) == getattr(wiring, name), name
    assert defaults.led is None


def test_diagram_is_svg_and_labels_every_wired_pin() -> None:
    tree = ET.parse(WIRING / "wiring.svg")
    assert tree.getroot().tag == "{http://www.w3.org/2000/svg}svg"
    text = " ".join(t.text or "" for t in tree.iter("{http://www.w3.org/2000/svg}text"))
    for row in pin_table():
        gpio, where = row["BCM GPIO"], row["Header pin"]
        if where == "-":
            continue
        pin = where.split()[0]
        name = gpio.split()[0]
        assert f"{name}" in text and f"pin {pin}" in text, row
    for part in ("OLED", "Hi knob", "Lo knob", "RDM6300", "PN532", "buzzer", "LED"):
        assert part in text, part


@pytest.mark.parametrize(
    "needle",
    [
        "/boot/firmware/config.txt",
        "dtparam=i2c_arm=on,i2c_arm_baudrate=400000",
        "enable_uart=1",
        "raspi-config nonint do_serial_cons 1",
        "cmdline.txt",
        "gpio",
        "i2c",
        "dialout",
        "sudo systemd/install.sh",
        "sudo systemd/uninstall.sh",
        "--purge",
        "cbrig rfid listen",
        "cbrig selftest",
        "current.jsonl",
    ],
)
def test_install_guide_covers(needle: str) -> None:
    assert needle in (REPO / "docs" / "INSTALL.md").read_text(encoding="utf-8")


def test_parts_list_names_every_part() -> None:
    parts = (WIRING / "PARTS.md").read_text(encoding="utf-8")
    for part in ("KY-040", "SSD1306", "SH1106", "RDM6300", "PN532", "1 kΩ", "2 kΩ",
                 "buzzer", "LED", "330 Ω"):
        assert part in parts, part


def test_the_shipped_config_lets_a_pn532_take_its_own_baud() -> None:
    """wiring/README.md says 115200 is the PN532's default once reader.type is pn532:
    the shipped config must not pin 9600 over it."""
    from rig.config import parse_config

    text = (WIRING / "config.toml").read_text(encoding="utf-8")
    assert load_config(WIRING / "config.toml").reader.baud == 9600
    pn532 = text.replace('type = "rdm6300"', 'type = "pn532"', 1)
    assert parse_config(pn532, "config.toml").reader.baud == 115200
    assert "115200 baud is then the default" in (WIRING / "README.md").read_text()


@pytest.mark.parametrize("doc", ["wiring/README.md", "docs/INSTALL.md", "wiring/config.toml"])
def test_encoder_advice_matches_the_code(doc: str) -> None:
    """A half-cycle encoder on 4 counts half (set 2); a full-cycle one on 2 counts double
    (set 4). Never the other way round."""
    text = " ".join((REPO / doc).read_text(encoding="utf-8").split()).replace("# ", "")
    assert re.search(r"two steps per click, set `?encoder\.edges_per_detent = 2", text) is None
    assert "counts double" not in text
    assert "half-cycle" in text
    if doc != "wiring/config.toml":
        assert "one step for every two clicks" in text or "one step per two clicks" in text


def test_install_guide_enrols_the_cards_before_the_service_takes_the_reader() -> None:
    text = (REPO / "docs" / "INSTALL.md").read_text(encoding="utf-8")
    assert "<your copy" not in text  # a real way to get the source, not a placeholder
    stop = text.index("sudo systemctl stop cbrig")
    enrol = text.index("cbrig cards enroll")
    start = text.index("sudo systemctl start cbrig")
    assert stop < enrol < start
    assert "Enrol cards" in text


def test_hardware_defaults_are_the_config_defaults() -> None:
    """One source of default pins (hardware.pins): a bare HardwareConfig wires the knobs
    exactly as a rig built from the default config does."""
    from hardware.devices import HardwareConfig, config_from_sections
    from rig.config import default_config

    cfg = default_config()
    from_config = config_from_sections(cfg.pins, cfg.encoder, cfg.reader, cfg.display)
    bare = HardwareConfig()
    assert bare.knobs == from_config.knobs
    assert bare.pin_factory == from_config.pin_factory
    assert bare.gestures == from_config.gestures
