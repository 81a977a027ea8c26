"""What the daemon serves with besides its loop: what it tells systemd (a notifier), the
hardware it drives and the log of its faults, the seeded steps of an autoplay game, the
card map and the seats a resumed journal names (rig.core.daemon)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from rig.core.startup import HeaderError

if TYPE_CHECKING:
    from PIL import Image

    from hardware.buzzer import AlertSink
    from hardware.display.base import Display
    from rig.core.session import Session

log = logging.getLogger(__name__)


class StepSeeded:
    """Chance for autoplay: derived from the seed and the input count, so a restarted
    daemon continues exactly where an uninterrupted one would have gone."""

    def __init__(self, seed: int, steps: Callable[[], int], salt: str) -> None:
        self.seed, self.steps, self.salt = seed, steps, salt

    def random(self) -> float:
        import random

        return random.Random(f"{self.seed}:{self.steps()}:{self.salt}").random()

    def randrange(self, n: int) -> int:
        return int(self.random() * n)


class ServiceNotifier(Protocol):
    """What the daemon tells its service manager (rig.core.sdnotify.Notifier for systemd)."""

    def ready(self, status: str | None = None, start_cpu: float | None = None) -> bool: ...

    def status(self, text: str) -> bool: ...

    def watchdog(self) -> bool: ...

    def stopping(self) -> bool: ...

    def watchdog_interval(self) -> float | None: ...


class QuietNotifier:
    """No service manager (a desk, a test): start-up and status reports go nowhere."""

    def ready(self, status: str | None = None, start_cpu: float | None = None) -> bool:
        return False

    def status(self, text: str) -> bool:
        return False

    def watchdog(self) -> bool:
        return False

    def stopping(self) -> bool:
        return False

    def watchdog_interval(self) -> float | None:
        return None


class RigHardware(Protocol):
    """What the daemon asks of its devices: the Pi's (hardware.devices.Hardware) or the
    desk's (rig.desktop.desk.DeskHardware)."""

    @property
    def display(self) -> Display: ...

    @property
    def alerts(self) -> AlertSink: ...

    def start(self) -> None: ...

    def poll(self) -> None: ...

    def close(self, persist_message: Image.Image | None = None, /) -> None: ...


class HardwareLog:
    """Display and reader outages and rejected frames, written to the log.

    The devices report each outage once and its recovery once; both are logged as they
    come (warning, then info). Rejected reader frames can come in floods from a noisy
    line: the first is logged, then at most one line a minute with the count since.
    Called from the hardware threads, hence the lock.
    """

    REJECTS_EVERY = 60.0

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        import threading

        self.clock = clock
        self._lock = threading.Lock()
        self._rejects = 0
        self._last_reason = ""
        self._rejects_logged_at: float | None = None
        self._down: set[str] = set()

    def note(self, event: object) -> None:
        from hardware.events import DisplayStatus, FrameRejected, ReaderStatus

        if isinstance(event, DisplayStatus):
            self._outage("display", event.ok, event.message)
        elif isinstance(event, ReaderStatus):
            self._outage(f"reader {event.reader}", event.connected, event.message)
        elif isinstance(event, FrameRejected):
            self._rejected(event.reader, event.reason, event.count)

    def _outage(self, part: str, ok: bool, message: str) -> None:
        with self._lock:
            was_down = part in self._down
            (self._down.discard if ok else self._down.add)(part)
        if not ok:
            log.warning("%s lost: %s", part, message)
        elif was_down:
            log.info("%s back: %s", part, message)
        else:
            log.info("%s: %s", part, message)

    def _rejected(self, reader: str, reason: str, count: int = 1) -> None:
        with self._lock:
            self._rejects += count
            self._last_reason = f"reader {reader}: {reason}"
            now = self.clock()
            due = (self._rejects_logged_at is None
                   or now - self._rejects_logged_at >= self.REJECTS_EVERY)
            if not due:
                return
            count, self._rejects = self._rejects, 0
            self._rejects_logged_at = now
        log.warning("%s (%d frame%s rejected)", self._last_reason, count,
                    "" if count == 1 else "s")

    def flush(self) -> None:
        """Log rejections not yet counted in a line (at stop)."""
        with self._lock:
            count, self._rejects = self._rejects, 0
        if count:
            log.warning("%s (%d more frame%s rejected)", self._last_reason, count,
                        "" if count == 1 else "s")


def seats_from_header(session: Session) -> tuple[tuple[str, ...], bool]:
    """The computer levels and hints a journal's header gives each seat.

    Every level must be one the rig knows and there must be one per player: a short
    list used to resume and then crash at the first turn of an uncovered seat. A header
    without levels (journals from the emulator) seats people only.
    """
    from rig import registry

    header = session.journal.header if session.journal is not None else {}
    players = session.game.num_players
    given = header.get("levels", ["human"] * players)
    levels = [lv for lv in given if isinstance(lv, str)] if isinstance(given, list) else []
    if not isinstance(given, list) or len(levels) != len(given):
        raise HeaderError(f"journal header: levels is {given!r}, not a list of levels")
    if len(levels) != players:
        raise HeaderError(f"journal header: {len(levels)} levels for {players} players")
    for level in levels:
        if level != "human":
            registry.entry(session.game.name).chooser(level)  # ValueError names the levels
    hints = header.get("hints", False)
    if not isinstance(hints, bool):
        raise HeaderError(f"journal header: hints is {hints!r}, not true or false")
    return tuple(levels), hints


def load_card_map(path: Path) -> dict[str, str]:
    """Enrolled tags (tag -> card id) from the cards file; none if it does not exist.
    Read like a data file (a regular file of a bounded size, looked at before it is
    opened): a FIFO or a device there must not hold up the start."""
    from engine.datafile import parse_toml
    from engine.errors import DataError
    from rig.datafiles import data_file_problem
    from rig.statedir import read_state_text

    problem = data_file_problem(path)
    if problem == "no such file":
        return {}
    if problem is not None:
        log.error("cannot read the card map %s: %s; no cards are enrolled", path, problem)
        return {}
    try:
        data, _ = parse_toml(read_state_text(path), str(path))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, DataError) as exc:
        log.error("cannot read the card map %s: %s; no cards are enrolled", path, exc)
        return {}
    tags = data.get("tags", {})
    return {str(tag): str(card) for tag, card in tags.items()} if isinstance(tags, dict) else {}
