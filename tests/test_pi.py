"""The Raspberry Pi install: systemd units (verify, security score), install-pi.sh in a throwaway root,
shellcheck, and the helpers the units run. Needs `systemd-analyze` and `shellcheck` (scripts/test.sh
installs them from Debian's packages when run as root); a missing tool fails, it is never skipped."""

from __future__ import annotations

import hashlib
import os
import re
import shlex
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from kiosk.__main__ import build_parser
from kiosk.app.commands import EXIT_RESTART, EXIT_SHUTDOWN
from kiosk.service.notify import Notifier

ROOT = Path(__file__).resolve().parent.parent
INSTALL = ROOT / "scripts" / "install-pi.sh"
SYSTEMD = ROOT / "systemd"
APP = "/opt/tabletop-referee"
UNITS = ("referee-kiosk.service", "referee-kiosk-failed.service")
GROUPS = "gpio,dialout,video,render,input"


def tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"{name} is missing: run scripts/test.sh as root (it installs it with apt-get), "
                    f"or `apt-get install {'systemd' if name == 'systemd-analyze' else name}`")
    return path


FAKES = {
    # dpkg: the userland's architecture; anything else goes to the real dpkg.
    "dpkg": '[ "$1" = --print-architecture ] && {{ echo {arch}; exit 0; }}; exec /usr/bin/dpkg "$@"',
    # uname: the kernel's CPU (a Pi 4 under 32-bit Pi OS boots a 64-bit kernel: aarch64 over armhf).
    "uname": '[ "$1" = -m ] && {{ echo {cpu}; exit 0; }}; exec /usr/bin/uname "$@"',
    # systemctl: "running" on a booted Pi, "offline" (status 1) in a chroot; nothing else is asked live.
    "systemctl": '[ "$1" = is-system-running ] && {{ echo {systemd}; [ {systemd} != offline ]; exit; }}; '
                 'echo "unexpected: systemctl $*" >&2; exit 1',
    # apt-cache: the package lists of Raspberry Pi OS (python3-picamera2 there) or of plain Debian (not).
    "apt-cache": '[ "$1" = policy ] && {{ echo "$2:"; echo "  Installed: (none)"; '
                 'case "$2" in {lists}) echo "  Candidate: 1.0-1";; *) echo "  Candidate: (none)";; esac; exit 0; }}; '
                 'echo "unexpected: apt-cache $*" >&2; exit 1',
}
PI_OS_LISTS = "python3-picamera2"


def run_install(destdir: Path, *args: str, arch: str = "arm64", cpu: str = "aarch64", systemd: str = "running",
                codename: str = "bookworm", tmpdir: Path | None = None,
                lists: str = PI_OS_LISTS) -> subprocess.CompletedProcess:
    """install-pi.sh --destdir with fakes of dpkg, uname, systemctl and apt-cache first on PATH (the machine
    it believes it runs on; `lists`: the packages apt could install there, a shell case pattern), outside
    destdir."""
    env = {k: v for k, v in os.environ.items() if k != "DESTDIR"}
    env["INSTALL_CODENAME"] = codename
    with tempfile.TemporaryDirectory() as fakes:
        for name, body in FAKES.items():
            path = Path(fakes) / name
            path.write_text("#!/bin/sh\n" + body.format(arch=arch, cpu=cpu, systemd=systemd, lists=lists) + "\n")
            path.chmod(0o755)
        env["PATH"] = f"{fakes}:{env['PATH']}"
        if tmpdir is not None:
            env["TMPDIR"] = str(tmpdir)
        return subprocess.run([str(INSTALL), "--destdir", str(destdir), *args], capture_output=True, text=True,
                              env=env, timeout=60)


def install(destdir: Path, *args: str, **machine: str | Path) -> subprocess.CompletedProcess:
    result = run_install(destdir, *args, **machine)
    assert result.returncode == 0, result.stderr + result.stdout
    assert result.stderr == ""
    return result


def skipped(result: subprocess.CompletedProcess) -> list[list[str]]:
    prefix = "skipped (DESTDIR):"
    return [shlex.split(line[len(prefix):]) for line in result.stdout.splitlines() if line.startswith(prefix)]


