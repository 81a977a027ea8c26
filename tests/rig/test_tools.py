"""The owner's tools: the reader wiring check, card enrolment and the self test."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import tty
from types import SimpleNamespace

from hardware.events import CardPresented, CardRemoved, KnobPress, KnobSpin, KnobTurn
from hardware.rfid.rdm6300 import encode_frame
from rig.core.enroll import enroll, save_card_map
from rig.core.service import load_card_map
from rig.owner import selftest
from rig.owner.selftest import CHECKS, run_checks
from tests.slowdown import hang


def test_rfid_listen_prints_a_presented_card_and_its_removal():
    master, slave = os.openpty()
    tty.setraw(slave)
    listener = subprocess.Popen(
        [sys.executable, "-m", "rig.cli", "rfid", "listen", "--port", os.ttyname(slave),
         "--count", "3", "--seconds", "30"], stdout=subprocess.PIPE, text=True)
    try:
        assert listener.stdout is not None
        lines = [listener.stdout.readline(), listener.stdout.readline()]
        assert lines[1].startswith("reader    connected"), lines
        bad = bytearray(encode_frame(1, 0))
        bad[5] ^= 0x01  # a flipped bit: wrong checksum
        os.write(master, b"noise" + bytes(bad) + encode_frame(3887558, 0x67))
        out, _ = listener.communicate(timeout=hang())
    finally:
        os.close(master)
        os.close(slave)
    assert listener.returncode == 0
    assert "rejected" in out
    assert "presented 0003887558" in out
    assert "removed   0003887558" in out


def _events(*items):
    q: queue.Queue[object] = queue.Queue()
    for item in items:
        q.put(item)
    return q


def test_enroll_maps_each_tapped_tag_to_the_card_asked_for():
    events = _events(CardPresented("111", "r"), CardRemoved("111", "r"),
                     CardPresented("222", "r"), CardPresented("333", "r"),
                     CardPresented("444", "r"))
    answers = iter(["", "r", "", "s"])
    said: list[str] = []
    tags: dict[str, str] = {}
    enroll([("M01", "a"), ("M02", "b"), ("M03", "c")], events, lambda _: next(answers),
           said.append, tags, timeout=hang())
    assert tags == {"111": "M01", "333": "M02"}
    assert "Tap card M01: a" in said


def test_re_enrolling_a_card_replaces_its_old_tag_and_quit_keeps_the_rest():
    events = _events(CardPresented("999", "r"), CardPresented("555", "r"))
    answers = iter(["", "q"])
    tags = {"111": "M01", "222": "M02"}
    enroll([("M01", "a"), ("M02", "b")], events, lambda _: next(answers), lambda _: None, tags,
           timeout=hang())
    assert tags == {"999": "M01", "222": "M02"}


def test_the_card_map_survives_a_save_and_load(tmp_path):
    path = tmp_path / "state" / "cards.toml"
    save_card_map(path, {"0003887558": "M01", "0000000001": "bump"})
    assert load_card_map(path) == {"0003887558": "M01", "0000000001": "bump"}


def test_a_corrupt_card_map_means_no_cards_not_a_crash(tmp_path):
    path = tmp_path / "cards.toml"
    path.write_text("[tags\n")
    assert load_card_map(path) == {}
    assert load_card_map(tmp_path / "missing.toml") == {}


def test_selftest_passes_when_every_part_reports():
    events = _events(KnobTurn("hi", 2), KnobPress("hi"), KnobSpin("hi", 0.5),
                     KnobPress("hi"),  # the wrong knob: reported, not counted
                     KnobTurn("lo", -1), KnobPress("lo"), KnobSpin("lo", 0.9),
                     CardPresented("0003887558", "deck"))
    said: list[str] = []
    shown: list[str] = []
    results = run_checks(events, said.append, shown.append, timeout=hang())
    assert all(results.values())
    assert shown == [check.instruction for check in CHECKS]
    assert any("saw KnobPress" in line for line in said)


def test_selftest_reports_a_part_that_never_answers(monkeypatch):
    """The check clock stands still, so a queued event is found however late the test
    runs (a 0.05 s window could pass before the first look at load 20); an empty queue
    still times out after the short wait."""
    monkeypatch.setattr(selftest, "time", SimpleNamespace(monotonic=lambda: 0.0))
    results = run_checks(_events(KnobTurn("hi", 1)), lambda _: None, lambda _: None,
                         timeout=0.05)  # not a hang deadline: the wait that must run out
    assert results["Turn the HI knob a few clicks"] is True
    assert results["Tap any card on the reader"] is False
