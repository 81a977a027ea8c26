# shellcheck shell=bash
# Shared by install.sh and uninstall.sh (sourced, not run). Expects DRY_RUN and DESTDIR.

# The command line of both scripts, read one way by parse_options. The options every
# script has are here; a script adds its own to these before the call:
#   FLAG_OPTIONS   option -> "VARIABLE=value" it sets
#   VALUE_OPTIONS  option -> VARIABLE set to its directory argument, given as
#                  "--option DIR" or "--option=DIR"
# and -h/--help prints the script's usage.
declare -A FLAG_OPTIONS=([--dry-run]=DRY_RUN=1)
declare -A VALUE_OPTIONS=([--destdir]=DESTDIR)

# parse_options NAME ARG...: set the variables; anything unknown exits 2 naming it.
# DESTDIR loses a trailing slash.
parse_options() {
    local name="$1" option
    shift
    while [ $# -gt 0 ]; do
        option="${1%%=*}"
        if [ -z "$1" ]; then
            echo "$name: unknown option $1 (see --help)" >&2
            exit 2
        elif [ -n "${FLAG_OPTIONS[$1]:-}" ]; then
            printf -v "${FLAG_OPTIONS[$1]%%=*}" '%s' "${FLAG_OPTIONS[$1]#*=}"
        elif [ -n "${VALUE_OPTIONS[$option]:-}" ] && [ "$option" != "$1" ]; then
            printf -v "${VALUE_OPTIONS[$option]}" '%s' "${1#*=}"
        elif [ -n "${VALUE_OPTIONS[$1]:-}" ]; then
            [ $# -ge 2 ] || { echo "$name: $1 needs a directory" >&2; exit 2; }
            printf -v "${VALUE_OPTIONS[$1]}" '%s' "$2"
            shift
        else
            case "$1" in
                -h|--help) usage; exit 0 ;;
                *) echo "$name: unknown option $1 (see --help)" >&2; exit 2 ;;
            esac
        fi
        shift
    done
    DESTDIR="${DESTDIR%/}"
}

say() { printf '==> %s\n' "$*"; }

# run CMD...: do it, or only print it in a dry run.
run() {
    if [ "$DRY_RUN" = 1 ]; then
        printf '+ %s\n' "$*"
    else
        "$@"
    fi
}

# host CMD...: a step that changes the host itself (users, systemd): skipped under DESTDIR.
host() {
    if [ -n "$DESTDIR" ]; then
        printf 'skipped (DESTDIR): %s\n' "$*"
    else
        run "$@"
    fi
}

# apt_install PKG...: a host step installing Debian packages. A machine that never ran
# `apt-get update` (a fresh image, a container whose lists were cleared) knows no
# package yet, and a stale list names versions the mirror no longer has: on a failed
# install the lists are refreshed once and the install tried again.
APT_UPDATED=0
apt_install() {
    if host apt-get install -y --no-install-recommends "$@"; then
        return 0
    fi
    [ "$APT_UPDATED" = 0 ] || return 1
    APT_UPDATED=1
    echo "apt-get install failed: refreshing the package lists (apt-get update) and trying again"
    host apt-get update && host apt-get install -y --no-install-recommends "$@"
}

# require_root NAME: a real run on the host needs root.
require_root() {
    if [ "$DRY_RUN" = 0 ] && [ -z "$DESTDIR" ] && [ "$(id -u)" != 0 ]; then
        echo "$1: run me as root: sudo $0" >&2
        exit 1
    fi
}

# start_and_check UNIT: (re)start the unit and make sure it came up. The unit is
# Type=notify: systemctl returns once the daemon sent READY=1 (the display, pins, knobs
# and reader are up) or the start failed; is-active then says whether it is still up.
# On failure, say so with systemd's status and where the reason is, and return 1.
start_and_check() {
    local unit="$1"
    if [ "$DRY_RUN" = 1 ] || [ -n "$DESTDIR" ]; then
        host systemctl restart "$unit"
        return
    fi
    if systemctl restart "$unit" && systemctl is-active --quiet "$unit"; then
        echo "$unit is up (READY)"
        return
    fi
    echo "$unit did not come up ($(systemctl is-active "$unit" 2>/dev/null || true)):" >&2
    systemctl status --no-pager --lines=20 "$unit" >&2 || true
    echo "The reason is in its log (journalctl -u $unit -n 50). Fix it, then start it" \
         "with: sudo systemctl restart $unit" >&2
    return 1
}