def tree(root: Path) -> dict[str, tuple[str, str]]:
    """Every path below root -> (octal mode, sha256 of a file's content)."""
    out = {}
    for path in sorted(root.rglob("*")):
        digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "dir"
        out["/" + str(path.relative_to(root))] = (oct(path.stat().st_mode & 0o7777), digest)
    return out


def unit_values(text: str, key: str) -> list[str]:
    return [m.group(1) for m in re.finditer(rf"^{re.escape(key)}=(.*)$", text, re.M)]


@pytest.fixture
def installed(tmp_path):
    """install-pi.sh --network into a throwaway root, with a stub referee-kiosk where pip would put it,
    and the units copied with their /opt paths pointing into that root (so verify finds the programs)."""
    root = tmp_path / "root"
    install(root, "--network", "--hardware-watchdog")
    stub = root / APP.lstrip("/") / "venv" / "bin" / "referee-kiosk"
    stub.parent.mkdir(parents=True)
    stub.write_text("#!/bin/sh\nexit 0\n")
    stub.chmod(0o755)
    units = tmp_path / "units"
    (units / "referee-kiosk.service.d").mkdir(parents=True)
    system = root / "etc" / "systemd" / "system"
    for name in (*UNITS, "referee-kiosk.service.d/network.conf"):
        text = (system / name).read_text().replace(APP, str(root) + APP)
        (units / name).write_text(text)
    return root, units


# --- systemd-analyze


def verify(units: Path, *names: str) -> subprocess.CompletedProcess:
    return subprocess.run([tool("systemd-analyze"), "verify", *names], cwd=units, capture_output=True, text=True,
                          timeout=60)


def test_units_verify_without_any_message(installed):
    _, units = installed
    result = verify(units, *UNITS)
    assert result.returncode == 0 and result.stderr == "", result.stderr


def test_verify_check_catches_a_typo_and_a_missing_program(installed, tmp_path):
    _, units = installed
    text = (units / "referee-kiosk.service").read_text()
    (units / "referee-kiosk.service").write_text(text.replace("WatchdogSec=", "WatchdogSecs="))
    typo = verify(units, "referee-kiosk.service")
    assert "WatchdogSecs" in typo.stderr  # exit status may still be 0: the test looks at stderr
    (units / "referee-kiosk.service").write_text(text.replace("venv/bin/referee-kiosk", "venv/bin/nothing"))
    assert "not executable" in verify(units, "referee-kiosk.service").stderr


def exposure(units: Path, name: str) -> float:
    result = subprocess.run([tool("systemd-analyze"), "security", "--offline=yes", name], cwd=units,
                            capture_output=True, text=True, timeout=60)
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    assert match, result.stdout + result.stderr
    return float(match.group(1))


def test_security_exposure_is_ok_with_and_without_the_network_drop_in(installed):
    _, units = installed
    with_network = exposure(units, "referee-kiosk.service")
    shutil.rmtree(units / "referee-kiosk.service.d")
    without = exposure(units, "referee-kiosk.service")
    assert without < 1.5  # 1.0 "OK" when written
    assert without < with_network < 2.0  # the drop-in was read, and it only opens IP to private networks
    assert exposure(units, "referee-kiosk-failed.service") < 2.0


def test_the_kiosk_unit_runs_sandboxed_with_exactly_its_devices():
    text = (SYSTEMD / "referee-kiosk.service").read_text()
    for key, value in {"User": "referee", "Type": "notify", "Restart": "always", "NoNewPrivileges": "yes",
                       "CapabilityBoundingSet": "", "ProtectSystem": "strict", "ProtectHome": "yes",
                       "PrivateTmp": "yes", "DevicePolicy": "closed", "RestrictAddressFamilies": "AF_UNIX AF_NETLINK",
                       "IPAddressDeny": "any", "WorkingDirectory": "/run/tabletop-referee",
                       "RuntimeDirectory": "tabletop-referee", "StateDirectory": "tabletop-referee"}.items():
        assert unit_values(text, key) == [value], key
    assert sorted(unit_values(text, "DeviceAllow")) == sorted(
        f"char-{d} rw" for d in ("gpiochip", "ttyACM", "ttyUSB", "drm", "input"))
    assert unit_values(text, "MemoryMax") and unit_values(text, "StartLimitBurst")
    # Options systemd 252 (Bookworm) does not know must not appear (verify would only warn on them).
    assert not unit_values(text, "RestartSteps") and not unit_values(text, "RestartMaxDelaySec")


