"""`cbrig update`: install a newer version beside the running one, with a trial that rolls
back (the Pi image; docs/IMAGE.md, "Updates that roll back")."""

from __future__ import annotations

import argparse
import os
import pwd
import sys
from pathlib import Path

from rig.logs import setup_logging
from rig.update.versions import UpdateError, Versions

EX_NOPERM = 77
"""The exit status when this user may not write what the update writes (sysexits.h)."""
WRITING = ("install", "consume", "rollback")
"""The actions an owner runs that write the update directory (the hooks are systemd's)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--root", type=Path, default=None, metavar="DIR",
                        help="the update directory (default: $CBRIG_UPDATE_ROOT, else "
                             "/var/lib/cbrig-update)")
    parser.add_argument("--base", type=Path, default=None, metavar="VENV",
                        help="the image's own venv (default: $CBRIG_BASE_VENV, else "
                             "/opt/cbrig/venv)")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    install = actions.add_parser("install", help="install a wheel or an update bundle "
                                 "(root): self-tested, then on trial until it starts")
    install.add_argument("file", type=Path, help="cbrig-X.Y.Z-*.whl, or a .tar bundle")
    install.add_argument("--config", type=Path, default=None, metavar="FILE",
                         help="the config the self-test checks")
    consume = actions.add_parser("consume", help="install the newest update file of a "
                                 "folder not taken before (the boot's cbrig-update.service)")
    consume.add_argument("folder", type=Path, help="e.g. /boot/firmware/cbrig/updates")
    consume.add_argument("--config", type=Path, default=None, metavar="FILE",
                         help="the config the self-test checks")
    actions.add_parser("status", help="what is installed, what runs, and the trial")
    actions.add_parser("rollback", help="back to the version before the current one (root)")
    hook = actions.add_parser("hook", help="cbrig.service's trial hooks (root; see "
                              "systemd/image.conf)")
    hook.add_argument("when", choices=("start", "ready", "stopped"),
                      help="start: ExecStartPre (counts a trial start), ready: "
                           "ExecStartPost (keeps it), stopped: ExecStopPost (rolls back a "
                           "trial that did not reach READY)")
    hook.add_argument("--unit", default=None,
                      help="stopped: the unit to start again after a rollback when "
                           "systemd would not")


def unwritable(root: Path) -> Path | None:
    """The update directory, or the nearest of its parents that exists, when this user
    cannot write it (None when it can: root can)."""
    probe = root
    while probe != probe.parent:
        try:
            if probe.exists():
                break
        except OSError:  # there, but this user may not look into it
            break
        probe = probe.parent
    return None if os.access(probe, os.W_OK | os.X_OK) else probe


def _user() -> str:
    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:
        return f"uid {os.geteuid()}"


def _not_allowed(action: str, path: object) -> int:
    print(f"cbrig update {action}: {path} is not writable by {_user()}; run it as root "
          f"(sudo {sys.argv[0] if sys.argv[0].endswith('cbrig') else 'cbrig'} update "
          f"{action} ...)", file=sys.stderr)
    return EX_NOPERM


def run(args: argparse.Namespace) -> int:
    setup_logging("info")
    # A hook's output is the unit's journal, where the log already says it.
    versions = Versions(args.root, args.base, say=print if args.action != "hook"
                        else lambda text: None)
    if args.action == "status":
        print(versions.status())
        return 0
    if args.action in WRITING and (blocked := unwritable(versions.root)) is not None:
        return _not_allowed(args.action, blocked)
    try:
        if args.action == "install":
            return versions.install(args.file, args.config)
        if args.action == "consume":
            return versions.consume(args.folder, args.config)
        if args.action == "rollback":
            if versions.rollback() is None:
                print("cbrig update: already on the base version, nothing to roll back to",
                      file=sys.stderr)
                return 1
            return 0
        if args.when == "start":
            versions.hook_start()
        elif args.when == "ready":
            versions.hook_ready()
        else:
            versions.hook_stopped(os.environ.get("EXIT_STATUS", ""), args.unit)
    except PermissionError as exc:
        return _not_allowed(args.action, exc.filename or versions.root)
    except (UpdateError, OSError) as exc:
        print(f"cbrig update {args.action}: {exc}", file=sys.stderr)
        return 1
    return 0
