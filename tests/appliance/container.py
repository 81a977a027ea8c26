"""A Debian container booted with systemd as PID 1 (`systemd-nspawn --boot`).

The container is not registered with systemd-machined (`--register=no --keep-unit`),
so it boots on a CI machine whose own PID 1 is not systemd as well as on one where it
is. Commands run inside through `nsenter` into the container's namespaces, with a clean
environment like a login's, so `systemctl` and `journalctl` inside talk to the
container's systemd.
"""

from __future__ import annotations

import shlex
import signal
import subprocess
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from tests.slowdown import hang

T = TypeVar("T")

LOGIN_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
POLL_SECONDS = 0.2


class ContainerError(RuntimeError):
    """The container could not boot or a command inside failed; the message says why."""


def wait_until(probe: Callable[[], T | None], timeout: float, what: str) -> T:
    """Poll `probe` until it returns something truthy, at most `timeout` seconds.

    This is a bounded wait on observable state, not a sleep: it returns as soon as the
    state is reached, and a state never reached fails naming what was awaited and what
    was last seen.
    """
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            raise ContainerError(f"{what}: not reached within {timeout:.0f} s "
                                 f"(last seen: {value!r})")
        time.sleep(POLL_SECONDS)


class Container:
    """One booted container over the root file system `root`."""

    def __init__(self, root: Path, name: str, nspawn: str, nsenter: str,
                 read_only_binds: Iterable[Path] = (),
                 environment: dict[str, str] | None = None) -> None:
        self.root = root
        self.name = name
        self.nspawn = nspawn
        self.nsenter = nsenter
        self.read_only_binds = list(read_only_binds)
        self.environment = {"PATH": LOGIN_PATH, "HOME": "/root", "LANG": "C.UTF-8",
                            "TERM": "dumb", **(environment or {})}
        self.console = root.parent / f"{root.name}.console.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.leader = 0

    # ------------------------------------------------------------------ life
    def boot(self, timeout: float = hang()) -> str:
        """Boot and wait until systemd inside reports the system up; its state."""
        command = [self.nspawn, "--boot", "--register=no", "--keep-unit", "--quiet",
                   f"--machine={self.name}", f"--directory={self.root}",
                   "--console=read-only",
                   *(f"--bind-ro={path}" for path in self.read_only_binds)]
        with open(self.console, "wb") as console:
            self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL,
                                            stdout=console, stderr=subprocess.STDOUT)
        try:
            self.leader = wait_until(self._find_leader, timeout,
                                     f"{self.name}: systemd started as the container's PID 1")
            state = wait_until(self._system_state, timeout,
                               f"{self.name}: systemd finished booting")
        except ContainerError as exc:
            raise ContainerError(f"{exc}\n{' '.join(command)}\nconsole:\n"
                                 f"{self.console_tail()}") from None
        return state

    def _find_leader(self) -> int:
        """The container's PID 1 as the host sees it: nspawn's child running systemd."""
        assert self.process is not None
        if self.process.poll() is not None:
            raise ContainerError(f"systemd-nspawn exited with {self.process.returncode} "
                                 f"before the container booted\nconsole:\n"
                                 f"{self.console_tail()}")
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        try:
            pids = [int(p) for p in children.read_text().split()]
        except OSError:
            return 0
        for pid in pids:
            try:
                if Path(f"/proc/{pid}/comm").read_text().strip() == "systemd":
                    return pid
            except OSError:
                continue
        return 0

    def _system_state(self) -> str:
        """"running" or "degraded" once booted (anything else: still on its way)."""
        result = self.run("systemctl", "is-system-running", check=False)
        state = result.stdout.strip()
        return state if state in {"running", "degraded"} else ""

    def console_tail(self, lines: int = 30) -> str:
        try:
            text = self.console.read_text(errors="replace")
        except OSError:
            return "(no console output)"
        return "\n".join(text.splitlines()[-lines:])

    def shutdown(self, timeout: float = hang()) -> None:
        """Power off (SIGTERM to nspawn halts the container cleanly); kill if it hangs."""
        process = self.process
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            if self.leader:  # killing a PID namespace's init kills everything in it
                subprocess.run(["kill", "-9", str(self.leader)], check=False)
            process.kill()
            process.wait(timeout=hang())

    # -------------------------------------------------------------- commands
    def run(self, *argv: str, check: bool = True, timeout: float = hang(),
            environment: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        """Run a command inside, as root, with a login's clean environment."""
        env = {**self.environment, **(environment or {})}
        command = [self.nsenter, f"--target={self.leader}", "--all",
                   "env", "-i", *(f"{k}={v}" for k, v in env.items()), *argv]
        try:
            result = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True,
                                    text=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired as exc:
            raise ContainerError(f"in {self.name}: {shlex.join(argv)} did not finish "
                                 f"within {timeout:.0f} s") from exc
        if check and result.returncode != 0:
            raise ContainerError(f"in {self.name}: {shlex.join(argv)} exited "
                                 f"{result.returncode}\n{result.stdout[-3000:]}"
                                 f"\n{result.stderr[-3000:]}")
        return result

    def sh(self, script: str, check: bool = True, timeout: float = hang(),
           environment: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        return self.run("bash", "-euo", "pipefail", "-c", script, check=check,
                        timeout=timeout, environment=environment)

    def path(self, inside: str) -> Path:
        """A path inside the container as seen from the host."""
        return self.root / inside.lstrip("/")