def test_exec_lines_are_what_the_kiosk_parses():
    text = (SYSTEMD / "referee-kiosk.service").read_text()
    [start] = unit_values(text, "ExecStart")
    argv = shlex.split(start)
    assert argv[0] == f"{APP}/venv/bin/referee-kiosk"
    args = build_parser().parse_args(argv[1:])
    assert args.kiosk and str(args.config) == "/etc/tabletop-referee/table.toml"
    assert str(args.data_dir) == "/var/lib/tabletop-referee" == "/var/lib/" + unit_values(text, "StateDirectory")[0]
    [pre] = unit_values(text, "ExecStartPre")
    assert str(build_parser().parse_args(shlex.split(pre)[1:]).check_config) == "/etc/tabletop-referee/table.toml"


def test_watchdog_interval_and_exit_statuses_match_the_kiosk():
    text = (SYSTEMD / "referee-kiosk.service").read_text()
    [watchdog] = unit_values(text, "WatchdogSec")
    notifier = Notifier({"NOTIFY_SOCKET": "", "WATCHDOG_USEC": str(int(watchdog) * 1_000_000)})
    assert notifier.interval == int(watchdog) / 2
    assert unit_values(text, "SuccessExitStatus") == [f"{EXIT_RESTART} {EXIT_SHUTDOWN}"]
    assert unit_values(text, "RestartPreventExitStatus") == [str(EXIT_SHUTDOWN)]
    assert unit_values(text, "ExecStopPost") == [f"+{APP}/libexec/kiosk-stopped"]


# --- the helpers the units run


