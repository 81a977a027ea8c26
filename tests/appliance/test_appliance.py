"""The appliance's whole life under a real systemd: Debian bookworm booted in a container.

A Pi owner's path, step by step, with the config switched to mock hardware:
`systemd/install.sh` from the checkout as docs/INSTALL.md says; the shipped unit, sandbox
and all, reaches active/running through READY=1; a whole game autoplayed under the
sandbox; a damaged journal set aside with an error in the journal; a game in progress
that survives `kill -9` and a hung loop (SIGSTOP, the watchdog) and comes back on the same
prompt; `systemctl stop` leaving RIG OFF; `uninstall.sh` keeping the games and cards and
`--purge` removing them.

The screen is read through the `png` display driver, which writes every frame the rig
draws to `/var/lib/cbrig/screens/frame_NNNNNN.png` (numbered from 1 at each start); the
frame directory is emptied whenever the daemon cannot be drawing, so the highest number
is what the rig shows now. Waits are bounded polls of `systemctl show` and the journal.

Needs root and systemd-nspawn (installed through tests/system_tools.py). A machine that
cannot boot the container fails this test with the reason; it is never skipped. The
root file system is cached (see tests/appliance/rootfs.py): the first run builds it from
Debian's registry (about a minute), later ones unpack it (about a second).
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from rig.core.startup import goodbye_screen
from rig.screens.render import render
from tests.appliance import rootfs
from tests.appliance.container import Container, ContainerError, wait_until
from tests.slowdown import hang
from tests.system_tools import require_commands

pytestmark = pytest.mark.appliance

REPO = Path(__file__).resolve().parents[2]
PACKAGES = ("systemd", "systemd-sysv", "dbus", "python3", "python3-venv", "ca-certificates")
"""Debian bookworm with systemd, plus what docs/INSTALL.md asks the owner to apt install
(python3-lgpio is Raspberry Pi OS's own package, not Debian's: the `[pi]` extra brings
lgpio from PyPI instead)."""

OWNER = "pi"
CHECKOUT = f"/home/{OWNER}/cb-rig"
STATE = "/var/lib/cbrig"
UNIT = "cbrig.service"
DROP_IN = f"/etc/systemd/system/{UNIT}.d/autoplay.conf"
SEED = 5
RESUME_AT = 12
"""The game in progress: the first RESUME_AT inputs of the autoplayed game, as a power
cut right after input RESUME_AT leaves the journal."""

MOCK_CONFIG = """\
# The appliance test's config: the shipped one switched to mock hardware.
[game]
name = "tenfour"
players = 2
levels = ["human", "human"]
hints = false

[pins]
backend = "mock"

[reader]
type = "none"

