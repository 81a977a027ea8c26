"""The project's layer of the image, put into a fresh copy of the Debian part.

The program: the checkout built as a wheel (`pip wheel --no-deps`), its dependencies and
the `pi` extra downloaded on this machine as aarch64/CPython 3.11 wheels, installed into
/opt/cbrig/venv by the image's own (arm64) pip under qemu-user with no index: the Pi
needs no network. The appliance: the shipped cbrig.service with the image's drop-in,
the user cbrig, hostname cbrig (cbrig.local through avahi), read-only root and boot
partition with the writable places bound from the data partition (systemd/image/fstab),
Wi-Fi from the owner's wifi.txt, SSH only with the owner's authorized_keys, no getty, no
password. A manifest (/usr/share/cbrig/manifest.txt) lists every Debian package with
its version and every wheel with its SHA-256.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

DISK_ID = "cb12c0de"
"""The card's MBR disk identifier: partitions are PARTUUID=cb12c0de-01, -02, -03."""

VENV = "/opt/cbrig/venv"
WHEEL_PLATFORMS = ("manylinux_2_36_aarch64", "manylinux_2_35_aarch64",
                   "manylinux_2_34_aarch64", "manylinux_2_28_aarch64",
                   "manylinux_2_17_aarch64", "manylinux2014_aarch64", "linux_aarch64")
"""Wheels that run on Debian 12's glibc 2.36 on arm64."""
CHECKOUT_EXCLUDES = (".git", ".venv", "venv", "build", "dist", "*.egg-info", "__pycache__",
                     ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis", "out",
                     "*.img", "*.img.xz", ".lgd-nfy*")
SERVICE_GROUPS = ("gpio", "i2c", "dialout", "audio")
MASKED = ("getty@.service", "serial-getty@.service", "getty-static.service",
          "systemd-firstboot.service", "apt-daily.timer", "apt-daily-upgrade.timer",
          "e2scrub_all.timer", "e2scrub_reap.service", "fstrim.timer",
          "systemd-machine-id-commit.service")
"""No login prompt anywhere (there is no password to type); nothing that would write to
the read-only root or the card in the background."""

Say = Callable[[str], None]


class LayerError(RuntimeError):
    """The project's layer could not be made; the message says why."""


def _run(command: list[str], what: str, env: dict[str, str] | None = None) -> str:
    result = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if result.returncode != 0:
        tail = (result.stdout + result.stderr).strip()[-1500:]
        raise LayerError(f"{what} failed (exit {result.returncode}): "
                         f"{' '.join(command)}\n{tail}")
    return result.stdout


def build_wheels(checkout: Path, out: Path, say: Say, epoch: int) -> Path:
    """The checkout's wheel and every dependency's (with the `pi` extra) for the Pi."""
    out.mkdir(parents=True, exist_ok=True)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    # built from a clean copy: nothing is written into the checkout (build/, egg-info)
    source = out.parent / "source"
    shutil.copytree(checkout, source, ignore=shutil.ignore_patterns(*CHECKOUT_EXCLUDES))
    # the wheel's zip entries dated SOURCE_DATE_EPOCH: the same checkout, the same bytes
    _run([*pip, "wheel", "--no-deps", "-q", "-w", str(out), str(source)],
         "building the project's wheel", env={**os.environ, "SOURCE_DATE_EPOCH": str(epoch)})
    shutil.rmtree(source)
    wheel = next(iter(sorted(out.glob("cbrig-*.whl"))), None)
    if wheel is None:
        raise LayerError(f"pip wheel made no cbrig-*.whl in {out}")
    say(f"project wheel {wheel.name}; downloading its dependencies for aarch64/cp311")
    platforms = [arg for p in WHEEL_PLATFORMS for arg in ("--platform", p)]
    _run([*pip, "download", "-q", "--only-binary=:all:", *platforms,
          "--python-version", "3.11", "--implementation", "cp", "--abi", "cp311",
          "--abi", "abi3", "--abi", "none", "-d", str(out), f"{wheel}[pi]"],
         "downloading the dependencies' aarch64 wheels (pip download)")
    return wheel


