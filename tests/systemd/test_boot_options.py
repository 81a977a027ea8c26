"""The boot options install.sh sets (I2C at 400 kHz, UART on, no serial console), tried on
copies of a fresh Raspberry Pi OS Bookworm image's config.txt and cmdline.txt."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.slowdown import hang

REPO = Path(__file__).resolve().parents[2]
INSTALL = REPO / "systemd" / "install.sh"
FIXTURES = Path(__file__).parent / "fixtures" / "bookworm"


def _bootconfig() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bootconfig", REPO / "systemd/bootconfig.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


bootconfig = _bootconfig()


def install(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """install.sh into `root` without the virtualenv (its boot step is what is tried)."""
    return subprocess.run(["bash", str(INSTALL), "--destdir", str(root), "--no-venv", *args],
                          capture_output=True, text=True, timeout=hang(),
                          stdin=subprocess.DEVNULL,
                          env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin"})


@pytest.fixture
def root(tmp_path: Path) -> Path:
    boot = tmp_path / "root/boot/firmware"
    boot.mkdir(parents=True)
    for name in ("config.txt", "cmdline.txt"):
        shutil.copy(FIXTURES / name, boot / name)
    return tmp_path / "root"


def boot_files(root: Path) -> dict[str, str]:
    boot = root / "boot/firmware"
    return {p.name: p.read_text() for p in sorted(boot.iterdir())}


def test_a_fresh_bookworm_image_needs_all_three_changes() -> None:
    config = (FIXTURES / "config.txt").read_text()
    assert bootconfig.effective_settings(config).get("dtparam:i2c_arm") is None
    after = bootconfig.config_txt(config)
    assert after.startswith(config)
    settings = bootconfig.effective_settings(after)
    assert settings["dtparam:i2c_arm"] == "on"
    assert settings["dtparam:i2c_arm_baudrate"] == "400000"
    assert settings["enable_uart"] == "1"
    assert settings["dtparam:audio"] == "on"  # the owner's lines are kept
    cmdline = (FIXTURES / "cmdline.txt").read_text()
    new = bootconfig.cmdline_txt(cmdline)
    assert "console=serial0" not in new
    assert new.split() == [t for t in cmdline.split() if t != "console=serial0,115200"]
    assert new.count("\n") == 1 and new.endswith("\n")  # still one line


def test_dry_run_shows_the_diff_and_changes_nothing(root: Path) -> None:
    before = boot_files(root)
    result = install(root, "--dry-run", "--boot")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert f"==> boot options: {root}/boot/firmware" in out
    assert "+dtparam=i2c_arm=on,i2c_arm_baudrate=400000" in out
    assert "+enable_uart=1" in out
    assert "-console=serial0,115200 console=tty1" in out
    assert "dry run: not changed" in out
    assert "REBOOT NEEDED" not in out
    assert boot_files(root) == before


def test_boot_sets_the_options_keeps_a_backup_and_a_second_run_changes_nothing(
        root: Path) -> None:
    original = boot_files(root)
    first = install(root, "--boot")
    assert first.returncode == 0, first.stderr
    assert "REBOOT NEEDED" in first.stdout
    files = boot_files(root)
    assert files["config.txt.cbrig-backup"] == original["config.txt"]
    assert files["cmdline.txt.cbrig-backup"] == original["cmdline.txt"]
    assert "enable_uart=1" in files["config.txt"]
    assert "console=serial0" not in files["cmdline.txt"]

    second = install(root, "--boot")
    assert second.returncode == 0, second.stderr
    assert "nothing to change" in second.stdout
    assert "REBOOT NEEDED" not in second.stdout
    assert boot_files(root) == files


def test_without_a_terminal_to_ask_it_only_shows_the_change(root: Path) -> None:
    before = boot_files(root)
    result = install(root)
    assert result.returncode == 0, result.stderr
    assert "+enable_uart=1" in result.stdout
    assert "run again with --boot" in result.stdout
    assert boot_files(root) == before
    assert "left alone (--no-boot)" in install(root, "--no-boot").stdout


def test_no_boot_files_is_said_and_the_install_goes_on(tmp_path: Path) -> None:
    result = install(tmp_path / "root", "--boot")
    assert result.returncode == 0, result.stderr
    assert "boot options not set; see docs/INSTALL.md" in " ".join(result.stdout.split())
    assert (tmp_path / "root/etc/systemd/system/cbrig.service").is_file()


@pytest.mark.parametrize(("lines", "added"), [
    # raspi-config's do_i2c: I2C on, but at the default 100 kHz
    ("dtparam=i2c_arm=on\nenable_uart=1\n", ["dtparam=i2c_arm_baudrate=400000"]),
    # an alias and a bare parameter count as on
    ("dtparam=i2c,i2c_arm_baudrate=400000\nenable_uart=1\n", []),
    ("dtparam=i2c_arm\ndtparam=i2c_arm_baudrate=400000\nenable_uart=1\n", []),
    # a later line wins: UART switched off again below
    ("enable_uart=1\ndtparam=i2c_arm=on,i2c_arm_baudrate=400000\nenable_uart=0\n",
     ["enable_uart=1"]),
    # settings in a conditional section do not count for every board
    ("[pi4]\ndtparam=i2c_arm=on,i2c_arm_baudrate=400000\nenable_uart=1\n",
     ["[all]", "dtparam=i2c_arm=on,i2c_arm_baudrate=400000", "enable_uart=1"]),
])
def test_only_what_is_missing_is_added(lines: str, added: list[str]) -> None:
    before = "dtparam=audio=on\n" + lines
    after = bootconfig.config_txt(before)
    assert after.startswith(before)
    new = [line for line in after[len(before):].splitlines() if not line.startswith("#")]
    assert new == added
    assert bootconfig.config_txt(after) == after


def test_every_serial_console_goes_and_other_consoles_stay() -> None:
    line = "console=ttyAMA0,115200 console=tty1 console=ttyS0,9600 root=/dev/mmcblk0p2 quiet\n"
    assert bootconfig.cmdline_txt(line) == "console=tty1 root=/dev/mmcblk0p2 quiet\n"
    clean = "console=tty1 root=/dev/mmcblk0p2 rootwait\n"
    assert bootconfig.cmdline_txt(clean) == clean


PI_OS_MODULES = "# /etc/modules: kernel modules to load at boot time.\n#\n# one per line\n\n"


def _pi(root: Path, model: str, modules: str | None = PI_OS_MODULES) -> None:
    """The fake root's board model and /etc/modules, as the real ones read."""
    tree = root / "proc/device-tree"
    tree.mkdir(parents=True)
    (tree / "model").write_bytes(model.encode() + b"\0")
    if modules is not None:
        (root / "etc").mkdir(exist_ok=True)
        (root / "etc/modules").write_text(modules)


