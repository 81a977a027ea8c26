"""Where the rig's config and state live: the default paths (root or user, systemd's
directory variables, XDG), and the home directory they start from."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from rig.config.records import CONFIG_NAME, DEFAULT_PATH, DEFAULT_STATE_DIR


def _first_directory(variable: str) -> Path | None:
    """The first entry of a systemd directory variable (a colon-separated list)."""
    first = os.environ.get(variable, "").split(":")[0]
    return Path(first) if first else None


def home_directory(environ: Mapping[str, str] | None = None) -> Path | None:
    """The user's home directory: ``$HOME``, else the passwd entry's. None when there is
    neither (a bare uid, as ``setpriv --reuid`` or a container gives): callers then do
    without what lives there instead of failing as ``Path.home()`` does."""
    env = os.environ if environ is None else environ
    if env.get("HOME"):
        return Path(env["HOME"])
    import pwd

    try:
        return Path(pwd.getpwuid(os.getuid()).pw_dir)
    except KeyError:
        return None


NO_HOME = "no home directory (HOME is not set and this user has no passwd entry)"


def xdg_directory(variable: str, fallback: str,
                  environ: Mapping[str, str] | None = None) -> Path | None:
    """An XDG base directory: ``$variable`` when absolute, else ``~/fallback``; None
    without a home directory."""
    env = os.environ if environ is None else environ
    value = env.get(variable, "")
    if os.path.isabs(value):
        return Path(value)
    home = home_directory(env)
    return None if home is None else home / fallback


def default_config_path() -> Path | None:
    """The config a command reads when given none, the first that exists of: under
    systemd the unit's ``$CONFIGURATION_DIRECTORY/config.toml``; the user's own
    ``$XDG_CONFIG_HOME/cbrig/config.toml`` (``~/.config``); the system's
    ``/etc/cbrig/config.toml``. None: the built-in defaults."""
    systemd = _first_directory("CONFIGURATION_DIRECTORY")
    user = xdg_directory("XDG_CONFIG_HOME", ".config")
    candidates = [systemd / CONFIG_NAME] if systemd is not None else []
    if user is not None:
        candidates.append(user / "cbrig" / CONFIG_NAME)
    for candidate in (*candidates, DEFAULT_PATH):
        if candidate.exists():
            return candidate
    return None


def default_state_dir() -> Path:
    """Where games and the card map go when the config does not say: under systemd the
    unit's ``$STATE_DIRECTORY``; ``/var/lib/cbrig`` for root or where it exists (the
    rig); on a desktop ``$XDG_STATE_HOME/cbrig`` (``~/.local/state/cbrig``), and
    ``/var/lib/cbrig`` again for a user without a home directory (starting there then
    says what cannot be written: set ``[state] directory``)."""
    systemd = _first_directory("STATE_DIRECTORY")
    if systemd is not None:
        return systemd
    if os.geteuid() == 0 or DEFAULT_STATE_DIR.is_dir():
        return DEFAULT_STATE_DIR
    user = xdg_directory("XDG_STATE_HOME", ".local/state")
    return DEFAULT_STATE_DIR if user is None else user / "cbrig"
