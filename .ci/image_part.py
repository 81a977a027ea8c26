"""The Pi image's Debian part, built into the cache as CI starts.

    python3 .ci/image_part.py    # .ci/run starts it first, beside the two suites

The boot test in the README's test command (tests/image/test_boot.py, marker pi_image)
builds the image from a Debian part (bookworm arm64 from mmdebstrap, about 10-20 minutes
under qemu-user on a fresh machine) that is cached by recipe under a lock
(rig/maker/image/debian.py). Asked for here at the start of the run, it is made while the
other tests run, and the test takes it from the cache (or waits on the lock for the rest).
Nothing else is done here: what it builds is what the test would have built.

Exits 0 with the tarball's path, else 1 with why; .ci/run prints what it said and fails
when it does (the boot test would then fail for the same reason, or build it again).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from rig.maker.image import build, debian, disk, layer  # noqa: E402
from tests.system_tools import find_commands  # noqa: E402


def main() -> int:
    started = time.monotonic()
    if os.geteuid() != 0:
        print("image part: not built (needs root: mmdebstrap, binfmt_misc)", flush=True)
        return 1
    _, problem = find_commands(disk.tools())
    if problem:
        print(f"image part: not built: {problem}", flush=True)
        return 1
    try:
        epoch = build.source_date_epoch(build.checkout_dir())
        tarball = build.debian_part(debian.Recipe(), epoch,
                                    say=lambda line: print(f"image part: {line}", flush=True))
    except (debian.ImageError, layer.LayerError, OSError) as exc:
        print(f"image part: not built: {exc}", flush=True)
        return 1
    print(f"image part: {tarball} ready after {time.monotonic() - started:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
