# shellcheck shell=bash
# What scripts/install-pi.sh and scripts/install-hub.sh share (sourced by them, never run): the checks
# after their options, and the helpers that write below DESTDIR and skip what would change the running
# system when DESTDIR is a throwaway root. The sourcing script sets PROG (its name: the prefix of every
# line it prints) and DESTDIR before sourcing.

# check_invocation MODE PURGE: --purge only with --uninstall; DESTDIR made absolute and never /;
# without DESTDIR, root is needed.
check_invocation() {
    if [ "$2" = yes ] && [ "$1" != uninstall ]; then
        echo "$PROG: --purge only goes with --uninstall" >&2
        exit 2
    fi
    if [ -n "$DESTDIR" ]; then
        mkdir -p "$DESTDIR"
        DESTDIR=$(cd "$DESTDIR" && pwd)
        if [ "$DESTDIR" = / ]; then
            echo "$PROG: DESTDIR=/ is the live system: leave DESTDIR unset for that" >&2
            exit 2
        fi
    elif [ "$(id -u)" -ne 0 ]; then
        echo "$PROG: run as root (sudo $0), or with DESTDIR=DIR for a throwaway root" >&2
        exit 1
    fi
}

say() { printf '%s: %s\n' "$PROG" "$*"; }

# A command that changes the running system: skipped (and shown) in a throwaway root.
sys() {
    if [ -n "$DESTDIR" ]; then
        printf 'skipped (DESTDIR):'
        printf ' %q' "$@"
        printf '\n'
    else
        "$@"
    fi
}

# The live system's answer to a question (does the user exist?); in a throwaway root: "no".
live() {
    [ -z "$DESTDIR" ] && "$@" >/dev/null 2>&1
}

# Every path put or removed by this run (a service restarts only when its files changed).
changed=()

put() { # put MODE SOURCE TARGET: install a file below DESTDIR, only rewriting it when it changed
    local mode=$1 source=$2 target=$DESTDIR$3
    mkdir -p "$(dirname "$target")"
    if ! cmp -s "$source" "$target"; then
        install -m "$mode" "$source" "$target"
        say "installed $3"
        changed+=("$3")
    else
        chmod "$mode" "$target"
    fi
}

remove() { # remove PATH...: files or directories below DESTDIR
    local path
    for path in "$@"; do
        if [ -e "$DESTDIR$path" ] || [ -L "$DESTDIR$path" ]; then
            rm -rf -- "$DESTDIR$path"
            say "removed $path"
            changed+=("$path")
        fi
    done
}

installed() { # installed PACKAGE: is this Debian package installed on the live system?
    live dpkg-query -W "$1" && [ "$(dpkg-query -W -f='${Status}' "$1")" = "install ok installed" ]
}
