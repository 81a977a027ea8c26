#!/usr/bin/env python3
"""The Raspberry Pi boot options the rig needs, set by systemd/install.sh.

    bootconfig.py [--apply] [--no-diff] [--amplifier] [--backup-suffix SUFFIX] BOOT_DIR

BOOT_DIR holds ``config.txt`` and ``cmdline.txt`` (``/boot/firmware`` on Bookworm). The
rig needs I2C on at 400 kHz (the OLED: a full frame in ~23 ms instead of ~92 ms), the
UART on (the card reader) and no login console on the UART (it would swallow the
reader's bytes). With ``--amplifier`` also the MAX98357A I2S amplifier's overlay
(``dtoverlay=max98357a``: the voice on a Pi without a jack, wiring/README.md). Without
``--apply`` this only prints the change as a unified diff.
With it, each changed file is first copied to ``<file><SUFFIX>`` (once: the first
backup, the owner's original, is never overwritten) and then replaced atomically.

Exit status: 0 when everything was already set (nothing to do, no reboot), 3 when a
file was (or, without --apply, would be) changed: the Pi must then reboot. 1 on errors.

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


def config_txt(text: str) -> str:
    """``text`` with the lines the rig needs appended under ``[all]`` (only the missing
    ones: a correct file is returned unchanged). Appending works because later lines
    win; the owner's own lines stay as they were."""
    now = effective_settings(text)
    wanted: list[str] = []
    dtparams: list[str] = []
    if now.get("dtparam:i2c_arm", "off").lower() not in ON:
        dtparams.append("i2c_arm=on")
    if now.get("dtparam:i2c_arm_baudrate") != str(I2C_BAUD):
        dtparams.append(f"i2c_arm_baudrate={I2C_BAUD}")
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


def plan(boot_dir: Path, amplifier: bool = False) -> list[Edit]:
    """The edits for both files of ``boot_dir`` (a missing file is an error)."""
    def config(text: str) -> str:
        return amplifier_txt(config_txt(text)) if amplifier else config_txt(text)

    edits = []
    for name, edit in (("config.txt", config), ("cmdline.txt", cmdline_txt)):
        path = boot_dir / name
        before = path.read_text(encoding="utf-8")
        edits.append(Edit(path, before, edit(before)))
    return edits


def apply(edit: Edit, backup_suffix: str) -> Path:
    """Keep the first backup, then replace the file atomically (same mode)."""
    backup = edit.path.with_name(edit.path.name + backup_suffix)
    if not backup.exists():
        backup.write_text(edit.before, encoding="utf-8")
    temporary = edit.path.with_name(edit.path.name + ".cbrig-new")
    temporary.write_text(edit.after, encoding="utf-8")
    os.chmod(temporary, edit.path.stat().st_mode & 0o7777)
    with temporary.open("rb") as handle:
        os.fsync(handle.fileno())
    os.replace(temporary, edit.path)
    return backup


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bootconfig.py", description=__doc__.split("\n\n")[1])
    parser.add_argument("boot_dir", type=Path, help="the directory of config.txt and cmdline.txt")
    parser.add_argument("--apply", action="store_true", help="write the change (else: show it)")
    parser.add_argument("--no-diff", action="store_true", help="do not print the diff")
    parser.add_argument("--amplifier", action="store_true",
                        help="also load the MAX98357A I2S amplifier's overlay (the voice)")
    parser.add_argument("--backup-suffix", default=".cbrig-backup",
                        help="backup file name suffix (default .cbrig-backup)")
    args = parser.parse_args(argv)
    try:
        edits = plan(args.boot_dir, amplifier=args.amplifier)
    except OSError as exc:
        print(f"bootconfig: cannot read {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 1
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
            print(f"changed {edit.path} (the original is kept as {backup})")
    if args.apply:
        print("REBOOT NEEDED for the boot options to take effect: sudo reboot")
    return CHANGED


if __name__ == "__main__":
    raise SystemExit(main())
