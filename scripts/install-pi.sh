#!/usr/bin/env bash
# Install Tabletop Referee as a kiosk on Raspberry Pi OS Bookworm (Debian 12, Python 3.11) or Trixie
# (Debian 13, Python 3.13), 64-bit (arm64) or 32-bit (armhf); Pi 3B+, 4, 5, Zero 2 W. Runs in a chroot
# too (an image builder: pi-gen, sdm, a first-boot script): without a running systemd it enables the
# kiosk and skips, with a line each, what needs one (udevadm, daemon-reload, restart).
#
#   sudo scripts/install-pi.sh [options]          install or update (idempotent)
#   sudo scripts/install-pi.sh --uninstall        remove units, rules and the program (keeps config and game logs)
#   sudo scripts/install-pi.sh --uninstall --purge    also the config, the game logs and the user
#
# Options:
#   --network / --no-network        allow / forbid IP networking (café scoreboard); default: keep as is (off)
#   --hardware-watchdog / --no-hardware-watchdog   the Pi's hardware watchdog (RuntimeWatchdogSec=15s)
#   --keep-desktop                  do not switch a Desktop install to boot to the console
#   --no-start                      enable the kiosk for the next boot, but do not start it now
#   --destdir DIR                   install into DIR as a throwaway root (same as DESTDIR=DIR)
#
# Anything else (Bullseye, armv6l Pi Zero/1, another distribution) is refused with the reason.
# The userland's architecture decides (`dpkg --print-architecture`): a Pi 4, 400 or 5 boots a 64-bit
# kernel under 32-bit Pi OS too, so `uname -m` says aarch64 over an armhf userland. `uname -m` only tells
# an armv6l CPU (Pi Zero/1) apart. INSTALL_CODENAME overrides what /etc/os-release says (tests).
#
# With DESTDIR set, every file goes below DESTDIR and nothing on the running system is changed:
# commands that would (apt-get, useradd, usermod, groupadd, chown, python3 -m venv, pip, systemctl,
# udevadm) are printed as "skipped (DESTDIR): ..." instead of run. CI uses this mode.
# Layout: /opt/tabletop-referee (venv, helpers, docs), /etc/tabletop-referee/table.toml (config),
# /var/lib/tabletop-referee (game logs), /etc/systemd/system/referee-kiosk*.service,
# /etc/udev/rules.d/70-tabletop-referee.rules. See docs/pi-setup.md.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DESTDIR=${DESTDIR:-}
PROG=install-pi.sh
# shellcheck source-path=SCRIPTDIR source=install-lib.sh
. "$SRC/scripts/install-lib.sh"
KIOSK_USER=referee
KIOSK_GROUPS=(gpio dialout video render input)
APP=/opt/tabletop-referee
CONF=/etc/tabletop-referee
DATA=/var/lib/tabletop-referee
UNITS=/etc/systemd/system
DROPINS=$UNITS/referee-kiosk.service.d
RULES=/etc/udev/rules.d/70-tabletop-referee.rules
WATCHDOG_CONF=/etc/systemd/system.conf.d/tabletop-referee-watchdog.conf
ARCH=$(dpkg --print-architecture 2>/dev/null || echo unknown)  # the userland: which wheels pip takes
CPU=$(uname -m)
CODENAME=${INSTALL_CODENAME:-$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release 2>/dev/null || true)}
CODENAME=${CODENAME:-unknown}

USAGE_END=20
network=keep
hw_watchdog=keep
keep_desktop=no
camera=present
CAMERA_PACKAGE=python3-picamera2  # the overhead camera (hw/camera): picamera2 and libcamera's bindings

while [ $# -gt 0 ]; do
    case $1 in
        --network) network=on ;;
        --no-network) network=off ;;
        --hardware-watchdog) hw_watchdog=on ;;
        --no-hardware-watchdog) hw_watchdog=off ;;
        --keep-desktop) keep_desktop=yes ;;
        *) common_option "$@" || { echo "$PROG: unknown option $1 (see --help)" >&2; exit 2; }
           shift $((SHIFTS - 1)) ;;
    esac
    shift
done
check_invocation "$mode" "$purge"

check_platform() {
    # What pip finds on PyPI differs by Python version and CPU: the packages below follow from it.
    case $CODENAME in
        bookworm | trixie) ;;
        *)
            echo "install-pi.sh: Raspberry Pi OS '$CODENAME' is not supported: use Bookworm (Debian 12) or" \
                 "Trixie (Debian 13), 64-bit recommended (Raspberry Pi Imager: 'Raspberry Pi OS (64-bit)')" >&2
            exit 1 ;;
    esac
    if [ "$CPU" = armv6l ]; then
        echo "install-pi.sh: armv6l (Pi Zero / Zero W / Pi 1) is not supported: too slow, and no wheels for" \
             "pygame-ce or lgpio; use a Pi 3B+, 4, 5 or Zero 2 W" >&2
        exit 1
    fi
    case $ARCH in
        arm64 | armhf | amd64) ;;
        *)
            echo "install-pi.sh: architecture '$ARCH' (dpkg --print-architecture) is not supported: arm64 or" \
                 "armhf (Raspberry Pi OS 64-bit or 32-bit); amd64 for a test PC" >&2
            exit 1 ;;
    esac
    say "platform: $CODENAME $ARCH (kernel: $CPU)"
}

