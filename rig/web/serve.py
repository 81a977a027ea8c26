"""Run the rig with the browser as its devices, or add the live board to the daemon.

Both attach the same way: the loop's driven object (the daemon's App) is wrapped so that
after every input the board and the card tray are published to the open pages. The
display and the buzzer of the desk rig publish the OLED's frames (the 1-bit bytes the
real panel gets) and the alert patterns.
"""

from __future__ import annotations

import base64
import json
import threading
from collections.abc import Callable
from typing import Any

from PIL import Image

from hardware.buzzer import PATTERNS
from hardware.display.base import FrameSink
from rig.controller import Controller
from rig.loop import Driven, Tick
from rig.screen import Screen
from rig.web.hub import Hub
from rig.web.server import RigServer
from valueclass import asdict


class WebDisplay(FrameSink):
    """The OLED as the page's canvas: each new frame's bytes (mode "1", 16 bytes a row,
    most significant bit leftmost, 1 = lit), base64 in a "frame" event."""

    def __init__(self, hub: Hub) -> None:
        super().__init__()
        self.hub = hub

    def _send(self, frame: Image.Image) -> None:
        self.hub.publish("frame", base64.b64encode(frame.tobytes()).decode("ascii"))


class WebAlerts:
    """The buzzer as a sound in the page (WebAudio plays the same pattern)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.played: list[str] = []

    def play(self, name: str) -> None:
        pattern = PATTERNS[name]
        self.played.append(name)
        self.hub.publish("buzz", json.dumps({"name": name, "n": len(self.played),
                                             **asdict(pattern)}), keep=False)

    def off(self) -> None:
        """Patterns in the page are short and end by themselves."""

    def close(self) -> None:
        """Nothing to release."""


class Observed:
    """The loop's driven object, with a call after every event (saying whether it was
    an input: clock ticks change the screen, only inputs change the game)."""

    def __init__(self, inner: Driven, after: Callable[[bool], None]) -> None:
        self.inner = inner
        self.after = after
        self.inputs = 0
        """Inputs handled so far (tests wait on it instead of sleeping)."""

    def handle(self, event: object) -> None:
        self.inner.handle(event)
        is_input = not isinstance(event, Tick)
        self.inputs += is_input
        self.after(is_input)

    def screen(self) -> Screen:
        return self.inner.screen()

    def next_deadline(self) -> float | None:
        return self.inner.next_deadline()


class BoardPublisher:
    """Publishes the board drawing (once a game), the pieces, the card tray and the
    screen's text whenever they changed."""

    def __init__(self, hub: Hub, controller: Callable[[], Controller | None],
                 screen: Callable[[], Screen]) -> None:
        self.hub = hub
        self.controller = controller
        self.screen = screen
        self.board: Any = None
        self.observed: Observed | None = None
        self._game: object = None
        self._sent: dict[str, str] = {}

    def changed(self, is_input: bool = True) -> None:
        from rig.desk import valid_cards
        from rig.web.live import LiveBoard, card_tray

        controller = self.controller()
        self._publish("screen", self.screen().text())
        if not is_input:
            return
        if controller is None:
            self._game, self.board = None, None
            for topic in ("boardsvg", "pieces", "cards"):
                self._publish(topic, "" if topic == "boardsvg" else "[]")
            return
        game, state = controller.session.game, controller.session.state
        if game is not self._game:
            self._game, self.board = game, LiveBoard(game)
            self._publish("boardsvg", self.board.svg)
        self._publish("pieces", json.dumps(self.board.pieces(state)))
        self._publish("cards", json.dumps(card_tray(game, state, valid_cards(controller))))

    def _publish(self, topic: str, data: str) -> None:
        if self._sent.get(topic) != data:
            self._sent[topic] = data
            self.hub.publish(topic, data)


def attach(daemon: Any, hub: Hub) -> BoardPublisher:
    """Publish the daemon's game after every input (call after `daemon.start()`)."""
    loop = daemon.loop
    app = daemon.app
    publisher = BoardPublisher(hub, lambda: app.controller, app.screen)
    publisher.observed = Observed(app, publisher.changed)
    loop.controller = publisher.observed
    publisher.changed()
    return publisher


class LiveBoardService:
    """The Pi's read-only live board (`[web] enabled = true`): no input route at all."""

    def __init__(self, server: RigServer, thread: threading.Thread) -> None:
        self.server = server
        self.thread = thread

    @classmethod
    def start(cls, daemon: Any, address: str, port: int) -> LiveBoardService | None:
        """Serve the board of `daemon` (started); None, logged, if the port is not free:
        the game goes on without its board rather than not at all."""
        import logging

        hub = Hub()
        try:
            server = RigServer((address, port), hub, post=None)
        except OSError as exc:
            logging.getLogger(__name__).error("no live board on %s:%d: %s", address, port, exc)
            return None
        attach(daemon, hub)
        thread = threading.Thread(target=server.serve_forever, name="live-board", daemon=True)
        thread.start()
        logging.getLogger(__name__).info("live board at %s", server.url)
        return cls(server, thread)

    def stop(self) -> None:
        self.server.stop()
        self.thread.join(timeout=5)


class WebDesk:
    """`cbrig emulate --web`: the desk rig served to a browser."""

    def __init__(self, rig: Any, host: str = "127.0.0.1", port: int = 0) -> None:
        from rig.desk import DeskHardware

        self.rig = rig
        self.hub = Hub()
        self.display = WebDisplay(self.hub)
        self.alerts = WebAlerts(self.hub)
        rig.devices = DeskHardware(display=self.display, alerts=self.alerts)
        from rig.web.voice import WebSound

        self.sound = WebSound(self.hub)
        rig.sound_backend = self.sound  # the voice plays in the page (mute there)
        self.server = RigServer((host, port), self.hub, self._post, sounds=self.sound.wav)
        self.publisher: BoardPublisher | None = None
        self._thread: threading.Thread | None = None

    def _post(self, event: object) -> None:
        self.rig.loop.post(event)

    def start(self, new: bool = False) -> str:
        from rig.desk import start_desk

        greeting = start_desk(self.rig, new)
        self.publisher = attach(self.rig, self.hub)
        self._thread = threading.Thread(target=self.server.serve_forever, name="web",
                                        daemon=True)
        self._thread.start()
        return greeting

    @property
    def url(self) -> str:
        return self.server.url

    def stop(self) -> None:
        self.server.stop()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self.rig.stop()


def serve_desk(rig: Any, host: str, port: int, new: bool = False) -> int:
    import sys

    try:
        desk = WebDesk(rig, host, port)
    except OSError as exc:
        print(f"cbrig emulate: cannot serve on {host}:{port}: {exc}", file=sys.stderr)
        return 2
    try:
        greeting = desk.start(new)
    except Exception as exc:  # a broken state directory must not end in a traceback
        print(f"cbrig emulate: cannot start: {exc}", file=sys.stderr)
        desk.server.server_close()
        return 1
    print(f"The rig is at {desk.url} ({greeting}) Ctrl-C stops it.", flush=True)
    try:
        rig.serve()
    finally:
        desk.stop()
    return 0
