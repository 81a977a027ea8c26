"""tests/slowdown.py: the factor the emulated job scales native timeouts by."""

from __future__ import annotations

import pytest

from tests.slowdown import ENVIRONMENT, scaled


def test_native_timeouts_are_unchanged(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENVIRONMENT, raising=False)
    assert scaled(300) == 300


def test_the_emulated_slowdown_multiplies(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENVIRONMENT, "10")
    assert scaled(300) == 3000


@pytest.mark.parametrize("raw", ["ten", "0.5", "nan"])
def test_a_bad_factor_is_an_error_not_a_silent_one(
        monkeypatch: pytest.MonkeyPatch, raw: str) -> None:
    monkeypatch.setenv(ENVIRONMENT, raw)
    with pytest.raises(ValueError, match=ENVIRONMENT):
        scaled(300)
