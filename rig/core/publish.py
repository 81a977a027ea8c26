"""The daemon's game, published to the open pages: the board, its pieces, the card tray
and the screen's text after every input.

The loop's driven object (the daemon's App) is wrapped so that each event it handles is
followed by a publication; the Pi's read-only live board (:class:`LiveBoardService`) and
the browser desk (rig.desktop.browserdesk) attach the same way.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import logging
import socket
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from rig.core.controller import valid_cards
from rig.core.loop import Driven, Tick
from rig.screens.screen import Screen
from rig.web.httpserver import RigServer
from rig.web.hub import Hub
from rig.web.invite import Invitation
from rig.web.live import LiveBoard, card_tray

if TYPE_CHECKING:
    from rig.core.app import App
    from rig.core.controller import Controller
    from rig.core.loop import RigLoop


class StartedRig(Protocol):
    """What a publisher attaches to: a started rig's app and loop (the daemon, the desk
    rig). The daemon starts the live board, so this module names no daemon."""

    @property
    def app(self) -> App | None: ...

    @property
    def loop(self) -> RigLoop | None: ...


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


def attach(daemon: StartedRig, hub: Hub) -> BoardPublisher:
    """Publish the daemon's game after every input (call after `daemon.start()`)."""
    loop = daemon.loop
    app = daemon.app
    assert loop is not None and app is not None, "attach to a started daemon"
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
    def start(cls, daemon: StartedRig, address: str, port: int,
              invitation: Invitation | None = None) -> LiveBoardService | None:
        """Serve the board of `daemon` (started); None, logged, if the port is not free:
        the game goes on without its board rather than not at all. With `invitation`,
        only pages that gave its code get a place (rig.web.invite)."""

        hub = Hub()
        try:
            server = RigServer((address, port), hub, post=None, invitation=invitation)
        except OSError as exc:
            logging.getLogger(__name__).error("no live board on %s:%d: %s", address, port, exc)
            return None
        attach(daemon, hub)
        thread = threading.Thread(target=server.serve_forever, name="live-board", daemon=True)
        thread.start()
        logging.getLogger(__name__).info("live board at %s", server.url)
        return cls(server, thread)

    def addresses(self) -> list[str]:
        """Where a phone opens the board, as the join screen shows them: the machine's
        name on the local network (``NAME.local:PORT``, mDNS) and its address."""
        host, port = self.server.served
        return [f"{name}:{port}" for name in lan_names(host)]

    def stop(self) -> None:
        self.server.stop()
        self.thread.join(timeout=5)


def lan_names(listen: str) -> list[str]:
    """The names a phone may open for a server listening on `listen`: ``NAME.local``
    (the Pi's mDNS name, cbrig.local on the image) and the IP address a LAN peer reaches
    (for a wildcard listener, the one the default route leaves from: a UDP socket is
    "connected", which sends nothing)."""
    ip = ipaddress.ip_address(listen)
    if ip.is_loopback:
        return [listen]
    names = [f"{socket.gethostname().split('.')[0]}.local"]
    if not ip.is_unspecified:
        return [*names, f"[{listen}]" if ip.version == 6 else listen]
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("10.255.255.255", 9))
        names.append(str(probe.getsockname()[0]))
    return names
