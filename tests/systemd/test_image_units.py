"""The Pi image's systemd pieces (docs/IMAGE.md, "On the Pi"): cbrig.service's drop-in
(systemd/image.conf), cbrig-update.service and the launcher (systemd/cbrig-launch)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.slowdown import hang
from tests.system_tools import require_command
from tests.systemd.test_unit_file import analyze, directives

REPO = Path(__file__).resolve().parents[2]
SYSTEMD = REPO / "systemd"
LAUNCHER = SYSTEMD / "cbrig-launch"
EXECUTABLES = ("/opt/cbrig/venv/bin/cbrig", "/opt/cbrig/bin/cbrig-launch")


def _units(tmp_path: Path) -> Path:
    """cbrig.service with the image's drop-ins and cbrig-update.service, their programs
    pointed at one that exists here (verify checks them)."""
    stand_in = "/bin/true"
    units = tmp_path / "units"
    (units / "cbrig.service.d").mkdir(parents=True)
    for source, target in ((SYSTEMD / "cbrig.service", units / "cbrig.service"),
                           (SYSTEMD / "image.conf", units / "cbrig.service.d" / "image.conf"),
                           # the image installs the live board's drop-in too
                           (SYSTEMD / "web.conf", units / "cbrig.service.d" / "web.conf"),
                           (SYSTEMD / "cbrig-update.service", units / "cbrig-update.service")):
        text = source.read_text()
        for program in EXECUTABLES:
            text = text.replace(program, stand_in)
        target.write_text(text)
    return units


def _verify(units: Path) -> tuple[int, list[str]]:
    result = analyze("verify", str(units / "cbrig.service"), str(units / "cbrig-update.service"),
                     cwd=units)
    return result.returncode, [line for line in (result.stdout + result.stderr).splitlines()
                               if "cbrig" in line]


def test_the_image_units_verify(tmp_path: Path) -> None:
    status, said = _verify(_units(tmp_path))
    assert status == 0 and said == [], said


def test_verify_reads_the_drop_in(tmp_path: Path) -> None:
    units = _units(tmp_path)
    drop_in = units / "cbrig.service.d" / "image.conf"
    drop_in.write_text(drop_in.read_text().replace("ExecStartPost=", "ExecStartPozt="))
    _, said = _verify(units)
    assert any("image.conf" in line and "ExecStartPozt" in line for line in said), said


def test_the_drop_in_runs_the_launcher_with_the_boot_partition_s_config() -> None:
    found = directives((SYSTEMD / "image.conf").read_text())
    assert found[("Service", "ExecStart")] == [
        "", "/opt/cbrig/bin/cbrig-launch run --config /boot/firmware/cbrig/config.toml "
            "--config-errors=show"]
    hooks = {key: values for (section, key), values in found.items()
             if section == "Service" and key != "ExecStart"}
    assert hooks == {
        "ExecStartPre": ["-+/opt/cbrig/venv/bin/cbrig update hook start"],
        "ExecStartPost": ["-+/opt/cbrig/venv/bin/cbrig update hook ready"],
        "ExecStopPost": ["-+/opt/cbrig/venv/bin/cbrig update hook stopped --unit cbrig.service"],
    }, "as root, from the base venv, never failing the start"
    assert found[("Unit", "After")] == ["cbrig-update.service"]
    update = directives((SYSTEMD / "cbrig-update.service").read_text())
    assert update[("Unit", "Before")] == ["cbrig.service"]
    assert update[("Service", "Type")] == ["oneshot"]


def test_the_launcher_is_shellcheck_clean() -> None:
    shellcheck = require_command("shellcheck", "shellcheck")
    result = subprocess.run([shellcheck, str(LAUNCHER)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def _venv(path: Path, says: str) -> None:
    (path / "bin").mkdir(parents=True)
    program = path / "bin" / "cbrig"
    program.write_text(f'#!/bin/sh\necho "{says} $*"\n')
    program.chmod(0o755)


def _launch(tmp_path: Path, *args: str) -> str:
    env = {"PATH": "/usr/bin:/bin", "CBRIG_UPDATE_ROOT": str(tmp_path / "update"),
           "CBRIG_BASE_VENV": str(tmp_path / "base")}
    result = subprocess.run([str(LAUNCHER), *args], capture_output=True, text=True, env=env,
                            timeout=hang())
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_the_launcher_starts_the_current_version_only_when_it_is_whole(tmp_path: Path) -> None:
    _venv(tmp_path / "base", "base")
    assert _launch(tmp_path, "run", "--config", "x y") == "base run --config x y"
    update = tmp_path / "update"
    _venv(update / "versions" / "0.3.0", "0.3.0")
    (update / "current").symlink_to("versions/0.3.0")
    assert _launch(tmp_path, "run") == "base run", "not marked complete: the base"
    (update / "versions" / "0.3.0" / ".cbrig-complete").write_text("0.3.0\n")
    assert _launch(tmp_path, "run") == "0.3.0 run"
    (update / "current").unlink()
    (update / "current").symlink_to("versions/0.9.9")  # a link left dangling
    assert _launch(tmp_path, "run") == "base run"


def test_install_sh_s_unit_still_refuses_a_bad_config() -> None:
    """Pi OS owners (systemd/install.sh, /etc/cbrig/config.toml) keep exit 78 for a config
    with mistakes: only the image's drop-in asks for --config-errors=show."""
    unit = directives((SYSTEMD / "cbrig.service").read_text())
    [exec_start] = unit[("Service", "ExecStart")]
    assert "--config-errors" not in exec_start
    assert "78" in unit[("Service", "RestartPreventExitStatus")][0].split()
    assert "--config-errors" not in (SYSTEMD / "install.sh").read_text()
