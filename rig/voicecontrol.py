"""Voice on or off and its volume, as the setup menu sets them (RULINGS G6).

The ``[voice]`` config gives the starting values; a change on the setup menu is kept in
``<state>/voice.json`` so that the table's choice outlives a restart (the config file
belongs to the owner and the rig never writes it). A file that cannot be read or written
costs only that memory: the values in use are kept and the reason logged.

A lean module: the setup menu, the first screen, imports it before anything else of
the voice is loaded.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

log = logging.getLogger(__name__)

VOLUMES = (20, 40, 60, 80, 100)
"""The volume steps a press goes through, percent."""


class VoiceControl:
    """Shared by the setup menu (which changes it) and the narrator (which reads it);
    only the event loop's thread touches it."""

    def __init__(self, enabled: bool = True, volume: int = 80,
                 path: Path | None = None) -> None:
        self.enabled = enabled
        self.volume = volume
        self.path = path
        if path is not None:
            self._load(path)

    def toggle(self) -> None:
        self.enabled = not self.enabled
        self._save()

    def louder(self) -> None:
        """The next volume step, round to the quietest after the loudest."""
        higher = [v for v in VOLUMES if v > self.volume]
        self.volume = higher[0] if higher else VOLUMES[0]
        self._save()

    def _load(self, path: Path) -> None:
        import json

        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return
        except (OSError, ValueError) as exc:
            log.warning("voice settings %s not read (%s): the config's are used", path, exc)
            return
        if isinstance(data.get("enabled"), bool):
            self.enabled = data["enabled"]
        volume = data.get("volume")
        if isinstance(volume, int) and not isinstance(volume, bool) and 0 <= volume <= 100:
            self.volume = volume

    def _save(self) -> None:
        import json

        if self.path is None:
            return
        tmp = self.path.with_name(f".{self.path.name}.tmp")
        try:
            tmp.write_text(json.dumps({"enabled": self.enabled, "volume": self.volume}),
                           encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError as exc:
            log.warning("voice settings not kept in %s (%s): they last until the rig "
                        "stops", self.path, exc.strerror or exc)
