"""The desktop rig: the daemon itself, on emulated hardware.

`cbrig emulate` (in a terminal or with `--web`) runs :class:`DeskRig`, a
:class:`~rig.daemon.Daemon` whose only differences are the devices: the display, the
buzzer and the card reader are the terminal or the browser, and the cards are the deck's
own ids. Start-up, the setup menu, resume of the unfinished game, the journal, archiving
at game over and the loop are the daemon's code, so what works on the desk works on the
Pi (no second game path).

Each emulated rig keeps its games in a state directory, ``$XDG_STATE_HOME/cbrig/emulator``
(``~/.local/state/cbrig/emulator``) unless told otherwise: ``current.jsonl`` is the game
in progress, which the next start picks up again, and ``games/`` the finished ones.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hardware.buzzer import AlertSink, MockAlerts
from hardware.display.base import Display, MemoryDisplay
from rig.config import DaemonConfig, DisplayConfig, GameConfig, ReaderConfig, RigConfig, StateConfig
from rig.controller import Controller
from rig.daemon import Daemon, StepSeeded
from rig.emulated import emulated_tag
from rig.session import Session
from valueclass import Record, field, replace

EMULATOR_DIR = "emulator"


def default_state_dir(environ: dict[str, str] | None = None) -> Path:
    """Where emulated games are kept: the XDG state home (base directory spec).
    ValueError, saying to give ``--state DIR``, for a user without a home directory."""
    from rig.config import NO_HOME, xdg_directory

    base = xdg_directory("XDG_STATE_HOME", ".local/state", environ)
    if base is None:
        raise ValueError(f"{NO_HOME}: keep the games somewhere with --state DIR")
    return base / "cbrig" / EMULATOR_DIR


class QuietNotifier:
    """No service manager on a desk: start-up and status reports go nowhere."""

    def ready(self, status: str | None = None) -> bool:
        return False

    def status(self, text: str) -> bool:
        return False

    def watchdog(self) -> bool:
        return False

    def stopping(self) -> bool:
        return False

    def watchdog_interval(self) -> float | None:
        return None


class DeskHardware(Record):
    """What the daemon asks of its hardware, for devices that are a screen and a page."""

    display: Display = field(default_factory=MemoryDisplay)
    alerts: AlertSink = field(default_factory=MockAlerts)

    def start(self) -> None:
        """Nothing to start: inputs are posted by the terminal or the browser."""

    def poll(self) -> None:
        """Nothing to recover: an emulated display never drops off the bus."""

    def close(self, goodbye: Any = None) -> None:
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


class DeskRig(Daemon):
    """The daemon with emulated devices (see the module docstring)."""

    devices: DeskHardware = field(default_factory=DeskHardware)
    seed: int | None = None
    """Seeds chance per input (like the daemon's autoplay): a repeatable game."""
    signals: bool = True
    """Turn SIGTERM/SIGINT into a Stop event (off when the caller handles them)."""
    on_controller: Callable[[Controller], None] | None = None

    def __post_init__(self) -> None:
        if self.notifier is None:
            self.notifier = QuietNotifier()

    def _build_display(self, emit: Any) -> Any:
        return None  # the desk's devices bring their display: built before READY

    def _build_hardware(self, emit: Any) -> Any:
        return self.devices

    def _handle_signals(self) -> None:
        if self.signals:
            super()._handle_signals()

    def _controller(self, session: Session, levels: tuple[str, ...],
                    hints: bool = False) -> Controller:
        controller = super()._controller(session, levels, hints)
        card_ids = controller.view.card_ids(session.game)
        controller.options.cards = {emulated_tag(card): card for card in card_ids}
        controller.options.virtual_deck = False
        if self.seed is not None:
            controller.rng = StepSeeded(self.seed, lambda: session.steps, "chance")
        controller.clock = time.monotonic
        if self.on_controller is not None:
            self.on_controller(controller)
        return controller

    # ------------------------------------------------------------ for drivers
    @property
    def controller(self) -> Controller | None:
        return self.app.controller if self.app is not None else None

    def unfinished(self) -> int | None:
        """The inputs of the game start-up resumed, or None for a fresh start."""
        controller = self.controller
        if controller is None or controller.session.resumed is None:
            return None
        return controller.session.resumed.steps

    def start_over(self) -> Path | None:
        """Put the unfinished game aside (in games/) so start-up begins at the menu."""
        from datetime import UTC, datetime

        from rig.journal import archive

        current = self.config.state.current
        if not current.exists():
            return None
        stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H-%M-%SZ")
        return archive(current, self.config.state.games, name=f"abandoned-{stamp}.jsonl")

    def screen_now(self) -> Any:
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


def valid_cards(controller: Controller) -> list[str]:
    """The card (or ticket) ids the reader would accept right now, in deck order."""
    state = controller.session.state
    if state.is_terminal() or not state.is_chance_node():
        return []
    possible = [action for action, _ in state.chance_outcomes()]
    view = controller.view
    return [card for card in view.card_ids(controller.session.game)
            if view.action_for_card(state, card) in possible]
