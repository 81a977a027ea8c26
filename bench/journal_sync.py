"""The journal's sync alone, two ways turn about: appending a line + ``fsync`` (the
journal before the third pass of issue 16) against overwriting a preallocated,
zero-filled file in place + ``fdatasync`` (``rig.journal`` now). One line each way per
round, alternating, so both see the same disk and the same load.

    python -m bench.journal_sync --dir /var/tmp --writes 1500

Prints one JSON object: the load average and, for each way, p50 / p90 / p99 of the sync
call alone (ms, wall clock: it is the disk's time, not the CPU's).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from bench.stats import summary_ms

LINE = b'{"seq":123,"action":{"kind":"spin","band":1,"value":7}}\n'


def measure(directory: Path, writes: int) -> dict[str, object]:
    """Sync times of ``writes`` lines each way, alternating line by line."""
    appended = directory / f"cbrig-sync-append.{os.getpid()}"
    in_place = directory / f"cbrig-sync-in-place.{os.getpid()}"
    a = os.open(appended, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o600)
    b = os.open(in_place, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(b, bytes(len(LINE) * writes + 1))
        os.fsync(b)
        append_times: list[float] = []
        in_place_times: list[float] = []
        for i in range(writes):
            os.write(a, LINE)
            start = time.perf_counter()
            os.fsync(a)
            append_times.append(time.perf_counter() - start)
            os.pwrite(b, LINE, i * len(LINE))
            start = time.perf_counter()
            os.fdatasync(b)
            in_place_times.append(time.perf_counter() - start)
    finally:
        for fd, path in ((a, appended), (b, in_place)):
            os.close(fd)
            path.unlink()
    return {"load": round(os.getloadavg()[0], 1), "writes": writes,
            "append_fsync_ms": summary_ms(append_times),
            "in_place_fdatasync_ms": summary_ms(in_place_times)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.journal_sync",
                                     description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--dir", type=Path, default=Path("/var/tmp"),
                        help="a directory on the disk to measure (default /var/tmp)")
    parser.add_argument("--writes", type=int, default=1500, help="lines each way")
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.dir, args.writes)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
