#!/usr/bin/env bash
# Install cb-rig as a system service on a Raspberry Pi. Run as root from a checkout:
#
#     sudo systemd/install.sh
#
# It sets the boot options the rig needs (asking first, see --boot), installs the voice's
# Debian packages (espeak-ng, sox, alsa-utils), creates the cbrig
# system user (groups gpio, i2c, dialout, audio), a virtualenv at /opt/cbrig/venv with the
# program built as a wheel from a clean copy of the checkout (nothing is written into
# the checkout; a module deleted from it is gone after the reinstall), the command
# /usr/local/bin/cbrig, /etc/cbrig/config.toml from wiring/config.toml (only if
# absent: an owner's config is never overwritten), the state directory /var/lib/cbrig,
# and installs, enables and (re)starts cbrig.service, then checks that it came up
# (READY=1: the display, pins, knobs and reader are set up; otherwise it says why and
# exits 1). Running it again upgrades the program and leaves everything else as it is.
#
# Boot options (on /boot/firmware/config.txt and cmdline.txt): I2C on at 400 kHz, the
# UART on, no login console on the UART; i2c-dev in /etc/modules (and loaded now); on a
# Raspberry Pi 5 (/proc/device-tree/model) uart0 on and the reader's port in
# /etc/cbrig/config.toml set to /dev/ttyAMA0. The change is shown first, each file is
# backed up once as <file>.cbrig-backup, and you are told when a reboot is needed.
#
# With --amplifier (or yes when asked on a terminal) the boot options also load the
# MAX98357A I2S amplifier (dtoverlay=max98357a) that gives a Pi Zero 2 W its voice;
# the same preview, backup and reboot notice apply.
#
# Options:
#   --dry-run       print what would be done (with the boot options' diff), change nothing
#   --boot          set the boot options without asking
#   --no-boot       leave the boot options alone (without either, ask on a terminal;
#                   otherwise only show the change)
#   --amplifier     a MAX98357A I2S amplifier is fitted: load its overlay (docs/VOICE.md)
#   --no-amplifier  none is fitted (without either, ask on a terminal; otherwise none)
#   --boot-dir DIR  where config.txt and cmdline.txt are (default /boot/firmware, or
#                   /boot on older systems, both under DESTDIR when it is given)
#   --destdir DIR   install the files under DIR instead of / (also $DESTDIR); user,
#                   group and systemctl steps are skipped (for packaging and tests)
#   --no-venv       do not create or update the virtualenv
#   --no-start      install and enable the unit, but do not (re)start it
#   -h, --help      this text
set -euo pipefail

SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DESTDIR="${DESTDIR:-}"
DRY_RUN=0
DO_VENV=1
DO_START=1
BOOT=ask
AMPLIFIER=ask
BOOT_DIR=""
PYTHON="${PYTHON:-python3}"

SERVICE_USER=cbrig
SERVICE_GROUPS=(gpio i2c dialout audio)
PREFIX=/opt/cbrig
VENV="$PREFIX/venv"
CONFIG_DIR=/etc/cbrig
CONFIG="$CONFIG_DIR/config.toml"
STATE_DIR=/var/lib/cbrig
UNIT_DIR=/etc/systemd/system
UNIT=cbrig.service
BIN_LINK=/usr/local/bin/cbrig

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; }

# shellcheck source=systemd/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
FLAG_OPTIONS+=([--boot]=BOOT=yes [--no-boot]=BOOT=no [--no-venv]=DO_VENV=0
              [--no-start]=DO_START=0 [--amplifier]=AMPLIFIER=yes
              [--no-amplifier]=AMPLIFIER=no)
VALUE_OPTIONS+=([--boot-dir]=BOOT_DIR)
parse_options install.sh "$@"
require_root install.sh
for f in pyproject.toml systemd/$UNIT wiring/config.toml; do
    [ -f "$SRC/$f" ] || { echo "install.sh: $SRC is not a cb-rig checkout (no $f)" >&2; exit 1; }
done

# The checkout without what a build or a test leaves in it (and without .git).
COPY_EXCLUDES=(--exclude=./.git --exclude=./.venv --exclude=./venv --exclude=./build
               --exclude=./dist --exclude='*.egg-info' --exclude=__pycache__
               --exclude=./.pytest_cache --exclude=./.mypy_cache --exclude=./.ruff_cache
               --exclude=./.hypothesis --exclude=./out)

