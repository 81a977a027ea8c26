"""Running ARM binaries on an x86 machine: qemu-user-static through binfmt_misc.

The kernel hands an ARM executable to qemu when binfmt_misc knows the ARM ELF header.
That needs binfmt_misc mounted and qemu registered with the F flag (qemu opened once at
registration, so it also works inside a container's root file system that has no qemu
of its own). Debian's qemu-user-static ships the registration line for each
architecture in /usr/lib/binfmt.d; this module mounts and registers when the machine has
not done it (no systemd-binfmt to do it on a machine whose PID 1 is not systemd).
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

BINFMT = Path("/proc/sys/fs/binfmt_misc")
BINFMT_D = Path("/usr/lib/binfmt.d")


@dataclass(frozen=True)
class Arch:
    debian: str
    """Debian's name: arm64, armhf."""
    qemu: str
    """qemu's name: aarch64, arm."""
    machine: str
    """What `uname -m` says inside: aarch64, armv7l."""


ARCHES = {
    "arm64": Arch("arm64", "aarch64", "aarch64"),
    "armhf": Arch("armhf", "arm", "armv7l"),
}


def tools(arch: Arch) -> dict[str, str]:
    """The commands (command -> Debian package) that run `arch`'s binaries here in a
    container: qemu (registered with binfmt_misc, mounted with `mount` when the machine
    has not) and systemd-nspawn."""
    return {f"qemu-{arch.qemu}-static": "qemu-user-static",
            "systemd-nspawn": "systemd-container", "mount": "mount"}


class EmulationError(RuntimeError):
    """This machine cannot run the architecture's binaries; the message says why."""


def ensure_binfmt(arch: Arch) -> str:
    """Make the kernel run `arch`'s binaries through qemu; what was done."""
    done = []
    if not (BINFMT / "register").exists():
        result = subprocess.run(["mount", "-t", "binfmt_misc", "binfmt_misc", str(BINFMT)],
                                capture_output=True, text=True, check=False)
        if result.returncode != 0:
            raise EmulationError(f"cannot mount binfmt_misc on {BINFMT}: "
                                 f"{result.stderr.strip()}")
        done.append(f"mounted binfmt_misc on {BINFMT}")
    entry = BINFMT / f"qemu-{arch.qemu}"
    if not entry.exists():
        conf = BINFMT_D / f"qemu-{arch.qemu}.conf"
        try:
            line = next(raw.strip() for raw in conf.read_text().splitlines()
                        if raw.startswith(":"))
        except (OSError, StopIteration) as exc:
            raise EmulationError(f"no binfmt registration for qemu-{arch.qemu} in {conf} "
                                 f"(apt-get install qemu-user-static): {exc}") from None
        try:
            (BINFMT / "register").write_text(line + "\n")
        except OSError as exc:
            if not entry.exists():  # else another job (.ci/run runs two) registered it first
                raise EmulationError(f"cannot register {conf} with binfmt_misc: {exc}") from None
        done.append(f"registered qemu-{arch.qemu} from {conf}")
    status = entry.read_text().splitlines()
    if not status or status[0] != "enabled":
        raise EmulationError(f"{entry} is registered but not enabled: {status[:1]}")
    if "F" not in next((s for s in status if s.startswith("flags:")), ""):
        raise EmulationError(f"{entry} lacks the F flag: qemu would have to be inside the "
                             f"container's root file system")
    return "; ".join(done) or f"qemu-{arch.qemu} already registered"
