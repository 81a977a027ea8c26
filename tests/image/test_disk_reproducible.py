"""The image's disk layer gives the same bytes for the same tree (issue 42: two builds of
one commit differed by 151,336 bytes, all of them inode times `mke2fs -d` took from the
build tree, and the manifest's wheel hash).

The same small tree is copied twice (so the copies' access and change times, inode
numbers on the host and directory order differ) and each copy is made into a FAT boot
partition, an ext4 root and data partition and a partitioned card, as the image build
does; the two cards must be identical. No root needed, no Debian part.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from rig.maker.image import disk
from tests.system_tools import require_commands

EPOCH = 1_700_000_000
"""SOURCE_DATE_EPOCH for these builds: 2023-11-14, long before the test runs."""

TOOLS = {"mkfs.vfat": "dosfstools", "mcopy": "mtools", "mmd": "mtools",
         "mke2fs": "e2fsprogs", "debugfs": "e2fsprogs", "dumpe2fs": "e2fsprogs",
         "sfdisk": "fdisk"}


def small_tree(top: Path, reverse: bool) -> None:
    """A boot and a root tree like the image's: nested folders, a symlink, an empty
    file, a file dated after the epoch and one before. `reverse` creates the entries in
    the opposite order (the host's directory order follows creation order)."""
    files = {
        "boot/config.txt": "arm_64bit=1\n",
        "boot/cbrig/config.toml": "[pins]\n",
        "boot/cbrig/wifi.txt": "ssid =\n",
        "boot/cbrig/updates/.keep": "",
        "boot/bcm2837-rpi-3-b.dtb": "dtb" * 5000,
        "root/etc/hostname": "cbrig\n",
        "root/opt/cbrig/venv/lib/module.py": "x = 1\n" * 3000,
        "root/usr/share/cbrig/manifest.txt": "# manifest\n",
        "data/cbrig/.keep": "",
    }
    for name in sorted(files, reverse=reverse):
        path = top / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(files[name])
    (top / "root/etc/localtime").symlink_to("/usr/share/zoneinfo/Etc/UTC")
    old = top / "root/etc/hostname"
    os.utime(old, (EPOCH - 86400, EPOCH - 86400))  # a Debian file: older than the epoch
    for part in ("boot", "root", "data"):
        # as the build does (layer.clamp_times): only what is newer than the epoch moves
        for directory, dirs, names in os.walk(top / part):
            for name in (*dirs, *names):
                path = Path(directory, name)
                if path.lstat().st_mtime > EPOCH:
                    os.utime(path, (EPOCH, EPOCH), follow_symlinks=False)
        os.utime(top / part, (EPOCH, EPOCH))


def build_card(top: Path) -> Path:
    layout = disk.Layout(boot=64 * disk.MIB, root=disk.root_size(top / "root"),
                         data=8 * disk.MIB)
    disk.make_fat(top / "boot", top / "boot.fat", layout.boot, EPOCH)
    disk.make_ext4(top / "root", top / "root.ext4", layout.root, "cbrig-root",
                   disk.ROOT_UUID, EPOCH)
    disk.make_ext4(top / "data", top / "data.ext4", layout.data, "cbrig-data",
                   disk.DATA_UUID, EPOCH)
    card = top / "card.img"
    disk.assemble(card, top / "boot.fat", top / "root.ext4", top / "data.ext4", layout,
                  "cb12c0de")
    return card


def differing_bytes(a: Path, b: Path) -> int:
    """What `cmp -l a b | wc -l` counts."""
    x, y = a.read_bytes(), b.read_bytes()
    assert len(x) == len(y)
    block = 4096
    return sum(sum(1 for i, j in zip(x[at:at + block], y[at:at + block], strict=True)
                   if i != j)
               for at in range(0, len(x), block) if x[at:at + block] != y[at:at + block])


def test_the_same_tree_makes_the_same_card(tmp_path: Path) -> None:
    require_commands(TOOLS)
    first, second = tmp_path / "one", tmp_path / "two"
    small_tree(first, reverse=False)
    small_tree(second, reverse=True)
    # the second copy's files are read (atime) and changed (ctime) after the first's
    for path in sorted(second.rglob("*")):
        if path.is_file() and not path.is_symlink():
            path.read_bytes()
            path.chmod(0o644)
    cards = [build_card(first), build_card(second)]
    for name in ("boot.fat", "root.ext4", "data.ext4"):
        assert differing_bytes(first / name, second / name) == 0, name
    assert cards[0].read_bytes() == cards[1].read_bytes()


def test_every_inode_is_dated_at_the_epoch_not_by_the_build_clock(tmp_path: Path) -> None:
    """The change time of a file on the host is the build's clock (it cannot be set
    back): each inode in the ext4 image carries the epoch instead."""
    require_commands(TOOLS)
    small_tree(tmp_path, reverse=False)
    build_card(tmp_path)
    fs = tmp_path / "root.ext4"
    inodes = disk.used_inodes(fs)
    assert 2 in inodes and len(inodes) >= 10
    for path, want_mtime in (("/etc/hostname", EPOCH - 86400), ("/etc", EPOCH),
                             ("/opt/cbrig/venv/lib/module.py", EPOCH),
                             ("/etc/localtime", EPOCH)):
        stat = subprocess.run(["debugfs", "-R", f"stat {path}", str(fs)],
                              capture_output=True, text=True, check=True).stdout
        times = {name: int(value, 16) for name, value in
                 re.findall(r"(\w+): 0x([0-9a-f]+)", stat)
                 if name in ("ctime", "atime", "mtime", "crtime")}
        assert times == {"ctime": EPOCH, "atime": EPOCH, "mtime": want_mtime,
                         "crtime": EPOCH}, (path, stat)
    check = subprocess.run([shutil.which("e2fsck") or "/sbin/e2fsck", "-fn", str(fs)],
                           capture_output=True, text=True, check=False)
    assert check.returncode == 0, check.stdout + check.stderr


def test_the_boot_partitions_folders_hold_their_files_in_name_order(tmp_path: Path) -> None:
    require_commands(TOOLS)
    small_tree(tmp_path, reverse=True)
    build_card(tmp_path)
    env = dict(os.environ, MTOOLS_SKIP_CHECK="1", TZ="UTC")
    listing = subprocess.run(["mdir", "-i", str(tmp_path / "boot.fat"), "-b", "-/", "::/"],
                             capture_output=True, text=True, check=True, env=env).stdout
    # each folder: its files in name order, then its folders in name order
    assert listing.split() == ["::/bcm2837-rpi-3-b.dtb", "::/config.txt", "::/cbrig/",
                               "::/cbrig/config.toml", "::/cbrig/wifi.txt",
                               "::/cbrig/updates/", "::/cbrig/updates/.keep"]
    dated = subprocess.run(["mdir", "-i", str(tmp_path / "boot.fat"), "::/cbrig"],
                           capture_output=True, text=True, check=True, env=env).stdout
    dates = re.findall(r"\d{4}-\d\d-\d\d", dated)
    assert len(dates) == 5 and set(dates) == {"2023-11-14"}, dated
    info = subprocess.run(["minfo", "-i", str(tmp_path / "boot.fat"), "::"],
                          capture_output=True, text=True, check=True, env=env).stdout
    assert f"serial number: {disk.FAT_ID.upper()}" in info
    assert f'disk label="{disk.BOOT_LABEL}' in info


def test_the_xz_is_the_same_whatever_the_number_of_cores(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """xz -T1 writes a single-threaded stream that differs from -T2's: a one-core
    builder must still make the same .xz as a four-core one."""
    require_commands({"xz": "xz-utils"})
    image = tmp_path / "card.img"
    image.write_bytes(b"".join(i.to_bytes(4, "little") * 7 for i in range(200_000)))
    made = []
    for cores in (1, 2, 4):
        monkeypatch.setattr(os, "cpu_count", lambda cores=cores: cores)
        made.append(disk.compress(image, level=1).read_bytes())
    assert made[0] == made[1] == made[2]
    check = subprocess.run(["xz", "-dc", str(image) + ".xz"], capture_output=True,
                           check=True)
    assert check.stdout == image.read_bytes()