# special_file_excludes: a tar --exclude for each FIFO and socket in the checkout. lgpio
# leaves its notification FIFO .lgd-nfy0 in the working directory of whatever imported
# it (a test run in the clone, on a Pi): it is no source, and a copy must not trip on it.
special_file_excludes() {
    local name
    printf '%s\0' --no-wildcards
    while IFS= read -r -d '' name; do
        printf -- '--exclude=%s\0' "$name"
    done < <(cd "$SRC" && find . \( -name .git -o -name .venv \) -prune -o \
                 \( -type p -o -type s \) -print0)
}

# What pip needs to build the dependencies from source where PyPI has no wheel for this
# machine (32-bit ARM: Pillow) and the system's pip index has none either (Raspberry Pi
# OS's usually has; plain Debian's has not). Without libfreetype-dev Pillow builds but
# cannot draw text.
SOURCE_BUILD_PACKAGES=(build-essential python3-dev libjpeg62-turbo-dev zlib1g-dev
                       libfreetype-dev)

# build_tools_if_no_wheels PIP SPEC: when some dependency of SPEC has no wheel here,
# install what building it from source needs (with apt, on Debian and Raspberry Pi OS).
build_tools_if_no_wheels() {
    local pip="$1" spec="$2"
    if "$pip" install --disable-pip-version-check --quiet --dry-run --only-binary=:all: \
            "$spec" >/dev/null 2>&1; then
        return
    fi
    echo "some dependency has no wheel for $(uname -m): it is built from source," \
         "which needs ${SOURCE_BUILD_PACKAGES[*]}"
    if command -v apt-get >/dev/null; then
        apt_install "${SOURCE_BUILD_PACKAGES[@]}"
    else
        echo "warning: no apt-get: install a C compiler and the headers of Python," \
             "libjpeg, zlib and freetype yourself if pip fails below" >&2
    fi
}

# install_program PIP: build a wheel from a clean copy of the checkout in a temporary
# directory (so root never writes into the owner's clone, and a stale build/ cannot
# bring back a deleted module), install its dependencies, then reinstall the program
# itself from the wheel: pip first removes every file the previous install recorded.
install_program() {
    local pip="$1"
    if [ "$DRY_RUN" = 1 ]; then
        echo "+ copy $SRC to a temporary directory, without ${COPY_EXCLUDES[*]}" \
             "and without FIFOs and sockets"
        echo "+ $pip wheel --no-deps --wheel-dir <tmp>/dist <tmp>/src"
        echo "+ (if a dependency has no wheel here) apt-get install -y ${SOURCE_BUILD_PACKAGES[*]}"
        echo "+ $pip install --upgrade <tmp>/dist/cbrig-*.whl[pi]"
        echo "+ $pip install --no-deps --force-reinstall <tmp>/dist/cbrig-*.whl"
        return
    fi
    WORK="$(mktemp -d -t cbrig-install.XXXXXX)"
    trap 'rm -rf "$WORK"' EXIT
    mkdir "$WORK/src" "$WORK/dist"
    local specials
    mapfile -d '' specials < <(special_file_excludes)
    tar -C "$SRC" "${COPY_EXCLUDES[@]}" "${specials[@]}" -cf - . |
        tar -C "$WORK/src" --no-same-owner -xf -
    "$pip" wheel --disable-pip-version-check --quiet --no-deps --wheel-dir "$WORK/dist" "$WORK/src"
    local wheels=("$WORK"/dist/cbrig-*.whl)
    [ -f "${wheels[0]}" ] || { echo "install.sh: no wheel was built" >&2; exit 1; }
    build_tools_if_no_wheels "$pip" "${wheels[0]}[pi]"
    "$pip" install --disable-pip-version-check --upgrade "${wheels[0]}[pi]"
    "$pip" install --disable-pip-version-check --no-deps --force-reinstall "${wheels[0]}"
    echo "installed $(basename "${wheels[0]}")"
}

# boot_dir: where config.txt and cmdline.txt are, or nothing.
boot_dir() {
    if [ -n "$BOOT_DIR" ]; then
        echo "$BOOT_DIR"
    elif [ -f "$DESTDIR/boot/firmware/config.txt" ]; then
        echo "$DESTDIR/boot/firmware"
    elif [ -f "$DESTDIR/boot/config.txt" ]; then
        echo "$DESTDIR/boot"
    fi
}

