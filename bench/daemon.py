"""The daemon as systemd sees it: `cbrig run --config FILE` on mock hardware.

* start_to_ready_seconds: wall time from just before the process is spawned to the
  READY=1 datagram arriving on a NOTIFY_SOCKET we bind (then SIGTERM). Median of several
  runs; start_to_ready_cpu_seconds is the CPU the daemon had used by READY, which it
  sends in the READY=1 message itself (``X_CBRIG_START_CPU``: see :class:`Started`), so
  neither other load on the machine nor its own work after READY inflates it. Runs
  start from a fresh state directory (setup menu) and from a game in progress (the
  daemon replays a journal of a 10-Four game part-way through).
  Children get PYTHONPYCACHEPREFIX in our temp dir and one warm-up start, so modules load
  from cached bytecode as on an installed rig (pip compiles .pyc at install) and nothing
  is written into the checkout; start_to_ready_without_bytecode_cache_* is one start
  with PYTHONDONTWRITEBYTECODE=1 and an empty prefix (every module compiled from source).
* start_to_ready_oled_*: the same fresh start with an OLED configured (``[display]
  driver = "ssd1306"``), as a rig has one: luma and the panel's driver are imported and
  the panel initialised before READY. The I2C bus is the bench's stand-in: a module
  ``smbus2`` put first on the child's PYTHONPATH that opens
  :class:`hardware.display.fakebus.FakeSmbus2` (an SSD1306 on a fake bus, no decoding),
  so the real luma interface and driver run; importing the stand-in replaces importing
  the real smbus2 (both small).
* import_seconds: one extra run under PYTHONPROFILEIMPORTTIME=1 lists every module the
  daemon imported by READY (its stderr up to the READY=1 datagram: the hardware's modules
  come after); a fresh interpreter then imports exactly those (top-level
  ones, in order) and the wall time (and CPU time) is taken, without the profiler's
  overhead; median of 5. interpreter_startup_seconds is `python -c pass` for comparison.
* rss_mb: VmRSS from /proc/<pid>/status of the READY daemon resumed mid-game; the peak
  (VmHWM) of the same, and the peak (VmHWM, polled) of a whole game played by
  `cbrig run --autoplay SEED` (the config has hints on, as shipped: the strong level runs).
* idle_cpu_percent: CPU time (sum over threads of /proc/<pid>/task/*/schedstat, ns;
  utime+stime ticks where schedstat is missing) used by the READY daemon over a window
  with no input, once it has settled (the hardware is built after READY: the window
  starts when a 0.2 s step used under 2 ms of CPU, idle_settle_seconds after READY), as
  a percentage of one core; wakeups are the context switches of all its threads over
  the same window.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench import progress
from bench.stats import median, rnd
from rig.core.sdnotify import START_CPU_FIELD

METHOD = __doc__.strip().replace("\n", " ") if __doc__ else ""
READY_TIMEOUT = 300.0
"""Longest a start may take before it is called a hang (a quiet machine needs ~0.2 s;
issue 46 saw a deprioritised start on a machine at load 20 miss an earlier 30 s)."""

OLED_SMBUS = '''"""The bench's smbus2: an SSD1306 on a fake I2C bus (bench/daemon.py)."""
from hardware.display.fakebus import FakeSmbus2, fake_bus