[display]
driver = "png"
"""

CARDS = '[tags]\n"0A1B2C3D4E" = "kept-on-uninstall"\n'


# ------------------------------------------------------------------- the machine
def _name() -> str:
    return f"cbrig-ci-{os.getpid()}"


@pytest.fixture(scope="module")
def machine() -> Iterator[Container]:
    if os.geteuid() != 0:
        pytest.fail("the appliance test boots a container with systemd-nspawn, which needs "
                    "root: run the suite as root", pytrace=False)
    recipe = rootfs.Recipe(arch=rootfs.host_arch(), packages=PACKAGES)
    tools = require_commands(rootfs.build_tools(recipe.arch) | {
        "systemd-nspawn": "systemd-container", "nsenter": "util-linux"})
    try:
        tarball = rootfs.cached_tarball(recipe, tools["mmdebstrap"])
    except rootfs.RootfsError as exc:
        pytest.fail(f"cannot build the container's root file system: {exc}", pytrace=False)
    root = rootfs.unpack(tarball)
    environment = rootfs.passed_environment()
    container = Container(root, _name(), tools["systemd-nspawn"], tools["nsenter"],
                          read_only_binds=rootfs.local_find_links(environment),
                          environment=environment)
    try:
        copied = rootfs.copy_host_config(root)
        print(f"root file system {tarball.name}; host config copied in: {', '.join(copied)}")
        state = container.boot()
        print(f"container {container.name} booted: {state}")
        yield container
    except ContainerError as exc:
        pytest.fail(f"this machine cannot boot the appliance container: {exc}", pytrace=False)
    finally:
        container.shutdown()
        rootfs.remove(root)
        container.console.unlink(missing_ok=True)


# ------------------------------------------------------------------- observing
def service(machine: Container) -> dict[str, str]:
    keys = ("ActiveState", "SubState", "Result", "MainPID", "NRestarts", "StatusText",
            "ExecMainCode", "ExecMainStatus", "LoadState", "DropInPaths")
    out = machine.run("systemctl", "show", UNIT, "--no-pager",
                      *(f"--property={k}" for k in keys)).stdout
    return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)


def running(machine: Container, **wanted: str) -> dict[str, str] | None:
    """The service's properties once it is active/running (and READY: Type=notify) and
    every `wanted` property has its value; None before."""
    now = service(machine)
    ok = now["ActiveState"] == "active" and now["SubState"] == "running" and \
        all(now.get(k) == v for k, v in wanted.items())
    return now if ok else None


def wait_running(machine: Container, timeout: float = hang(), **wanted: str) -> dict[str, str]:
    return wait_until(lambda: running(machine, **wanted), timeout,
                      f"{UNIT} active/running with {wanted or 'READY=1'}")


def journal(machine: Container) -> list[dict[str, str]]:
    out = machine.run("journalctl", "--unit", UNIT, "--output=json", "--no-pager").stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def messages(entries: list[dict[str, str]]) -> list[str]:
    return [str(e.get("MESSAGE", "")) for e in entries]


def daemon_lines(machine: Container, text: str) -> list[dict[str, str]]:
    """Journal entries written by the daemon itself (not systemd) containing `text`."""
    return [e for e in journal(machine)
            if e.get("_COMM") != "systemd" and text in str(e.get("MESSAGE", ""))]


def screens(machine: Container) -> Path:
    return machine.path(f"{STATE}/screens")


def clear_screens(machine: Container) -> None:
    """Forget drawn frames (only while the daemon cannot draw: stopped, dead or frozen)."""
    for frame in screens(machine).glob("frame_*.png"):
        frame.unlink()


def shown(machine: Container) -> Image.Image | None:
    """What the rig shows now: its last frame, as the 128x64 panel sees it."""
    frames = sorted(screens(machine).glob("frame_*.png"))
    if not frames:
        return None
    with Image.open(frames[-1]) as big:
        return big.convert("1").resize((128, 64), Image.Resampling.NEAREST)


def same_picture(a: Image.Image | None, b: Image.Image | None) -> bool:
    return a is not None and b is not None and ImageChops.difference(a, b).getbbox() is None


def installed_exec_start(machine: Container) -> str:
    unit = machine.path(f"/etc/systemd/system/{UNIT}").read_text()
    return next(line.split("=", 1)[1] for line in unit.splitlines()
                if line.startswith("ExecStart="))


# ------------------------------------------------------------------- steps
def install_as_the_owner(machine: Container) -> None:
    """docs/INSTALL.md steps 1 and 2 on the container: apt, the program in the owner's
    home (the working tree's files, as `git archive` of it would unpack), then
    `systemd/install.sh` as root. The mock config is put in place first: install.sh
    keeps an existing /etc/cbrig/config.toml (as it promises the owner)."""
    if machine.run("getent", "passwd", OWNER, check=False).returncode != 0:
        machine.run("useradd", "--create-home", "--shell", "/bin/bash", OWNER)
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                            "--exclude-standard"], cwd=REPO, capture_output=True,
                           check=True).stdout.split(b"\0")
    home = machine.path(CHECKOUT)
    for name in filter(None, files):
        source = REPO / os.fsdecode(name)
        if source.is_file():
            target = home / os.fsdecode(name)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source.read_bytes())
            target.chmod(source.stat().st_mode & 0o777)
    machine.run("chown", "-R", f"{OWNER}:{OWNER}", CHECKOUT)
    machine.run("install", "-d", "-m", "0755", "/etc/cbrig")
    machine.path("/etc/cbrig/config.toml").write_text(MOCK_CONFIG)

    machine.run("apt-get", "install", "-y", "python3-venv", timeout=hang(600))
    result = machine.sh(f"cd {CHECKOUT} && systemd/install.sh", timeout=hang(900))
    print(result.stdout[-1500:])
    assert "keeping the existing /etc/cbrig/config.toml" in result.stdout
    assert f"{UNIT} is up (READY)" in result.stdout, "install.sh checked it came up"
    assert "has no wheel" not in result.stdout, "every dependency is a wheel on this machine"
    voice = machine.run("sh", "-c", "command -v espeak-ng && command -v sox && command -v aplay",
                        check=False)
    assert voice.returncode == 0, f"install.sh installed the voice's packages: {voice.stdout}"


def check_ready_under_the_shipped_sandbox(machine: Container) -> None:
    now = wait_running(machine, StatusText="setup menu")
    installed = machine.path(f"/etc/systemd/system/{UNIT}").read_text()
    assert installed == (REPO / "systemd" / UNIT).read_text(), "the unit is the shipped one"
    assert now["DropInPaths"] == "", "nothing relaxes the shipped unit"
    assert now["NRestarts"] == "0"
    exposure = machine.run("systemd-analyze", "security", UNIT, "--no-pager").stdout
    print(exposure.strip().splitlines()[-1])
    assert shown(machine) is not None, "the setup menu is on the screen"


def autoplay(machine: Container, on: bool) -> None:
    drop_in = machine.path(DROP_IN)
    if on:
        drop_in.parent.mkdir(parents=True, exist_ok=True)
        drop_in.write_text(f"[Service]\nExecStart=\n"
                           f"ExecStart={installed_exec_start(machine)} --autoplay {SEED}\n")
    else:
        drop_in.unlink()
    machine.run("systemctl", "daemon-reload")


def finished_games(machine: Container) -> list[Path]:
    return sorted(p for p in machine.path(f"{STATE}/games").glob("*.jsonl")
                  if "damaged-" not in p.name)


def play_a_whole_game(machine: Container) -> Path:
    """Autoplay from the setup to GAME OVER under the sandbox: the daemon archives the
    game and exits 0 (Restart=on-failure leaves it down)."""
    machine.run("systemctl", "stop", UNIT)
    autoplay(machine, on=True)
    machine.run("systemctl", "start", UNIT)

    def finished() -> dict[str, str] | None:
        now = service(machine)
        return now if now["ActiveState"] == "inactive" else None

    now = wait_until(finished, hang(600), f"{UNIT} ends after the autoplayed game")
    assert (now["Result"], now["ExecMainStatus"], now["NRestarts"]) == ("success", "0", "0"), now
    games = finished_games(machine)
    assert len(games) == 1, games
    assert not machine.path(f"{STATE}/current.jsonl").exists()
    replay = machine.run("/opt/cbrig/venv/bin/cbrig", "replay", f"{STATE}/games/{games[0].name}")
    print(replay.stdout[-600:])
    autoplay(machine, on=False)
    return games[0]


def as_service_user(machine: Container, script: str) -> None:
    machine.run("runuser", "-u", "cbrig", "--", "sh", "-c", f"umask 077; {script}")


def set_aside_a_damaged_journal(machine: Container) -> None:
    """A journal that is not one: the rig starts on the setup menu and says so in the
    journal; the file is kept in games/ as damaged-*."""
    as_service_user(machine, f"echo 'not a journal' > {STATE}/current.jsonl")
    machine.run("systemctl", "start", UNIT)
    wait_running(machine, StatusText="setup menu")
    wait_until(lambda: daemon_lines(machine, "cannot resume"), hang(),
               "the refused journal is logged")
    assert list(machine.path(f"{STATE}/games").glob("*damaged-*.jsonl"))
    machine.run("systemctl", "stop", UNIT)


def resume_a_game_in_progress(machine: Container, finished: Path) -> Image.Image:
    """A power cut after input RESUME_AT: the journal's first lines. The rig resumes
    there, logs it, and shows the prompt for the next input."""
    lines = finished.read_text().splitlines(keepends=True)
    assert len(lines) > RESUME_AT + 10, "the game is longer than the part kept"
    machine.path(f"{STATE}/partial.jsonl").write_text("".join(lines[: RESUME_AT + 1]))
    as_service_user(machine, f"cat {STATE}/partial.jsonl > {STATE}/current.jsonl; "
                             f"printf '%s' '{CARDS}' > {STATE}/cards.toml")
    machine.path(f"{STATE}/partial.jsonl").unlink()
    clear_screens(machine)
    machine.run("systemctl", "start", UNIT)
    wait_running(machine, StatusText=f"inputs {RESUME_AT}")
    wait_until(lambda: daemon_lines(machine, f"at input {RESUME_AT}"), hang(),
               "the resumed game is logged")
    prompt = shown(machine)
    assert prompt is not None
    return prompt


def survive_kill_9(machine: Container, prompt: Image.Image) -> None:
    before = wait_running(machine)
    machine.sh(f"kill -9 {before['MainPID']}")
    wait_until(lambda: service(machine)["SubState"] in {"auto-restart", "start"} or None, hang(),
               f"{UNIT} noticed the kill")
    clear_screens(machine)
    after = wait_running(machine, 60, NRestarts=str(int(before["NRestarts"]) + 1),
                         StatusText=f"inputs {RESUME_AT}")
    assert after["MainPID"] != before["MainPID"]
    assert same_picture(shown(machine), prompt), "the game resumed on the same prompt"
    assert any("status=9/KILL" in m for m in messages(journal(machine)))


def survive_a_hung_loop(machine: Container, prompt: Image.Image) -> None:
    """SIGSTOP freezes the main loop: no WATCHDOG=1 for WatchdogSec (30 s), so systemd
    kills it and starts it again."""
    before = wait_running(machine)
    machine.sh(f"kill -STOP {before['MainPID']}")
    clear_screens(machine)  # frozen: it cannot draw until systemd has replaced it
    after = wait_running(machine, 120, NRestarts=str(int(before["NRestarts"]) + 1),
                         StatusText=f"inputs {RESUME_AT}")
    assert after["MainPID"] != before["MainPID"]
    log = messages(journal(machine))
    assert any("Watchdog timeout" in m for m in log), log[-20:]
    assert any("Failed with result 'watchdog'" in m for m in log), log[-20:]
    assert same_picture(shown(machine), prompt), "the game resumed on the same prompt"


def stop_leaves_rig_off(machine: Container) -> None:
    stop = machine.run("systemctl", "stop", UNIT, check=False)
    assert stop.returncode == 0, stop.stderr
    now = service(machine)
    assert (now["ActiveState"], now["Result"], now["ExecMainStatus"]) == \
        ("inactive", "success", "0"), now
    assert same_picture(shown(machine), render(goodbye_screen())), "RIG OFF stays on"
    assert machine.path(f"{STATE}/current.jsonl").exists(), "the game in progress is kept"
    tracebacks = [m for m in messages(journal(machine)) if "Traceback" in m]
    assert tracebacks == []


def uninstall_keeps_games_and_cards(machine: Container) -> None:
    kept = {p.name: p.read_bytes() for p in machine.path(f"{STATE}/games").iterdir()}
    current = machine.path(f"{STATE}/current.jsonl").read_bytes()
    machine.sh(f"cd {CHECKOUT} && systemd/uninstall.sh")
    assert service(machine)["LoadState"] == "not-found"
    for gone in ("/opt/cbrig", "/etc/cbrig", f"/etc/systemd/system/{UNIT}",
                 "/usr/local/bin/cbrig"):
        assert not machine.path(gone).exists(), gone
    assert machine.run("getent", "passwd", "cbrig", check=False).returncode == 2
    state = machine.path(STATE)
    assert {p.name: p.read_bytes() for p in (state / "games").iterdir()} == kept
    assert (state / "current.jsonl").read_bytes() == current
    assert (state / "cards.toml").read_text() == CARDS
    assert (state / "config.toml.saved").read_text() == MOCK_CONFIG


def purge_removes_them(machine: Container) -> None:
    machine.sh(f"cd {CHECKOUT} && systemd/uninstall.sh --purge")
    assert not machine.path(STATE).exists()


def test_the_appliance_lives_its_whole_life_under_systemd(machine: Container,
                                                          tmp_path: Path) -> None:
    install_as_the_owner(machine)
    check_ready_under_the_shipped_sandbox(machine)
    finished = play_a_whole_game(machine)
    set_aside_a_damaged_journal(machine)
    prompt = resume_a_game_in_progress(machine, finished)
    prompt.save(tmp_path / "resumed-prompt.png")
    print(f"the resumed prompt: {tmp_path / 'resumed-prompt.png'}")
    survive_kill_9(machine, prompt)
    survive_a_hung_loop(machine, prompt)
    stop_leaves_rig_off(machine)
    uninstall_keeps_games_and_cards(machine)
    purge_removes_them(machine)


def empty_game_journal(directory: Path) -> bytes:
    """A valid journal of a 10-Four game with no input yet, made by this checkout."""
    from rig.core.session import Session
    from rig.gamebuild import build_game

    path = directory / "current.jsonl"
    game = build_game("tenfour", players=2)
    Session.start(game, path, {"created": "2026-01-01T00:00:00Z",
                               "levels": ["human", "human"], "hints": False}).close()
    return path.read_bytes()


def test_a_newcomer_walks_the_docs_on_a_fresh_debian_12(machine: Container) -> None:
    """The README's and docs' run blocks (tests/test_docs_walk.py), as written and in
    order, by an ordinary user on Debian 12's own Python (PEP 668: no system pip), in a
    fresh copy of the checkout: the quick start's demo, the print kit, the case."""
    from tests.test_docs_walk import check_walk, fresh_copy, walk_script

    if machine.run("getent", "passwd", OWNER, check=False).returncode != 0:
        machine.run("useradd", "--create-home", "--shell", "/bin/bash", OWNER)
    walk = f"/home/{OWNER}/walk"
    fresh_copy(machine.path(walk))
    machine.run("chown", "-R", f"{OWNER}:{OWNER}", walk)
    result = machine.run("runuser", "-u", OWNER, "--", "bash", "-c",
                         f"cd {walk} && {walk_script()}", check=False, timeout=hang(1500),
                         environment={"HOME": f"/home/{OWNER}", "USER": OWNER})
    print(result.stderr[-1500:])
    check_walk(result.returncode, result.stdout, result.stderr, machine.path(walk))


def test_the_daemon_logs_with_journald_priorities(machine: Container, tmp_path: Path) -> None:
    """The daemon's lines carry their level as journald priorities: a refused journal is
    an error (3), a resumed game is info (6)."""
    install_as_the_owner(machine)
    wait_running(machine)
    machine.run("systemctl", "stop", UNIT)
    machine.path(f"{STATE}/empty.jsonl").write_bytes(empty_game_journal(tmp_path))
    as_service_user(machine, f"echo 'not a journal' > {STATE}/current.jsonl")
    machine.run("systemctl", "start", UNIT)
    wait_until(lambda: daemon_lines(machine, "cannot resume"), hang(),
               "the refused journal is logged")
    machine.run("systemctl", "stop", UNIT)
    as_service_user(machine, f"cat {STATE}/empty.jsonl > {STATE}/current.jsonl")
    machine.run("systemctl", "start", UNIT)
    wait_until(lambda: daemon_lines(machine, "at input 0"), hang(), "the resumed game is logged")

    wanted = {"cannot resume": "3", "at input 0": "6"}
    seen = {text: [(e.get("PRIORITY"), e.get("MESSAGE")) for e in daemon_lines(machine, text)]
            for text in wanted}
    wrong = {text: [line for line in lines if line[0] != wanted[text]]
             for text, lines in seen.items()}
    machine.sh(f"cd {CHECKOUT} && systemd/uninstall.sh --purge")
    assert not any(wrong.values()), f"wanted priorities {wanted}; wrong: {wrong}"


def test_an_update_that_fails_its_start_rolls_back_under_systemd(machine: Container,
                                                                 tmp_path: Path) -> None:
    """The Pi image's way (docs/IMAGE.md, "Updates that roll back"), under the real
    systemd: cbrig.service with the image's drop-in (systemd/image.conf: the launcher,
    the config on the boot partition, the trial hooks as root). An update installed
    beside the base whose `cbrig run` exits 1: its trial start fails, the ExecStopPost
    hook puts the base back, systemd's Restart= starts it, and the log says so."""
    from tests.update.test_update_flow import FAILING_START, _build_wheel

    install_as_the_owner(machine)
    wait_running(machine)
    image_drop_in = f"/etc/systemd/system/{UNIT}.d/image.conf"
    machine.run("install", "-D", "-m", "0755", f"{CHECKOUT}/systemd/cbrig-launch",
                "/opt/cbrig/bin/cbrig-launch")
    machine.run("install", "-D", "-m", "0644", f"{CHECKOUT}/systemd/image.conf", image_drop_in)
    machine.run("install", "-D", "-m", "0644", "/etc/cbrig/config.toml",
                "/boot/firmware/cbrig/config.toml")
    machine.run("systemctl", "daemon-reload")
    machine.run("systemctl", "restart", UNIT)
    wait_running(machine, StatusText="setup menu")
    base = machine.run("/opt/cbrig/venv/bin/cbrig", "--version").stdout.split()[-1]

    wheel = _build_wheel(tmp_path, "0.9.0", FAILING_START)
    machine.path(f"/root/{wheel.name}").write_bytes(wheel.read_bytes())
    installed = machine.run("/opt/cbrig/venv/bin/cbrig", "update", "install",
                            f"/root/{wheel.name}", timeout=hang(900))
    assert "Updated to 0.9.0" in installed.stdout, installed.stdout + installed.stderr
    machine.run("systemctl", "restart", UNIT, check=False)  # the trial start fails
    try:
        now = wait_until(lambda: running(machine, StatusText="setup menu") if int(
            service(machine)["NRestarts"]) >= 1 else None, hang(),
            f"{UNIT} restarted by systemd on the base after the failed trial start")
    finally:
        print(machine.run("journalctl", "--unit", UNIT, "--no-pager", "-n", "60",
                          check=False).stdout)
        status = machine.run("/opt/cbrig/venv/bin/cbrig", "update", "status").stdout
        print(status)
    assert f"current:   {base} (the base)" in status
    assert daemon_lines(machine, f"Update 0.9.0 failed: back on {base}"), "said in the log"
    assert not machine.path("/var/lib/cbrig-update/versions/0.9.0").exists()
    print(f"rolled back: NRestarts {now['NRestarts']}")

    # A good update dropped on the boot partition: cbrig-update.service takes it (once),
    # and its first start under the hooks reaches READY: kept.
    good = _build_wheel(tmp_path / "good", "0.9.1", None)
    machine.run("install", "-D", "-m", "0644", f"{CHECKOUT}/systemd/cbrig-update.service",
                "/etc/systemd/system/cbrig-update.service")
    machine.path(f"/boot/firmware/cbrig/updates/{good.name}").parent.mkdir(parents=True)
    machine.path(f"/boot/firmware/cbrig/updates/{good.name}").write_bytes(good.read_bytes())
    machine.run("systemctl", "daemon-reload")
    machine.run("systemctl", "start", "cbrig-update.service", timeout=hang(900))
    assert "on trial:  yes" in machine.run("/opt/cbrig/venv/bin/cbrig", "update",
                                           "status").stdout
    machine.run("systemctl", "restart", UNIT)
    wait_running(machine, StatusText="setup menu")
    status = machine.run("/opt/cbrig/venv/bin/cbrig", "update", "status").stdout
    print(status)
    assert "current:   0.9.1" in status and f"previous:  {base}" in status, "kept at READY"
    assert "on trial:" not in status
    assert daemon_lines(machine, f"Updated to 0.9.1 (was {base})")
    machine.run("systemctl", "start", "cbrig-update.service", timeout=hang(900))
    assert machine.run("/opt/cbrig/venv/bin/cbrig", "update", "status").stdout == status, \
        "taken once"

    machine.path(image_drop_in).unlink()
    machine.path("/etc/systemd/system/cbrig-update.service").unlink()
    machine.run("systemctl", "daemon-reload")
    machine.sh(f"cd {CHECKOUT} && systemd/uninstall.sh --purge")
    machine.run("rm", "-rf", "/var/lib/cbrig-update", "/opt/cbrig/bin", "/boot/firmware/cbrig")
