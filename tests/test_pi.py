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
from pathlib import Path

import pytest

from kiosk.__main__ import build_parser
from kiosk.commands import EXIT_RESTART, EXIT_SHUTDOWN
from kiosk.notify import Notifier

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


def install(destdir: Path, *args: str, machine: str = "aarch64", codename: str = "bookworm"
            ) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "DESTDIR"}
    env["INSTALL_MACHINE"] = machine
    env["INSTALL_CODENAME"] = codename
    result = subprocess.run([str(INSTALL), "--destdir", str(destdir), *args], capture_output=True, text=True,
                            env=env, timeout=60)
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
    scripts = [INSTALL, ROOT / "scripts" / "install-lib.sh", ROOT / "scripts" / "test.sh",
               ROOT / "scripts" / "cafe-broker.sh",
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
    assert ["python3", "-m", "venv", f"{APP}/venv"] in commands
    assert ["env", "PYPI=1", f"{APP}/venv/bin/python", "-m", "pip", "install", "--quiet", "--upgrade",
            f"{ROOT}[pi,hid]"] in commands
    assert ["systemctl", "enable", "referee-kiosk.service"] in commands
    # Every command that would touch the machine was skipped, none was run.
    assert {c[0] for c in commands} <= {"apt-get", "env", "groupadd", "useradd", "usermod", "python3",
                                         f"{APP}/venv/bin/python", "chown", "udevadm", "systemctl"}


RUNTIME = {"python3-venv", "python3-pip", "fonts-dejavu-core", "libgbm1", "libegl1", "libgles2", "gcc", "python3-dev",
           "linux-libc-dev"}
SDL_BUILD = {"pkg-config", "libsdl2-dev", "libsdl2-ttf-dev", "libsdl2-image-dev", "libsdl2-mixer-dev",
             "libfreetype-dev"}


def apt_packages(commands: list[list[str]]) -> set[str]:
    [apt] = [c for c in commands if "apt-get" in c and "install" in c]
    return {word for word in apt[apt.index("--no-install-recommends") + 1:]}


@pytest.mark.parametrize(("codename", "machine", "extra"), [
    ("bookworm", "aarch64", set()),                  # every wheel there but evdev's
    ("trixie", "aarch64", {"swig"}),                  # cp313: lgpio builds from its sdist
    ("bookworm", "armv7l", SDL_BUILD),               # no pygame-ce wheel for armv7l
    ("trixie", "armv7l", SDL_BUILD | {"swig"}),
])
def test_each_supported_platform_gets_the_packages_its_wheels_need(tmp_path, codename, machine, extra):
    result = install(tmp_path, codename=codename, machine=machine)
    assert f"install-pi.sh: platform: {codename} on {machine}" in result.stdout
    commands = skipped(result)
    assert apt_packages(commands) == RUNTIME | extra
    assert ["python3", "-m", "venv", f"{APP}/venv"] in commands  # a clean venv, no system site-packages


@pytest.mark.parametrize(("codename", "machine", "reason"), [
    ("bullseye", "aarch64", "'bullseye' is not supported: use Bookworm (Debian 12) or Trixie (Debian 13)"),
    ("unknown", "aarch64", "'unknown' is not supported"),
    ("bookworm", "armv6l", "armv6l (Pi Zero / Zero W / Pi 1) is not supported"),
    ("trixie", "riscv64", "CPU 'riscv64' is not supported"),
])
def test_an_unsupported_platform_is_refused_before_anything_changes(tmp_path, codename, machine, reason):
    env = {k: v for k, v in os.environ.items() if k != "DESTDIR"}
    env.update(INSTALL_CODENAME=codename, INSTALL_MACHINE=machine)
    result = subprocess.run([str(INSTALL), "--destdir", str(tmp_path)], capture_output=True, text=True, env=env,
                            timeout=60)
    assert result.returncode == 1 and reason in result.stderr
    assert not any(tmp_path.iterdir()) and "skipped" not in result.stdout


def test_the_kiosk_install_has_no_labels_extra_and_labels_say_how_to_get_it():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert not any(d.startswith(("reportlab", "pillow")) for d in project["dependencies"])
    # reportlab draws the sheets; zxing-cpp writes the camera labels' DataMatrix symbols (`--camera`)
    assert project["optional-dependencies"]["labels"] == ["reportlab>=4.0", "zxing-cpp>=3.0"]
    assert "[pi,hid]" in INSTALL.read_text() and "[labels]" not in INSTALL.read_text()


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
