# shellcheck shell=bash
# Shared by install.sh and uninstall.sh (sourced, not run). Expects DRY_RUN and DESTDIR.

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

# require_root NAME: a real run on the host needs root.
require_root() {
    if [ "$DRY_RUN" = 0 ] && [ -z "$DESTDIR" ] && [ "$(id -u)" != 0 ]; then
        echo "$1: run me as root: sudo $0" >&2
        exit 1
    fi
}
