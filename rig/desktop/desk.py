"""The desktop rig: the daemon itself, on emulated hardware.

`cbrig emulate` (in a terminal or with `--web`) runs :class:`DeskRig`, which holds a
:class:`~rig.core.daemon.Daemon` whose only differences are the devices: the display, the
buzzer and the card reader are the terminal or the browser, and the cards are the deck's
own ids. Start-up, the setup menu, resume of the unfinished game, the journal, archiving
at game over and the loop are the daemon's code, so what works on the desk works on the
Pi (no second game path).

Each emulated rig keeps its games in a state directory, ``$XDG_STATE_HOME/cbrig/emulator``
(``~/.local/state/cbrig/emulator``) unless told otherwise: ``current.jsonl`` is the game
in progress, which the next start picks up again, and ``games/`` the finished ones.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from hardware.buzzer import AlertSink, MockAlerts
from hardware.display.base import Display, MemoryDisplay
from rig.config import (
    NO_HOME,
    DaemonConfig,
    DisplayConfig,
    GameConfig,
    ReaderConfig,
    RigConfig,
    StateConfig,
    xdg_directory,
)
from rig.core.app import App
from rig.core.daemon import Daemon
from rig.core.filing import archive
from rig.core.loop import RigLoop
from rig.desktop.emulated import emulated_cards
from rig.screens.screen import Screen
from valueclass import Record, field, replace

if TYPE_CHECKING:
    from PIL import Image

    from hardware.speaker import Backend
    from rig.core.controller import Controller

EMULATOR_DIR = "emulator"


def default_state_dir(environ: dict[str, str] | None = None) -> Path:
    """Where emulated games are kept: the XDG state home (base directory spec).
    ValueError, saying to give ``--state DIR``, for a user without a home directory."""

    base = xdg_directory("XDG_STATE_HOME", ".local/state", environ)
    if base is None:
        raise ValueError(f"{NO_HOME}: keep the games somewhere with --state DIR")
    return base / "cbrig" / EMULATOR_DIR


class DeskHardware(Record):
    """What the daemon asks of its hardware, for devices that are a screen and a page."""

    display: Display = field(default_factory=MemoryDisplay)
    alerts: AlertSink = field(default_factory=MockAlerts)

    def start(self) -> None:
        """Nothing to start: inputs are posted by the terminal or the browser."""

    def poll(self) -> None:
        """Nothing to recover: an emulated display never drops off the bus."""

    def close(self, goodbye: Image.Image | None = None) -> None:
        self.display.close(goodbye)
        self.alerts.close()


def desk_config(game: GameConfig, state_dir: Path) -> RigConfig:
    """A rig config for the desk: the given game defaults, the given state directory, a
    card reader (cards are tapped by id), no watchdog."""
    base = RigConfig()
    return replace(
        base,
        game=game,
        reader=ReaderConfig(type="rdm6300", cards=state_dir / "cards.toml"),
        display=DisplayConfig(driver="none"),
        state=StateConfig(directory=state_dir),
        daemon=replace(DaemonConfig(), watchdog=False),
        source="<emulator>",
    )


class DeskRig:
    """The daemon on emulated devices (see the module docstring). It holds the daemon,
    made for the desk from the start: the desk's devices, its reader's card tags, its seed;
    the drivers (terminal, browser, tests) reach the loop and the game through it."""

    def __init__(self, config: RigConfig, seed: int | None = None,
                 signals: bool = True) -> None:
        """``seed``: chance seeded per input, a repeatable game; ``signals``: turn
        SIGTERM/SIGINT into a Stop event (off when the caller handles them)."""
        self.devices = DeskHardware()
        self.daemon = Daemon(config=config, seed=seed, signals=signals, devices=self.devices,
                             card_map=emulated_cards)

    def use_devices(self, display: Display, alerts: AlertSink,
                    sound: Backend | None = None) -> None:
        """Show frames, sound alerts (and the voice) there instead (before start)."""
        self.devices.display, self.devices.alerts = display, alerts
        if sound is not None:
            self.daemon.sound_backend = sound

    # ------------------------------------------------------------ the daemon's life
    def start(self) -> None:
        self.daemon.start()

    def serve(self) -> None:
        self.daemon.serve()

    def stop(self) -> None:
        self.daemon.stop()

    # ------------------------------------------------------------ for drivers
    @property
    def config(self) -> RigConfig:
        return self.daemon.config

    @property
    def loop(self) -> RigLoop | None:
        return self.daemon.loop

    @property
    def app(self) -> App | None:
        return self.daemon.app

    @property
    def controller(self) -> Controller | None:
        return self.daemon.app.controller if self.daemon.app is not None else None

    @property
    def voice_note(self) -> str:
        return self.daemon.voice_note

    def unfinished(self) -> int | None:
        """The inputs of the game start-up resumed, or None for a fresh start."""
        controller = self.controller
        if controller is None or controller.session.resumed is None:
            return None
        return controller.session.resumed.steps

    def start_over(self) -> Path | None:
        """Put the unfinished game aside (in games/) so start-up begins at the menu."""


        current = self.config.state.current
        if not current.exists():
            return None
        stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H-%M-%SZ")
        return archive(current, self.config.state.games, name=f"abandoned-{stamp}.jsonl")

    def screen_now(self) -> Screen:
        assert self.app is not None
        return self.app.screen()


def start_desk(rig: DeskRig, new: bool) -> str:
    """Start the rig (after setting an unfinished game aside with --new); what to say."""
    current = rig.config.state.current
    aside = rig.start_over() if new else None
    rig.start()
    steps = rig.unfinished()
    if steps is not None:
        said = (f"Picked up the unfinished game from {current} ({steps} inputs); "
                "--new starts over.")
    elif aside is not None:
        said = f"Started over; the unfinished game was kept as {aside}."
    else:
        said = f"Games are kept in {rig.config.state.directory}."
    return f"{said} {rig.voice_note}".strip()