@pytest.fixture
def fake_systemctl(tmp_path):
    """A `systemctl` first on PATH that records its arguments."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    calls = tmp_path / "calls"
    script = bindir / "systemctl"
    script.write_text(f'#!/bin/sh\necho "$*" >> {calls}\n')
    script.chmod(0o755)
    return bindir, calls


@pytest.mark.parametrize(("code", "status", "powers_off"), [
    ("exited", "4", True), ("exited", "3", False), ("exited", "0", False), ("exited", "1", False),
    ("killed", "4", False), ("dumped", "ABRT", False), ("", "", False)])
def test_only_the_kiosks_exit_status_4_powers_off(fake_systemctl, code, status, powers_off):
    bindir, calls = fake_systemctl
    env = {"PATH": f"{bindir}:/usr/bin:/bin", "EXIT_CODE": code, "EXIT_STATUS": status}
    result = subprocess.run([str(SYSTEMD / "libexec" / "kiosk-stopped")], env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert (calls.read_text() if calls.exists() else "") == ("--no-block poweroff\n" if powers_off else "")


def test_the_failure_helper_shows_the_journal_then_starts_the_kiosk_again(fake_systemctl, tmp_path):
    bindir, calls = fake_systemctl
    journal = bindir / "journalctl"
    journal.write_text("#!/bin/sh\necho 'table.toml:12: pin 5 used twice'\n")
    journal.chmod(0o755)
    env = {"PATH": f"{bindir}:/usr/bin:/bin", "RETRY_AFTER_S": "0"}
    result = subprocess.run([str(SYSTEMD / "libexec" / "kiosk-failed")], env=env, capture_output=True, text=True,
                            timeout=30)
    assert result.returncode == 0, result.stderr
    assert "pin 5 used twice" in result.stdout and "--check-config" in result.stdout
    assert calls.read_text().splitlines()[-2:] == ["reset-failed referee-kiosk.service",
                                                  "--no-block start referee-kiosk.service"]


# --- shellcheck


def test_shell_scripts_are_shellcheck_clean():
    scripts = [INSTALL, ROOT / "scripts" / "install-lib.sh", ROOT / "scripts" / "pi-emulate.sh",
               ROOT / "scripts" / "test.sh", ROOT / "scripts" / "cafe-broker.sh",
               *sorted((SYSTEMD / "libexec").iterdir())]
    result = subprocess.run([tool("shellcheck"), "-x", *map(str, scripts)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


# --- install-pi.sh in a throwaway root

EXPECTED = {
    "/etc/systemd/system/referee-kiosk.service": "0o644",
    "/etc/systemd/system/referee-kiosk-failed.service": "0o644",
    "/etc/udev/rules.d/70-tabletop-referee.rules": "0o644",
    "/etc/tabletop-referee/table.toml": "0o640",
    "/var/lib/tabletop-referee": "0o750",
    f"{APP}/libexec/kiosk-stopped": "0o755",
    f"{APP}/libexec/kiosk-failed": "0o755",
    f"{APP}/docs/pi-setup.md": "0o644",
    f"{APP}/share/table.example.toml": "0o644",
}
OPTIONAL = {
    "/etc/systemd/system/referee-kiosk.service.d/network.conf": "0o644",
    "/etc/systemd/system.conf.d/tabletop-referee-watchdog.conf": "0o644",
}


def test_install_puts_every_file_in_place_and_changes_nothing_on_the_machine(tmp_path):
    result = install(tmp_path, "--network", "--hardware-watchdog")
    files = tree(tmp_path)
    for path, mode in {**EXPECTED, **OPTIONAL}.items():
        assert files[path][0] == mode, path
    example = (ROOT / "config/table.example.toml").read_bytes()
    assert (tmp_path / "etc/tabletop-referee/table.toml").read_bytes() == example
    assert (tmp_path / "etc/systemd/system/referee-kiosk.service").read_bytes() == (
        SYSTEMD / "referee-kiosk.service").read_bytes()
    commands = skipped(result)
    assert ["usermod", "--groups", GROUPS, "referee"] in commands
    assert any(c[:2] == ["useradd", "--system"] and c[-1] == "referee" and "/usr/sbin/nologin" in c for c in commands)
    assert ["python3", "-m", "venv", "--system-site-packages", f"{APP}/venv"] in commands
    [pip] = [c for c in commands if c[:2] == ["env", "PYPI=1"]]
    assert pip[:7] == ["env", "PYPI=1", f"{APP}/venv/bin/python", "-m", "pip", "install", "--upgrade"]
    assert pip[-1].endswith("[pi,hid,camera]")
    assert ["systemctl", "enable", "referee-kiosk.service"] in commands
    # Every command that would touch the machine was skipped, none was run.
    assert {c[0] for c in commands} <= {"apt-get", "env", "groupadd", "useradd", "usermod", "python3",
                                         f"{APP}/venv/bin/python", "chown", "udevadm", "systemctl"}


def test_pip_builds_from_a_copy_outside_the_users_clone_and_removes_it(tmp_path):
    """pip builds in the tree it is given (build/, *.egg-info): as root, in the user's clone, that left
    root's files there. It gets a copy in TMPDIR instead, without .git or .venv, gone afterwards."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    result = install(tmp_path / "root", tmpdir=tmp)
    [pip] = [c for c in skipped(result) if c[:2] == ["env", "PYPI=1"]]
    target = Path(pip[-1].removesuffix("[pi,hid,camera]"))
    assert target.parent == tmp and not target.is_relative_to(ROOT)
    assert not any(tmp.iterdir())  # removed after the install


def test_source_copy_leaves_out_version_control_venvs_and_build_output(tmp_path):
    tree_ = tmp_path / "clone"
    for name in ("pyproject.toml", "kiosk/app.py", ".git/HEAD", ".venv/bin/python", "build/lib/x.py",
                 "tabletop_referee.egg-info/PKG-INFO", "kiosk/__pycache__/app.pyc"):
        (tree_ / name).parent.mkdir(parents=True, exist_ok=True)
        (tree_ / name).write_text(name)
    (tmp_path / "tmp").mkdir()
    script = f'PROG=t; . {ROOT}/scripts/install-lib.sh; source_copy {tree_}'
    result = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=30,
                            env={**os.environ, "TMPDIR": str(tmp_path / "tmp")})
    assert result.returncode == 0, result.stderr
    copy = Path(result.stdout.strip())
    assert copy.parent == tmp_path / "tmp"
    assert sorted(str(p.relative_to(copy)) for p in copy.rglob("*") if p.is_file()) == [
        "kiosk/app.py", "pyproject.toml"]


