#!/usr/bin/env bash
# Install Tabletop Referee as a Pi user would, in an emulated Debian root (the base of Raspberry Pi OS),
# then run the checks a Pi user relies on, and print a table of steps with pass/fail and seconds.
#
#   sudo scripts/pi-emulate.sh [bookworm|trixie] [arm64|armhf] [options]     (default: bookworm arm64)
#
# Options:
#   --cache DIR      where the debootstrapped roots, the pip cache and the runs' logs live
#                    (default: $PI_EMULATE_CACHE or /var/cache/tabletop-referee-pi-emulate)
#   --no-pip-cache   no pip cache from earlier runs (every source build happens again)
#   --prepare        only build (or find) the cached root, and stop
#   --boot           then boot the installed root with systemd-nspawn --boot: the kiosk service reaches
#                    READY=1, watchdog pings arrive, it writes its log, a SIGKILL restarts it
#
# How: `debootstrap` builds a root of that release and architecture once (cached as RELEASE-ARCH.base);
# every run copies it, clones this project's committed HEAD into /home/pi/tabletop-referee (owned by the
# user pi), runs scripts/install-pi.sh in a chroot as root with sudo's variables (sudo itself does not work
# under qemu-user), then checks the installed kiosk. Programs of the other architecture run through
# binfmt_misc and qemu-user-static with QEMU_CPU=cortex-a72 (the Pi 4's core; arm64) or cortex-a15
# (armhf: qemu-arm has no cortex-a72); set QEMU_CPU to choose another. The armhf run shows a Pi 4/5 under
# 32-bit Pi OS: the installer sees `uname -m` say aarch64 (the 64-bit kernel those boards boot).
# The installed root stays as RELEASE-ARCH.installed until the next run. Needs root and binfmt_misc: where
# the machine cannot do it, it says so in one line and exits 0 with "skipped". Not part of scripts/test.sh:
# a run takes from about ten minutes (arm64) to an hour (armhf, pygame-ce built from source).
# Results (docs/pi-setup.md, "Under emulation") come from this script.

# The steps are functions that `step` runs by name, cleanup one that a trap runs: shellcheck takes
# them for unreachable.
# shellcheck disable=SC2317
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PROG=pi-emulate.sh
MIRROR=${PI_EMULATE_MIRROR:-http://deb.debian.org/debian}
CACHE=${PI_EMULATE_CACHE:-/var/cache/tabletop-referee-pi-emulate}
release=bookworm
arch=arm64
pip_cache=yes
prepare=no
boot_too=no

while [ $# -gt 0 ]; do
    case $1 in
        bookworm | trixie) release=$1 ;;
        arm64 | armhf) arch=$1 ;;
        --cache) CACHE=${2:?--cache needs a directory}; shift ;;
        --cache=*) CACHE=${1#--cache=} ;;
        --no-pip-cache) pip_cache=no ;;
        --prepare) prepare=yes ;;
        --boot) boot_too=yes ;;
        -h | --help) sed -n '2,27s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
        *) echo "$PROG: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

case $arch in
    arm64) qarch=aarch64; export QEMU_CPU=${QEMU_CPU:-cortex-a72} ;;
    armhf) qarch=arm; export QEMU_CPU=${QEMU_CPU:-cortex-a15} ;;
esac

skip() {
    echo "$PROG: skipped: $*"
    exit 0
}

# --- can this machine do it?

[ "$(id -u)" -eq 0 ] || skip "needs root (debootstrap, chroot and mounts)"
# --boot ends with systemd-nspawn: asked now, not after an install of twenty minutes under qemu
if [ "$boot_too" = yes ] && ! command -v systemd-nspawn >/dev/null; then
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        systemd-container; } >/dev/null 2>&1 || true
    command -v systemd-nspawn >/dev/null || skip "--boot needs systemd-nspawn, and apt-get cannot install systemd-container"
fi
if [ ! -e /proc/sys/fs/binfmt_misc/status ]; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null \
        || skip "binfmt_misc is not mounted and cannot be mounted here (mount -t binfmt_misc failed)"
