"""The I2S amplifier's wiring (wiring/README.md) clashes with no pin of the rig: every
GPIO of the pin map belongs to one part, and the I2S pins (GPIO18-21) to the amplifier
alone, in the documented table, the shipped config and the built-in defaults."""

from __future__ import annotations

import re
from collections import defaultdict

from rig.config import default_config, load_config
from tests.config.test_wiring_docs import BCM_TO_HEADER, WIRING, pin_table

I2S = {18: "BCLK", 19: "LRC", 20: "DIN (in)", 21: "DIN"}
AMPLIFIER = {"BCLK": (18, 12), "LRC (LRCLK)": (19, 35), "DIN": (21, 40)}


def part_of(row: dict[str, str], previous: str) -> str:
    """The part a table row belongs to ("Hi knob" for "Hi knob (KY-040)")."""
    name = row["Part"]
    if not name:
        return previous
    return re.sub(r"\s*\(.*\)$", "", name).split()[0].lower()


def test_every_gpio_belongs_to_one_part() -> None:
    owners: dict[int, set[str]] = defaultdict(set)
    for row in pin_table():
        match = re.match(r"GPIO(\d+)", row["BCM GPIO"])
        if match:
            owners[int(match.group(1))].add(part_of(row, ""))
    clashes = {gpio: parts for gpio, parts in owners.items() if len(parts) > 1}
    assert clashes == {}
    assert owners[12] == {"buzzer"}  # hence no PWM audio (GPIO12/13) on this rig


def test_the_amplifier_rows() -> None:
    rows = [r for r in pin_table() if r["Part"].startswith("MAX98357A")]
    found = {r["Signal"]: (int(r["BCM GPIO"][4:]), int(r["Header pin"].split()[0]))
             for r in rows if r["BCM GPIO"].startswith("GPIO")}
    assert found == AMPLIFIER
    assert all(BCM_TO_HEADER[gpio] == pin for gpio, pin in found.values())
    power = {r["Signal"]: r["BCM GPIO"] for r in rows if not r["BCM GPIO"].startswith("GPIO")}
    assert power == {"Vin": "5V", "GND": "GND"}


def test_no_configured_pin_is_an_i2s_pin() -> None:
    for config in (load_config(WIRING / "config.toml"), default_config()):
        used = config.pins.used()
        assert not {name: gpio for name, gpio in used.items() if gpio in I2S}


def test_the_i2s_pins_are_used_by_the_amplifier_alone() -> None:
    for row in pin_table():
        match = re.match(r"GPIO(\d+)", row["BCM GPIO"])
        if match and int(match.group(1)) in I2S:
            assert row["Part"].startswith("MAX98357A"), row