def test_a_long_build_is_never_silent():
    """pip is not --quiet, and while it runs the installer says every PROGRESS_S seconds that it still
    does, then passes on the command's exit status."""
    text = INSTALL.read_text()
    assert re.search(r"progress \"pip install\" sys env PYPI=1 .* -m pip install --upgrade", text)
    script = f'PROG=install-pi.sh; . {ROOT}/scripts/install-lib.sh; progress build sh -c "sleep 3.5; exit 7"'
    result = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=30,
                            env={**os.environ, "PROGRESS_S": "1"})
    assert result.returncode == 7
    lines = result.stdout.splitlines()
    assert len(lines) >= 2 and all(re.fullmatch(r"install-pi.sh: build: still running after \d+ s", x)
                                   for x in lines), lines



def test_the_desktop_is_said_to_stop_only_where_a_display_manager_is_enabled(tmp_path):
    """On a root without a desktop `systemctl get-default` reads graphical.target too: only an enabled display
    manager (Pi OS Desktop's lightdm) means a desktop starts at boot, and only then does the installer say that
    it no longer will."""
    system = tmp_path / "etc" / "systemd" / "system"
    system.mkdir(parents=True)
    check = f'PROG=install-pi.sh; . {ROOT}/scripts/install-lib.sh; desktop_installed "$1"'
    assert subprocess.run(["bash", "-c", check, "_", str(tmp_path)]).returncode == 1, "no desktop: graphical alone"
    (system / "display-manager.service").symlink_to("/lib/systemd/system/lightdm.service")  # dangling here
    assert subprocess.run(["bash", "-c", check, "_", str(tmp_path)]).returncode == 0
    text = INSTALL.read_text()
    assert text.index("if desktop_installed /") < text.index("the desktop no longer starts at boot")


def test_the_reminder_leaves_nothing_behind_that_holds_the_installers_output():
    """Once the command ends, the reminder ends with its sleep: a sleep left running kept the installer's
    output open for up to PROGRESS_S seconds after it finished (every DESTDIR install in the tests waited
    30 s for it, and a caller reading the output to its end waits as long)."""
    script = f'PROG=install-pi.sh; . {ROOT}/scripts/install-lib.sh; progress build sleep 0.5'
    result = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60,
                            env={**os.environ, "PROGRESS_S": "600"})
    assert result.returncode == 0 and result.stdout == ""

CHROOT_SKIPS = [["udevadm", "control", "--reload"],
                ["udevadm", "trigger", "--subsystem-match=tty", "--subsystem-match=input", "--subsystem-match=gpio"],
                ["systemctl", "daemon-reload"], ["systemctl", "restart", "referee-kiosk.service"]]


def no_systemd(result: subprocess.CompletedProcess) -> list[list[str]]:
    prefix = "skipped (no running systemd, e.g. a chroot):"
    return [shlex.split(line[len(prefix):]) for line in result.stdout.splitlines() if line.startswith(prefix)]


def test_in_a_chroot_the_kiosk_is_enabled_and_what_needs_systemd_is_skipped_with_a_line(tmp_path):
    """An image builder (pi-gen, sdm) runs the installer in a chroot: no systemd as PID 1, so
    `systemctl is-system-running` says "offline". `enable` works offline; udevadm, daemon-reload and
    restart would fail, and are skipped with a line each."""
    result = install(tmp_path, systemd="offline")
    assert no_systemd(result) == CHROOT_SKIPS
    assert ["systemctl", "enable", "referee-kiosk.service"] in skipped(result)
    assert not any(c[0] == "udevadm" or c[1:2] in (["daemon-reload"], ["restart"]) for c in skipped(result))
    assert result.stdout.rstrip().splitlines()[-2].endswith("kiosk enabled: it starts at the next boot (sudo reboot)")
    uninstall = install(tmp_path, "--uninstall", systemd="offline")
    assert no_systemd(uninstall) == [["systemctl", "daemon-reload"], ["udevadm", "control", "--reload"]]