def chroot(root: Path, *command: str, env: dict[str, str] | None = None) -> str:
    environment = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL": "C.UTF-8",
                   "HOME": "/root", **(env or {})}
    return _run(["chroot", str(root), *command], f"{command[0]} in the image",
                env=environment)


def install_venv(root: Path, wheels: Path, wheel: Path, epoch: int, say: Say) -> None:
    inside = root / "tmp" / "cbrig-wheels"
    shutil.copytree(wheels, inside)
    env = {"SOURCE_DATE_EPOCH": str(epoch), "PIP_NO_CACHE_DIR": "1",
           "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PYTHONHASHSEED": "0"}
    say(f"installing {wheel.name}[pi] into {VENV} (arm64 pip under qemu-user)")
    chroot(root, "python3", "-m", "venv", VENV, env=env)
    chroot(root, f"{VENV}/bin/pip", "install", "-q", "--no-index", "--find-links",
           "/tmp/cbrig-wheels", f"/tmp/cbrig-wheels/{wheel.name}[pi]", env=env)
    shutil.rmtree(inside)


def _write(path: Path, text: str, mode: int = 0o644) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.is_symlink():
        path.unlink()
    path.write_text(text)
    path.chmod(mode)


def _link(path: Path, target: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.is_symlink() or path.exists():
        path.unlink()
    path.symlink_to(target)


def image_config(shipped: str) -> str:
    """wiring/config.toml as the image ships it on the FAT partition."""
    head = ("# cb-rig config for the reference wiring in wiring/README.md, as the image\n"
            "# ships it: edit it on any computer (the card's FAT partition, folder cbrig).\n"
            "# A mistake is shown on the rig's screen and in its log with the line, and the\n"
            "# rig starts anyway. Every field and its default: cbrig config show --defaults\n")
    body = shipped.split("\n[", 1)[1]
    body = body.replace(
        'port = "/dev/serial0"',
        'port = "/dev/serial0"        # the header UART (GPIO14/15): the mini UART, ttyS1')
    # the image's unit already has the live board's network (web.conf): turning the
    # board on is one line, and it is served to the phones on the table's Wi-Fi
    body = re.sub(r"# true: serve the read-only live board \(docs/WEB.md\), then\n"
                  r" *# re-run systemd/install.sh: it opens the network for it\n",
                  "# true: the read-only live board for the phones at the\n"
                  "                            # table, http://cbrig.local:8411/ "
                  "(docs/WEB.md)\n", body, count=1)
    body, found = re.subn(r'^address = "127.0.0.1" .*$',
                          'address = "0.0.0.0"         # every network the Pi is on; '
                          '"127.0.0.1": the Pi only', body, count=1, flags=re.M)
    if not found:
        raise LayerError('wiring/config.toml has no [web] address = "127.0.0.1" line '
                         "for the image to open to the table's network")
    return head + "\n[" + body


def system_files(root: Path, checkout: Path, say: Say) -> None:
    files = checkout / "systemd" / "image"
    etc = root / "etc"
    systemd = etc / "systemd" / "system"

    def template(name: str) -> str:
        return (files / name).read_text().replace("@DISKID@", DISK_ID)

    _write(etc / "hostname", "cbrig\n")
    _write(etc / "hosts", "127.0.0.1\tlocalhost\n127.0.1.1\tcbrig\n"
                          "::1\t\tlocalhost ip6-localhost ip6-loopback\n")
    _write(etc / "fstab", template("fstab"))
    for point in ("boot/firmware", "data", "var/lib/cbrig", "var/lib/cbrig-update",
                  "etc/cbrig"):
        (root / point).mkdir(parents=True, exist_ok=True)
    for child in (root / "boot" / "firmware").iterdir():  # raspi-firmware's hook copies
        shutil.rmtree(child) if child.is_dir() and not child.is_symlink() else child.unlink()
    lib = root / "usr" / "lib" / "cbrig"
    for script in ("grow-data", "wifi-config"):
        _write(lib / script, (files / script).read_text(), 0o755)
    _write(systemd / "cbrig-grow-data.service", template("cbrig-grow-data.service"))
    _link(systemd / "data.mount.wants" / "cbrig-grow-data.service",
          "/etc/systemd/system/cbrig-grow-data.service")
    _write(systemd / "cbrig-wifi.service", template("cbrig-wifi.service"))
    _write(systemd / "wpa_supplicant@wlan0.service.d" / "cbrig.conf",
           template("wpa_supplicant.conf"))
    _link(etc / "wpa_supplicant" / "wpa_supplicant-wlan0.conf",
          "/run/cbrig-wifi/wpa_supplicant-wlan0.conf")
    _write(systemd / "ssh.service.d" / "cbrig.conf", template("ssh.conf"))
    _write(etc / "ssh" / "sshd_config.d" / "cbrig.conf", template("sshd_config"))
    _write(etc / "systemd" / "journald.conf.d" / "cbrig.conf", template("journald.conf"))
    _write(etc / "udev" / "rules.d" / "90-cbrig.rules", template("90-cbrig.rules"))
    _write(etc / "systemd" / "network" / "20-wired.network",
           template("network-wired.network"))
    _write(etc / "systemd" / "network" / "30-wlan.network", template("network-wlan.network"))
    _write(etc / "modules-load.d" / "cbrig.conf", "i2c-dev\n")
    # no RTC on a Pi: a clock behind the file system's times must not force a check
    _write(etc / "e2fsck.conf", "[options]\n\tbroken_system_clock = 1\n")
    # the rig's unit as shipped, with the image's drop-in (the `device` side's when the
    # checkout has it), and the update service when the checkout has one
    _write(systemd / "cbrig.service", (checkout / "systemd" / "cbrig.service").read_text())
    drop_in = checkout / "systemd" / "image.conf"
    _write(systemd / "cbrig.service.d" / "image.conf",
           drop_in.read_text() if drop_in.exists() else template("cbrig-image.conf"))
    # the live board's network (as install.sh installs it while [web] enabled = true):
    # always here, since the owner's config on the FAT partition can turn the board on
    # at any boot and the root is read-only; with the board off the rig opens no socket
    _write(systemd / "cbrig.service.d" / "web.conf",
           (checkout / "systemd" / "web.conf").read_text())
    wants = systemd / "multi-user.target.wants"
    _link(wants / "cbrig.service", "/etc/systemd/system/cbrig.service")
    _link(wants / "cbrig-wifi.service", "/etc/systemd/system/cbrig-wifi.service")
    _link(wants / "wpa_supplicant@wlan0.service", "/lib/systemd/system/wpa_supplicant@.service")
    _link(wants / "systemd-networkd.service", "/lib/systemd/system/systemd-networkd.service")
    for unit in ("cbrig-update.service",):
        source = checkout / "systemd" / unit
        if source.exists():
            _write(systemd / unit, source.read_text())
            _link(wants / unit, f"/etc/systemd/system/{unit}")
    docs = root / "opt" / "cbrig" / "doc"  # the units' Documentation= (as install.sh does)
    for doc, name in (("docs/INSTALL.md", "INSTALL.md"), ("docs/IMAGE.md", "IMAGE.md"),
                      ("wiring/README.md", "wiring.md")):
        if (checkout / doc).exists():
            _write(docs / name, (checkout / doc).read_text())
    launcher = checkout / "systemd" / "cbrig-launch"
    if launcher.exists():
        _write(root / "opt" / "cbrig" / "bin" / "cbrig-launch", launcher.read_text(), 0o755)
    for unit in MASKED:
        _link(systemd / unit, "/dev/null")
    say("system files: fstab, units, udev rule, Wi-Fi, SSH, journald")


def users(root: Path, epoch: int) -> None:
    """The service's user and groups (as systemd/install.sh makes them); root locked."""
    env = {"SOURCE_DATE_EPOCH": str(epoch)}  # shadow's "last changed" day
    group_file = (root / "etc" / "group").read_text()
    for group in SERVICE_GROUPS:
        if not re.search(rf"^{group}:", group_file, re.M):
            chroot(root, "groupadd", "--system", group, env=env)
    if not re.search(r"^cbrig:", (root / "etc" / "passwd").read_text(), re.M):
        chroot(root, "useradd", "--system", "--home-dir", "/var/lib/cbrig", "--no-create-home",
               "--shell", "/usr/sbin/nologin", "--groups", ",".join(SERVICE_GROUPS),
               "--user-group", "cbrig", env=env)
    chroot(root, "passwd", "--lock", "root", env=env)


def ids(root: Path, name: str) -> tuple[int, int]:
    for line in (root / "etc" / "passwd").read_text().splitlines():
        fields = line.split(":")
        if fields[0] == name:
            return int(fields[2]), int(fields[3])
    raise LayerError(f"no user {name} in the image")


def owner_files(root: Path, boot: Path, checkout: Path) -> None:
    """The FAT partition's cbrig/ folder: what an owner may set."""
    files = checkout / "systemd" / "image"
    owner = boot / "cbrig"
    (owner / "updates").mkdir(parents=True, exist_ok=True)
    _write(owner / "config.toml", image_config((checkout / "wiring" / "config.toml").read_text()))
    _write(owner / "wifi.txt", (files / "wifi.txt").read_text())
    _write(owner / "README.txt", (files / "README.txt").read_text().replace("\n", "\r\n"))


def data_tree(root: Path, data: Path) -> None:
    """The data partition's first contents: the writable places, with what the Debian
    part put there at build time (systemd's state, the log directory)."""
    uid, gid = ids(root, "cbrig")
    for name in ("cbrig", "cbrig-update", "ssh"):
        (data / name).mkdir(parents=True, exist_ok=True)
    os.chown(data / "cbrig", uid, gid)
    (data / "cbrig").chmod(0o750)
    (data / "ssh").chmod(0o700)
    for name, source in (("systemd", "var/lib/systemd"), ("log", "var/log")):
        shutil.copytree(root / source, data / name, symlinks=True)
        shutil.rmtree(root / source)
        (root / source).mkdir()
    (data / "log" / "journal").mkdir(exist_ok=True)
    (data / "systemd" / "timesync").mkdir(exist_ok=True)


def dpkg_versions(root: Path) -> list[tuple[str, str, str]]:
    """(package, version, architecture) of every installed Debian package, sorted."""
    found = []
    for stanza in (root / "var/lib/dpkg/status").read_text().split("\n\n"):
        fields = dict(re.findall(r"^([A-Za-z-]+): (.*)$", stanza, re.M))
        if fields.get("Status", "").endswith(" installed"):
            found.append((fields["Package"], fields["Version"], fields["Architecture"]))
    return sorted(found)


def manifest(root: Path, wheels: Path, recipe_key: str, epoch: int) -> str:
    lines = ["# cb-rig image manifest", f"debian-recipe {recipe_key}",
             f"source-date-epoch {epoch}", "", "# Debian packages: name version arch"]
    lines += [" ".join(p) for p in dpkg_versions(root)]
    lines += ["", "# wheels installed into /opt/cbrig/venv: name sha256"]
    for wheel in sorted(wheels.glob("*.whl")):
        lines.append(f"{wheel.name} {hashlib.sha256(wheel.read_bytes()).hexdigest()}")
    text = "\n".join(lines) + "\n"
    _write(root / "usr" / "share" / "cbrig" / "manifest.txt", text)
    return text


def clamp_times(tree: Path, epoch: int) -> None:
    """Every file's modification time at most `epoch` (SOURCE_DATE_EPOCH)."""
    for directory, dirs, files in os.walk(tree):
        for name in (*dirs, *files):
            path = os.path.join(directory, name)
            st = os.lstat(path)
            if st.st_mtime > epoch:
                os.utime(path, (epoch, epoch), follow_symlinks=False)
    os.utime(tree, (epoch, epoch))


def scrub(root: Path) -> None:
    """What a build leaves that a card must not carry (or that differs between builds)."""
    for pattern in ("var/cache/debconf/*-old", "var/lib/dpkg/*-old", "etc/*-",
                    "var/cache/ldconfig/aux-cache", "root/.cache"):
        for path in root.glob(pattern):
            shutil.rmtree(path) if path.is_dir() else path.unlink()
    (root / "etc" / "machine-id").write_text("")  # made at boot (the root is read-only)
