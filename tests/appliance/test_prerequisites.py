"""What a machine that never ran CI needs before the container jobs can build anything.

Every green arm64 run once had its root file system cached from an earlier run, so a
missing build tool (mmdebstrap's arch-test) stayed hidden until a fresh machine failed.
These checks depend on no cache: the cache directory points at an empty folder, the
tools are found or installed by name, and mmdebstrap is asked, with --simulate, whether
it would build each recipe here.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.appliance import emulation, rootfs
from tests.ciscript import emulated_suite
from tests.system_tools import find_commands

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.appliance


@pytest.fixture
def empty_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CBRIG_CI_CACHE", str(tmp_path))
    return tmp_path


def test_a_foreign_architecture_names_arch_test_and_the_host_does_not() -> None:
    assert rootfs.build_tools("arm64", host="amd64") == {
        "mmdebstrap": "mmdebstrap", "arch-test": "arch-test"}
    assert rootfs.build_tools("amd64", host="amd64") == {"mmdebstrap": "mmdebstrap"}


def test_the_arm64_job_names_every_host_tool_it_runs() -> None:
    tools = emulated_suite().required_tools(emulation.ARCHES["arm64"])
    assert tools == {"mmdebstrap": "mmdebstrap", "arch-test": "arch-test",
                     "qemu-aarch64-static": "qemu-user-static",
                     "systemd-nspawn": "systemd-container", "mount": "mount"}


def test_a_cold_machine_can_build_the_arm64_root_file_system(empty_cache: Path) -> None:
    if os.geteuid() != 0:
        pytest.fail("building a root file system needs root: run the suite as root",
                    pytrace=False)
    suite = emulated_suite()
    arch = emulation.ARCHES["arm64"]
    recipe = suite.suite_recipe(arch)
    assert not recipe.tarball().exists(), "the cache must be empty for this check"
    tools, problem = find_commands(suite.required_tools(arch))
    assert problem == ""
    emulation.ensure_binfmt(arch)
    arch_test = subprocess.run([tools["arch-test"], arch.debian], capture_output=True,
                               text=True, check=False)
    assert arch_test.returncode == 0, arch_test.stdout + arch_test.stderr
    assert rootfs.simulate(recipe, tools["mmdebstrap"]) == ""
    assert list(empty_cache.iterdir()) == [], "a simulated build writes nothing"