_module = FakeSmbus2(fake_bus("ssd1306", decode=False))
SMBus = _module.SMBus
i2c_msg = _module.i2c_msg
'''

CONFIG = """\
[game]
name = "tenfour"
players = 4
levels = ["human", "human", "human", "human"]
hints = true

[pins]
backend = "mock"

[reader]
type = "none"

[display]
driver = "{display}"

[state]
directory = "{state}"

[daemon]
log_level = "warning"
"""


def cbrig_command() -> list[str]:
    """The installed `cbrig` script beside this interpreter, else `python -m rig.cli`."""
    script = Path(sys.executable).parent / "cbrig"
    if script.exists():
        return [str(script)]
    found = shutil.which("cbrig")
    return [found] if found else [sys.executable, "-m", "rig.cli"]


class Workdir:
    """A temporary state directory, config file and notify socket."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="cbrig-bench-"))
        self.state = self.root / "state"
        self.config = self.root / "config.toml"
        self.config.write_text(CONFIG.format(state=self.state, display="none"),
                               encoding="utf-8")
        self.oled_config = self.root / "config-oled.toml"
        self.oled_config.write_text(CONFIG.format(state=self.state, display="ssd1306"),
                                    encoding="utf-8")
        self.oled_path = self.root / "oled-bus"
        self.oled_path.mkdir()
        (self.oled_path / "smbus2.py").write_text(OLED_SMBUS, encoding="utf-8")
        self.socket_path = str(self.root / "notify")
        self.pycache = self.root / "pycache"

    def env(self, bytecode: bool = True, **extra: str) -> dict[str, str]:
        """The environment for a child: compiled bytecode cached under our own prefix
        (as an installed rig has its .pyc files), never written into the checkout; with
        bytecode=False every module is compiled from source at each start."""
        env = {k: v for k, v in os.environ.items()
               if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID",
                            "PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX",
                            "PYTHONPROFILEIMPORTTIME")}
        if bytecode:
            env["PYTHONPYCACHEPREFIX"] = str(self.pycache)
        else:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
            env["PYTHONPYCACHEPREFIX"] = str(self.root / "no-pycache")
        env.update(extra)
        return env

    def reset_state(self, journal: Path | None = None) -> None:
        shutil.rmtree(self.state, ignore_errors=True)
        self.state.mkdir(parents=True)
        if journal is not None:
            shutil.copy(journal, self.state / "current.jsonl")

    def cleanup(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


@contextlib.contextmanager
def notify_socket(path: str) -> Iterator[socket.socket]:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    try:
        sock.bind(path)
        yield sock
    finally:
        sock.close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)


class Started:
    """A daemon that reached READY=1: wall seconds, and the CPU it had used by then.

    The CPU is the figure the daemon sends with READY=1 (``X_CBRIG_START_CPU``, its
    ``time.process_time()`` as it sends the message): exact, whatever the machine's load.
    Reading /proc once the datagram arrives counts, besides, whatever the daemon did
    before this process woke up, and right after READY it loads the game's modules and
    the voice: on a loaded 2-core machine that added tens of milliseconds. /proc is read
    only for a daemon that sends no such field."""

    def __init__(self, proc: subprocess.Popen[bytes], seconds: float,
                 message: bytes = b"") -> None:
        self.proc = proc
        self.seconds = seconds
        self.message = message
        """The READY=1 datagram as it came (bench.paired reads its own stamp in it)."""
        reported = _reported_cpu(message)
        if reported is not None:
            self.cpu_seconds = reported
            return
        try:
            self.cpu_seconds = _cpu_and_wakeups(proc.pid)[0]
        except (OSError, ValueError, IndexError):
            self.cpu_seconds = float("nan")

    def stop(self, timeout: float = 10.0) -> int:
        """SIGTERM, then the exit status; killed (-9) if it has not exited in `timeout`
        seconds. Right after READY the daemon is still importing the game's modules,
        which under emulation takes far longer than natively: callers there pass more."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()


def _reported_cpu(message: bytes) -> float | None:
    """The ``X_CBRIG_START_CPU`` seconds of a READY message, or None."""
    prefix = START_CPU_FIELD.encode() + b"="
    for line in message.split(b"\n"):
        if line.startswith(prefix):
            try:
                return float(line[len(prefix):])
            except ValueError:
                return None
    return None


def start_daemon(work: Workdir, extra_env: dict[str, str] | None = None,
                 stderr: Any = subprocess.DEVNULL, bytecode: bool = True,
                 oled: bool = False, ready_timeout: float = READY_TIMEOUT) -> Started:
    """Start `cbrig run` and wait for READY=1; with `oled`, an SSD1306 configured on the
    bench's fake I2C bus (see the module docstring)."""
    extra = dict(extra_env or {})
    if oled:
        extra["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(work.oled_path), os.environ.get("PYTHONPATH", "")) if p)
    env = work.env(bytecode, NOTIFY_SOCKET=work.socket_path, **extra)
    config = work.oled_config if oled else work.config
    with notify_socket(work.socket_path) as sock:
        sock.settimeout(0.25)
        started = time.perf_counter()
        proc = subprocess.Popen([*cbrig_command(), "run", "--config", str(config)],
                                env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=stderr)
        try:
            while True:
                try:
                    message = sock.recv(4096)
                except TimeoutError:
                    if proc.poll() is not None:
                        raise RuntimeError(f"cbrig run exited with {proc.returncode} before "
                                           "READY=1 (run it by hand to see why)") from None
                    if time.perf_counter() - started > ready_timeout:
                        raise RuntimeError(f"no READY=1 within {ready_timeout:g} s") from None
                    continue
                if b"READY=1" in message.split(b"\n"):
                    return Started(proc, time.perf_counter() - started, message)
        except BaseException:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            raise


def mid_game_journal(directory: Path, inputs: int = 80) -> Path:
    """A 10-Four 4-player journal `inputs` inputs in (random legal self-play)."""
    import random

    from engine.selfplay import random_choice, sample_chance
    from rig.core.session import Session
    from rig.gamebuild import build_game

    game = build_game("tenfour", players=4, variant="standard")
    path = directory / "mid-game.jsonl"
    session = Session.start(game, path, {"created": "bench", "levels": ["human"] * 4,
                                         "hints": False})
    rng = random.Random("bench:mid-game")
    for _ in range(inputs):
        state = session.state
        if state.is_terminal():
            break
        if state.is_chance_node():
            action = sample_chance(state.chance_outcomes(), rng)
        else:
            action = random_choice(state, state.legal_actions(), rng)
        session.apply(action)
    session.close()
    return path


def _status(pid: int) -> dict[str, int]:
    out: dict[str, int] = {}
    with open(f"/proc/{pid}/status", encoding="utf-8") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM", "Threads", "voluntary_ctxt_switches",
                       "nonvoluntary_ctxt_switches"):
                out[key] = int(value.split()[0])
    return out


def _cpu_and_wakeups(pid: int) -> tuple[float, int, str]:
    """(CPU seconds, context switches) summed over the process's threads."""
    cpu = 0.0
    switches = 0
    source = "schedstat"
    for tid in os.listdir(f"/proc/{pid}/task"):
        base = f"/proc/{pid}/task/{tid}"
        try:
            with open(f"{base}/schedstat", encoding="ascii") as f:
                cpu += int(f.read().split()[0]) / 1e9
        except (OSError, ValueError, IndexError):
            source = "stat"
            with open(f"{base}/stat", encoding="ascii") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            cpu += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        with open(f"{base}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith(("voluntary_ctxt", "nonvoluntary_ctxt")):
                    switches += int(line.split(":")[1])
    return cpu, switches, source


def settle(pid: int, quiet_cpu: float = 0.002, step: float = 0.2, limit: float = 10.0) -> float:
    """Wait until the daemon has finished starting: the hardware is built after READY
    (gpiozero's import), so wait until it used less than ``quiet_cpu`` seconds of CPU in
    ``step`` (at most ``limit`` s). Returns the seconds waited."""
    started = time.perf_counter()
    time.sleep(0.3)
    last = _cpu_and_wakeups(pid)[0]
    while time.perf_counter() - started < limit:
        time.sleep(step)
        now = _cpu_and_wakeups(pid)[0]
        if now - last < quiet_cpu:
            break
        last = now
    return time.perf_counter() - started


def idle_cpu(pid: int, window: float) -> dict[str, Any]:
    settled = settle(pid)
    cpu0, sw0, source = _cpu_and_wakeups(pid)
    wall0 = time.perf_counter()
    while (left := window - (time.perf_counter() - wall0)) > 0:
        time.sleep(min(left, progress.QUIET_SECONDS))  # our wake-ups are not the daemon's
        progress.tick("  daemon: idle CPU, %.0f of %g s", time.perf_counter() - wall0, window)
    cpu1, sw1, _ = _cpu_and_wakeups(pid)
    wall = time.perf_counter() - wall0
    return {
        "idle_cpu_percent": rnd(100 * (cpu1 - cpu0) / wall),
        "idle_wakeups_per_second": rnd((sw1 - sw0) / wall),
        "idle_window_seconds": rnd(wall),
        "idle_settle_seconds": rnd(settled),
        "idle_cpu_source": source,
        "threads": _status(pid).get("Threads", 0),
    }


def import_profile(work: Workdir) -> dict[str, Any]:
    """Which modules the daemon imports by READY, and what importing them costs."""
    work.reset_state()
    err_path = work.root / "importtime.txt"
    with open(err_path, "wb") as err:
        daemon = start_daemon(work, {"PYTHONPROFILEIMPORTTIME": "1"}, stderr=err)
        at_ready = os.path.getsize(err_path)  # what the daemon imported before READY=1
        daemon.stop()
    top: list[tuple[str, int]] = []
    total_self = 0
    with open(err_path, "rb") as f:
        before_ready = f.read(at_ready).decode("utf-8", errors="replace")
    for line in before_ready.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        self_us, cumulative, name = line[len("import time:"):].split("|", 2)
        total_self += int(self_us)
        if name.startswith("  "):
            continue  # nested: counted in its parent's cumulative
        top.append((name.strip(), int(cumulative)))
    modules = [name for name, _ in top]
    code = (
        "import importlib, sys, time\n"
        f"mods = {modules!r}\n"
        "t, c = time.perf_counter(), time.process_time()\n"
        "for m in mods:\n"
        "    try:\n"
        "        importlib.import_module(m)\n"
        "    except Exception:\n"
        "        pass\n"
        "print(time.perf_counter() - t, time.process_time() - c, len(sys.modules))\n"
    )
    runs = []
    cpu_runs = []
    count = 0
    for _ in range(5):
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                check=True, env=work.env())
        seconds, cpu_text, count_text = result.stdout.split()
        runs.append(float(seconds))
        cpu_runs.append(float(cpu_text))
        count = int(count_text)
    startup = []
    for _ in range(3):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True, env=work.env())
        startup.append(time.perf_counter() - t)
    heaviest = sorted(top, key=lambda item: -item[1])[:10]
    return {
        "import_seconds": rnd(median(runs)),
        "import_cpu_seconds": rnd(median(cpu_runs)),
        "import_modules_loaded": count,
        "import_seconds_under_importtime": rnd(total_self / 1e6),
        "import_heaviest_ms": {name: rnd(us / 1000) for name, us in heaviest},
        "interpreter_startup_seconds": rnd(median(startup)),
    }


def autoplay_peak(work: Workdir, seed: int = 1) -> dict[str, Any]:
    """A whole game played by the daemon itself: its peak RSS (VmHWM, read every 20 ms
    until it exits; ru_maxrss is no use here, it counts the forked bench process's
    pages before the exec) and how long the game took."""
    work.reset_state()
    started = time.perf_counter()
    proc = subprocess.Popen([*cbrig_command(), "run", "--config", str(work.config),
                             "--autoplay", str(seed)], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env=work.env())
    peak_kb = 0
    while proc.poll() is None:
        with contextlib.suppress(OSError, KeyError, ValueError):
            peak_kb = max(peak_kb, _status(proc.pid)["VmHWM"])
        time.sleep(0.02)
    games = list((work.state / "games").glob("*.jsonl"))
    inputs = sum(1 for _ in games[0].open(encoding="utf-8")) - 1 if games else 0
    return {
        "autoplay_peak_rss_mb": rnd(peak_kb / 1024),
        "autoplay_seconds": rnd(time.perf_counter() - started),
        "autoplay_inputs": inputs,
        "autoplay_exit_code": proc.returncode,
    }


def measure(quick: bool) -> dict[str, Any]:
    runs = 3 if quick else 7
    window = 2.0 if quick else 10.0
    work = Workdir()
    try:
        journal = mid_game_journal(work.root)
        progress.say(f"  daemon: {runs} starts each without and with an OLED, "
                     f"{runs} resuming a game")
        work.reset_state()
        uncompiled = start_daemon(work, bytecode=False)  # also: no .pyc anywhere
        uncompiled.stop()
        work.reset_state()
        start_daemon(work).stop()  # warm-up: compiles every module into our prefix
        fresh = []
        fresh_cpu = []
        for _ in range(runs):
            work.reset_state()
            daemon = start_daemon(work)
            fresh.append(daemon.seconds)
            progress.tick("  daemon: start %d of %d, no display", len(fresh), runs)
            fresh_cpu.append(daemon.cpu_seconds)
            fresh_rss = _status(daemon.proc.pid)["VmRSS"]
            daemon.stop()
        start_daemon(work, oled=True).stop()  # warm-up: luma's bytecode too
        oled = []
        oled_cpu = []
        for _ in range(runs):
            work.reset_state()
            daemon = start_daemon(work, oled=True)
            oled.append(daemon.seconds)
            progress.tick("  daemon: start %d of %d, OLED", len(oled), runs)
            oled_cpu.append(daemon.cpu_seconds)
            daemon.stop()
        resumed = []
        resumed_cpu = []
        for i in range(runs):
            work.reset_state(journal)
            daemon = start_daemon(work)
            resumed.append(daemon.seconds)
            progress.tick("  daemon: start %d of %d, resumed", len(resumed), runs)
            resumed_cpu.append(daemon.cpu_seconds)
            if i < runs - 1:
                daemon.stop()
        try:
            status = _status(daemon.proc.pid)
            progress.say(f"  daemon: idle CPU over {window:g} s")
            idle = idle_cpu(daemon.proc.pid, window)
        finally:
            exit_code = daemon.stop()
        out: dict[str, Any] = {
            "start_to_ready_seconds": rnd(median(fresh)),
            "start_to_ready_runs": [rnd(s) for s in fresh],
            "start_to_ready_cpu_seconds": rnd(median(fresh_cpu)),
            "start_to_ready_oled_seconds": rnd(median(oled)),
            "start_to_ready_oled_cpu_seconds": rnd(median(oled_cpu)),
            "start_to_ready_oled_runs": [rnd(s) for s in oled],

            "start_to_ready_without_bytecode_cache_seconds": rnd(uncompiled.seconds),
            "start_to_ready_without_bytecode_cache_cpu_seconds": rnd(uncompiled.cpu_seconds),
            "start_to_ready_resume_seconds": rnd(median(resumed)),
            "start_to_ready_resume_cpu_seconds": rnd(median(resumed_cpu)),
            "start_to_ready_resume_runs": [rnd(s) for s in resumed],
            "rss_mb": rnd(status["VmRSS"] / 1024),
            "rss_peak_mb": rnd(status["VmHWM"] / 1024),
            "rss_setup_menu_mb": rnd(fresh_rss / 1024),
            **idle,
            "daemon_exit_code_on_sigterm": exit_code,
            "daemon_command": [*cbrig_command(), "run", "--config", "<mock config>"],
            "mock_config": CONFIG.format(state="<temp dir>", display="none"),
        }
        progress.say("  daemon: import profile, then a whole game by --autoplay")
        out.update(import_profile(work))
        out.update(autoplay_peak(work))
        return out
    finally:
        work.cleanup()


if __name__ == "__main__":
    print(json.dumps(measure("--quick" in sys.argv), indent=2))
