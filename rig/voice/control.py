"""Voice on or off and its volume, as the setup menu sets them (RULINGS G6).

The ``[voice]`` config gives the starting values; a change on the setup menu is kept in
``<state>/voice.conf`` so that the table's choice outlives a restart (the config file
belongs to the owner and the rig never writes it): two ``key = value`` lines, read
without json or tomllib, since the daemon reads it before its first screen. A file that
cannot be read or written costs only that memory: the values in use are kept and the
reason logged.

A lean module: the setup menu, the first screen, imports it before anything else of
the voice is loaded.
"""

from __future__ import annotations

import logging
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
        from rig.statedir import read_state_text

        try:
            text = read_state_text(path)  # never through a link (rig.statedir)
        except FileNotFoundError:
            return  # the menu never changed them: the config's
        except (OSError, UnicodeDecodeError) as exc:
            log.warning("voice settings %s not read (%s): the config's are used", path, exc)
            return
        values = dict(line.partition("=")[::2] for line in text.splitlines() if "=" in line)
        values = {k.strip(): v.strip() for k, v in values.items()}
        if values.get("enabled") in ("true", "false"):
            self.enabled = values["enabled"] == "true"
        volume = values.get("volume", "")
        if volume.isdigit() and 0 <= int(volume) <= 100:
            self.volume = int(volume)
        if set(values) - {"enabled", "volume"} or not values:
            log.warning("voice settings %s: not what the rig writes; what it could read "
                        "is used", path)

    def _save(self) -> None:
        if self.path is None:
            return
        from rig.statedir import atomic_write

        try:  # a new temp file renamed over the name: no link is written through
            atomic_write(self.path, (f"enabled = {'true' if self.enabled else 'false'}\n"
                                     f"volume = {self.volume}\n").encode())
        except OSError as exc:
            log.warning("voice settings not kept in %s (%s): they last until the rig "
                        "stops", self.path, exc.strerror or exc)
