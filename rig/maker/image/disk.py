"""The card image from directories, with no loop device and no mount.

The boot partition is a FAT32 file system made by mkfs.vfat and filled by mcopy
(mtools); the root and data partitions are ext4 made by `mke2fs -d DIR` with a fixed
UUID, hash seed and time (E2FSPROGS_FAKE_TIME); sfdisk partitions the image file and
each file system is copied in at its offset (holes kept: the image stays sparse).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

MIB = 1024 * 1024
SECTOR = 512
FIRST = 4 * MIB
"""Where the first partition starts (aligned for SD cards' erase blocks)."""
BOOT_SIZE = 256 * MIB
DATA_SIZE = 64 * MIB
"""The data partition as built: grown to the card on first boot."""
BOOT_LABEL = "CBRIG-BOOT"
ROOT_UUID = "cb12c0de-0002-4a1e-8000-000000000002"
DATA_UUID = "cb12c0de-0003-4a1e-8000-000000000003"
FAT_ID = "cb12c0de"


@dataclass(frozen=True)
class Layout:
    boot: int
    root: int
    data: int

    def offsets(self) -> tuple[int, int, int]:
        return FIRST, FIRST + self.boot, FIRST + self.boot + self.root

    def total(self) -> int:
        return FIRST + self.boot + self.root + self.data


class DiskError(RuntimeError):
    """A file system or the partition table could not be made; the message says why."""


def _run(command: list[str], env: dict[str, str] | None = None,
         stdin: str | None = None) -> None:
    result = subprocess.run(command, capture_output=True, text=True, input=stdin,
                            env={**os.environ, **(env or {})}, check=False)
    if result.returncode != 0:
        raise DiskError(f"{' '.join(command)} failed (exit {result.returncode}): "
                        f"{(result.stdout + result.stderr).strip()[-1000:]}")


def tree_bytes(tree: Path) -> int:
    """What a tree takes in 4 KiB blocks, with an inode's worth for each entry."""
    total = 0
    for directory, dirs, files in os.walk(tree):
        for name in (*dirs, *files):
            st = os.lstat(os.path.join(directory, name))
            total += -(-st.st_size // 4096) * 4096 + 256
    return total


def root_size(tree: Path) -> int:
    """The root partition's size: the tree, an eighth more and 64 MiB (the file
    system's own tables and journal), in whole MiB."""
    need = tree_bytes(tree)
    return -(-(need + need // 8 + 64 * MIB) // MIB) * MIB


def make_fat(tree: Path, out: Path, size: int, epoch: int) -> None:
    """A FAT32 file system holding `tree`, the same bytes for the same tree and epoch:
    a fixed volume id (--invariant), every entry dated `epoch` at the latest, and
    each directory's files then its folders written in name order (mcopy -s would
    follow the host's readdir order), one directory at a time."""
    out.unlink(missing_ok=True)
    # --invariant first: after -i it set its own volume id (1234-ABCD) over FAT_ID
    _run(["mkfs.vfat", "-F", "32", "--invariant", "-n", BOOT_LABEL, "-i", FAT_ID,
          "-C", str(out), str(size // 1024)], env={"SOURCE_DATE_EPOCH": str(epoch)})
    env = {"MTOOLS_SKIP_CHECK": "1", "SOURCE_DATE_EPOCH": str(epoch), "TZ": "UTC"}
    for directory, dirs, files in os.walk(tree):
        dirs.sort()
        inside = Path(directory).relative_to(tree).as_posix()
        target = "::/" if inside == "." else f"::/{inside}/"
        if inside != ".":
            _run(["mmd", "-i", str(out), target.rstrip("/")], env=env)
        names = [os.path.join(directory, name) for name in sorted(files)]
        if names:
            _run(["mcopy", "-i", str(out), "-p", "-m", "-Q", *names, target], env=env)


def make_ext4(tree: Path, out: Path, size: int, label: str, uuid: str, epoch: int,
              reserved: int = 0, journal: bool = True) -> None:
    out.unlink(missing_ok=True)
    with open(out, "wb") as f:
        f.truncate(size)
    features = [] if journal else ["-O", "^has_journal"]
    _run(["mke2fs", "-q", "-F", "-t", "ext4", "-b", "4096", "-i", "8192", "-I", "256",
          "-m", str(reserved), "-L", label, "-U", uuid, *features,
          "-E", f"hash_seed={uuid},root_owner=0:0,lazy_itable_init=0,lazy_journal_init=0,"
                "nodiscard",
          "-d", str(tree), str(out), f"{size // 1024}k"],
         env={"E2FSPROGS_FAKE_TIME": str(epoch), "SOURCE_DATE_EPOCH": str(epoch)})
    settle_inode_times(out, epoch)


def used_inodes(fs: Path) -> list[int]:
    """The inodes in use in an ext4 file system image (dumpe2fs's free ranges, inverted),
    without the reserved ones below the first ordinary inode but the root directory."""
    result = subprocess.run(["dumpe2fs", str(fs)], capture_output=True, text=True,
                            check=False)
    if result.returncode != 0:
        raise DiskError(f"dumpe2fs {fs} failed: {result.stderr.strip()[-400:]}")
    head = dict(re.findall(r"^([A-Za-z ]+):\s+(.*)$", result.stdout, re.M))
    count, first = int(head["Inode count"]), int(head.get("First inode", "11"))
    free = bytearray(count + 1)
    for ranges in re.findall(r"^  Free inodes: (.*)$", result.stdout, re.M):
        for part in filter(None, (p.strip() for p in ranges.split(","))):
            low, _, high = part.partition("-")
            start, end = int(low), int(high or low)
            free[start:end + 1] = b"\x01" * (end + 1 - start)
    return [ino for ino in range(1, count + 1)
            if not free[ino] and (ino == 2 or ino >= first)]


def settle_inode_times(fs: Path, epoch: int) -> None:
    """Every used inode's access and change times set to `epoch`.

    `mke2fs -d` (e2fsprogs 1.47.0) copies each file's atime and ctime from the build
    tree, and a ctime cannot be set back on the host: the build's own clock, which made
    two builds of one commit differ in 19,523 inodes (each inode's times and checksum).
    Modification and creation times are already `epoch` at the latest (clamp_times,
    E2FSPROGS_FAKE_TIME)."""
    with tempfile.NamedTemporaryFile("w", suffix=".debugfs") as script:
        for ino in used_inodes(fs):
            script.write(f"sif <{ino}> atime @{epoch}\nsif <{ino}> ctime @{epoch}\n")
        script.flush()
        result = subprocess.run(["debugfs", "-w", "-f", script.name, str(fs)],
                                capture_output=True, text=True, check=False,
                                env={**os.environ, "E2FSPROGS_FAKE_TIME": str(epoch)})
    errors = [line for line in result.stderr.splitlines()
              if line.strip() and not line.startswith("debugfs ")]
    if result.returncode != 0 or errors:
        raise DiskError(f"debugfs could not set the inode times in {fs}: "
                        f"{' '.join(errors)[-600:] or result.returncode}")


def partition(image: Path, layout: Layout, disk_id: str) -> None:
    boot, root, data = layout.offsets()
    table = (f"label: dos\nlabel-id: 0x{disk_id}\nunit: sectors\n\n"
             f"start={boot // SECTOR}, size={layout.boot // SECTOR}, type=c, bootable\n"
             f"start={root // SECTOR}, size={layout.root // SECTOR}, type=83\n"
             f"start={data // SECTOR}, size={layout.data // SECTOR}, type=83\n")
    _run(["sfdisk", "--no-reread", "--no-tell-kernel", "-q", str(image)], stdin=table)


def copy_in(image: Path, part: Path, offset: int) -> None:
    """`part` into `image` at `offset`, skipping its zero blocks (they are holes)."""
    block = MIB
    zero = bytes(block)
    with open(part, "rb") as src, open(image, "r+b") as dst:
        position = 0
        while chunk := src.read(block):
            if chunk != zero[:len(chunk)]:
                dst.seek(offset + position)
                dst.write(chunk)
            position += len(chunk)


def assemble(image: Path, boot_fs: Path, root_fs: Path, data_fs: Path, layout: Layout,
             disk_id: str) -> None:
    image.unlink(missing_ok=True)
    with open(image, "wb") as f:
        f.truncate(layout.total())
    partition(image, layout, disk_id)
    for part, offset in zip((boot_fs, root_fs, data_fs), layout.offsets(), strict=True):
        copy_in(image, part, offset)


def compress(image: Path, level: int = 6) -> Path:
    out = image.with_name(image.name + ".xz")
    out.unlink(missing_ok=True)
    # "+N": xz's multi-threaded format even with one thread (xz 5.4), so the .xz is the
    # same bytes on a machine of any number of cores (-T1 writes a different stream)
    threads = max(1, min(os.cpu_count() or 1, 4))
    with open(out, "wb") as f:
        result = subprocess.run(["xz", f"-{level}", f"-T+{threads}", "-c", str(image)],
                                stdout=f, stderr=subprocess.PIPE, check=False)
    if result.returncode != 0:
        out.unlink(missing_ok=True)
        raise DiskError(f"xz failed: {result.stderr.decode(errors='replace')[-400:]}")
    return out


def tools() -> dict[str, str]:
    """Commands the image build needs (command -> Debian package)."""
    return {"mmdebstrap": "mmdebstrap", "arch-test": "arch-test",
            "qemu-aarch64-static": "qemu-user-static", "mkfs.vfat": "dosfstools",
            "mcopy": "mtools", "mmd": "mtools", "mke2fs": "e2fsprogs",
            "debugfs": "e2fsprogs", "dumpe2fs": "e2fsprogs", "sfdisk": "fdisk", "xz": "xz-utils",
            "tar": "tar"}


def missing_tools() -> dict[str, str]:
    return {cmd: pkg for cmd, pkg in tools().items() if shutil.which(cmd) is None}
