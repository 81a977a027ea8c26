"""One table per extension point (issue 45): card readers, displays and voice effects are
found the way games are, from an entry point group, and each has a battery any
implementation runs on itself.

The proof is a package from outside: a reader type ("wand", which streams each card's
tag as a line of text), a display driver ("ledger", which keeps its frames) and a voice
effect ("tinny", a sox chain), installed as ``pip install`` leaves a package (a folder
on the path and a .dist-info whose entry_points.txt names them). A fresh rig process
then takes all three by name: the config check, ``cbrig rfid listen --reader`` and
``cbrig case``'s choices, the hardware's reader protocol, the display the daemon builds,
the narrator's clip; and not one file of the project was touched (their bytes compared).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hardware.display.base import NullDisplay
from hardware.display.kinds import DISPLAYS, DisplayCheckError, DisplayDriver, check_display
from hardware.rfid.kinds import READERS, Reader, ReaderCheckError, check_reader
from hardware.rfid.rdm6300 import Rdm6300Protocol
from rig.voice.effectcheck import EffectCheckError, check_effect
from rig.voice.effects import EFFECTS, Effect
from tests.slowdown import scaled
from tests.system_tools import require_commands

ROOT = Path(__file__).resolve().parent.parent

PACKAGE = '''"""Parts from outside the rig: a reader, a display and a voice effect."""

from hardware.display.base import FrameSink
from hardware.display.kinds import DisplayDriver
from hardware.rfid.kinds import Reader
from hardware.rfid.types import Rejection, TagRead
from rig.voice.effects import Effect


class WandProtocol:
    """Each card's tag as a line of ten digits; anything else is a rejected line."""

    baudrate = 57600
    misses_to_remove = 1
    poll_interval = 0.0

    def __init__(self):
        self.line = b""

    def reset(self):
        self.line = b""

    def on_connect(self, port):
        pass

    def read(self, port):
        out = []
        for byte in port.read(max(1, port.in_waiting)):
            if byte == 10:
                text = self.line.decode("ascii", "replace")
                self.line = b""
                out.append(TagRead(text, text) if text.isdigit() and len(text) == 10
                           else Rejection("not a tag line"))
            elif len(self.line) < 64:
                self.line += bytes([byte])
        return out


READER = Reader(name="wand", title="a reading wand", make=WandProtocol, baud=57600,
                misses=1, frame=lambda tag: tag.encode() + b"\\n")


class Ledger(FrameSink):
    frames = []

    def _send(self, frame):
        Ledger.frames.append(frame.copy())


DISPLAY = DisplayDriver(name="ledger", title="frames kept in a list",
                        make=lambda emit, settings: Ledger())

TINNY = Effect(name="tinny", title="a tin can telephone",
               sox=("highpass", "800", "lowpass", "2500"), rate=11025)
'''

ENTRY_POINTS = """[cbrig.readers]
wand = outsideparts:READER

[cbrig.displays]
ledger = outsideparts:DISPLAY

[cbrig.voice_effects]
tinny = outsideparts:TINNY
"""

PROBE = r'''
import json, sys
from cbrig.conformance import check_display, check_effect, check_reader
from hardware.devices import make_protocol
from hardware.display.build import build_display
from hardware.rfid.kinds import reader_kind, reader_types
from hardware.display.kinds import display_kind
from rig.config import load_config
from rig.voice.effects import effect_named
from rig.voice.narrator import Synthesizer

config = load_config(sys.argv[1])
check_reader(reader_kind("wand"))
check_display(display_kind("ledger"))
check_effect(effect_named("tinny"))
protocol = make_protocol(config.reader.type)
display = build_display(config.display.driver, lambda event: None)
clip = Synthesizer(config.voice, None).clip("Ten four.")
print(json.dumps({"reader": [config.reader.type, config.reader.baud,
                             config.reader.removal_misses, type(protocol).__name__],
                  "display": type(display).__name__, "rate": clip.rate,
                  "types": list(reader_types())}))
