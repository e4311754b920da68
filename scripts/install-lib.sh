# shellcheck shell=bash
# What scripts/install-pi.sh and scripts/install-hub.sh share (sourced by them, never run): the checks
# after their options, and the helpers that write below DESTDIR and skip what would change the running
# system when DESTDIR is a throwaway root. The sourcing script sets PROG (its name: the prefix of every
# line it prints) and DESTDIR before sourcing.

# What every installer's command line has: install or --uninstall [--purge], --no-start, --destdir DIR, --help.
# The sourcing script sets USAGE_END (the last line of its usage comment) and reads these after `common_option`.
# shellcheck disable=SC2034  # set here, read by the installer that sources this file
mode=install purge=no start=yes

usage() { # the installer's usage: its header comment from line 2 to USAGE_END
    sed -n "2,${USAGE_END:?}s/^# \{0,1\}//p" "${BASH_SOURCE[-1]}"
}

# common_option ARG [VALUE]: one of the options every installer takes (SHIFTS: the arguments it took); status 1
# when ARG is none of them.
common_option() {
    SHIFTS=1
    case $1 in
        --uninstall) mode=uninstall ;;
        --purge) purge=yes ;;
        --no-start) start=no ;;
        --destdir) DESTDIR=${2:?--destdir needs a directory}; SHIFTS=2 ;;
        --destdir=*) DESTDIR=${1#--destdir=} ;;
        -h | --help) usage; exit 0 ;;
        *) return 1 ;;
    esac
}

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

# desktop_installed ROOT: is a display manager (a desktop's login screen: lightdm on Pi OS Desktop) enabled in
# the root? graphical.target alone says nothing: it is the default of a root without any desktop too.
desktop_installed() {
    [ -e "$1/etc/systemd/system/display-manager.service" ] || [ -L "$1/etc/systemd/system/display-manager.service" ]
}

# Is systemd running as PID 1 here? Not in a chroot (pi-gen, sdm, a first-boot script, an emulated
# root), where `systemctl is-system-running` says "offline". A question, asked in DESTDIR mode too.
systemd_running() {
    local state
    state=$(systemctl is-system-running 2>/dev/null || true)
    [ -n "$state" ] && [ "$state" != offline ]
}

# A command that needs a running systemd (udevadm, daemon-reload, restart): without one it is skipped
# with a line saying so; `systemctl enable` works offline and goes through `sys` instead.
running_systemd() {
    if systemd_running; then
        sys "$@"
    else
        printf 'skipped (no running systemd, e.g. a chroot):'
        printf ' %q' "$@"
        printf '\n'
    fi
}

# progress WHAT COMMAND...: run COMMAND and say every PROGRESS_S seconds (default 30) that it still
# runs, so that minutes of a build from source are never silent. COMMAND runs in the foreground (Ctrl-C
# reaches it); the reminder stops with it, or by itself once this script is gone. COMMAND's status.
# The reminder's sleep never holds this script's output (a sleep left running would keep it open until it
# ran out, and a caller reading the output to its end would wait for it), and it ends with the reminder.
progress() {
    local what=$1 every=${PROGRESS_S:-30} start reminder status=0
    shift
    start=$(date +%s)
    (
        nap=
        trap '[ -z "$nap" ] || kill "$nap" 2>/dev/null; exit 0' TERM
        while sleep "$every" >/dev/null 2>&1 & nap=$!; wait "$nap" && kill -0 "$$" 2>/dev/null; do
            say "$what: still running after $(($(date +%s) - start)) s"
        done
    ) &
    reminder=$!
    "$@" || status=$?
    kill "$reminder" 2>/dev/null || true
    wait "$reminder" 2>/dev/null || true
    return "$status"
}

# source_copy DIR: a copy of a source tree in a new temporary directory (printed), for a build that
# writes into its tree (pip: build/, *.egg-info) and must leave the user's checkout untouched. Leaves
# out what a build never needs: version control, virtual environments, earlier build output, the tools'
# caches (a test run writing .hypothesis meanwhile made tar fail: "file changed as we read it").
source_copy() {
    local copy
    copy=$(mktemp -d "${TMPDIR:-/tmp}/tabletop-referee-src.XXXXXX")
    tar -C "$1" --exclude=./.git --exclude=./.venv --exclude=./build --exclude='*.egg-info' \
        --exclude=__pycache__ --exclude=./.hypothesis --exclude=./.pytest_cache --exclude=./.mypy_cache \
        --exclude=./.ruff_cache -cf - . | tar -C "$copy" -xf -
    echo "$copy"
}
