"""`cbrig emulate --web`: the desk rig with the browser as its devices.

The page is the rig's front: its canvas shows the OLED's frames (the 1-bit bytes the real
panel gets), WebAudio plays the buzzer's patterns and the voice, and its knobs and card
tray post inputs to the daemon's loop. The board beside it is published as the Pi's live
board is (rig.core.publish).
"""

from __future__ import annotations

import base64
import json
import sys
import threading

from PIL import Image

from hardware.buzzer import PATTERNS
from hardware.display.base import FrameSink
from rig.core.publish import BoardPublisher, attach
from rig.desktop.desk import DeskRig, start_desk
from rig.web.httpserver import RigServer
from rig.web.hub import Hub
from rig.web.voice import WebSound
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


class WebDesk:
    """`cbrig emulate --web`: the desk rig served to a browser."""

    def __init__(self, rig: DeskRig, host: str = "127.0.0.1", port: int = 0) -> None:
        self.rig = rig
        self.hub = Hub()
        self.display = WebDisplay(self.hub)
        self.alerts = WebAlerts(self.hub)
        self.sound = WebSound(self.hub)
        self.server = RigServer((host, port), self.hub, self._post, sounds=self.sound.wav)
        # the rig is given the page's devices only once the port is ours
        rig.use_devices(self.display, self.alerts, sound=self.sound)  # the voice too: mute there
        self.publisher: BoardPublisher | None = None
        self._thread: threading.Thread | None = None

    def _post(self, event: object) -> None:
        assert self.rig.loop is not None, "inputs come once the rig has started"
        self.rig.loop.post(event)

    def start(self, new: bool = False) -> str:
        greeting = start_desk(self.rig, new)
        self.publisher = attach(self.rig.daemon, self.hub)
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


def serve_desk(rig: DeskRig, host: str, port: int, new: bool = False) -> int:
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
    print(f"Open {desk.url} in a browser.\n({greeting}) Ctrl-C stops the rig.", flush=True)
    try:
        rig.serve()
    finally:
        desk.stop()
    return 0