fi
missing=()
command -v debootstrap >/dev/null || missing+=(debootstrap)
[ -x "/usr/bin/qemu-$qarch-static" ] || missing+=(qemu-user-static)
command -v update-binfmts >/dev/null || missing+=(binfmt-support)
if [ ${#missing[@]} -gt 0 ]; then
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        "${missing[@]}"; } >/dev/null 2>&1 || skip "cannot install ${missing[*]} with apt-get"
fi
binfmt=/proc/sys/fs/binfmt_misc/qemu-$qarch
[ -e "$binfmt" ] || update-binfmts --enable "qemu-$qarch" >/dev/null 2>&1 || true
grep -qx enabled "$binfmt" 2>/dev/null || skip "binfmt_misc has no enabled qemu-$qarch entry (update-binfmts --enable qemu-$qarch failed)"
interpreter=$(sed -n 's/^interpreter //p' "$binfmt")
flags=$(sed -n 's/^flags: //p' "$binfmt")

# --- state, cleanup

mkdir -p "$CACHE/runs"
exec 9>"$CACHE/$release-$arch.lock"
if ! flock --nonblock 9; then
    echo "$PROG: another run of $release $arch is using $CACHE (lock $CACHE/$release-$arch.lock)" >&2
    exit 1
fi
base=$CACHE/$release-$arch.base
root=$CACHE/$release-$arch.installed
stamp=$(date -u +%Y%m%dT%H%M%SZ)
log=$CACHE/runs/$release-$arch-$stamp.log
table=$CACHE/runs/$release-$arch-$stamp.table
: >"$log"
results=()
failed=0
step_pid=
HOST_CA=/usr/local/share/pi-emulate/host-ca-bundle.crt
pip_env=()
bundle=${PIP_CERT:-${SSL_CERT_FILE:-}}
if [ -n "$bundle" ] && [ -f "$bundle" ]; then
    pip_env=(PIP_CERT="$HOST_CA")  # fresh_root copies the bundle there
fi
boot_pids=$CACHE/runs/$release-$arch-$stamp.boot-pids

# Every process whose root is below DIR, then every mount below DIR (deepest first).
release_root() {
    local dir=$1 pid mounts
    [ -d "$dir" ] || return 0
    for pid in /proc/[0-9]*; do
        case $(readlink "$pid/root" 2>/dev/null) in
            "$dir" | "$dir"/*) kill -9 "${pid#/proc/}" 2>/dev/null || true ;;
        esac
    done
    mounts=$(awk -v d="$dir" '$5 == d || index($5, d "/") == 1 {print $5}' /proc/self/mountinfo | sort -r)
    for mount in $mounts; do
        umount "$mount" 2>/dev/null || umount -l "$mount" 2>/dev/null || true
    done
}

cleanup() {
    local status=$?
    trap - EXIT INT TERM
    [ -z "$step_pid" ] || kill -TERM "$step_pid" 2>/dev/null || true
    stop_boot >/dev/null 2>&1 || true
    release_root "$root"
    release_root "$base.tmp"
    exit "$status"
}
trap cleanup EXIT
trap 'echo "$PROG: interrupted, cleaning up" >&2; exit 130' INT TERM

# step NAME COMMAND...: run it, log its output, record pass/fail and seconds.
step() {
    local name=$1 start status
    shift
    start=$(date +%s)
    printf '\n=== %s: %s\n' "$(date -u +%H:%M:%S)" "$name" >>"$log"
    echo "$PROG: $name ..."
    # In the background and waited for: a SIGTERM or SIGINT to this script alone is handled at once (the
    # trap cleans up), not only after the step's command ends. So a step keeps no shell variables: what
    # must outlive it goes into files ($boot_pids).
    "$@" >>"$log" 2>&1 &
    step_pid=$!
    if wait "$step_pid"; then status=pass; else status=FAIL; failed=1; fi
    step_pid=
    results+=("$(printf '%-64s %-5s %6s' "$name" "$status" "$(($(date +%s) - start))")")
    echo "$PROG: $name: $status ($(($(date +%s) - start)) s)"
    [ "$status" = pass ]
}

# The architecture's qemu where the kernel looks for it: without binfmt's F flag that is inside the root.
put_interpreter() {
    local dir=$1
    case $flags in
        *F*) ;;
        *) install -D -m 0755 "$(readlink -f "$interpreter")" "$dir$interpreter" ;;
    esac
}

mount_root() {
    local dir=$1
    mount -t proc proc "$dir/proc"
    mount -t sysfs -o ro sysfs "$dir/sys"
    # A /dev of its own: no /dev/dri, no input or serial devices (as on a Pi without them).
    mount -t tmpfs -o mode=0755,nosuid dev "$dir/dev"
    local node
    for node in null zero full random urandom tty; do
        cp -a "/dev/$node" "$dir/dev/$node"
    done
    mkdir -p "$dir/dev/pts" "$dir/dev/shm"
    mount -t devpts -o newinstance,ptmxmode=0666 devpts "$dir/dev/pts"
    ln -s pts/ptmx "$dir/dev/ptmx"
    mount -t tmpfs -o mode=1777 shm "$dir/dev/shm"
    mount -t tmpfs -o mode=0755 run "$dir/run"  # empty: no /run/systemd/system, as in an image builder
    if [ "$pip_cache" = yes ]; then
        mkdir -p "$CACHE/pip-$release-$arch" "$dir/root/.cache/pip"
        mount --bind "$CACHE/pip-$release-$arch" "$dir/root/.cache/pip"
    fi
}

# as_user USER COMMAND...: run COMMAND in the installed root as USER (root, pi, referee) with the user's
# groups and a clean environment (numeric ids: the host's chroot does the switch, no setuid tool inside).
# With TIMEOUT=SECONDS set, the host's `timeout` sends SIGTERM after that long, SIGKILL 5 s later.
as_user() {
    local user=$1 uid gid groups home limit=()
    shift
    uid=$(chroot "$root" id -u "$user")
    gid=$(chroot "$root" id -g "$user")
    groups=$(chroot "$root" id -G "$user" | tr ' ' ,)
    home=$(chroot "$root" getent passwd "$user" | cut -d: -f6)
    [ -n "${TIMEOUT:-}" ] && limit=(timeout --signal=TERM --kill-after=5 "$TIMEOUT")
    "${limit[@]}" chroot --userspec="$uid:$gid" --groups="$groups" "$root" /usr/bin/env -i \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME="$home" LANG=C.UTF-8 TERM=dumb \
        QEMU_CPU="$QEMU_CPU" "$@"
}

# --- the steps

build_base() {
    local tmp=$base.tmp
    release_root "$tmp"
    rm -rf "$tmp"
    debootstrap --foreign --arch="$arch" --variant=minbase \
        --include=ca-certificates,git,python3,systemd,systemd-sysv,dbus,udev,sudo,procps,util-linux \
        "$release" "$tmp" "$MIRROR"
    put_interpreter "$tmp"
    chroot "$tmp" /debootstrap/debootstrap --second-stage
    release_root "$tmp"
    local updates=$release-updates security=$release-security
    printf 'deb %s %s main\ndeb %s %s main\ndeb http://deb.debian.org/debian-security %s main\n' \
        "$MIRROR" "$release" "$MIRROR" "$updates" "$security" >"$tmp/etc/apt/sources.list"
    # The user who clones and installs (uid 1000 as on Pi OS), with sudo rights as there.
    chroot "$tmp" useradd --create-home --uid 1000 --user-group --groups sudo --shell /bin/bash pi
    rm -rf "$tmp/var/cache/apt/archives/"*.deb
    mv "$tmp" "$base"
}

fresh_root() {
    release_root "$root"
    rm -rf "$root"
    cp -a "$base" "$root"
    put_interpreter "$root"
    cp -L /etc/resolv.conf "$root/etc/resolv.conf"
    # A machine whose HTTPS goes through a proxy with its own CA says so with PIP_CERT or SSL_CERT_FILE:
    # pip in the root gets that bundle too (a Pi on a normal network needs nothing of the kind).
    local bundle=${PIP_CERT:-${SSL_CERT_FILE:-}}
    if [ -n "$bundle" ] && [ -f "$bundle" ]; then
        install -D -m 0644 "$bundle" "$root$HOST_CA"
    fi
    mount_root "$root"
}

# As a user would: git clone (of this checkout's committed HEAD), owned by pi.
clone() {
    git clone --quiet --no-hardlinks "$SRC" "$root/home/pi/tabletop-referee"
    chown -R 1000:1000 "$root/home/pi/tabletop-referee"
    if git -C "$SRC" status --porcelain --untracked-files=no | grep -q .; then
        echo "note: $SRC has uncommitted changes; the clone has only what is committed"
    fi
    # The acceptance transcripts and their checker (../shared beside a checkout).
    if [ -d "$SRC/../shared/transcripts" ]; then
        mkdir -p "$root/home/pi/shared"
        cp -a "$SRC/../shared/transcripts" "$SRC/../shared/tools" "$root/home/pi/shared/"
        chown -R 1000:1000 "$root/home/pi/shared"
    fi
}

install_as_pi_would() {
    local fake=()
    if [ "$arch" = armhf ]; then
        # A Pi 4/5 boots a 64-bit kernel under 32-bit Pi OS: `uname -m` says aarch64 there.
        mkdir -p "$root/usr/local/lib/pi-emulate"
        cat >"$root/usr/local/lib/pi-emulate/uname" <<'EOF'
#!/bin/sh
[ "$1" = -m ] && { echo aarch64; exit 0; }
exec /usr/bin/uname "$@"
EOF
        chmod 0755 "$root/usr/local/lib/pi-emulate/uname"
        fake=(PATH=/usr/local/lib/pi-emulate:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin)
    fi
    chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        HOME=/root LANG=C.UTF-8 TERM=dumb QEMU_CPU="$QEMU_CPU" SUDO_USER=pi SUDO_UID=1000 SUDO_GID=1000 \
        "${pip_env[@]}" "${fake[@]}" sh -c 'cd /home/pi && tabletop-referee/scripts/install-pi.sh'
}

clone_is_the_users() {
    local foreign
    foreign=$(find "$root/home/pi/tabletop-referee" ! -user 1000 -printf '%u %p\n' | head -20)
    [ -z "$foreign" ] || { echo "not pi's:"; echo "$foreign"; return 1; }
    as_user pi rm -rf /home/pi/tabletop-referee-copy
    as_user pi cp -a /home/pi/tabletop-referee /home/pi/tabletop-referee-copy
    as_user pi rm -rf /home/pi/tabletop-referee-copy  # the user can remove a clone like it
}

service_enabled() {
    chroot "$root" systemctl is-enabled referee-kiosk.service
    [ -L "$root/etc/systemd/system/multi-user.target.wants/referee-kiosk.service" ]
}

VENV=/opt/tabletop-referee/venv
KIOSK=$VENV/bin/referee-kiosk
CONFIG=/etc/tabletop-referee/table.toml

imports() {
    service_dirs  # lgpio makes its notification FIFO in the current directory: the unit's working directory
    as_user referee sh -c 'cd /run/tabletop-referee && exec "$@"' sh "$VENV/bin/python" -c '
import importlib, importlib.metadata as md, importlib.util, sys
modules = {"pygame": "pygame-ce", "serial": "pyserial", "gpiozero": "gpiozero", "platformdirs": "platformdirs",
           "paho.mqtt.client": "paho-mqtt", "lgpio": "lgpio", "evdev": "evdev", "referee": "tabletop-referee",
           "hw": "tabletop-referee", "kiosk": "tabletop-referee", "cafe": "tabletop-referee",
           "zxingcpp": "zxing-cpp", "PIL": "pillow"}
for name, dist in modules.items():
    importlib.import_module(name)
    print(name, dist, md.version(dist))
# rpi-lgpio (RPi.GPIO) reads the board from /proc/device-tree at import: off a Pi it refuses, by design.
assert importlib.util.find_spec("RPi.GPIO") is not None
print("RPi.GPIO rpi-lgpio", md.version("rpi-lgpio"), "(found; imports only on a Pi)")
# The venv sees the system site-packages, where Pi OS has picamera2 (plain Debian, as here, has not).
assert sys.prefix != sys.base_prefix and any(p.endswith("dist-packages") for p in sys.path), sys.path
print("picamera2", "found" if importlib.util.find_spec("picamera2") else "not in the system (plain Debian)")
import cv2, numpy; print("cv2", cv2.__version__, "numpy", numpy.__version__)  # a wheel, or Debian'"'"'s on armhf
print("python", sys.version.split()[0])
import pygame; print("SDL", pygame.get_sdl_version())
'
}

# The unit's ExecStart and Environment, as systemd would run them (but on SDL's dummy driver, mock pins).
service_line() {
    local unit=$root/etc/systemd/system/referee-kiosk.service
    sed -n 's/^ExecStart=//p' "$unit"
}

service_env() {
    local unit=$root/etc/systemd/system/referee-kiosk.service
    sed -n 's/^Environment=//p' "$unit" | tr ' ' '\n' | grep -v '^SDL_VIDEODRIVER='
}

# The directories systemd makes for the unit (RuntimeDirectory, CacheDirectory, StateDirectory).
service_dirs() {
    install -d -m 0700 -o "$(id_in referee)" -g "$(gid_in referee)" "$root/run/tabletop-referee" \
        "$root/var/cache/tabletop-referee"
}

id_in() { chroot "$root" id -u "$1"; }
gid_in() { chroot "$root" id -g "$1"; }

run_service() {
    service_dirs
    local env line status=0
    mapfile -t env < <(service_env)
    read -ra line <<<"$(service_line)"  # systemd's word splitting: the line has no quotes
    TIMEOUT=20 as_user referee env "${env[@]}" SDL_VIDEODRIVER=dummy GPIOZERO_PIN_FACTORY=mock \
        sh -c 'cd /run/tabletop-referee && exec "$@"' sh "${line[@]}" || status=$?
    case $status in
        124) echo "still running after 20 s; it stopped on SIGTERM" ;;
        137) echo "still running after 20 s; it ignored SIGTERM and was killed 5 s later (as systemd would after TimeoutStopSec)" ;;
        *) echo "exit status $status before 20 s" ;;
    esac
    # Still running after 20 s is the pass: it neither crashed nor stopped.
    [ "$status" -eq 124 ] || [ "$status" -eq 137 ]
}

screenshot() {
    local out=$CACHE/runs/$release-$arch-$stamp.png
    service_dirs
    as_user referee sh -c "cd /run/tabletop-referee && GPIOZERO_PIN_FACTORY=mock SDL_VIDEODRIVER=dummy \
        $KIOSK --kiosk --config $CONFIG --data-dir /var/lib/tabletop-referee --frames 60 \
        --screenshot /run/tabletop-referee/screen.png"
    cp "$root/run/tabletop-referee/screen.png" "$out"
    file "$out" 2>/dev/null || true
    [ "$(head -c 8 "$out" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
    echo "screenshot: $out"
}

kmsdrm_exits_69() {
    local status=0
    as_user referee sh -c "cd /run/tabletop-referee && GPIOZERO_PIN_FACTORY=mock SDL_VIDEODRIVER=kmsdrm \
        $KIOSK --kiosk --config $CONFIG --data-dir /var/lib/tabletop-referee" || status=$?
    echo "exit status $status"
    [ "$status" -eq 69 ]
}

# The face reader on one still: two faces of our test art taught from rendered frames, then a pile read.
face_still() {
    as_user referee sh -c 'cd /run/tabletop-referee && exec "$@"' sh "$VENV/bin/python" -c '
import tempfile, numpy as np
from pathlib import Path
from hw.camera.sim import SIM_CAMERA, TableScene
from hw.camera.outline import find_cards, rectify
from hw.camera.taught import new_deck, book
data = Path(tempfile.mkdtemp())
deck = new_deck(data, "alles-klar")
def cut(code, seed, under=None):
    scene = TableScene(SIM_CAMERA, seed=seed, colour=True)
    if under:
        scene.lay(under, "pile", design="ak-a", sticker=False)
    scene.lay(code, "pile", design="ak-a", sticker=False)
    grey = np.asarray(scene.render(SIM_CAMERA.crop(), (1400, 1000)).convert("L"))
    card = find_cards(grey)[0]
    return rectify(grey, None, card)[0], card
for face in ("AK:7.II", "AK:7.III"):
    y, card = cut(face + "#1", 1)
    deck.add(face, y, None, card.long_px, card.short_px / card.long_px)
faces = book([deck])
y, card = cut("AK:7.III#1", 2, under="AK:7.II#1")
match = faces.match(y, None)
print("read:", match)
assert match.face == "AK:7.III"
'
}

transcripts() {
    [ -d "$root/home/pi/shared/transcripts" ] || { echo "no ../shared/transcripts beside $SRC"; return 1; }
    as_user pi sh -c "cd /home/pi/tabletop-referee && $VENV/bin/python /home/pi/shared/tools/check-transcripts \
        --cmd '$VENV/bin/python -m referee replay' /home/pi/shared/transcripts"
}

# --- booting the installed root (--boot)

# The booted container: nspawn's PID and the container's PID 1 on the host, as boot wrote them.
boot_pid() {
    [ -s "$boot_pids" ] || return 1
    case $1 in
        nspawn) cut -d' ' -f1 "$boot_pids" ;;
        leader) cut -d' ' -f2 "$boot_pids" ;;
    esac
}

# in_boot COMMAND...: run COMMAND inside the booted container (its namespaces, its root).
in_boot() {
    nsenter --target "$(boot_pid leader)" --mount --uts --ipc --net --pid -- /usr/bin/env -i \
        PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 QEMU_CPU="$QEMU_CPU" "$@"
}

# until_true SECONDS COMMAND...: retry COMMAND every 2 s until it succeeds or SECONDS have passed.
until_true() {
    local deadline=$(($(date +%s) + $1))
    shift
    until "$@" >/dev/null 2>&1; do
        [ "$(date +%s)" -lt "$deadline" ] || return 1
        sleep 2
    done
}

kiosk_property() {
    in_boot systemctl show --property="$1" --value referee-kiosk.service
}

kiosk_active() {
    [ "$(kiosk_property ActiveState)" = active ]
}

system_up() {
    case $(in_boot systemctl is-system-running 2>/dev/null) in
        running | degraded) return 0 ;;
        *) return 1 ;;
    esac
}

# container_init NSPAWN_PID: the container's systemd (PID 1 inside) on the host; nspawn's first child
# is an intermediate that exits, so look for the one running systemd.
container_init() {
    local pid
    for pid in $(pgrep --parent "$1"); do
        if tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q 'lib/systemd/systemd'; then
            echo "$pid"
            return 0
        fi
    done
    return 1
}

boot() {
    release_root "$root"  # the chroot's mounts: nspawn makes its own
    # No screen and no GPIO under emulation: SDL's dummy driver and gpiozero's mock pins, in a drop-in.
    # PrivateIPC=no: under qemu-user systemd cannot set up the IPC namespace ("Failed to set up IPC
    # namespacing: Input/output error", 226/NAMESPACE). Everything else is the unit as installed.
    mkdir -p "$root/etc/systemd/system/referee-kiosk.service.d"
    printf '[Service]\nEnvironment=SDL_VIDEODRIVER=dummy GPIOZERO_PIN_FACTORY=mock\nPrivateIPC=no\n' \
        >"$root/etc/systemd/system/referee-kiosk.service.d/emulated.conf"
    rm -f "$root/var/lib/tabletop-referee/events.sqlite3"*  # the service makes its own event log
    # --keep-unit --register=no: this machine's PID 1 is not systemd (no bus, no machined).
    systemd-nspawn --quiet --keep-unit --register=no --directory="$root" --boot >"$log.boot" 2>&1 9>&- &
    local nspawn=$! leader
    echo "$nspawn" >"$boot_pids"  # so that cleanup finds nspawn even if the rest fails
    until_true 60 container_init "$nspawn"
    leader=$(container_init "$nspawn") || { echo "no container init under nspawn $nspawn"; return 1; }
    echo "$nspawn $leader" >"$boot_pids"
    echo "nspawn $nspawn, container PID 1 is $leader on the host; console: $log.boot"
    until_true 300 system_up
    in_boot systemctl is-system-running || true
    in_boot systemctl --failed --no-legend || true
}

kiosk_ready() {
    # Type=notify: "active" only after the kiosk's READY=1 (sent after its first frame).
    until_true 300 kiosk_active
    in_boot systemctl status --no-pager --lines=20 referee-kiosk.service || true
    kiosk_property StatusText
}

watchdog_pings() {
    local pid before after
    pid=$(kiosk_property MainPID)
    before=$(kiosk_property WatchdogTimestampMonotonic)
    sleep 45  # WatchdogSec=20: without pings systemd would have killed it twice over
    after=$(kiosk_property WatchdogTimestampMonotonic)
    echo "MainPID $pid -> $(kiosk_property MainPID); last watchdog ping $before -> $after (µs)"
    [ "$(kiosk_property MainPID)" = "$pid" ] && kiosk_active && [ "$after" -gt "$before" ]
}

sandbox_writes_and_reads() {
    in_boot ls -la /var/lib/tabletop-referee /etc/tabletop-referee
    in_boot journalctl --no-pager -u referee-kiosk.service | tail -n 30
    # Made by the service (removed before the boot), as referee, private (UMask=0077); the config read:
    # ExecStartPre's --check-config said OK.
    [ "$(in_boot stat -c '%U %a' /var/lib/tabletop-referee/events.sqlite3)" = "referee 600" ]
    in_boot journalctl --no-pager -u referee-kiosk.service | grep -q "table.toml: OK"
    ! in_boot journalctl --no-pager -u referee-kiosk.service | grep -E "Traceback|Permission denied|Read-only"
}

main_pid_other_than() {
    local now
    now=$(kiosk_property MainPID)
    [ "$now" != "$1" ] && [ "$now" != 0 ]
}

kill_restarts() {
    local pid restarts
    pid=$(kiosk_property MainPID)
    restarts=$(kiosk_property NRestarts)
    in_boot systemctl kill --kill-who=main --signal=SIGKILL referee-kiosk.service
    until_true 300 main_pid_other_than "$pid" || true
    until_true 300 kiosk_active
    echo "MainPID $pid -> $(kiosk_property MainPID), NRestarts $restarts -> $(kiosk_property NRestarts)"
    [ "$(kiosk_property MainPID)" != "$pid" ] && [ "$(kiosk_property NRestarts)" -gt "$restarts" ]
}

stops_on_sigterm() {
    local start=$SECONDS
    in_boot systemctl stop referee-kiosk.service
    echo "stopped after $((SECONDS - start)) s"
    in_boot journalctl --no-pager -u referee-kiosk.service | tail -n 8
    ! in_boot journalctl --no-pager -u referee-kiosk.service | grep -q "stop-sigterm' timed out"
}

# Power the container off (SIGTERM to nspawn), then make sure nothing of it is left.
stop_boot() {
    local nspawn leader waited=0 powered_off=yes
    nspawn=$(boot_pid nspawn) || return 0
    leader=$(boot_pid leader)
    if [ -z "$leader" ] && leader=$(container_init "$nspawn"); then
        echo "$nspawn $leader" >"$boot_pids"
    fi
    # `systemctl poweroff` inside: nspawn's own SIGTERM → SIGRTMIN+3 does not reach an emulated systemd.
    [ -z "$leader" ] || in_boot systemctl poweroff --no-block 2>/dev/null || true
    while kill -0 "$nspawn" 2>/dev/null && [ "$waited" -lt 90 ]; do
        sleep 1
        waited=$((waited + 1))
    done
    kill -0 "$nspawn" 2>/dev/null && powered_off=no
    [ -z "$leader" ] || kill -KILL "$leader" 2>/dev/null || true
    kill -KILL "$nspawn" 2>/dev/null || true
    rm -f "$boot_pids"
    echo "powered off by itself: $powered_off (after $waited s)"
    [ "$powered_off" = yes ]
}

print_table() {
    {
        echo "pi-emulate.sh $release $arch, $(date -u '+%Y-%m-%d %H:%M UTC'), QEMU_CPU=$QEMU_CPU," \
             "commit $(git -C "$SRC" rev-parse --short HEAD)"
        printf '%-64s %-5s %6s\n' step result seconds
        printf '%s\n' "${results[@]}"
    } | tee "$table"
    echo "$PROG: log $log"
}

main() {
    echo "$PROG: $release $arch, QEMU_CPU=$QEMU_CPU, log $log"
    if [ -d "$base" ]; then
        results+=("$(printf '%-64s %-5s %6s' "debootstrap $release $arch (cached: $base)" pass 0)")
    else
        step "debootstrap $release $arch (minbase + systemd, git, python3)" build_base || return 0
    fi
    [ "$prepare" = yes ] && return 0
    step "fresh copy of the root, mounts" fresh_root || return 0
    step "git clone as pi" clone || return 0
    local how="install-pi.sh as root, with sudo's variables, in a chroot"
    [ "$arch" = armhf ] && how="$how (uname -m says aarch64)"
    step "$how" install_as_pi_would || true
    step "the clone is still pi's (no root-owned files; pi can remove it)" clone_is_the_users || true
    step "referee-kiosk.service enabled (systemctl is-enabled, offline)" service_enabled || true
    [ -x "$root$KIOSK" ] || return 0
    step "every dependency imports from the venv (as referee)" imports || true
    step "referee-kiosk --version" as_user referee "$KIOSK" --version || true
    step "--check-config on the installed config as root" as_user root "$KIOSK" --check-config "$CONFIG" || true
    step "--check-config on the installed config as referee" as_user referee "$KIOSK" --check-config "$CONFIG" || true
    step "the service's command line as referee for 20 s (SDL dummy, mock pins)" run_service || true
    step "a screenshot of the kiosk (SDL dummy, mock pins)" screenshot || true
    step "SDL_VIDEODRIVER=kmsdrm without /dev/dri exits 69" kmsdrm_exits_69 || true
    step "the camera's face reader reads one still (OpenCV)" face_still || true
    step "every acceptance transcript replays (../shared/transcripts)" transcripts || true
    [ "$boot_too" = yes ] || return 0
    if [ "$release" = trixie ] && [ "$(stat -fc %T /sys/fs/cgroup)" != cgroup2fs ]; then
        # Seen here: every unit of the booted container fails with result 'resources', journald too.
        results+=("$(printf '%-64s %-5s %6s' "systemd-nspawn --boot: skipped: Trixie's systemd 257 needs the" skip 0)")
        results+=("$(printf '%-64s %-5s %6s' "  unified cgroup v2 hierarchy; this machine mounts cgroup v1" skip 0)")
        return 0
    fi
    step "systemd-nspawn --boot of the installed root: system up" boot || { stop_boot || true; return 0; }
    step "kiosk service active: READY=1 through Type=notify" kiosk_ready || true
    step "watchdog pings arrive (45 s, WatchdogSec=20, same process)" watchdog_pings || true
    step "sandbox: event log written, config read, no permission errors" sandbox_writes_and_reads || true
    step "SIGKILL to the kiosk: systemd starts it again" kill_restarts || true
    step "systemctl stop: the kiosk ends on SIGTERM, before TimeoutStopSec=15" stops_on_sigterm || true
    step "systemctl poweroff: the container ends" stop_boot || true
}

main
print_table
exit "$failed"
