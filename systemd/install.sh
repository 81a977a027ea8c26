#!/usr/bin/env bash
# Install cb-rig as a system service on a Raspberry Pi. Run as root from a checkout:
#
#     sudo systemd/install.sh
#
# It creates the cbrig system user (groups gpio, i2c, dialout), a virtualenv at
# /opt/cbrig/venv with `pip install <checkout>[pi]`, /etc/cbrig/config.toml from
# wiring/config.toml (only if absent: an owner's config is never overwritten), the
# state directory /var/lib/cbrig, and installs, enables and (re)starts cbrig.service.
# Running it again upgrades the package and leaves everything else as it is.
#
# Options:
#   --dry-run       print what would be done, change nothing
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
PYTHON="${PYTHON:-python3}"

SERVICE_USER=cbrig
SERVICE_GROUPS=(gpio i2c dialout)
PREFIX=/opt/cbrig
VENV="$PREFIX/venv"
CONFIG_DIR=/etc/cbrig
CONFIG="$CONFIG_DIR/config.toml"
STATE_DIR=/var/lib/cbrig
UNIT_DIR=/etc/systemd/system
UNIT=cbrig.service

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --destdir) [ $# -ge 2 ] || { echo "install.sh: --destdir needs a directory" >&2; exit 2; }
                   DESTDIR="$2"; shift ;;
        --destdir=*) DESTDIR="${1#--destdir=}" ;;
        --no-venv) DO_VENV=0 ;;
        --no-start) DO_START=0 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
DESTDIR="${DESTDIR%/}"

# shellcheck source=systemd/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
require_root install.sh
for f in pyproject.toml systemd/$UNIT wiring/config.toml; do
    [ -f "$SRC/$f" ] || { echo "install.sh: $SRC is not a cb-rig checkout (no $f)" >&2; exit 1; }
done

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

say "state directory: $STATE_DIR"
run install -d -m 0755 "$DESTDIR/var/lib"
if [ -n "$DESTDIR" ]; then
    run install -d -m 0750 "$DESTDIR$STATE_DIR"
else
    run install -d -m 0750 -o "$SERVICE_USER" -g "$SERVICE_USER" "$STATE_DIR"
fi

say "config: $CONFIG"
run install -d -m 0755 "$DESTDIR$CONFIG_DIR"
if [ -e "$DESTDIR$CONFIG" ]; then
    echo "keeping the existing $CONFIG"
else
    run install -m 0644 "$SRC/wiring/config.toml" "$DESTDIR$CONFIG"
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
    run "$DESTDIR$VENV/bin/pip" install --disable-pip-version-check --upgrade "${SRC}[pi]"
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
host systemctl daemon-reload
host systemctl enable "$UNIT"
if [ "$DO_START" = 1 ]; then
    host systemctl restart "$UNIT"
fi

say "done"
if [ -z "$DESTDIR" ]; then
    echo "status: systemctl status $UNIT    log: journalctl -u $UNIT -f"
fi
