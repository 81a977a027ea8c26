"""Install hints that work where the user is (issue 38): cbrig is on no package index and
Debian 12's system pip refuses to install (PEP 668), so a hint names this interpreter's
own pip, and says whether this is a checkout or an installed package."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from rig import extras


def test_in_a_checkout_the_hint_installs_the_extra_from_the_checkout(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'cbrig'\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "prefix", str(tmp_path / ".venv"))
    monkeypatch.setattr(sys, "base_prefix", "/usr")
    assert extras.install_hint("print", tmp_path) == (
        "from this checkout: .venv/bin/pip install -e '.[print]'")


def test_from_elsewhere_the_checkout_is_named_by_its_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    checkout = tmp_path / "cb-rig"
    checkout.mkdir()
    (checkout / "pyproject.toml").write_text("")
    elsewhere = tmp_path / "somewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.setattr(sys, "prefix", str(checkout / ".venv"))
    monkeypatch.setattr(sys, "base_prefix", "/usr")
    assert extras.install_hint("case", checkout) == (
        f"from this checkout: {checkout}/.venv/bin/pip install -e '{checkout}[case]'")


def test_a_checkout_without_a_venv_is_told_to_make_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "prefix", "/usr")
    monkeypatch.setattr(sys, "base_prefix", "/usr")
    hint = extras.install_hint("print", tmp_path)
    assert hint == ("from this checkout: python3 -m venv .venv && "
                    ".venv/bin/pip install -e '.[print]'")


def test_an_installed_package_is_told_the_extras_packages_by_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No pyproject.toml beside the package: a wheel (the Pi's /opt/cbrig/venv)."""
    monkeypatch.setattr(sys, "prefix", "/opt/cbrig/venv")
    monkeypatch.setattr(sys, "base_prefix", "/usr")
    monkeypatch.setattr(extras, "extra_packages",
                        lambda extra: ["reportlab>=4.0"] if extra == "print" else [])
    hint = extras.install_hint("print", tmp_path)
    assert hint == ("this cbrig is an installed package (its virtualenv /opt/cbrig/venv): "
                    "/opt/cbrig/venv/bin/pip install 'reportlab>=4.0'")
    assert "cbrig[" not in hint and "-e" not in hint


def test_the_extras_packages_come_from_the_installed_metadata() -> None:
    """This checkout's own editable install lists the extras of pyproject.toml."""
    assert extras.extra_packages("print") == ["reportlab>=4.0"]
    assert {p.split(">")[0] for p in extras.extra_packages("case")} == {
        "manifold3d", "numpy", "trimesh"}
