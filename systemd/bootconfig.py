#!/usr/bin/env python3
"""The Raspberry Pi boot options the rig needs, set by systemd/install.sh.

    bootconfig.py [--apply] [--no-diff] [--amplifier] [--backup-suffix SUFFIX]
                  [--model FILE] [--modules FILE] [--rig-config FILE] BOOT_DIR

BOOT_DIR holds ``config.txt`` and ``cmdline.txt`` (``/boot/firmware`` on Bookworm). The
rig needs I2C on at 400 kHz (the OLED: a full frame in ~23 ms instead of ~92 ms), the
UART on (the card reader) and no login console on the UART (it would swallow the
reader's bytes). With ``--amplifier`` also the MAX98357A I2S amplifier's overlay
(``dtoverlay=max98357a``: the voice on a Pi without a jack, wiring/README.md). With
``--modules`` (``/etc/modules``) it also has ``i2c-dev`` loaded at boot, as
raspi-config's ``do_i2c`` does: without it ``/dev/i2c-1`` may not appear (the installer
also loads it at once with modprobe).

On a Raspberry Pi 5 (``--model``, default ``/proc/device-tree/model``), ``/dev/serial0``
is the debug connector's UART (``ttyAMA10``); GPIO14/15 are ``uart0``: it adds
``dtparam=uart0=on`` and, with ``--rig-config`` (``/etc/cbrig/config.toml``), sets the
reader's port to ``/dev/ttyAMA0`` where the config says ``/dev/serial0`` (or nothing).

Without ``--apply`` this only prints the change as a unified diff. With it, each changed
file is first copied to ``<file><SUFFIX>`` (once: the first backup, the owner's original,
is never overwritten) and then replaced atomically.

Exit status: 0 when everything was already set (nothing to do, no reboot), 3 when a boot
file was (or, without --apply, would be) changed: the Pi must then reboot; 4 when only
``/etc/modules`` or the rig config changed (no reboot). 1 on errors.

Only the standard library: this runs before the rig's virtualenv exists.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

CHANGED = 3
CHANGED_NO_REBOOT = 4
I2C_MODULE = "i2c-dev"
I2C_MODULE_LINE = re.compile(r"^\s*i2c[-_]dev\b")
PI5_MODEL = re.compile(r"Raspberry Pi (5|500|Compute Module 5)\b")
"""Boards with the RP1 I/O chip: GPIO14/15 are uart0 (ttyAMA0), serial0 the debug UART."""
PI5_READER_PORT = "/dev/ttyAMA0"
SERIAL0 = "/dev/serial0"
DEFAULT_MODEL = Path("/proc/device-tree/model")
I2C_BAUD = 400000
MARK = "# cb-rig (systemd/install.sh): I2C at 400 kHz for the OLED, the UART for the reader"
ON = {"on", "true", "yes", "okay", "1"}
SERIAL_CONSOLE = re.compile(r"^console=(serial\d|ttyAMA\d+|ttyS\d+)(,.*)?$")
ALIASES = {"i2c": "i2c_arm", "i2c_baudrate": "i2c_arm_baudrate"}
AMPLIFIER_OVERLAY = "max98357a"
AMPLIFIER_MARK = "# cb-rig (systemd/install.sh): the MAX98357A I2S amplifier for the voice"


@dataclass(frozen=True)
class Edit:
    """One file's text before and after."""

    path: Path
    before: str
    after: str
    reboot: bool = True
    """The change takes effect at the next boot (config.txt, cmdline.txt)."""
    existed: bool = True

    @property
    def changed(self) -> bool:
        return self.before != self.after

    def diff(self) -> str:
        return "".join(difflib.unified_diff(
            self.before.splitlines(keepends=True), self.after.splitlines(keepends=True),
            fromfile=f"{self.path} (now)", tofile=f"{self.path} (for cb-rig)"))


def effective_settings(text: str) -> dict[str, str]:
    """What the firmware ends up with for every board: ``dtparam`` parameters and plain
    ``key=value`` settings outside conditional sections (before any ``[...]`` filter or
    under ``[all]``), the last one winning as it does in the firmware."""
    settings: dict[str, str] = {}
    unconditional = True
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("[") and line.endswith("]"):
            unconditional = line.lower() == "[all]"
            continue
        if not unconditional or "=" not in line:
            continue
        key, value = (part.strip() for part in line.split("=", 1))
        if key == "dtparam":
            for param in value.split(","):
                name, _, setting = param.partition("=")
                name = ALIASES.get(name.strip(), name.strip())
                settings[f"dtparam:{name}"] = setting.strip() or "on"
        else:
            settings[key] = value
    return settings


def is_pi5(model: str) -> bool:
    """``model`` (``/proc/device-tree/model``) names a board with the RP1 chip."""
    return PI5_MODEL.search(model) is not None


