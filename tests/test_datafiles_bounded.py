"""Data files are read only as regular files of a bounded size, for a config and for a
journal header alike: one function says what is wrong with a path."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rig.config import ConfigError, parse_config
from rig.datafiles import MAX_DATA_BYTES, DataFileRefused, data_file_problem, read_data

PACKAGE = "engine.tenfour.data"
"""A game's data package (any: the bounds are the same for every game's)."""


def test_a_regular_file_is_read(tmp_path: Path) -> None:
    path = tmp_path / "bands.toml"
    path.write_text("x = 1\n")
    assert data_file_problem(path) is None
    assert read_data(str(path), PACKAGE) == ("x = 1\n", str(path))


@pytest.mark.parametrize("name, wanted", [
    ("/dev/zero", "character device"),
    ("/dev/urandom", "character device"),
    ("DIR", "directory"),
    ("FIFO", "FIFO"),
    ("BIG", "larger than"),
    ("MISSING", "no such file"),
])
def test_what_is_not_a_small_regular_file_is_refused_with_its_kind(tmp_path: Path, name: str,
                                                                  wanted: str) -> None:
    path = {"DIR": tmp_path, "MISSING": tmp_path / "missing.toml"}.get(name, Path(name))
    if name == "FIFO":
        path = tmp_path / "pipe"
        os.mkfifo(path)
    if name == "BIG":
        path = tmp_path / "big.toml"
        with path.open("wb") as handle:
            handle.truncate(MAX_DATA_BYTES + 1)
    problem = data_file_problem(path)
    assert problem is not None and wanted in problem
    with pytest.raises(OSError) as caught:
        read_data(str(path), PACKAGE)  # a FIFO with no writer must not block here
    assert wanted.lower() in str(caught.value).lower()
    if name != "MISSING":
        assert isinstance(caught.value, DataFileRefused)


def test_a_file_that_grows_past_the_limit_while_read_is_refused(tmp_path: Path) -> None:
    """The size is checked on what is read, not only on what stat said."""
    from rig import datafiles

    path = tmp_path / "growing.toml"
    path.write_bytes(b"#" * 100)
    limit = datafiles.MAX_DATA_BYTES
    try:
        datafiles.MAX_DATA_BYTES = 50
        with pytest.raises(DataFileRefused, match="larger than"):
            read_data(str(path), PACKAGE)
    finally:
        datafiles.MAX_DATA_BYTES = limit


def test_an_over_long_shipped_name_is_not_shipped_and_no_crash() -> None:
    from rig.datafiles import is_shipped

    assert not is_shipped("default:" + "b" * 5000, PACKAGE)
    with pytest.raises(FileNotFoundError):
        read_data("default:" + "b" * 5000, PACKAGE)


@pytest.mark.parametrize("value, wanted", [("/dev/zero", "character device"),
                                           ("/", "directory")])
def test_the_config_check_refuses_the_same_paths(value: str, wanted: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(f'[game]\nname = "tenfour"\nplayers = 3\n[game.data]\nbands = "{value}"\n')
    assert any(p.field == "game.data.bands" and wanted in p.message
               for p in caught.value.problems), caught.value.problems