'''


PROJECT = ("pyproject.toml", "engine", "hardware", "rig", "cbrig", "bench", "valueclass",
           "wiring", "systemd")
"""The project's own files (what adding a kind from outside must not touch), read from
the tree itself: the arm64 job's copy of the checkout is no git repository."""


def _project_files() -> dict[str, bytes]:
    """Each project file's path (from the checkout) and its bytes."""
    found: dict[str, bytes] = {}
    for top in PROJECT:
        start = ROOT / top
        for path in ([start] if start.is_file() else sorted(start.rglob("*"))):
            if path.is_file() and "__pycache__" not in path.parts:
                found[str(path.relative_to(ROOT))] = path.read_bytes()
    return found


def install_parts(site: Path) -> None:
    """The package as pip leaves it: the module and its dist-info's entry points."""
    site.mkdir(parents=True)
    (site / "outsideparts.py").write_text(PACKAGE)
    dist = site / "outsideparts-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: outsideparts\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(ENTRY_POINTS)


def _run(site: Path, *command: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(ROOT)]))
    return subprocess.run([sys.executable, *command], capture_output=True, text=True,
                          env=env, cwd=site, timeout=scaled(120))


@pytest.fixture
def sox() -> str:
    """sox, which a voice effect's chain runs in (installed as every test's tool is, or
    the test fails naming the command: on a fresh machine nothing before these tests may
    have installed it)."""
    return require_commands({"sox": "sox"})["sox"]


def test_a_reader_a_display_and_an_effect_added_from_outside_touch_no_project_file(
        tmp_path: Path) -> None:
    require_commands({"sox": "sox", "espeak-ng": "espeak-ng"})  # the probe speaks, tinny
    before = _project_files()
    site = tmp_path / "site"
    install_parts(site)
    config = tmp_path / "rig.toml"
    config.write_text('[reader]\ntype = "wand"\n[display]\ndriver = "ledger"\n'
                      '[voice]\neffect = "tinny"\n')
    checked = _run(site, "-m", "rig.cli", "config", "check", str(config))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "reader:  wand on /dev/serial0 at 57600 baud" in checked.stdout
    probe = _run(site, "-c", PROBE, str(config))
    assert probe.returncode == 0, probe.stderr
    found = json.loads(probe.stdout)
    assert found["reader"] == ["wand", 57600, 1, "WandProtocol"]
    assert found["display"] == "Ledger"
    assert found["rate"] == 11025  # the narrator made the clip through the tinny chain
    assert found["types"] == ["rdm6300", "pn532", "wand", "none"]
    helped = _run(site, "-m", "rig.cli", "rfid", "listen", "--help")
    assert "wand" in helped.stdout, helped.stdout + helped.stderr
    after = _project_files()
    touched = sorted(name for name in before.keys() | after.keys()
                     if before.get(name) != after.get(name))
    assert touched == [], f"project files touched: {touched}"
    named = [name for name, data in after.items() if b"outsideparts" in data]
    assert named == [], f"project files naming the package: {named}"


def test_a_wrong_installed_part_is_left_out_in_one_line(tmp_path: Path) -> None:
    site = tmp_path / "site"
    install_parts(site)
    (site / "outsideparts.py").write_text(PACKAGE.replace("TINNY = Effect(", "TINNY = dict("))
    config = tmp_path / "rig.toml"
    config.write_text('[voice]\neffect = "tinny"\n')
    checked = _run(site, "-m", "rig.cli", "config", "check", str(config))
    assert checked.returncode != 0
    assert checked.stderr.splitlines()[0] == (
        "cbrig: voice effect 'tinny' (cbrig.voice_effects: outsideparts:TINNY) refused: "
        "TypeError: dict is no voice effect (rig.voice.effects.Effect: name, title, sox, "
        "rate, transmission) (fix: run cbrig.conformance.check_effect on it)")
    assert "voice.effect: 'tinny' is not one of 'radio', 'plain'" in checked.stdout
    assert "Traceback" not in checked.stderr
    listed = _run(site, "-c", "from rig.voice.effects import EFFECTS\nprint(EFFECTS.names())")
    assert listed.returncode == 0, listed.stderr  # listing first meets the broken one
    assert listed.stdout.strip() == "('radio', 'plain')"
    assert len(listed.stderr.splitlines()) == 1 and "refused" in listed.stderr


# -- the batteries, on the built-in kinds and on broken ones ------------------------------

@pytest.mark.parametrize("name", list(READERS.built_in))
def test_every_built_in_reader_passes_the_reader_battery(name: str) -> None:
    check_reader(READERS.get(name))


@pytest.mark.parametrize("name", list(DISPLAYS.built_in))
def test_every_built_in_display_passes_the_display_battery(name: str) -> None:
    check_display(DISPLAYS.get(name))


@pytest.mark.parametrize("name", list(EFFECTS.built_in))
def test_every_built_in_effect_passes_the_effect_battery(name: str, sox: str) -> None:
    check_effect(EFFECTS.get(name), sox)


class _Raising(Rdm6300Protocol):
    def read(self, port):  # type: ignore[no-untyped-def]
        if port.in_waiting:
            raise IndexError("frame out of range")
        return []


def test_the_reader_battery_names_what_is_broken() -> None:
    fine = READERS.get("rdm6300")
    assert isinstance(fine, Reader)
    with pytest.raises(ReaderCheckError, match=r"'rdm6300': the protocol's baudrate 9600 "
                                               r"is the kind's 19200"):
        check_reader(Reader(name="rdm6300", title="x", make=Rdm6300Protocol, baud=19200,
                            misses=0))
    with pytest.raises(ReaderCheckError, match=r"read raised IndexError: frame out of range "
                                               r"\(only OSError may\)"):
        check_reader(Reader(name="raising", title="x", make=_Raising, baud=9600, misses=0))
    with pytest.raises(ReaderCheckError, match=r"a card's own frame read back as \[\]"):
        check_reader(Reader(name="deaf", title="x", make=Rdm6300Protocol, baud=9600,
                            misses=0, frame=lambda tag: b"\x02nothing\x03"))
    with pytest.raises(ReaderCheckError, match="is no reader kind"):
        check_reader(object())


class _AlwaysSends(NullDisplay):
    def show(self, frame):  # type: ignore[no-untyped-def]
        self.stats.sent += 1
        return True


def test_the_display_battery_names_what_is_broken() -> None:
    with pytest.raises(DisplayCheckError, match="the same frame again is skipped"):
        check_display(DisplayDriver(name="eager", title="x",
                                    make=lambda emit, settings: _AlwaysSends()))
    with pytest.raises(DisplayCheckError, match="build gave a str, no Display"):
        check_display(DisplayDriver(name="wrong", title="x",
                                    make=lambda emit, settings: "a screen"))  # type: ignore


def test_the_effect_battery_names_what_is_broken(sox: str) -> None:
    with pytest.raises(EffectCheckError, match="sox refused the chain"):
        check_effect(Effect(name="typo", title="x", sox=("lowpas", "300")), sox)
    with pytest.raises(EffectCheckError, match="rate 4000 is not 8000-48000 Hz"):
        check_effect(Effect(name="low", title="x", rate=4000))
    with pytest.raises(EffectCheckError, match="a name in lower case, one word"):
        check_effect(Effect(name="Big Voice", title="x"))