def overlays(text: str) -> set[str]:
    """The device tree overlays loaded for every board (unconditional lines)."""
    found: set[str] = set()
    unconditional = True
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if line.startswith("[") and line.endswith("]"):
            unconditional = line.lower() == "[all]"
        elif unconditional and line.startswith("dtoverlay="):
            found.add(line.split("=", 1)[1].split(",")[0].strip().lower())
    return found


def amplifier_txt(text: str) -> str:
    """``text`` with the I2S amplifier's overlay under ``[all]`` (unchanged if loaded)."""
    if AMPLIFIER_OVERLAY in overlays(text):
        return text
    out = text if not text or text.endswith("\n") else text + "\n"
    lines = [AMPLIFIER_MARK, f"dtoverlay={AMPLIFIER_OVERLAY}"]
    if _last_section(text) != "[all]":
        lines.insert(0, "[all]")
    return out + "\n".join(lines) + "\n"


def config_txt(text: str, pi5: bool = False) -> str:
    """``text`` with the lines the rig needs appended under ``[all]`` (only the missing
    ones: a correct file is returned unchanged). Appending works because later lines
    win; the owner's own lines stay as they were. ``pi5``: uart0 on GPIO14/15 too."""
    now = effective_settings(text)
    wanted: list[str] = []
    dtparams: list[str] = []
    if now.get("dtparam:i2c_arm", "off").lower() not in ON:
        dtparams.append("i2c_arm=on")
    if now.get("dtparam:i2c_arm_baudrate") != str(I2C_BAUD):
        dtparams.append(f"i2c_arm_baudrate={I2C_BAUD}")
    if pi5 and now.get("dtparam:uart0", "off").lower() not in ON:
        dtparams.append("uart0=on")
    if dtparams:
        wanted.append("dtparam=" + ",".join(dtparams))
    if now.get("enable_uart") != "1":
        wanted.append("enable_uart=1")
    if not wanted:
        return text
    out = text if not text or text.endswith("\n") else text + "\n"
    if _last_section(text) != "[all]":
        wanted.insert(0, "[all]")
    return out + "\n".join([MARK, *wanted]) + "\n"


def _last_section(text: str) -> str:
    sections = [line.strip().lower() for line in text.splitlines()
                if line.strip().startswith("[") and line.strip().endswith("]")]
    return sections[-1] if sections else "[all]"


def cmdline_txt(text: str) -> str:
    """The kernel command line without a console on the UART (one line, as it must be)."""
    tokens = text.split()
    kept = [token for token in tokens if not SERIAL_CONSOLE.match(token)]
    if kept == tokens:
        return text
    return " ".join(kept) + "\n"


def modules_txt(text: str) -> str:
    """``/etc/modules`` with ``i2c-dev`` in it (added at the end when no line loads it,
    as raspi-config's ``do_i2c`` does)."""
    if any(I2C_MODULE_LINE.match(line) for line in text.splitlines()):
        return text
    out = text if not text or text.endswith("\n") else text + "\n"
    return out + I2C_MODULE + "\n"


_SECTION = re.compile(r"^\s*\[\s*([A-Za-z0-9_.-]+)\s*\]\s*(#.*)?$")
_PORT = re.compile(r'^(\s*port\s*=\s*)(["\'])([^"\']*)\2(.*)$')


def rig_config_txt(text: str) -> str:
    """The rig's config with the reader on ``/dev/ttyAMA0`` (a Pi 5), where its
    ``[reader]`` port is ``/dev/serial0`` or not set; any other port is the owner's
    choice and stays. A line edit: comments and layout are kept."""
    lines = text.splitlines(keepends=True)
    section = ""
    reader_at: int | None = None
    for index, line in enumerate(lines):
        header = _SECTION.match(line)
        if header:
            section = header.group(1)
            if section == "reader":
                reader_at = index
            continue
        port = _PORT.match(line.rstrip("\n"))
        if section == "reader" and port:
            if port.group(3) != SERIAL0:
                return text
            ending = "\n" if line.endswith("\n") else ""
            lines[index] = (f"{port.group(1)}{port.group(2)}{PI5_READER_PORT}{port.group(2)}"
                            f"{port.group(4)}{ending}")
            return "".join(lines)
    setting = f'port = "{PI5_READER_PORT}"  # a Pi 5: GPIO14/15 are uart0\n'
    if reader_at is not None:
        lines.insert(reader_at + 1, setting)
        return "".join(lines)
    out = text if not text or text.endswith("\n") else text + "\n"
    return out + "\n[reader]\n" + setting


def _read(path: Path, missing_ok: bool) -> tuple[str, bool]:
    try:
        return path.read_text(encoding="utf-8"), True
    except FileNotFoundError:
        if not missing_ok:
            raise
        return "", False


