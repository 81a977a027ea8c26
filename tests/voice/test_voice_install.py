"""On the Pi: the unit lets the service reach the sound devices (and nothing more than
before), and the installer offers the I2S amplifier's overlay with the same preview,
backup and reboot notice as the other boot options."""

from __future__ import annotations

from pathlib import Path

from tests.systemd.test_boot_options import FIXTURES, boot_files, bootconfig, install, root
from tests.systemd.test_unit_file import UNIT, directives

__all__ = ["root"]  # the fixture, used by name below


def test_the_unit_reaches_alsa_and_joins_audio() -> None:
    d = directives(UNIT.read_text())
    assert "audio" in d[("Service", "SupplementaryGroups")][0].split()
    allowed = [value.split() for value in d[("Service", "DeviceAllow")]]
    assert ["char-alsa", "rw"] in allowed
    assert d[("Service", "DevicePolicy")] == ["closed"]  # everything else stays closed


def test_the_overlay_is_added_once_under_all() -> None:
    config = (FIXTURES / "config.txt").read_text()
    assert "max98357a" not in bootconfig.overlays(config)
    after = bootconfig.amplifier_txt(bootconfig.config_txt(config))
    assert after.startswith(config) and "max98357a" in bootconfig.overlays(after)
    assert bootconfig.amplifier_txt(after) == after  # a second run changes nothing
    hidden = config + "[pi4]\ndtoverlay=max98357a\n"  # only for a Pi 4: not for every board
    assert "max98357a" in bootconfig.overlays(bootconfig.amplifier_txt(hidden))
    assert bootconfig.amplifier_txt(hidden).endswith("[all]\n" + bootconfig.AMPLIFIER_MARK
                                                     + "\ndtoverlay=max98357a\n")


def test_install_with_the_amplifier_previews_backs_up_and_asks_for_a_reboot(
        root: Path) -> None:
    before = boot_files(root)
    dry = install(root, "--dry-run", "--boot", "--amplifier")
    assert dry.returncode == 0, dry.stderr
    assert "+dtoverlay=max98357a" in dry.stdout and boot_files(root) == before
    done = install(root, "--boot", "--amplifier", "--no-start")
    assert done.returncode == 0, done.stderr
    files = boot_files(root)
    assert "dtoverlay=max98357a" in files["config.txt"]
    assert files["config.txt.cbrig-backup"] == before["config.txt"]
    assert "REBOOT NEEDED" in done.stdout
    again = install(root, "--boot", "--amplifier", "--no-start")
    assert "dtoverlay=max98357a): nothing to change" in again.stdout
    assert "REBOOT NEEDED" not in again.stdout


def test_without_the_amplifier_no_overlay(root: Path) -> None:
    done = install(root, "--boot", "--no-start")  # no terminal to ask: none fitted
    assert done.returncode == 0, done.stderr
    assert "max98357a" not in boot_files(root)["config.txt"]