# boot_options: show the change the rig needs, then make it (--boot, or yes on a
# terminal). Sets REBOOT=1 when a file changed.
REBOOT=0
boot_options() {
    local dir status=0 answer
    dir="$(boot_dir)"
    say "boot options: ${dir:-no config.txt found}"
    if [ "$BOOT" = no ]; then
        echo "left alone (--no-boot)"
        return
    fi
    if [ -z "$dir" ] || [ ! -f "$dir/config.txt" ] || [ ! -f "$dir/cmdline.txt" ]; then
        echo "no config.txt and cmdline.txt${dir:+ in $dir} (not Raspberry Pi OS?): boot options" \
             "not set; see docs/INSTALL.md, step 1"
        return
    fi
    if [ "$AMPLIFIER" = ask ]; then
        AMPLIFIER=no
        if [ -t 0 ] && [ "$BOOT" != no ]; then
            read -r -p "Is a MAX98357A I2S amplifier fitted (the voice on a Pi without a jack)? [y/N] " \
                answer || answer=n
            case "$answer" in [yY]*) AMPLIFIER=yes ;; esac
        fi
    fi
    local amp=()
    [ "$AMPLIFIER" = yes ] && amp=(--amplifier)
    local files=("${amp[@]}" --model "$DESTDIR/proc/device-tree/model"
                 --modules "$DESTDIR/etc/modules" --rig-config "$DESTDIR$CONFIG" "$dir")
    "$PYTHON" "$SRC/systemd/bootconfig.py" "${files[@]}" || status=$?
    case "$status" in
        0) return ;;
        3|4) ;;
        *) echo "install.sh: cannot check the boot options in $dir" >&2; exit 1 ;;
    esac
    if [ "$DRY_RUN" = 1 ]; then
        echo "dry run: not changed (a backup would be kept, and a reboot would be needed)"
        return
    fi
    if [ "$BOOT" = ask ]; then
        if [ -t 0 ]; then
            read -r -p "Make this change to the boot options? [Y/n] " answer || answer=n
            case "$answer" in
                [nN]*) echo "boot options left alone"; return ;;
            esac
        else
            echo "not changed (no terminal to ask): run again with --boot, or see docs/INSTALL.md"
            return
        fi
    fi
    status=0
    "$PYTHON" "$SRC/systemd/bootconfig.py" --apply --no-diff "${files[@]}" || status=$?
    case "$status" in
        3) REBOOT=1 ;;
        0|4) ;;
        *) echo "install.sh: could not set the boot options in $dir" >&2; exit 1 ;;
    esac
    # /etc/modules loads i2c-dev from the next boot; load it now too (raspi-config's
    # do_i2c does the same), so /dev/i2c-1 is there without waiting for a reboot.
    host modprobe i2c-dev || echo "warning: could not load i2c-dev now (it loads at boot)" >&2
}

say "config: $CONFIG"
run install -d -m 0755 "$DESTDIR$CONFIG_DIR"
if [ -e "$DESTDIR$CONFIG" ]; then
    echo "keeping the existing $CONFIG"
else
    run install -m 0644 "$SRC/wiring/config.toml" "$DESTDIR$CONFIG"
fi

boot_options

say "groups: ${SERVICE_GROUPS[*]}"
for group in "${SERVICE_GROUPS[@]}"; do
    if getent group "$group" >/dev/null; then
        echo "group $group exists"
    else
        echo "warning: group $group is missing (not Raspberry Pi OS?); creating it" >&2
        host groupadd --system "$group"
    fi
done

say "user: $SERVICE_USER"
groups_csv="$(IFS=,; echo "${SERVICE_GROUPS[*]}")"
if id -u "$SERVICE_USER" >/dev/null 2>&1; then
    host usermod --append --groups "$groups_csv" "$SERVICE_USER"
else
    host useradd --system --user-group --groups "$groups_csv" --home-dir "$STATE_DIR" \
        --no-create-home --shell /usr/sbin/nologin --comment "cb-rig daemon" "$SERVICE_USER"
fi

# The voice (docs/VOICE.md): espeak-ng speaks, sox makes the CB radio's sound, aplay
# plays. Not having them is no reason to stop: the rig then says so and stays silent.
VOICE_PACKAGES=(espeak-ng sox alsa-utils)
say "voice: ${VOICE_PACKAGES[*]}"
if command -v espeak-ng >/dev/null && command -v sox >/dev/null && command -v aplay >/dev/null; then
    echo "already installed"
