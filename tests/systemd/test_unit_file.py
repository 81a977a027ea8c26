"""systemd/cbrig.service: `systemd-analyze verify`, the security exposure score, and the
settings the rig depends on (devices reachable, no network, notify + watchdog)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from tests.slowdown import hang
from tests.system_tools import require_command

REPO = Path(__file__).resolve().parents[2]
UNIT = REPO / "systemd" / "cbrig.service"
EXEC = "/opt/cbrig/venv/bin/cbrig"
MAX_EXPOSURE = 1.0



def directives(text: str) -> dict[tuple[str, str], list[str]]:
    """(section, key) -> values in order (systemd keys may repeat)."""
    out: dict[tuple[str, str], list[str]] = {}
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        out.setdefault((section, key.strip()), []).append(value.strip())
    return out


def unit_copy(tmp_path: Path, text: str | None = None) -> Path:
    """The unit with ExecStart pointing at an executable that exists on this machine."""
    text = UNIT.read_text() if text is None else text
    assert EXEC in text
    stand_in = shutil.which("true") or "/bin/true"
    path = tmp_path / "cbrig.service"
    path.write_text(text.replace(EXEC, stand_in))
    return path


def analyze(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    analyze = require_command("systemd-analyze", "systemd")
    return subprocess.run([analyze, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=hang())


def unit_messages(result: subprocess.CompletedProcess[str]) -> list[str]:
    """Lines of output about our unit (verify may also mention unrelated host units)."""
    return [line for line in (result.stdout + result.stderr).splitlines()
            if "cbrig.service" in line]


def test_systemd_analyze_verify_passes(tmp_path: Path) -> None:
    result = analyze("verify", str(unit_copy(tmp_path)), cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert unit_messages(result) == []


def test_verify_would_catch_a_misspelt_directive(tmp_path: Path) -> None:
    broken = UNIT.read_text().replace("ProtectSystem=strict", "ProtectSytem=strict")
    result = analyze("verify", str(unit_copy(tmp_path, broken)), cwd=tmp_path)
    assert any("ProtectSytem" in line for line in unit_messages(result))


def exposure(tmp_path: Path, text: str | None = None) -> float:
    result = analyze("security", "--offline=true", str(unit_copy(tmp_path, text)),
                     cwd=tmp_path)
    match = re.search(r"Overall exposure level for cbrig\.service:\s*([0-9.]+)", result.stdout)
    assert match, result.stdout + result.stderr
    return float(match.group(1))


def test_security_exposure_is_at_most_1(tmp_path: Path) -> None:
    score = exposure(tmp_path)
    print(f"systemd-analyze security exposure: {score}")
    assert score <= MAX_EXPOSURE


def test_the_score_reflects_the_hardening(tmp_path: Path) -> None:
    """Sanity check of the parsing: removing the hardening raises the score."""
    kept = [line for line in UNIT.read_text().splitlines()
            if not line.startswith(("Protect", "Private", "Restrict", "SystemCall",
                                    "Capability", "NoNew", "IPAddress", "Device"))]
    assert exposure(tmp_path, "\n".join(kept) + "\n") > MAX_EXPOSURE + 3


def test_unit_runs_cbrig_as_a_notify_service_with_watchdog() -> None:
    d = directives(UNIT.read_text())
    assert d[("Service", "Type")] == ["notify"]
    assert d[("Service", "ExecStart")] == [f"{EXEC} run --config /etc/cbrig/config.toml"]
    watchdog = d[("Service", "WatchdogSec")][0]
    assert re.fullmatch(r"\d+s?", watchdog)
    assert d[("Service", "Restart")] == ["on-failure"]
    # the daemon's "fix this first" exits (rig.core.daemon: 69 hardware not set up,
    # 73 unwritable, 78 bad config)
    from rig.commands._config import EXIT_CONFIG
    from rig.core.startup import EXIT_HARDWARE, EXIT_UNWRITABLE

    assert d[("Service", "RestartPreventExitStatus")] == [
        f"{EXIT_HARDWARE} {EXIT_UNWRITABLE} {EXIT_CONFIG}"]
    assert d[("Service", "User")] == ["cbrig"]
    assert d[("Service", "SupplementaryGroups")] == ["gpio i2c dialout audio"]
    assert d[("Service", "StateDirectory")] == ["cbrig"]
    assert d[("Service", "ConfigurationDirectory")] == ["cbrig"]
    assert d[("Install", "WantedBy")] == ["multi-user.target"]


def test_unit_reaches_the_hardware_devices() -> None:
    d = directives(UNIT.read_text())
    # PrivateDevices= and PrivateUsers= would hide gpiochip, i2c and tty devices.
    assert ("Service", "PrivateDevices") not in d
    assert ("Service", "PrivateUsers") not in d
    assert d[("Service", "DevicePolicy")] == ["closed"]
    allowed = {value.split()[0] for value in d[("Service", "DeviceAllow")]}
    assert {"char-gpiochip", "char-i2c", "char-ttyAMA", "char-ttyS"} <= allowed
    assert all(value.split()[1] == "rw" for value in d[("Service", "DeviceAllow")])
    # lgpio writes its notification pipes into LG_WD: a writable runtime directory.
    assert d[("Service", "RuntimeDirectory")] == ["cbrig"]
    assert "LG_WD=/run/cbrig" in d[("Service", "Environment")][0].split()


def test_unit_has_no_network_but_keeps_unix_sockets_for_sd_notify() -> None:
    d = directives(UNIT.read_text())
    assert d[("Service", "RestrictAddressFamilies")] == ["AF_UNIX"]
    assert d[("Service", "IPAddressDeny")] == ["any"]
    assert d[("Service", "ProtectSystem")] == ["strict"]
    assert d[("Service", "NoNewPrivileges")] == ["yes"]
    assert d[("Service", "CapabilityBoundingSet")] == [""]
    assert "@system-service" in d[("Service", "SystemCallFilter")]
    # /proc/cpuinfo and /proc/device-tree identify the Pi for gpiozero.
    assert ("Service", "ProcSubset") not in d
