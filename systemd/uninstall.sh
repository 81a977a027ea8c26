#!/usr/bin/env bash
# Remove what systemd/install.sh installed. Run as root:
#
#     sudo systemd/uninstall.sh            # keeps /var/lib/cbrig (game journals, cards map)
#     sudo systemd/uninstall.sh --purge    # removes the state directory too
#
# It stops and disables cbrig.service, removes the unit, /opt/cbrig (virtualenv and
# documentation), the command /usr/local/bin/cbrig, /etc/cbrig (a copy of config.toml
# is kept in the state directory as config.toml.saved unless --purge) and the cbrig
# user. The gpio, i2c and dialout groups
# belong to the system and stay, and so do the boot options install.sh set (its backups
# are /boot/firmware/*.cbrig-backup). Safe to run again: missing pieces are skipped.
#
# Options:
#   --purge         also delete /var/lib/cbrig
#   --dry-run       print what would be done, change nothing
#   --destdir DIR   remove the files under DIR instead of / (also $DESTDIR); user and
#                   systemctl steps are skipped
#   -h, --help      this text
set -euo pipefail

DESTDIR="${DESTDIR:-}"
DRY_RUN=0
PURGE=0

SERVICE_USER=cbrig
PREFIX=/opt/cbrig
CONFIG_DIR=/etc/cbrig
STATE_DIR=/var/lib/cbrig
UNIT_DIR=/etc/systemd/system
UNIT=cbrig.service
BIN_LINK=/usr/local/bin/cbrig

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; }

# shellcheck source=systemd/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
FLAG_OPTIONS+=([--purge]=PURGE=1)
parse_options uninstall.sh "$@"
require_root uninstall.sh

say "service: $UNIT"
if [ -z "$DESTDIR" ] && command -v systemctl >/dev/null \
        && systemctl list-unit-files "$UNIT" >/dev/null 2>&1 \
        && [ -e "$UNIT_DIR/$UNIT" ]; then
    run systemctl disable --now "$UNIT" || echo "warning: could not stop $UNIT" >&2
elif [ -n "$DESTDIR" ]; then
    host systemctl disable --now "$UNIT"
else
    echo "$UNIT is not installed"
fi
if [ -e "$DESTDIR$UNIT_DIR/$UNIT.d/web.conf" ]; then  # the live board's, from install.sh
    run rm -f "$DESTDIR$UNIT_DIR/$UNIT.d/web.conf"
    run rmdir --ignore-fail-on-non-empty "$DESTDIR$UNIT_DIR/$UNIT.d"
fi
if [ -e "$DESTDIR$UNIT_DIR/$UNIT" ]; then
    run rm -f "$DESTDIR$UNIT_DIR/$UNIT"
    host systemctl daemon-reload
fi

say "program: $PREFIX"
if [ -e "$DESTDIR$PREFIX" ]; then
    run rm -rf "$DESTDIR$PREFIX"
else
    echo "$PREFIX is not there"
fi

say "command: $BIN_LINK"
if [ -L "$DESTDIR$BIN_LINK" ] && [ "$(readlink "$DESTDIR$BIN_LINK")" = "$PREFIX/venv/bin/cbrig" ]; then
    run rm -f "$DESTDIR$BIN_LINK"
else
    echo "$BIN_LINK is not ours (or not there): left alone"
fi

say "config: $CONFIG_DIR"
if [ -e "$DESTDIR$CONFIG_DIR" ]; then
    if [ "$PURGE" = 0 ] && [ -f "$DESTDIR$CONFIG_DIR/config.toml" ] \
            && [ -d "$DESTDIR$STATE_DIR" ]; then
        run cp -p "$DESTDIR$CONFIG_DIR/config.toml" "$DESTDIR$STATE_DIR/config.toml.saved"
        echo "a copy of config.toml is kept as $STATE_DIR/config.toml.saved"
    fi
    run rm -rf "$DESTDIR$CONFIG_DIR"
else
    echo "$CONFIG_DIR is not there"
fi

say "state: $STATE_DIR"
if [ "$PURGE" = 1 ]; then
    if [ -e "$DESTDIR$STATE_DIR" ]; then
        run rm -rf "$DESTDIR$STATE_DIR"
    else
        echo "$STATE_DIR is not there"
    fi
else
    echo "keeping $STATE_DIR (game journals, cards map); --purge removes it"
fi

say "user: $SERVICE_USER"
if id -u "$SERVICE_USER" >/dev/null 2>&1; then
    host userdel "$SERVICE_USER"
else
    echo "user $SERVICE_USER does not exist"
fi

say "done"
