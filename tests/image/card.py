"""The card image from outside, without mounting it: its partitions (sfdisk), files on
the FAT partition (mtools, at the partition's offset) and on the ext4 partitions
(debugfs, at the partition's offset)."""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

SECTOR = 512


@dataclass(frozen=True)
class Partition:
    number: int
    start: int
    """Bytes from the start of the card."""
    size: int
    type: str


def run(command: list[str], stdin: bytes | None = None,
        env: dict[str, str] | None = None) -> bytes:
    result = subprocess.run(command, input=stdin, capture_output=True, check=False,
                            env={**os.environ, **(env or {})})
    assert result.returncode == 0, (
        f"{' '.join(command)} failed (exit {result.returncode}): "
        f"{(result.stdout + result.stderr).decode(errors='replace')[-2000:]}")
    return result.stdout


def partitions(card: Path) -> list[Partition]:
    table = json.loads(run(["sfdisk", "--json", str(card)]))["partitiontable"]
    return [Partition(i, p["start"] * SECTOR, p["size"] * SECTOR, p["type"])
            for i, p in enumerate(table["partitions"], 1)]


def partition(card: Path, number: int) -> Partition:
    return partitions(card)[number - 1]


MTOOLS = {"MTOOLS_SKIP_CHECK": "1"}


def fat_read(card: Path, name: str) -> bytes:
    boot = partition(card, 1)
    return run(["mcopy", "-n", "-i", f"{card}@@{boot.start}", f"::{name}", "-"], env=MTOOLS)


def fat_get(card: Path, name: str, out: Path) -> Path:
    out.write_bytes(fat_read(card, name))
    return out


def fat_put(card: Path, name: str, content: bytes, scratch: Path) -> None:
    boot = partition(card, 1)
    local = scratch / Path(name).name
    local.write_bytes(content)
    run(["mcopy", "-o", "-i", f"{card}@@{boot.start}", str(local), f"::{name}"], env=MTOOLS)
    local.unlink()


def ext_spec(card: Path, number: int) -> str:
    """debugfs's name for partition `number` of the card (0: the file is one file system)."""
    return f"{card}?offset={partition(card, number).start}" if number else str(card)


def debugfs(card: Path, number: int, request: str, write: bool = False) -> str:
    args = ["debugfs", *(["-w"] if write else []), "-R", request, ext_spec(card, number)]
    return run(args).decode(errors="replace")


def ext_read(card: Path, number: int, path: str) -> bytes:
    return run(["debugfs", "-R", f"cat {path}", ext_spec(card, number)])


def ext_write(card: Path, number: int, path: str, content: bytes, scratch: Path,
              uid: int, gid: int, mode: int) -> None:
    """Put a file on an ext4 partition with its owner and mode (debugfs -w)."""
    local = scratch / "debugfs-upload"
    local.write_bytes(content)
    spec = ext_spec(card, number)
    script = scratch / "debugfs-script"
    script.write_text(f"rm {path}\nwrite {local} {path}\nsif {path} uid {uid}\n"
                      f"sif {path} gid {gid}\nsif {path} mode 0{0o100000 | mode:o}\n")
    run(["debugfs", "-w", "-f", str(script), spec])
    local.unlink()
    script.unlink()


def after_power_cut(card: Path, number: int, scratch: Path) -> Path:
    """A copy of the card's partition `number` (an ext4 file system alone in a file) with
    its journal replayed as the kernel does at the next mount (`e2fsck -E journal_only`,
    jbd2's own recovery code), so that debugfs reads what was committed. Read it with
    `ext_read(copy, 0, path)` (partition 0: the file itself)."""
    part = partition(card, number)
    copy = scratch / f"partition-{number}-replayed.img"
    with open(card, "rb") as source, open(copy, "wb") as out:
        source.seek(part.start)
        left = part.size
        while left:
            chunk = source.read(min(left, 1 << 22))
            assert chunk, f"{card} ends inside partition {number}"
            if chunk.count(0) == len(chunk):
                out.seek(len(chunk), os.SEEK_CUR)  # keep holes
            else:
                out.write(chunk)
            left -= len(chunk)
        out.truncate(part.size)
    result = subprocess.run(["e2fsck", "-E", "journal_only", "-y", str(copy)],
                            capture_output=True, check=False)
    assert result.returncode in (0, 1), (  # 1: errors corrected (the journal replayed)
        f"e2fsck -E journal_only {copy} failed (exit {result.returncode}): "
        f"{(result.stdout + result.stderr).decode(errors='replace')[-2000:]}")
    return copy


def pad_to_power_of_two(image: Path, out: Path) -> int:
    """A copy of `image` padded as QEMU's SD card needs (a power of two); its size."""
    run(["cp", "--sparse=always", str(image), str(out)])
    size = out.stat().st_size
    padded = 1 << (size - 1).bit_length()
    with open(out, "r+b") as f:
        f.truncate(padded)
    return padded
