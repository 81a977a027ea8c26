"""What machine the figures came from, and pinning the benchmark to one core."""

from __future__ import annotations

import os
import platform
import sys
from typing import Any


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() in ("model name", "Model", "Hardware"):
                    return value.strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def pin_to_one_core() -> int | None:
    """Run this process (and every child it starts) on one CPU; returns which."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    allowed = sorted(os.sched_getaffinity(0))
    cpu = allowed[-1]
    os.sched_setaffinity(0, {cpu})
    return cpu


def machine_info(pinned_cpu: int | None) -> dict[str, Any]:
    try:
        load = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        load = []
    return {
        "cpu_model": cpu_model(),
        "cores": os.cpu_count(),
        "pinned_cpu": pinned_cpu,
        "machine": platform.machine(),
        "system": f"{platform.system()} {platform.release()}",
        "python": sys.version.split()[0],
        "python_implementation": platform.python_implementation(),
        "load_average": load,
    }