def test_on_a_booted_pi_the_installer_reloads_and_restarts(tmp_path):
    result = install(tmp_path, systemd="degraded")  # a failed unit elsewhere: systemd still runs
    assert no_systemd(result) == []
    assert all(c in skipped(result) for c in CHROOT_SKIPS)
    assert skipped(result).index(["systemctl", "enable", "referee-kiosk.service"]) < skipped(result).index(
        ["systemctl", "restart", "referee-kiosk.service"])


RUNTIME = {"python3-venv", "python3-pip", "fonts-dejavu-core", "libgbm1", "libegl1", "libgles2", "gcc", "python3-dev",
           "linux-libc-dev"}
# pygame-ce's source build (no armv7l wheel): SDL2's development packages, and portmidi's (its `midi`
# option is on by default; without it the build stops: "C shared or static library 'portmidi' not found").
SDL_BUILD = {"pkg-config", "libsdl2-dev", "libsdl2-ttf-dev", "libsdl2-image-dev", "libsdl2-mixer-dev",
             "libfreetype-dev", "libportmidi-dev"}
# The `camera` extra's source builds (no armv7l wheels): zxing-cpp (CMake, g++) and Pillow (libjpeg, zlib).
CAMERA_BUILD = {"cmake", "g++", "libjpeg-dev", "zlib1g-dev"}
# The face reader's OpenCV and numpy: no armv7l wheels, Debian's through --system-site-packages (issue #38).
FACE_READER = {"python3-opencv", "python3-numpy"}
ARMHF_BUILD = SDL_BUILD | CAMERA_BUILD | FACE_READER


def apt_packages(commands: list[list[str]]) -> set[str]:
    [apt] = [c for c in commands if "apt-get" in c and "install" in c]
    return {word for word in apt[apt.index("--no-install-recommends") + 1:]}


@pytest.mark.parametrize(("codename", "arch", "cpu", "extra"), [
    ("bookworm", "arm64", "aarch64", set()),               # every wheel there but evdev's
    ("trixie", "arm64", "aarch64", {"swig"}),              # cp313: lgpio builds from its sdist
    ("bookworm", "armhf", "armv7l", ARMHF_BUILD),          # no pygame-ce wheel for armv7l
    ("trixie", "armhf", "armv7l", ARMHF_BUILD | {"swig"}),
    # A Pi 4, 400 or 5 under 32-bit Pi OS boots a 64-bit kernel: the userland decides, not `uname -m`.
    ("bookworm", "armhf", "aarch64", ARMHF_BUILD),
    ("trixie", "armhf", "aarch64", ARMHF_BUILD | {"swig"}),
    ("bookworm", "amd64", "x86_64", set()),                # a test PC
])
def test_each_supported_platform_gets_the_packages_its_wheels_need(tmp_path, codename, arch, cpu, extra):
    result = install(tmp_path, codename=codename, arch=arch, cpu=cpu)
    assert f"install-pi.sh: platform: {codename} {arch} (kernel: {cpu})" in result.stdout
    commands = skipped(result)
    assert apt_packages(commands) == RUNTIME | {"python3-picamera2"} | extra


@pytest.mark.parametrize(("codename", "arch"), [("bookworm", "arm64"), ("trixie", "armhf"), ("bookworm", "amd64")])
def test_the_pi_camera_comes_from_pi_os_and_the_venv_sees_it(tmp_path, codename, arch):
    """picamera2 needs libcamera's Python bindings, which are not on PyPI: Pi OS's python3-picamera2 (apt),
    seen by a venv made with --system-site-packages; the `camera` extra brings zxing-cpp and Pillow."""
    result = install(tmp_path, codename=codename, arch=arch, cpu="aarch64" if arch != "amd64" else "x86_64")
    commands = skipped(result)
    assert "python3-picamera2" in apt_packages(commands)
    venv = [c for c in commands if c[:3] == ["python3", "-m", "venv"]]
    assert venv == [["python3", "-m", "venv", "--system-site-packages", f"{APP}/venv"]]
    [pip] = [c for c in commands if c[:2] == ["env", "PYPI=1"]]
    assert pip[-1].endswith("[pi,hid,camera]")