def test_i2c_dev_is_loaded_at_boot_as_raspi_config_does(root: Path) -> None:
    """Without i2c-dev in /etc/modules, /dev/i2c-1 may not appear."""
    _pi(root, "Raspberry Pi Zero 2 W Rev 1.0")
    dry = install(root, "--dry-run", "--boot")
    assert "+i2c-dev" in dry.stdout
    assert (root / "etc/modules").read_text() == PI_OS_MODULES
    first = install(root, "--boot")
    assert first.returncode == 0, first.stderr
    assert (root / "etc/modules").read_text() == PI_OS_MODULES + "i2c-dev\n"
    assert (root / "etc/modules.cbrig-backup").read_text() == PI_OS_MODULES
    assert "skipped (DESTDIR): modprobe i2c-dev" in first.stdout
    second = install(root, "--boot")
    assert "nothing to change" in second.stdout
    assert (root / "etc/modules").read_text() == PI_OS_MODULES + "i2c-dev\n"


@pytest.mark.parametrize("text", ["i2c-dev\n", "i2c_dev\n", "snd\ni2c-dev # the bus\n"])
def test_i2c_dev_already_listed_is_left_alone(text: str) -> None:
    assert bootconfig.modules_txt(text) == text


def test_a_pi_5_gets_uart0_and_the_reader_on_ttyama0(root: Path) -> None:
    _pi(root, "Raspberry Pi 5 Model B Rev 1.0")
    first = install(root, "--boot")
    assert first.returncode == 0, first.stderr
    assert "REBOOT NEEDED" in first.stdout
    assert "the reader is on uart0 (/dev/ttyAMA0)" in first.stdout
    settings = bootconfig.effective_settings(boot_files(root)["config.txt"])
    assert settings["dtparam:uart0"] == "on"
    config = (root / "etc/cbrig/config.toml").read_text()
    shipped = (REPO / "wiring/config.toml").read_text()
    assert config == shipped.replace('port = "/dev/serial0"', 'port = "/dev/ttyAMA0"')
    assert (root / "etc/cbrig/config.toml.cbrig-backup").read_text() == shipped
    assert "nothing to change" in install(root, "--boot").stdout


def test_a_pi_4_keeps_serial0(root: Path) -> None:
    _pi(root, "Raspberry Pi 4 Model B Rev 1.5")
    assert install(root, "--boot").returncode == 0
    assert "uart0" not in boot_files(root)["config.txt"]
    shipped = (REPO / "wiring/config.toml").read_text()
    assert (root / "etc/cbrig/config.toml").read_text() == shipped


@pytest.mark.parametrize(("before", "after"), [
    ('[reader]\ntype = "rdm6300"\nport = "/dev/serial0"   # GPIO14/15\n',
     '[reader]\ntype = "rdm6300"\nport = "/dev/ttyAMA0"   # GPIO14/15\n'),
    ('[reader]\nport = "/dev/ttyUSB0"\n', '[reader]\nport = "/dev/ttyUSB0"\n'),
    ('[reader]\ntype = "pn532"\n',
     '[reader]\nport = "/dev/ttyAMA0"  # a Pi 5: GPIO14/15 are uart0\ntype = "pn532"\n'),
    ('[game]\nplayers = 3\n',
     '[game]\nplayers = 3\n\n[reader]\nport = "/dev/ttyAMA0"  # a Pi 5: GPIO14/15 are uart0\n'),
    ('[display]\nport = "/dev/serial0"\n[reader]\nport = "/dev/serial0"\n',
     '[display]\nport = "/dev/serial0"\n[reader]\nport = "/dev/ttyAMA0"\n'),
])
def test_the_pi_5_port_edit_changes_serial0_only(before: str, after: str) -> None:
    import tomllib

    assert bootconfig.rig_config_txt(before) == after
    assert tomllib.loads(after)["reader"]["port"] in ("/dev/ttyAMA0", "/dev/ttyUSB0")
