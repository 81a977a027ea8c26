"""`cbrig image build`: the Raspberry Pi image (docs/IMAGE.md).

A flashable card image for 64-bit Pis (3, 3A+/3B+, 4, 400, Zero 2 W, CM3/CM4) from
Debian bookworm's own packages (mmdebstrap, arm64 under qemu-user), with this checkout's
program in a venv, and its .xz. Needs root and Debian's mmdebstrap, arch-test,
qemu-user-static, dosfstools, mtools, e2fsprogs, fdisk and xz-utils; no loop device, no
mount. The Debian part is cached (in $CBRIG_CI_CACHE, else /var/cache/cbrig-ci), so a
second build only redoes the project's layer.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from rig.maker.image.build import build
from rig.maker.image.debian import ImageError
from rig.maker.image.disk import DiskError
from rig.maker.image.layer import LayerError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=("build",), help="build: the card image and its .xz")
    parser.add_argument("--out", type=Path, default=Path("cbrig.img"),
                        help="the image file to write (default: ./cbrig.img; the .xz "
                             "beside it)")
    parser.add_argument("--no-xz", action="store_true",
                        help="skip the .xz (its minutes of compression; a test or a "
                             "card flashed from the .img needs none)")


def run(args: argparse.Namespace) -> int:
    started = time.monotonic()
    try:
        result = build(args.out.resolve(), xz=not args.no_xz,
                       say=lambda line: print(line, flush=True))
    except (ImageError, DiskError, LayerError) as exc:
        print(f"cbrig image: {exc}", file=sys.stderr)
        return 1
    steps = ", ".join(f"{name} {seconds:.0f} s" for name, seconds in result.timings.items())
    print(f"built {result.image} in {time.monotonic() - started:.0f} s ({steps})")
    return 0
