"""`cbrig run`: the rig as a headless service.

Start-up: read the config, resume the game in progress (or show the setup menu) on the
display, claim the pins, knobs and reader, and only then tell systemd READY=1; then
serve the one event loop. A start that is refused leaves its reason on the display. Every accepted
input is fsynced before the screen acknowledges it; SIGTERM and SIGINT end cleanly with
the journal closed and "RIG OFF" left on the display.

Exit codes of `cbrig run` (systemd shows them in `systemctl status cbrig`):

* 0: stopped cleanly (SIGTERM, SIGINT, the end of an autoplay game);
* 1: could not start for another reason (the message says which);
* 69 (EX_UNAVAILABLE): the pins, knobs or reader could not be set up (the pin library
  missing, a pin in use, a bad pin factory): nothing a restart mends, so the unit does
  not restart on it (``RestartPreventExitStatus=``); READY=1 was never sent;
* 73 (EX_CANTCREAT): the state directory or the game in progress exists but cannot be
  written (root-owned after `sudo cbrig run`, read-only file system, an immutable
  journal). Nothing was moved: fix what the message (and the display) names and start
  again, the game resumes where it was;
* 75 (EX_TEMPFAIL): another cbrig daemon already uses this state directory;
* 78 (EX_CONFIG): the config file has mistakes (see `rig.commands.run`).

A journal that is itself wrong (damaged before its last line, a header the games do
not accept or naming a data file this rig cannot read, seats or levels that do not
fit) is set aside in ``games/NNNNNN-damaged-*.jsonl``
and the rig starts at the setup menu, saying why: a bad file must not keep the rig down.
"""

from __future__ import annotations

import logging
import os
import signal
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from hardware.clock import Clock
from rig.config import RigConfig
from rig.core import collector
from rig.core.app import App
from rig.core.autoplay import Autoplay
from rig.core.gamemaker import GameMaker
from rig.core.loop import RigLoop, Stop
from rig.core.service import (
    HardwareLog,
    QuietNotifier,
    RigHardware,
    ServiceNotifier,
    load_card_map,
)
from rig.core.setup_menu import SetupChoice
from rig.core.shelf import Shelf
from rig.core.startup import (
    HardwareUnavailable,
    StartRefused,
    StateUnwritable,
    _cause_words,
    goodbye_screen,
    lock_state_directory,
    refused_screen,
)
from rig.screens.screen import Screen
from valueclass import Record, field

if TYPE_CHECKING:  # the game modules are imported when first needed (a resumed game,
    # the first game started) or right after READY (see Daemon.start); the devices, the
    # web and the voice when they are built
    from PIL import Image

    from engine.api import Game
    from hardware.display.base import Display
    from hardware.speaker import Backend
    from rig.core.controller import Controller
    from rig.core.publish import LiveBoardService
    from rig.screens.views import Notice
    from rig.voice.control import VoiceControl
    from rig.voice.narrator import Narrator
    from rig.web.invite import Invitation

log = logging.getLogger(__name__)

DISPLAY_POLL_SECONDS = 5.0
"""How often an idle rig wakes to ping the watchdog and let a lost display recover."""


def _utc_now() -> datetime:
    return datetime.now(UTC)


