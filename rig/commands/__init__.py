"""One module per `cbrig` subcommand, imported only when that subcommand runs."""

EXIT_CONFIG = 78
"""The exit status for a config that cannot be used (EX_CONFIG from sysexits.h, which
systemd shows as a configuration error)."""


class ConfigRefused(Exception):
    """A command cannot use the config and has said why: ``cbrig`` exits EXIT_CONFIG.

    Commands raise it (``rig.commands._config.command_config`` does) instead of each
    returning 78 itself, so every command that reads the config exits the same way."""
