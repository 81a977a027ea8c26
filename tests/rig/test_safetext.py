"""Untrusted text reaches a terminal only with its control characters made visible."""

from __future__ import annotations

import pytest

from rig.safetext import safe_text


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("Blue board", "Blue board"),
        ("Café — Kreuzung №5 🚚", "Café — Kreuzung №5 🚚"),
        ("\x1b[2J\x1b[Hpwned", "\\x1b[2J\\x1b[Hpwned"),
        ("\x1b]0;title\x07", "\\x1b]0;title\\x07"),
        ("\x9b31m", "\\x9b31m"),
        ("ok\rFAKE", "ok\\rFAKE"),
        ("line\nforged", "line\\nforged"),
        ("abc\u202edcba", "abc\\u202edcba"),
        ("zero\u200bwidth", "zero\\u200bwidth"),
        ("para\u2029sep", "para\\u2029sep"),
        ("tab\there", "tab\\there"),
        ("del\x7f", "del\\x7f"),
    ],
)
def test_control_characters_are_shown_not_obeyed(raw: str, shown: str) -> None:
    assert safe_text(raw) == shown


def test_newlines_may_be_kept_for_messages_of_several_lines() -> None:
    assert safe_text("one\ntwo\x1b[1A", keep_newlines=True) == "one\ntwo\\x1b[1A"
    assert safe_text("cr\r\n", keep_newlines=True) == "cr\\r\n"


def test_anything_is_turned_into_text() -> None:
    assert safe_text(ValueError("bad \x1b")) == "bad \\x1b"
    assert safe_text(42) == "42"
