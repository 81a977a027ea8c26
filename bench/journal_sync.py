"""The journal's sync alone, two ways turn about: appending a line + ``fsync`` (the
journal before the third pass of issue 16) against overwriting a preallocated,
zero-filled file in place + ``fdatasync`` (``rig.core.journal`` now). One line each way per
round, alternating, so both see the same disk and the same load.

    python -m bench.journal_sync --dir /var/tmp --writes 1500
    python -m bench.journal_sync --dir /var/tmp --writes 600 --idle-against-busy

Prints one JSON object: the load average and, for each way, p50 / p90 / p99 of the sync
call alone (ms, wall clock: it is the disk's time, not the CPU's).

``--idle-against-busy`` asks what the wall time of a sync is made of on this machine:
pinned to one CPU, it times the in-place way with the CPU left idle while the sync
waits, then with a niced spinning process on the same CPU (which yields to the woken
sync at once), twice each. On a virtual machine the idle CPU halts the virtual CPU, and
waking it when the disk answers is the larger part of the time; the rig's loop renders
while its sync runs, which keeps the CPU busy for part of that wait.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
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


def in_place_syncs(directory: Path, writes: int) -> dict[str, float | int]:
    """``writes`` lines overwritten in place, each ``fdatasync``ed, a short sleep
    between them (the CPU idles unless something else runs)."""
    path = directory / f"cbrig-sync-idle.{os.getpid()}"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, bytes(len(LINE) * writes + 1))
        os.fsync(fd)
        times: list[float] = []
        for i in range(writes):
            os.pwrite(fd, LINE, i * len(LINE))
            start = time.perf_counter()
            os.fdatasync(fd)
            times.append(time.perf_counter() - start)
            time.sleep(0.0005)
    finally:
        os.close(fd)
        path.unlink()
    return summary_ms(times)


def idle_against_busy(directory: Path, writes: int) -> dict[str, object]:
    """The in-place sync with the CPU idle, then kept busy by a niced spinner on the
    same CPU, twice each (pinned to one CPU)."""
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    rounds: list[dict[str, object]] = []
    for _ in range(2):
        idle = in_place_syncs(directory, writes)
        spinner = subprocess.Popen(
            [sys.executable, "-c", f"import os; os.sched_setaffinity(0, {{{cpu}}}); "
             "os.nice(19)\nwhile True: pass"])
        try:
            time.sleep(0.2)
            busy = in_place_syncs(directory, writes)
        finally:
            spinner.kill()
            spinner.wait()
        rounds.append({"cpu_idle_ms": idle, "cpu_busy_ms": busy})
    return {"load": round(os.getloadavg()[0], 1), "writes": writes, "cpu": cpu,
            "rounds": rounds}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.journal_sync",
                                     description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--dir", type=Path, default=Path("/var/tmp"),
                        help="a directory on the disk to measure (default /var/tmp)")
    parser.add_argument("--writes", type=int, default=1500, help="lines each way")
    parser.add_argument("--idle-against-busy", action="store_true",
                        help="time the in-place sync with the CPU idle against kept busy")
    args = parser.parse_args(argv)
    if args.idle_against_busy:
        print(json.dumps(idle_against_busy(args.dir, args.writes)))
    else:
        print(json.dumps(measure(args.dir, args.writes)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