elif command -v apt-get >/dev/null; then
    apt_install "${VOICE_PACKAGES[@]}" \
        || echo "warning: the voice's packages were not installed: the rig stays silent" \
                "until they are (apt-get install ${VOICE_PACKAGES[*]})" >&2
else
    echo "warning: no apt-get: install ${VOICE_PACKAGES[*]} for the voice" >&2
fi

say "state directory: $STATE_DIR"
run install -d -m 0755 "$DESTDIR/var/lib"
if [ -n "$DESTDIR" ]; then
    run install -d -m 0750 "$DESTDIR$STATE_DIR"
else
    run install -d -m 0750 -o "$SERVICE_USER" -g "$SERVICE_USER" "$STATE_DIR"
fi

say "documentation: $PREFIX/doc"
run install -d -m 0755 "$DESTDIR$PREFIX/doc"
run install -m 0644 "$SRC/docs/INSTALL.md" "$DESTDIR$PREFIX/doc/INSTALL.md"
run install -m 0644 "$SRC/wiring/README.md" "$DESTDIR$PREFIX/doc/wiring.md"
run install -m 0644 "$SRC/wiring/wiring.svg" "$DESTDIR$PREFIX/doc/wiring.svg"
run install -m 0644 "$SRC/wiring/PARTS.md" "$DESTDIR$PREFIX/doc/PARTS.md"

if [ "$DO_VENV" = 1 ]; then
    say "virtualenv: $VENV"
    if [ -x "$DESTDIR$VENV/bin/python" ]; then
        echo "virtualenv exists; upgrading cbrig in it"
    else
        # System site packages: Raspberry Pi OS ships python3-lgpio and gpiozero.
        if [ "$DRY_RUN" = 0 ] && ! "$PYTHON" -m venv --help >/dev/null 2>&1; then
            echo "install.sh: $PYTHON has no venv module: apt-get install python3-venv" >&2
            exit 1
        fi
        run "$PYTHON" -m venv --system-site-packages "$DESTDIR$VENV"
    fi
    say "program: a wheel built from a clean copy of $SRC"
    install_program "$DESTDIR$VENV/bin/pip"
    say "command: $BIN_LINK"
    run install -d -m 0755 "$DESTDIR$(dirname "$BIN_LINK")"
    run ln -sfn "$VENV/bin/cbrig" "$DESTDIR$BIN_LINK"
    if [ -z "$DESTDIR" ]; then
        run "$VENV/bin/cbrig" config check "$CONFIG" || {
            echo "install.sh: fix $CONFIG (see above), then run me again" >&2
            exit 1
        }
    fi
else
    say "virtualenv: skipped (--no-venv)"
fi

say "systemd unit: $UNIT_DIR/$UNIT"
run install -d -m 0755 "$DESTDIR$UNIT_DIR"
run install -m 0644 "$SRC/systemd/$UNIT" "$DESTDIR$UNIT_DIR/$UNIT"
# The live board needs the network the unit otherwise lacks: a drop-in, only while
# [web] enabled = true (docs/WEB.md).
DROPIN="$UNIT_DIR/$UNIT.d/web.conf"
if "$PYTHON" -c 'import sys, tomllib; sys.exit(tomllib.load(open(sys.argv[1], "rb"))
    .get("web", {}).get("enabled") is not True)' "$DESTDIR$CONFIG" 2>/dev/null; then
    say "live board on: $DROPIN"
    run install -d -m 0755 "$DESTDIR$UNIT_DIR/$UNIT.d"
    run install -m 0644 "$SRC/systemd/web.conf" "$DESTDIR$DROPIN"
elif [ -e "$DESTDIR$DROPIN" ]; then
    say "live board off: removing $DROPIN"
    run rm -f "$DESTDIR$DROPIN"
fi
host systemctl daemon-reload
host systemctl enable "$UNIT"
if [ "$DO_START" = 1 ]; then
    say "start: $UNIT"
    start_and_check "$UNIT" || { echo "install.sh: installed, but not running" >&2; exit 1; }
fi

say "done"
if [ -z "$DESTDIR" ]; then
    echo "status: systemctl status $UNIT    log: journalctl -u $UNIT -f"
fi
if [ "$REBOOT" = 1 ]; then
    echo "REBOOT NEEDED: the boot options changed; they take effect after: sudo reboot"
fi
