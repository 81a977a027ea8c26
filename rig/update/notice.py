"""What the update machinery tells the table, and the daemon shows once.

``cbrig update`` (root) writes ``notice.txt`` in the update directory
(``/var/lib/cbrig-update``, or ``$CBRIG_UPDATE_ROOT``): its first line an id, new for each
notice, the rest the message ("Update 0.3.0 failed: back on 0.2.0"). ``cbrig run`` (the
service user, who cannot write there) shows a notice whose id it has not seen, and keeps
the id in its own state directory (``update-notice-seen``), so each is shown once.
Standard library only, and small: ``cbrig run`` imports it at every start."""

from __future__ import annotations

import logging
import os
from pathlib import Path

from rig.statedir import atomic_write, make_private_dir

log = logging.getLogger(__name__)

ROOT_VARIABLE = "CBRIG_UPDATE_ROOT"
DEFAULT_ROOT = Path("/var/lib/cbrig-update")
NOTICE_NAME = "notice.txt"
SEEN_NAME = "update-notice-seen"
"""In the rig's state directory: the id of the last notice shown."""
MAX_NOTICE = 4096


def update_root() -> Path:
    """Where updates are installed: ``$CBRIG_UPDATE_ROOT``, else /var/lib/cbrig-update."""
    value = os.environ.get(ROOT_VARIABLE, "")
    return Path(value) if value else DEFAULT_ROOT


def write_notice(root: Path, message: str) -> None:
    """Leave `message` for the daemon to show once (a new id each time), world-readable:
    the service user reads it."""
    token = os.urandom(8).hex()
    data = f"{token}\n{message}\n".encode()
    path = root / NOTICE_NAME
    atomic_write(path, data)
    os.chmod(path, 0o644)


def read_notice(root: Path) -> tuple[str, str] | None:
    """The notice's (id, message), or None when there is none."""
    try:
        with open(root / NOTICE_NAME, "rb") as handle:
            data = handle.read(MAX_NOTICE)
    except OSError:
        return None
    token, _, message = data.decode("utf-8", "replace").partition("\n")
    message = message.strip()
    return (token.strip(), message) if token.strip() and message else None


def take_update_notice(state_dir: Path, root: Path | None = None) -> str:
    """The update notice not yet shown by this rig ("" when none), marked as shown."""
    notice = read_notice(update_root() if root is None else root)
    if notice is None:
        return ""
    token, message = notice
    seen = state_dir / SEEN_NAME
    try:
        if seen.read_text(encoding="utf-8").strip() == token:
            return ""
    except (OSError, UnicodeDecodeError):
        pass
    try:
        make_private_dir(state_dir)
        atomic_write(seen, f"{token}\n".encode())
    except OSError as exc:
        log.warning("cannot note the update notice as shown in %s: %s", seen,
                    exc.strerror or exc)
    return message
