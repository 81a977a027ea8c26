"""`cbrig image build`: the whole build, step by step (see the package's docstring)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rig.maker.image import debian, disk, layer

CMDLINE = ("root=PARTUUID={disk_id}-02 ro rootfstype=ext4 rootwait fsck.repair=yes "
           "net.ifnames=0 cma=64M console=tty1 quiet")
"""The kernel's command line on the card (cmdline.txt): the root read-only, no console
on the header's UART (the reader's: Debian's device trees name the mini UART, ttyS1, as
the console by default; an explicit console= overrides that)."""

CONFIG_TXT = """\
# cb-rig image: the Raspberry Pi firmware's settings.
# https://www.raspberrypi.com/documentation/computers/config_txt.html
arm_64bit=1
# Debian's kernel with its upstream device trees (bcm2837-rpi-3-b.dtb, bcm2711-rpi-4-b.dtb...)
upstream_kernel=1
kernel=vmlinuz
initramfs initrd.img followkernel
# The header UART (GPIO14/15) on at a steady clock: the card reader's
enable_uart=1
# The OLED's I2C bus (GPIO2/3)
dtparam=i2c_arm=on
dtparam=audio=on
disable_overscan=1

[pi4]
max_framebuffers=2

[all]
"""

Say = Callable[[str], None]


@dataclass
class Result:
    image: Path
    xz: Path | None
    manifest: str
    timings: dict[str, float]


def checkout_dir() -> Path:
    here = Path(__file__).resolve().parents[3]
    if not (here / "pyproject.toml").exists() or not (here / "systemd" / "image").is_dir():
        raise layer.LayerError(f"{here} is not a cb-rig checkout: the image is built from "
                               "one (git clone, then .venv/bin/cbrig image build)")
    return here


def source_date_epoch(checkout: Path) -> int:
    if "SOURCE_DATE_EPOCH" in os.environ:
        return int(os.environ["SOURCE_DATE_EPOCH"])
    result = subprocess.run(["git", "-C", str(checkout), "log", "-1", "--format=%ct"],
                            capture_output=True, text=True, check=False)
    if result.returncode == 0 and result.stdout.strip().isdigit():
        return int(result.stdout.strip())
    return 1735689600  # 2025-01-01: a checkout without git history


def boot_tree(root: Path, boot: Path) -> str:
    """The FAT partition's files from the Debian part: Debian's kernel, its initramfs,
    the Pi device trees and raspi-firmware's boot files; the kernel's version."""
    kernels = sorted((root / "boot").glob("vmlinuz-*"))
    if len(kernels) != 1:
        raise layer.LayerError(f"expected one kernel in the image's /boot: {kernels}")
    version = kernels[0].name.removeprefix("vmlinuz-")
    boot.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(kernels[0], boot / "vmlinuz")
    shutil.copyfile(root / "boot" / f"initrd.img-{version}", boot / "initrd.img")
    dtbs = sorted((root / "usr" / "lib" / f"linux-image-{version}" / "broadcom").glob(
        "*.dtb"))
    if not dtbs:
        raise layer.LayerError(f"no Raspberry Pi device trees for kernel {version}")
    for dtb in dtbs:
        shutil.copyfile(dtb, boot / dtb.name)
    firmware = root / "usr" / "lib" / "raspi-firmware"
    for item in sorted(firmware.iterdir()):
        if item.is_file():
            shutil.copyfile(item, boot / item.name)
    for name in (f"vmlinuz-{version}", f"initrd.img-{version}", f"System.map-{version}"):
        (root / "boot" / name).unlink(missing_ok=True)  # on the FAT partition instead
    (boot / "config.txt").write_text(CONFIG_TXT)
    (boot / "cmdline.txt").write_text(CMDLINE.format(disk_id=layer.DISK_ID) + "\n")
    return version


def debian_part(recipe: debian.Recipe, epoch: int, say: Say = print) -> Path:
    """The Debian part's tarball from the cache, built first if it is not there (the
    slow step: mmdebstrap, arm64 under qemu-user), on its own so a caller can ask for it
    ahead of the rest of the build."""
    say(debian.ensure_binfmt())
    return debian.cached_tarball(recipe, shutil.which("mmdebstrap") or "mmdebstrap", epoch,
                                 say=say)


def build(out: Path, *, xz: bool = True, say: Say = print,
          work_parent: Path | None = None) -> Result:
    missing = disk.missing_tools()
    if missing:
        raise layer.LayerError(
            f"missing: {', '.join(missing)}; install with: apt-get install -y "
            f"{' '.join(sorted(set(missing.values())))}")
    if os.geteuid() != 0:
        raise layer.LayerError("the image build runs as root (chroot, file owners, "
                               "binfmt_misc): sudo .venv/bin/cbrig image build")
    timings: dict[str, float] = {}
    started = time.monotonic()

    def lap(name: str) -> None:
        timings[name] = round(time.monotonic() - started - sum(timings.values()), 1)

    checkout = checkout_dir()
    epoch = source_date_epoch(checkout)
    recipe = debian.Recipe()
    tarball = debian_part(recipe, epoch, say)
    lap("debian")
    work = Path(tempfile.mkdtemp(prefix="cbrig-image-", dir=work_parent or out.parent))
    try:
        root, boot, data, wheels = (work / n for n in ("root", "boot", "data", "wheels"))
        debian.unpack(tarball, root)
        say(f"Debian part {tarball.name} unpacked")
        lap("unpack")
        wheel = layer.build_wheels(checkout, wheels, say, epoch)
        lap("wheels")
        layer.install_venv(root, wheels, wheel, epoch, say)
        lap("venv")
        layer.users(root, epoch)
        layer.system_files(root, checkout, say)
        version = boot_tree(root, boot)
        layer.owner_files(root, boot, checkout)
        text = layer.manifest(root, wheels, recipe.key(), epoch)
        shutil.copyfile(root / "usr/share/cbrig/manifest.txt", boot / "cbrig" / "manifest.txt")
        layer.data_tree(root, data)
        layer.scrub(root)
        for tree in (root, boot, data):
            layer.clamp_times(tree, epoch)
        say(f"kernel {version}; {len(text.splitlines())} manifest lines")
        lap("layer")
        layout = disk.Layout(boot=disk.BOOT_SIZE, root=disk.root_size(root),
                             data=disk.DATA_SIZE)
        disk.make_fat(boot, work / "boot.fat", layout.boot, epoch)
        disk.make_ext4(root, work / "root.ext4", layout.root, "cbrig-root", disk.ROOT_UUID,
                       epoch)
        disk.make_ext4(data, work / "data.ext4", layout.data, "cbrig-data", disk.DATA_UUID,
                       epoch)
        disk.assemble(out, work / "boot.fat", work / "root.ext4", work / "data.ext4", layout,
                      layer.DISK_ID)
        say(f"{out}: {layout.total() // disk.MIB} MiB (boot {layout.boot // disk.MIB}, "
            f"root {layout.root // disk.MIB}, data {layout.data // disk.MIB})")
        lap("disk")
        compressed = None
        if xz:
            compressed = disk.compress(out)
            say(f"{compressed}: {compressed.stat().st_size / disk.MIB:.0f} MiB")
            lap("xz")
        return Result(out, compressed, text, timings)
    finally:
        shutil.rmtree(work, ignore_errors=True)