install_packages() {
    # Checked against PyPI (pip download --only-binary per platform) and Debian's package lists:
    # - KMSDRM (SDL on the console) loads libgbm1, libEGL1 and libGLESv2 at run time: always.
    # - evdev (`hid` extra) has no wheels at all: built with gcc against linux/input.h (linux-libc-dev).
    # - lgpio >= 0.2 has wheels for cp311 (aarch64, armv7l) but none for cp313 (Trixie): built from its
    #   sdist with swig, statically (PYPI=1, see install_program), so no liblgpio package is needed.
    # - pygame-ce has no armv7l wheel: built with meson against SDL2's development packages and
    #   portmidi's (its `midi` option is on by default: without libportmidi-dev the build stops).
    local package missing=()
    local packages=(python3-venv python3-pip fonts-dejavu-core libgbm1 libegl1 libgles2 gcc python3-dev
                    linux-libc-dev)
    if [ "$CODENAME" = trixie ]; then
        packages+=(swig)
    fi
    # - the `camera` extra on armv7l: zxing-cpp has no armv7l wheel (built with CMake and g++ by
    #   scikit-build-core), nor has Pillow (built against libjpeg and zlib).
    # - the camera's face reader (OpenCV): opencv-python-headless has no armv7l wheel (the `camera` extra
    #   skips it there) and numpy none either: Debian's python3-opencv and python3-numpy, seen by the venv
    #   through --system-site-packages as picamera2 is.
    if [ "$ARCH" = armhf ]; then
        packages+=(pkg-config libsdl2-dev libsdl2-ttf-dev libsdl2-image-dev libsdl2-mixer-dev libfreetype-dev
                   libportmidi-dev cmake g++ libjpeg-dev zlib1g-dev python3-opencv python3-numpy)
    fi
    for package in "${packages[@]}"; do
        installed "$package" || missing+=("$package")
    done
    installed "$CAMERA_PACKAGE" || camera=missing
    [ ${#missing[@]} -eq 0 ] && [ "$camera" != missing ] && return 0
    # A mirror in the middle of a sync (one index file stale: "File has unexpected size") fails the
    # update but leaves the other lists usable: go on, the install says what is really missing.
    sys apt-get update -qq || say "apt-get update had errors (above): installing from the package lists there are"
    if [ "$camera" = missing ]; then
        if available "$CAMERA_PACKAGE"; then
            missing+=("$CAMERA_PACKAGE")
        else
            say "$CAMERA_PACKAGE is not in this system's package lists (Raspberry Pi OS has it): the Pi's" \
                "camera module cannot be read here; a USB webcam can ([camera] source = \"v4l2\")"
        fi
    fi
    [ ${#missing[@]} -eq 0 ] && return 0
    sys env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

available() { # available PACKAGE: can apt install it from the package lists here? (asked in DESTDIR mode too)
    apt-cache policy "$1" 2>/dev/null | grep -q '^ *Candidate: [^(]'
}

create_user() {
    local group present=()
    for group in "${KIOSK_GROUPS[@]}"; do
        if ! live getent group "$group"; then
            sys groupadd --system "$group"
        fi
        present+=("$group")
    done
    if ! live id -u "$KIOSK_USER"; then
        sys useradd --system --user-group --home-dir "$DATA" --no-create-home \
            --shell /usr/sbin/nologin --comment "Tabletop Referee kiosk" "$KIOSK_USER"
    fi
    # Exactly these supplementary groups, nothing else.
    sys usermod --groups "$(IFS=,; echo "${present[*]}")" "$KIOSK_USER"
}

install_program() {
    # The overhead camera's picamera2 is Pi OS's apt package (libcamera's Python bindings are not on
    # PyPI): the venv sees the system's packages. What pip installs in the venv comes first on sys.path.
    sys python3 -m venv --system-site-packages "$APP/venv"
    sys "$APP/venv/bin/python" -m pip install --quiet --upgrade pip
    # pip builds in the source tree (build/, *.egg-info): as root that leaves root's files in the user's
    # clone. So pip gets a copy, outside the clone, removed afterwards.
    SRC_COPY=$(source_copy "$SRC")
    trap 'rm -rf "$SRC_COPY"' EXIT
    # PYPI=1: an lgpio built from source links its own copy of the C library (no liblgpio on the system).
    # No `labels` extra: reportlab and Pillow are for making labels, on a laptop. Not --quiet: a build from
    # source (pygame-ce on 32-bit, lgpio on Trixie, evdev) takes minutes, and pip names each one.
    say "installing the program and its dependencies with pip (packages without a wheel are built from" \
        "source: minutes on a Pi, longest pygame-ce on 32-bit)"
    progress "pip install" sys env PYPI=1 "$APP/venv/bin/python" -m pip install --upgrade \
        --progress-bar off "${SRC_COPY}[pi,hid,camera]"
    rm -rf "$SRC_COPY"
    put 0755 "$SRC/systemd/libexec/kiosk-stopped" "$APP/libexec/kiosk-stopped"
    put 0755 "$SRC/systemd/libexec/kiosk-failed" "$APP/libexec/kiosk-failed"
    put 0644 "$SRC/docs/pi-setup.md" "$APP/docs/pi-setup.md"
    put 0644 "$SRC/config/table.example.toml" "$APP/share/table.example.toml"
}

install_config() {
    mkdir -p "$DESTDIR$CONF" "$DESTDIR$DATA"
    chmod 0755 "$DESTDIR$CONF"
    chmod 0750 "$DESTDIR$DATA"
    if [ ! -e "$DESTDIR$CONF/table.toml" ]; then
        install -m 0640 "$SRC/config/table.example.toml" "$DESTDIR$CONF/table.toml"
        say "installed $CONF/table.toml (from the example: edit it for your table)"
    else
        say "kept $CONF/table.toml"
    fi
    sys chown "root:$KIOSK_USER" "$CONF/table.toml"
    sys chown "$KIOSK_USER:$KIOSK_USER" "$DATA"
}

install_units() {
    put 0644 "$SRC/systemd/referee-kiosk.service" "$UNITS/referee-kiosk.service"
    put 0644 "$SRC/systemd/referee-kiosk-failed.service" "$UNITS/referee-kiosk-failed.service"
    put 0644 "$SRC/udev/70-tabletop-referee.rules" "$RULES"
    case $network in
        on) put 0644 "$SRC/systemd/network.conf" "$DROPINS/network.conf" ;;
        off) remove "$DROPINS/network.conf" ;;
    esac
    [ -d "$DESTDIR$DROPINS" ] && rmdir --ignore-fail-on-non-empty "$DESTDIR$DROPINS"
    case $hw_watchdog in
        on) put 0644 "$SRC/systemd/hardware-watchdog.conf" "$WATCHDOG_CONF" ;;
        off) remove "$WATCHDOG_CONF" ;;
    esac
    running_systemd udevadm control --reload
    running_systemd udevadm trigger --subsystem-match=tty --subsystem-match=input --subsystem-match=gpio
    running_systemd systemctl daemon-reload
    sys systemctl enable referee-kiosk.service  # works offline: links the unit into multi-user.target.wants
}

console_boot() {
    # Raspberry Pi OS Desktop boots into labwc (graphical.target), which holds the screen: the kiosk
    # draws with KMSDRM on the console instead, so boot to multi-user.target (undone by --uninstall).
    [ "$keep_desktop" = yes ] && return 0
    if live systemctl get-default && [ "$(systemctl get-default)" = graphical.target ]; then
        [ -e "$DESTDIR$CONF/previous-default-target" ] || echo graphical.target >"$DESTDIR$CONF/previous-default-target"
        sys systemctl set-default multi-user.target
        if desktop_installed /; then  # a display manager is enabled: a desktop holds the screen now
            say "the desktop no longer starts at boot (undo: sudo systemctl set-default graphical.target)"
            return 1
        fi
        say "boots to the console from now on (multi-user.target; no desktop was installed)"
    fi
    return 0
}

do_install() {
    check_platform
    install_packages
    create_user
    install_program
    install_config
    install_units
    local desktop_running=no
    console_boot || desktop_running=yes
    if [ "$start" = yes ] && [ "$desktop_running" = no ] && systemd_running; then
        sys systemctl restart referee-kiosk.service
        [ -z "$DESTDIR" ] && say "kiosk started; logs: journalctl -u referee-kiosk -f"
    else
        if [ "$start" = yes ] && [ "$desktop_running" = no ]; then
            running_systemd systemctl restart referee-kiosk.service  # says that it was skipped
        fi
        say "kiosk enabled: it starts at the next boot (sudo reboot)"
    fi
    say "admin PIN: set [kiosk] admin_pin_hash in $CONF/table.toml (see $APP/docs/pi-setup.md)"
}

do_uninstall() {
    if live systemctl cat referee-kiosk.service; then
        if systemd_running; then
            sys systemctl disable --now referee-kiosk.service
            sys systemctl stop referee-kiosk-failed.service
        else
            sys systemctl disable referee-kiosk.service
        fi
    fi
    remove "$UNITS/referee-kiosk.service" "$UNITS/referee-kiosk-failed.service" "$DROPINS" "$RULES" \
        "$WATCHDOG_CONF" "$APP"
    if [ -e "$DESTDIR$CONF/previous-default-target" ]; then
        sys systemctl set-default "$(cat "$DESTDIR$CONF/previous-default-target")"
        remove "$CONF/previous-default-target"
    fi
    running_systemd systemctl daemon-reload
    running_systemd udevadm control --reload
    if [ "$purge" = yes ]; then
        remove "$CONF" "$DATA" /var/cache/tabletop-referee
        if live id -u "$KIOSK_USER" || [ -n "$DESTDIR" ]; then
            sys userdel "$KIOSK_USER"
        fi
    else
        say "kept $CONF (config) and $DATA (game logs): --purge removes them"
    fi
}

if [ "$mode" = install ]; then
    do_install
else
    do_uninstall
fi