def test_without_pi_os_package_lists_the_install_goes_on_without_the_pi_camera(tmp_path):
    """Plain Debian (a test PC, an emulated root) has no python3-picamera2: apt is not asked for it (it would
    stop the whole install), and the installer says what that means."""
    result = install(tmp_path, codename="bookworm", arch="arm64", lists="no-such-package")
    assert apt_packages(skipped(result)) == RUNTIME
    assert "python3-picamera2 is not in this system's package lists (Raspberry Pi OS has it)" in result.stdout
    assert 'a USB webcam can ([camera] source = "v4l2")' in result.stdout


@pytest.mark.parametrize(("codename", "arch", "cpu", "reason"), [
    ("bullseye", "arm64", "aarch64", "'bullseye' is not supported: use Bookworm (Debian 12) or Trixie (Debian 13)"),
    ("unknown", "arm64", "aarch64", "'unknown' is not supported"),
    ("bookworm", "armhf", "armv6l", "armv6l (Pi Zero / Zero W / Pi 1) is not supported"),
    ("trixie", "riscv64", "riscv64", "architecture 'riscv64' (dpkg --print-architecture) is not supported"),
    ("bookworm", "armel", "armv7l", "architecture 'armel' (dpkg --print-architecture) is not supported"),
])
def test_an_unsupported_platform_is_refused_before_anything_changes(tmp_path, codename, arch, cpu, reason):
    result = run_install(tmp_path, codename=codename, arch=arch, cpu=cpu)
    assert result.returncode == 1 and reason in result.stderr
    assert not any(tmp_path.iterdir()) and "skipped" not in result.stdout


def test_the_kiosk_install_has_no_labels_extra_and_labels_say_how_to_get_it():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert not any(d.startswith(("reportlab", "pillow")) for d in project["dependencies"])
    # reportlab draws the sheets; zxing-cpp writes the camera labels' DataMatrix symbols (`--camera`)
    assert project["optional-dependencies"]["labels"] == ["reportlab>=4.0", "zxing-cpp>=3.0"]
    assert "[pi,hid,camera]" in INSTALL.read_text() and "[labels]" not in INSTALL.read_text()


def test_version_floors_exclude_the_broken_gpio_releases():
    import tomllib

    from packaging.requirements import Requirement

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = [Requirement(r) for r in project["dependencies"] + project["optional-dependencies"]["pi"]]
    by_name = {r.name: r.specifier for r in reqs}
    assert not by_name["gpiozero"].contains("2.0.1.post2") and by_name["gpiozero"].contains("2.0.1.post3")
    assert not by_name["lgpio"].contains("0.0.0.2") and by_name["lgpio"].contains("0.2.2.0")


def test_install_is_idempotent_and_keeps_an_edited_config(tmp_path):
    install(tmp_path)
    first = tree(tmp_path)
    config = tmp_path / "etc/tabletop-referee/table.toml"
    config.write_text(config.read_text() + '\n[kiosk]\nlanguage = "en"\n')
    edited = tree(tmp_path)
    again = install(tmp_path)
    assert tree(tmp_path) == edited != first
    assert not re.search(r"^install-pi.sh: installed /", again.stdout, re.M)
    assert set(first) == set(EXPECTED) | {p for path in EXPECTED for p in parents(path)}


def parents(path: str) -> list[str]:
    parts = path.strip("/").split("/")
    return ["/" + "/".join(parts[:i]) for i in range(1, len(parts))]


def test_network_and_watchdog_options_are_switched_on_and_off(tmp_path):
    dropin = tmp_path / "etc/systemd/system/referee-kiosk.service.d/network.conf"
    watchdog = tmp_path / "etc/systemd/system.conf.d/tabletop-referee-watchdog.conf"
    install(tmp_path)
    assert not dropin.exists() and not watchdog.exists()
    install(tmp_path, "--network", "--hardware-watchdog")
    assert dropin.exists() and watchdog.exists()
    assert "RuntimeWatchdogSec=15s" in watchdog.read_text()
    install(tmp_path)  # an update without options keeps them
    assert dropin.exists() and watchdog.exists()
    install(tmp_path, "--no-network", "--no-hardware-watchdog")
    assert not dropin.exists() and not dropin.parent.exists() and not watchdog.exists()