class Daemon(Record):
    config: RigConfig
    autoplay: int | None = None
    crash_at: int | None = None
    """Autoplay only (the kill tests): SIGKILL ourselves once this many inputs are saved,
    a power cut at an exact point however slowly the harness reads sd_notify."""
    seed: int | None = None
    """Without autoplay: seeds chance per input all the same (the desk's --seed), so a
    game can be played again exactly."""
    clock: Clock = time.monotonic
    """The rig's one clock: the loop's deadlines, the controller's animations and
    refusals and the knobs' gestures all read it."""
    wall_clock: Callable[[], datetime] = field(default_factory=lambda: _utc_now)
    """The calendar time, only ever a label (a journal's "created", a file name's date):
    a Pi without a real-time clock may start behind its last boot's time, so nothing is
    ordered or named uniquely by it (rig.core.journal files games by number)."""
    notices: tuple[str, ...] = ()
    """What to tell the table on the setup menu at start (a config's mistakes, an update
    rolled back): shown as its notice, which a press pages through and dismisses."""
    notifier: ServiceNotifier = field(default_factory=QuietNotifier)
    devices: RigHardware | None = None
    """Devices the caller built (the desk's terminal or browser); None: the Pi's, built
    from the config at start."""
    card_map: Callable[[Game], dict[str, str]] | None = None
    """The tags the reader reports for a game's cards, when they are not enrolled ones
    (the desk's reader names each card by its id: rig.desktop.emulated.emulated_cards)."""
    signals: bool = True
    """Turn SIGTERM/SIGINT into a Stop event (off when the caller handles them)."""
    hardware: RigHardware | None = None
    display: Display | None = None
    """The display, built before READY on its own (see :meth:`_build_display`)."""
    loop: RigLoop | None = None
    app: App | None = None
    cards: dict[str, str] = field(default_factory=dict)
    lock_fd: int | None = None
    hardware_log: HardwareLog = field(default_factory=lambda: HardwareLog())
    not_resumed: str = ""
    """Why a game on disk was not resumed (said on the setup menu)."""
    web: LiveBoardService | None = None
    invitation: Invitation | None = None
    """The live board's join code (rig.web.invite), when [web] is on and not open to
    the whole LAN."""
    """The live board server when [web] is on (rig.web is not imported otherwise)."""
    voice_control: VoiceControl | None = None
    """Voice on/off and volume, as the setup menu sets them (rig.voice.control)."""
    narrator: Narrator | None = None
    """Says each frame (rig.voice.narrator), built after READY; None: the rig is silent."""
    sound_backend: Backend | None = None
    """Where the voice plays (tests give a mock); None: aplay on [voice] device."""
    voice_note: str = ""
    """Where the voice is heard, or why not, in one sentence (the desk says it once)."""

    @property
    def shelf(self) -> Shelf:
        """The journals on disk (rig.core.shelf)."""
        return Shelf(self.config.state, self.wall_clock)

    @property
    def maker(self) -> GameMaker:
        """Makes the chosen game and its controller (rig.core.gamemaker)."""
        return GameMaker(self.config, self.clock, self.cards, self.card_map, self.autoplay,
                         self.seed, self._alert)

    # ------------------------------------------------------------- start-up
    def start(self) -> None:
        from rig.statedir import make_private_dir

        state = self.config.state
        try:
            make_private_dir(state.directory)
        except OSError as exc:
            raise StateUnwritable(f"cannot make the state directory {state.directory}: "
                                  f"{exc.strerror or exc}",
                                  _cause_words(exc, "State dir")) from exc
        self.lock_fd = lock_state_directory(state.directory)
        self.cards = load_card_map(self.config.reader.cards)
        resumed = self._resume()
        from rig.voice.control import VoiceControl

        self.voice_control = VoiceControl(self.config.voice.enabled, self.config.voice.volume,
                                          path=state.directory / "voice.conf")
        if self.config.web.enabled and not self.config.web.open_to_lan:
            from rig.statedir import read_state_text
            from rig.web.invite import Invitation

            self.invitation = Invitation(state.directory / "join.conf", reader=read_state_text)
        self.app = App(self._start_game, self._finish_game, controller=resumed,
                       defaults=self._defaults(),
                       enrol=self.maker.enrol if self.config.reader.type != "none" else None,
                       voice=self.voice_control, invitation=self.invitation)
        notice = " ".join(text for text in (self.not_resumed, *self.notices) if text)
        if notice:
            self.app.error = notice
        # The frame is rendered while the input's fsync runs and shown once it is done.
        self.loop = RigLoop(self.app, render=self._render, show=self._show, clock=self.clock,
                            heartbeat=self._heartbeat,
                            heartbeat_interval=self._heartbeat_interval())
        self.display = self._build_display(self._emit)
        self._start_hardware()  # before READY: a rig that cannot read its knobs is not up
        if self.autoplay is not None and self.app.controller is None:
            self.app.play(self._start_game(self._defaults()))
        if self.config.web.enabled:
            from rig.core.publish import LiveBoardService

            self.web = LiveBoardService.start(self, self.config.web.address,
                                              self.config.web.port, self.invitation)
            if self.web is not None:
                self.app.join_addresses = self.web.addresses
        self.loop.refresh()
        self._handle_signals()
        status = self._status_text()
        log.info("rig up: %s", status)
        self.notifier.ready(status=status, start_cpu=time.process_time())
        collector.resume_frozen()  # paused by `cbrig run` for the start (rig.core.collector)
        self._load_game_modules()
        self._start_voice()

    def _start_voice(self) -> None:
        """After READY: the voice (rig.voice.narrator), saying from the screen shown now on. No
        sound card at all on the default device is a rig built without sound: silent,
        said once in the log; any other fault is logged and noted on the screen."""
        from rig.voice.narrator import build_narrator, sound_card_present, voice_note

        settings = self.config.voice
        if self.sound_backend is None and settings.device == "default" \
                and not sound_card_present():
            log.info("voice: no sound card, the rig stays silent")
            self.voice_note = "Voice: no sound output here, the rig is silent."
            return
        assert self.loop is not None and self.app is not None
        from hardware.events import SoundStatus

        loop, app = self.loop, self.app

        def game() -> str:
            return app.controller.session.game.name if app.controller is not None else ""

        self.narrator = build_narrator(
            settings, self.config.state.directory / "voice", game,
            on_fault=lambda why: loop.post(SoundStatus(False, why)),
            on_recovered=lambda: loop.post(SoundStatus(True)),
            backend=self.sound_backend, control=self.voice_control)
        loop.on_frame = self._speak
        if app.controller is not None:  # a resumed game: its phrases rendered ahead
            self.narrator.warm(app.controller.session.game, game())
        self.voice_note = voice_note(self.narrator, self.sound_backend, settings.device)
        self._speak(app.screen())

    def _speak(self, screen: Screen) -> None:
        """The frame just shown, to the voice: it only hands the screen over."""
        try:
            assert self.narrator is not None
            self.narrator.post(screen)
        except Exception as exc:  # the voice must never stop the game
            log.error("voice off after an error: %s", exc)
            assert self.loop is not None
            self.loop.on_frame = None

    def _load_game_modules(self) -> None:
        """After READY: import what starting a game needs (the controller, the session,
        the computer players, the configured game's rules), so that the press which
        starts a game does not wait for them (about 1 s on a Pi Zero 2 W). The setup
        menu, the first screen, needs none of them."""
        try:
            import rig.core.computer
            import rig.core.controller
            import rig.core.session  # noqa: F401
            from rig.gamebuild import game_entry

            game_entry(self.config.game.name).build()  # the config check knew the name
        except Exception as exc:  # only a head start: starting a game imports them anyway
            log.warning("game modules not loaded ahead: %s", exc)

    def _start_hardware(self) -> None:
        """Claim the pins and knobs and start the reader (its port is opened, and
        reopened when lost, by its own thread: a reader unplugged is reported on the
        screen, not a failed start). Any failure here is `HardwareUnavailable`."""
        assert self.loop is not None
        if self.devices is not None:
            hardware = self.devices
        else:
            try:
                hardware = self._build_hardware(self._emit)
            except Exception as exc:
                raise HardwareUnavailable(f"cannot set up the hardware: {exc}") from exc
        self.hardware = hardware
        try:
            hardware.start()
        except Exception as exc:
            raise HardwareUnavailable(f"cannot start the hardware: {exc}") from exc
        log.info("hardware started: pins (%s), knobs, reader %s",
                 self.config.pins.backend, self.config.reader.type)

    def _handle_signals(self) -> None:
        """SIGTERM and SIGINT become a Stop event, handled like any other (before READY,
        so a service manager's stop right after start is never lost)."""
        if not self.signals:
            return
        loop = self.loop
        assert loop is not None

        def on_signal(signum: int, frame: object) -> None:
            loop.post(Stop())

        signal.signal(signal.SIGTERM, on_signal)
        signal.signal(signal.SIGINT, on_signal)

    def _resume(self) -> Controller | None:
        """The game in progress, or None for the setup menu (see `Shelf.resume`)."""
        shelf = self.shelf
        resumed = shelf.resume(self.maker.controller)
        self.not_resumed = shelf.not_resumed
        return resumed

    def _defaults(self) -> SetupChoice:
        game = self.config.game
        levels = tuple((list(game.levels) + ["human"] * 4)[: game.players])
        return SetupChoice(game=game.name, players=game.players, levels=levels,
                           hints=game.hints)

    def _start_game(self, choice: SetupChoice) -> Controller:
        from rig.core.session import Session

        game = self.maker.build_game(choice)
        from rig.voice.cache import give_way

        give_way(self.config.state.directory / "voice")  # clips go before a game is refused
        created = self.wall_clock().strftime("%Y-%m-%dT%H:%M:%SZ")  # a label only
        session = Session.start(game, self.config.state.current,
                                {"created": created, "levels": list(choice.levels),
                                 "hints": choice.hints})
        if self.narrator is not None:
            self.narrator.warm(game, choice.game)  # its cards rendered ahead, niced
        return self.maker.controller(session, choice.levels, choice.hints)

    def _finish_game(self, controller: Controller) -> None:
        """GAME OVER (or an abandoned game) -> setup menu. Filing the journal must not
        crash the loop: if the file was damaged or removed on disk meanwhile, or games/
        cannot take it, say so and go on."""
        from rig.core.journalread import JournalError

        try:
            problem = self.shelf.archive(controller.session)
        except (JournalError, OSError) as exc:
            log.error("finished game not filed: %s", exc)
            problem = f"Finished game not filed: {exc}"
        if problem and self.app is not None:
            self.app.error = problem

    def _emit(self, event: object) -> None:
        """What the hardware threads call: note outages in the log, then enqueue."""
        self.hardware_log.note(event)
        assert self.loop is not None
        self.loop.post(event)

    def _build_display(self, emit: Callable[[object], None]) -> Display | None:
        """The display on its own, cheap to build (luma loads when the panel is first
        written), so the first screen is up while the knob, reader and pin libraries
        (gpiozero above all) are imported and claimed, and can say why a start was
        refused. None when the caller's devices bring their display."""
        if self.devices is not None:
            return None
        cfg = self.config
        from hardware.display.build import build_display, quarter_turns

        return build_display(cfg.display.driver, emit, i2c_port=cfg.display.i2c_port,
                             address=cfg.display.address,
                             rotate=quarter_turns(cfg.display.rotate),
                             contrast=getattr(cfg.display, "contrast", None),
                             folder=cfg.state.directory)

    def _build_hardware(self, emit: Callable[[object], None]) -> RigHardware:
        from hardware.devices import build_real, config_from_sections

        cfg = self.config
        hw_config = config_from_sections(cfg.pins, cfg.encoder, cfg.reader, cfg.display)
        display = self.display if self.display is not None else self._build_display(emit)
        assert self.loop is not None
        # The knobs' raw inputs queue with every other event: gestures on the loop's clock.
        return build_real(hw_config, emit, clock=self.clock, display=display,
                          gesture_inbox=self.loop.post)

    # ----------------------------------------------------------------- loop
    def _render(self, screen: Screen) -> Image.Image:
        """The frame of ``screen``, with the display's plan for it worked out too: this
        runs while the input's fsync does, so that only the bus writes wait for it."""
        from rig.screens.render import render

        frame = render(screen)
        display = self._display()
        prepare = getattr(display, "prepare", None)
        if prepare is not None:
            prepare(frame)
        return frame

    def _display(self) -> Display:
        display = self.hardware.display if self.hardware is not None else self.display
        assert display is not None, "the display is built before the first frame"
        return display

    def _show(self, frame: Image.Image) -> None:
        self._display().show(frame)

    def _alert(self, notice: Notice) -> None:
        assert self.hardware is not None
        self.hardware.alerts.play(notice.sound)

    def _heartbeat_interval(self) -> float:
        interval = self.notifier.watchdog_interval() if self.config.daemon.watchdog else None
        return min(interval or DISPLAY_POLL_SECONDS, DISPLAY_POLL_SECONDS)

    def _heartbeat(self) -> None:
        self.notifier.watchdog()
        if self.hardware is not None:
            self.hardware.poll()

    def _status_text(self) -> str:
        assert self.app is not None
        controller = self.app.controller
        if controller is None:
            return "setup menu"
        return f"inputs {controller.session.steps}"

    def serve(self) -> None:
        """Run the loop until Stop; with autoplay, play the game out by itself."""
        assert self.loop is not None and self.app is not None
        if self.autoplay is None:
            self.loop.run()
            return
        Autoplay(self.loop, self.app, self.notifier, self.autoplay or 0, self.crash_at,
                 self.shelf.archive).run()

    def stop(self, refused: StartRefused | None = None) -> None:
        """Close everything; the display keeps "RIG OFF", or when the start was
        `refused`, why (the table sees the rig is not up; the owner reads the log)."""
        from rig.screens.render import render

        self.notifier.stopping()
        if self.web is not None:
            self.web.stop()
        if self.narrator is not None:
            self.narrator.close()
        if refused is not None and not refused.drawn:
            self.hardware_log.flush()
            return  # nothing of ours was opened but the lock attempt
        game = (self.app.controller.session.game.name if self.app is not None
                and self.app.controller is not None else self.config.game.name)
        goodbye = render(goodbye_screen(game) if refused is None else refused_screen(refused))
        if refused is not None and self.display is None and self.hardware is None:
            try:  # refused before the display was built (state, lock, journal)
                self.display = self._build_display(self.hardware_log.note)
            except Exception as exc:
                log.warning("no display to say why: %s", exc)
        if self.app is not None and self.app.controller is not None:
            self.app.controller.session.close()
        if self.hardware is not None:
            self.hardware.close(goodbye)
        elif self.display is not None:
            self.display.close(goodbye)
        self.hardware_log.flush()
        if self.lock_fd is not None:
            fd, self.lock_fd = self.lock_fd, None
            os.close(fd)  # releases the lock


def run_daemon(config: RigConfig, autoplay: int | None = None,
               crash_at: int | None = None, notices: tuple[str, ...] = ()) -> int:
    from rig.core.sdnotify import Notifier

    daemon = Daemon(config=config, autoplay=autoplay, crash_at=crash_at, notifier=Notifier(),
                    notices=notices)
    try:
        daemon.start()
    except Exception as exc:
        log.error("cbrig run: cannot start: %s", exc)
        refused = exc if isinstance(exc, StartRefused) else StartRefused(str(exc))
        daemon.stop(refused)
        return refused.exit_code
    try:
        daemon.serve()
    finally:
        daemon.stop()
    return 0