def read_model(path: Path) -> str:
    """The board's model string ("" when the file is missing: not a Pi)."""
    try:
        return path.read_bytes().rstrip(b"\0").decode("utf-8", "replace")
    except OSError:
        return ""


def plan(boot_dir: Path, model: str = "", modules: Path | None = None,
         rig_config: Path | None = None, amplifier: bool = False) -> list[Edit]:
    """The edits for both files of ``boot_dir`` (a missing file is an error), for
    ``modules`` (made if missing) and, on a Pi 5, for ``rig_config`` if it exists;
    ``amplifier``: the I2S amplifier's overlay too."""
    pi5 = is_pi5(model)

    def config(text: str) -> str:
        return amplifier_txt(config_txt(text, pi5)) if amplifier else config_txt(text, pi5)

    edits = []
    for name, edit in (("config.txt", config), ("cmdline.txt", cmdline_txt)):
        path = boot_dir / name
        before = path.read_text(encoding="utf-8")
        edits.append(Edit(path, before, edit(before)))
    if modules is not None:
        before, existed = _read(modules, missing_ok=True)
        edits.append(Edit(modules, before, modules_txt(before), reboot=False,
                          existed=existed))
    if pi5 and rig_config is not None and rig_config.exists():
        before = rig_config.read_text(encoding="utf-8")
        edits.append(Edit(rig_config, before, rig_config_txt(before), reboot=False))
    return edits


def apply(edit: Edit, backup_suffix: str) -> Path | None:
    """Keep the first backup (of a file that existed), then replace the file atomically
    (same mode; 0644 for a new one). Returns the backup."""
    backup = edit.path.with_name(edit.path.name + backup_suffix)
    if edit.existed and not backup.exists():
        backup.write_text(edit.before, encoding="utf-8")
    temporary = edit.path.with_name(edit.path.name + ".cbrig-new")
    temporary.write_text(edit.after, encoding="utf-8")
    os.chmod(temporary, edit.path.stat().st_mode & 0o7777 if edit.existed else 0o644)
    with temporary.open("rb") as handle:
        os.fsync(handle.fileno())
    os.replace(temporary, edit.path)
    return backup if edit.existed else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bootconfig.py", description=__doc__.split("\n\n")[1])
    parser.add_argument("boot_dir", type=Path, help="the directory of config.txt and cmdline.txt")
    parser.add_argument("--apply", action="store_true", help="write the change (else: show it)")
    parser.add_argument("--no-diff", action="store_true", help="do not print the diff")
    parser.add_argument("--amplifier", action="store_true",
                        help="also load the MAX98357A I2S amplifier's overlay (the voice)")
    parser.add_argument("--backup-suffix", default=".cbrig-backup",
                        help="backup file name suffix (default .cbrig-backup)")
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL,
                        help=f"the board's model file (default {DEFAULT_MODEL})")
    parser.add_argument("--modules", type=Path, default=None,
                        help=f"the kernel modules loaded at boot (/etc/modules): add "
                             f"{I2C_MODULE}")
    parser.add_argument("--rig-config", type=Path, default=None,
                        help="the rig's config: on a Pi 5, the reader's port")
    args = parser.parse_args(argv)
    model = read_model(args.model)
    try:
        edits = plan(args.boot_dir, model, args.modules, args.rig_config,
                     amplifier=args.amplifier)
    except OSError as exc:
        print(f"bootconfig: cannot read {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 1
    if is_pi5(model):
        print(f"{model}: the reader is on uart0 ({PI5_READER_PORT}); {SERIAL0} is the "
              "debug connector")
    changed = [edit for edit in edits if edit.changed]
    if not changed:
        amp = f", dtoverlay={AMPLIFIER_OVERLAY}" if args.amplifier else ""
        print(f"boot options already set in {args.boot_dir} (I2C at {I2C_BAUD} Hz, UART on, "
              f"no serial console{amp}): nothing to change")
        return 0
    for edit in changed:
        if not args.no_diff:
            sys.stdout.write(edit.diff())
        if args.apply:
            try:
                backup = apply(edit, args.backup_suffix)
            except OSError as exc:
                print(f"bootconfig: cannot write {edit.path}: {exc.strerror}", file=sys.stderr)
                return 1
            kept = f"the original is kept as {backup}" if backup else "a new file"
            print(f"changed {edit.path} ({kept})")
    reboot = any(edit.reboot for edit in changed)
    if args.apply and reboot:
        print("REBOOT NEEDED for the boot options to take effect: sudo reboot")
    return CHANGED if reboot else CHANGED_NO_REBOOT


if __name__ == "__main__":
    raise SystemExit(main())
