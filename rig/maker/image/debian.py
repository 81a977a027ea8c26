"""The Debian part of the image: a bookworm arm64 root file system, built once per recipe.

mmdebstrap builds it from Debian's packages (main and non-free-firmware) into a tarball
kept in the cache directory under a name derived from the recipe (the package list, the
suite, the hooks' text), the same way tests/appliance/rootfs.py caches the CI's roots:
an unchanged recipe costs a `tar -x`, a changed one builds afresh. Builds are serialised
with a lock file beside the tarball; a half-built tarball never carries the final name.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

SUITE = "bookworm"
ARCH = "arm64"
RECIPE_VERSION = 1
"""Bump to rebuild the cached Debian part (e.g. for Debian's point releases)."""

MIRRORS = (
    f"deb http://deb.debian.org/debian {SUITE} main non-free-firmware",
    f"deb http://deb.debian.org/debian {SUITE}-updates main non-free-firmware",
    f"deb http://deb.debian.org/debian-security {SUITE}-security main non-free-firmware",
)

PACKAGES = (
    # booting a Pi: the firmware's boot files, Debian's kernel, its initramfs
    "raspi-firmware", "linux-image-arm64", "initramfs-tools", "zstd",
    # the system: systemd as init, its clock, the network (networkd is in systemd)
    "systemd", "systemd-sysv", "udev", "dbus", "kmod", "systemd-timesyncd",
    "avahi-daemon", "libnss-mdns", "wpasupplicant", "firmware-brcm80211", "iproute2",
    "openssh-server",
    # growing the data partition on first boot, the file systems
    "fdisk", "e2fsprogs", "dosfstools",
    # the rig: Python for its venv, the voice, the I2C bus tools
    "python3", "python3-venv", "espeak-ng", "sox", "alsa-utils", "i2c-tools",
)
"""What the image holds from Debian; the Pi needs nothing from the network."""

EXCLUDED_PATHS = ("/usr/share/doc/*", "/usr/share/man/*", "/usr/share/info/*",
                  "/usr/share/locale/*", "/usr/share/lintian/*")
KEPT_PATHS = ("/usr/share/doc/*/copyright", "/usr/share/locale/locale.alias")
"""Documentation and translations are left out of the card (the licences stay)."""

SETUP_HOOK = 'mkdir -p "$1/boot/firmware"'
"""raspi-firmware's kernel and initramfs hooks copy the boot files into /boot/firmware
when it exists (layer.py takes them from /boot and /usr/lib instead, and empties it)."""

ESSENTIAL_HOOK = (
    'chroot "$1" dpkg-divert --quiet --local --rename --add /usr/sbin/update-initramfs && '
    'printf "#!/bin/sh\\necho update-initramfs: deferred to the end of the build\\n" '
    '> "$1/usr/sbin/update-initramfs" && chmod 755 "$1/usr/sbin/update-initramfs"'
)
"""The initramfs is made once, at the end (CUSTOMIZE_HOOK), not at the kernel's install
and again for each package's trigger: under qemu-user one takes minutes."""

INITRAMFS_MODULES = (
    # the SD card: the Pi 3's SD host and the Pi 4's EMMC2 (with its 1.8 V regulator)
    "bcm2835", "sdhci-iproc", "gpio-regulator", "fixed",
    # the root file system
    "ext4", "crc32c_generic",
    # a root on a USB drive (the Pi 3's dwc2, the Pi 4's xHCI behind its reset line)
    "dwc2", "reset-raspberrypi", "xhci-pci", "usb-storage", "uas", "sd_mod",
)
"""What the initramfs holds besides its hooks' own (MODULES=list; their dependencies
come with them): the rest of Debian's drivers (MODULES=most copies some 2,000 of them,
which under qemu-user took over 25 minutes on a loaded machine) load from the root."""

CUSTOMIZE_HOOK = " && ".join((
    'rm -f "$1/usr/sbin/update-initramfs"',
    'chroot "$1" dpkg-divert --quiet --local --rename --remove /usr/sbin/update-initramfs',
    'echo MODULES=list > "$1/etc/initramfs-tools/conf.d/cbrig"',
    f'printf "%s\\n" {" ".join(INITRAMFS_MODULES)} >> "$1/etc/initramfs-tools/modules"',
    'chroot "$1" update-initramfs -c -k all',
    'rm -f "$1"/etc/ssh/ssh_host_*',  # every card makes its own (the ssh unit's drop-in)
    'rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*.bin',
    'rm -f "$1"/var/lib/dbus/machine-id',
    ': > "$1"/etc/machine-id',  # empty: made at each boot (the root is read-only)
))


@dataclass(frozen=True)
class Recipe:
    packages: tuple[str, ...] = PACKAGES
    suite: str = SUITE
    arch: str = ARCH

    def key(self) -> str:
        recipe = {"version": RECIPE_VERSION, "suite": self.suite, "arch": self.arch,
                  "packages": sorted(set(self.packages)), "mirrors": list(MIRRORS),
                  "excluded": list(EXCLUDED_PATHS), "kept": list(KEPT_PATHS),
                  "hooks": [SETUP_HOOK, ESSENTIAL_HOOK, CUSTOMIZE_HOOK]}
        digest = hashlib.sha256(json.dumps(recipe, sort_keys=True).encode()).hexdigest()
        return f"image-{self.suite}-{self.arch}-{digest[:16]}"

    def command(self, mmdebstrap: str, out: Path) -> list[str]:
        dpkg = [f"--dpkgopt=path-exclude={p}" for p in EXCLUDED_PATHS]
        dpkg += [f"--dpkgopt=path-include={p}" for p in KEPT_PATHS]
        return [mmdebstrap, "--variant=minbase", f"--architectures={self.arch}",
                "--mode=" + ("root" if os.geteuid() == 0 else "unshare"),
                "--aptopt=Apt::Install-Recommends \"false\"", *dpkg,
                f"--include={','.join(self.packages)}",
                f"--setup-hook={SETUP_HOOK}", f"--essential-hook={ESSENTIAL_HOOK}",
                f"--customize-hook={CUSTOMIZE_HOOK}",
                self.suite, str(out), *MIRRORS]


class ImageError(RuntimeError):
    """The image cannot be built; the message says why (and what to install)."""


def cache_dir() -> Path:
    """`$CBRIG_CI_CACHE`, else /var/cache/cbrig-ci for root (the CI's cache), else
    ~/.cache/cbrig."""
    if "CBRIG_CI_CACHE" in os.environ:
        return Path(os.environ["CBRIG_CI_CACHE"])
    if os.geteuid() == 0:
        return Path("/var/cache/cbrig-ci")
    return Path.home() / ".cache" / "cbrig"


def cached_tarball(recipe: Recipe, mmdebstrap: str, epoch: int,
                   say: Callable[[str], None] = print) -> Path:
    """The recipe's tarball, built first if the cache does not hold it yet."""
    tarball = cache_dir() / f"{recipe.key()}.tar"
    tarball.parent.mkdir(parents=True, exist_ok=True)
    with open(tarball.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if tarball.exists():
            return tarball
        partial = tarball.with_suffix(f".partial-{os.getpid()}.tar")
        command = recipe.command(mmdebstrap, partial)
        log_path = tarball.with_suffix(".log")
        say(f"building the Debian part (mmdebstrap, arm64 under qemu; log: {log_path})")
        env = dict(os.environ, SOURCE_DATE_EPOCH=str(epoch))
        with open(log_path, "w") as out:
            result = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT, env=env,
                                    check=False)
        if result.returncode != 0:
            partial.unlink(missing_ok=True)
            tail = log_path.read_text(errors="replace").strip().splitlines()[-15:]
            raise ImageError(f"mmdebstrap failed (exit {result.returncode}): "
                             f"{' '.join(command)}\n" + "\n".join(tail))
        partial.rename(tarball)
    return tarball


BINFMT = Path("/proc/sys/fs/binfmt_misc")


def ensure_binfmt() -> str:
    """Make the kernel run arm64 binaries through qemu-user (as
    tests/appliance/emulation.py does for the CI); what was done."""
    done = []
    if not (BINFMT / "register").exists():
        result = subprocess.run(["mount", "-t", "binfmt_misc", "binfmt_misc", str(BINFMT)],
                                capture_output=True, text=True, check=False)
        if result.returncode != 0:
            raise ImageError(f"cannot mount binfmt_misc on {BINFMT}: "
                             f"{result.stderr.strip()} (run as root)")
        done.append(f"mounted binfmt_misc on {BINFMT}")
    entry = BINFMT / "qemu-aarch64"
    if not entry.exists():
        conf = Path("/usr/lib/binfmt.d/qemu-aarch64.conf")
        try:
            line = next(raw.strip() for raw in conf.read_text().splitlines()
                        if raw.startswith(":"))
            (BINFMT / "register").write_text(line + "\n")
        except (OSError, StopIteration) as exc:
            if entry.exists():  # another job registered it first (.ci/run runs three)
                return "qemu-aarch64 registered by another job"
            raise ImageError(f"cannot register {conf} with binfmt_misc (apt-get install "
                             f"qemu-user-static; run as root): {exc}") from None
        done.append(f"registered qemu-aarch64 from {conf}")
    return "; ".join(done) or "qemu-aarch64 already registered"


def unpack(tarball: Path, root: Path) -> None:
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    root.chmod(0o755)
    result = subprocess.run(["tar", "--numeric-owner", "-xpf", str(tarball), "-C", str(root)],
                            capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise ImageError(f"cannot unpack {tarball}: {result.stderr.strip()[-400:]}")