def test_uninstall_keeps_config_and_game_logs_and_purge_removes_them(tmp_path):
    install(tmp_path, "--network", "--hardware-watchdog")
    log = tmp_path / "var/lib/tabletop-referee/events.sqlite3"
    log.write_bytes(b"games")
    result = install(tmp_path, "--uninstall")
    files = {path for path, (_, kind) in tree(tmp_path).items() if kind != "dir"}
    assert files == {"/etc/tabletop-referee/table.toml", "/var/lib/tabletop-referee/events.sqlite3"}
    assert ["systemctl", "daemon-reload"] in skipped(result)
    purge = install(tmp_path, "--uninstall", "--purge")
    assert {kind for _, kind in tree(tmp_path).values()} <= {"dir"}
    assert not (tmp_path / "etc/tabletop-referee").exists() and not (tmp_path / "var/lib/tabletop-referee").exists()
    assert ["userdel", "referee"] in skipped(purge)


def test_install_refuses_bad_use(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DESTDIR"}
    bad = subprocess.run([str(INSTALL), "--destdir", str(tmp_path), "--frobnicate"], capture_output=True, text=True,
                         env=env)
    assert bad.returncode == 2 and "unknown option" in bad.stderr
    purge = subprocess.run([str(INSTALL), "--destdir", str(tmp_path), "--purge"], capture_output=True, text=True,
                           env=env)
    assert purge.returncode == 2 and not any(tmp_path.iterdir())
    slash = subprocess.run([str(INSTALL), "--destdir", "/"], capture_output=True, text=True, env=env)
    assert slash.returncode == 2 and "live system" in slash.stderr


# --- scripts/pi-emulate.sh (the emulated install itself is run by hand: docs/pi-setup.md)

EMULATE = ROOT / "scripts" / "pi-emulate.sh"


def test_emulation_without_root_says_skipped_in_one_line_and_exits_0():
    """Where the machine cannot emulate (not root, no binfmt_misc) the script says why in one line and
    exits 0, so that running it never fails a machine that lacks what it needs."""
    as_nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if os.geteuid() == 0 else []
    result = subprocess.run([*as_nobody, str(EMULATE), "trixie", "armhf"], capture_output=True, text=True,
                            timeout=60, cwd="/")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "pi-emulate.sh: skipped: needs root (debootstrap, chroot and mounts)\n"


@pytest.mark.skipif(os.geteuid() != 0, reason="the check comes after the one for root")
def test_emulation_with_boot_asks_for_systemd_nspawn_before_anything_else(tmp_path):
    """`--boot` needs systemd-nspawn at its very end: without it (and with no apt-get that can install it) the
    script says so at once, before twenty minutes of an emulated install."""
    fake = tmp_path / "bin"
    fake.mkdir()
    for tool in ("bash", "id", "sed", "cut", "date", "mkdir", "cat"):
        found = shutil.which(tool)
        if found:
            (fake / tool).symlink_to(found)
    (fake / "apt-get").write_text("#!/bin/sh\nexit 100\n")
    (fake / "apt-get").chmod(0o755)
    result = subprocess.run(["/usr/bin/env", f"PATH={fake}", "bash", str(EMULATE), "trixie", "armhf", "--boot"],
                            capture_output=True, text=True, timeout=60, cwd="/")
    assert result.returncode == 0, result.stderr
    assert result.stdout == ("pi-emulate.sh: skipped: --boot needs systemd-nspawn, and apt-get cannot install "
                             "systemd-container\n")


def test_emulation_refuses_an_unknown_release_or_architecture():
    result = subprocess.run([str(EMULATE), "bullseye"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "unknown argument bullseye" in result.stderr
    assert "pi-emulate.sh" not in (ROOT / "scripts" / "test.sh").read_text()  # never part of CI's run
